"""At one table no two seats show the same name.

The name a seat *shows* is the one the pages, the account and the standings put beside
it: a person's who sits there; a computer player's without its level (``"Daeng
(basic)"`` shows ``Daeng``: the standings show it so); none for a person's seat nobody
has taken (the page says "open seat"). Two names are the same when their
:func:`~domeng.engine.seatname.name_key` is: case, spaces and compatible forms aside
(``daeng``, ``" DAENG "`` and ``Daeng`` are one name; ``Daeng R.`` is another).

- A person who takes a seat with a name another seat of the table shows is refused
  (``409 same_name``, :func:`refuse_taken`) and chooses another name.
- ``POST /api/tables`` refuses two persons, or a computer player it names, with the
  same name (``422 same_name``, :func:`~.bodies.check_new_names`).
- A computer player named by default (its seat's :data:`~.seats.DEFAULT_NAMES`) whose
  name another seat shows is given the first default name nobody shows
  (:func:`default_names`), at creation and when the host puts a computer player in a
  person's seat: five names for five seats, so one is always free.
- The name at a seat is the seat's, not the profile's nor the club member's: a profile
  or a member named like a computer player at that table sits under another name
  there; their rounds count for them all the same.

A tournament's tables are made by the service, with nobody there to choose another
name: its entrants' names are kept apart when they enter (``same_name``,
:mod:`.tournaments`), and a computer it names itself (``Computer N``) takes a number
nobody shows.
"""

from __future__ import annotations

from collections.abc import Sequence

from domeng.engine.seatname import name_key
from domeng.storage import StoredSeat

from .errors import TableError
from .seats import DEFAULT_NAMES


def shown(kind: str, level: str | None, name: str) -> str:
    """The name a seat of ``kind`` named ``name`` shows: a computer player's without its
    level's brackets (as the page's ``seatName`` shows it in the standings)."""
    suffix = f" ({level})"
    if kind == "computer" and level and name.endswith(suffix):
        return name[: -len(suffix)]
    return name


def shown_name(seat: StoredSeat) -> str | None:
    """The name ``seat`` shows at its table; None for a person's seat nobody has taken."""
    if seat.kind == "person" and seat.token_hash is None:
        return None
    return shown(seat.kind, seat.level, seat.name)


def first_same(names: Sequence[str | None]) -> tuple[int, int] | None:
    """The first two seats (earlier, later) of ``names`` (None: no name) that show the
    same name, or None."""
    seen: dict[str, int] = {}
    for n, name in enumerate(names):
        if name is None:
            continue
        key = name_key(name)
        if key in seen:
            return seen[key], n
        seen[key] = n
    return None


def shown_by(seats: Sequence[StoredSeat], name: str, *, but: int) -> int | None:
    """The seat other than ``but`` that shows ``name`` at a table of ``seats``, or None."""
    key = name_key(name)
    for n, s in enumerate(seats):
        other = shown_name(s)
        if n != but and other is not None and name_key(other) == key:
            return n
    return None


def refuse_taken(seats: Sequence[StoredSeat], seat: int, name: str) -> None:
    """A person sitting at ``seat`` with ``name``: ``409 same_name`` when another seat of
    the table shows that name already."""
    other = shown_by(seats, name, but=seat)
    if other is not None:
        shows = shown_name(seats[other])
        message = f"seat {other} is called {shows!r} already: choose another name"
        raise TableError("same_name", message, 409)


def default_names(names: Sequence[str | None], wanting: Sequence[int]) -> dict[int, str]:
    """The names (without a level) of the computer players of seats ``wanting`` named by
    default, at a table whose seats show ``names`` (None: no name; the names of the seats
    ``wanting`` are not counted: they are given new ones): its seat's default name,
    unless another seat shows it; then the first default name that no seat shows."""
    used = {name_key(x) for n, x in enumerate(names) if x is not None and n not in wanting}
    given = {n: DEFAULT_NAMES[n] for n in wanting if name_key(DEFAULT_NAMES[n]) not in used}
    used |= {name_key(x) for x in given.values()}
    for n in wanting:
        if n not in given:  # at most four other seats: one of the five names is free
            given[n] = next(x for x in DEFAULT_NAMES if name_key(x) not in used)
            used.add(name_key(given[n]))
    return given
