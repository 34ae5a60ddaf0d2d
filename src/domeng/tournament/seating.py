"""Seating a club tournament, by hand: five to a table, and reseated between rounds so
that everyone meets as many different opponents as possible.

- **Tables.** ``n`` entrants sit at ``ceil(n / 5)`` tables; when ``n`` is not a
  multiple of five the empty places (``None`` here) are all at the last table, and the
  tournament puts computer players in them.
- **The first round** seats the entrants in the order they were entered, five by five.
- **Every later round** is made in two steps, both deterministic:

  1. *Greedy.* The entrants who have met the most people go first; each goes to
     the table (with room) where they have already met the fewest of those seated
     (ties: the emptiest table, then the first).
  2. *Swaps.* Any two entrants at different tables change places when that lowers
     the number of pairs who meet again; repeated until no swap helps.

  What is made smaller is the *repeats*: over every table, the number of pairs seated
  together who have already met, each counted as many times as they have met.
- **Seat numbers.** At each table the order is turned by the round's number, so that
  an entrant does not keep the same seat number round after round.

>>> seat(["a", "b", "c", "d", "e", "f", "g"], {}, 1)
[['a', 'b', 'c', 'd', 'e'], ['f', 'g', None, None, None]]
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from itertools import combinations

SEATS = 5
MAX_PASSES = 50
"""A bound on the swap passes (each one lowers the repeats, so few are ever needed)."""

Met = Mapping[frozenset[str], int]
"""How many times each pair of entrants has sat at one table."""


def tables_for(n: int) -> int:
    """How many tables ``n`` entrants need.

    >>> tables_for(10), tables_for(11), tables_for(15), tables_for(1)
    (2, 3, 3, 1)
    """
    if n < 1:
        raise ValueError("a tournament needs at least one entrant")
    return -(-n // SEATS)


def meetings(tables: Iterable[Sequence[str | None]]) -> dict[frozenset[str], int]:
    """Who met whom at these tables (empty places left out)."""
    met: dict[frozenset[str], int] = {}
    for table in tables:
        for a, b in combinations([k for k in table if k is not None], 2):
            pair = frozenset((a, b))
            met[pair] = met.get(pair, 0) + 1
    return met


def add_meetings(met: dict[frozenset[str], int], tables: Iterable[Sequence[str | None]]) -> None:
    """Count these tables' meetings into ``met``."""
    for pair, n in meetings(tables).items():
        met[pair] = met.get(pair, 0) + n


def repeats(tables: Iterable[Sequence[str | None]], met: Met) -> int:
    """The pairs seated together who have met before, each as often as they have met.

    >>> repeats([["a", "b", "c"]], {frozenset("ab"): 2, frozenset("cd"): 1})
    2
    """
    return sum(met.get(pair, 0) * n for pair, n in meetings(tables).items())


def _cost(key: str, others: Iterable[str], met: Met) -> int:
    return sum(met.get(frozenset((key, o)), 0) for o in others)


def seat(entrants: Sequence[str], met: Met, round_number: int) -> list[list[str | None]]:
    """The tables of a round: each a list of five, an entrant's key by seat number, or
    None for a place a computer player fills. See the module docstring.

    Two rounds of ten: nobody meets more than the two they cannot avoid.

    >>> ten = [str(n) for n in range(10)]
    >>> first = seat(ten, {}, 1)
    >>> second = seat(ten, meetings(first), 2)
    >>> repeats(second, meetings(first))
    8
    """
    if len(set(entrants)) != len(entrants):
        raise ValueError("an entrant is seated once")
    count = tables_for(len(entrants))
    room = [SEATS] * count
    room[-1] = SEATS - (count * SEATS - len(entrants))
    groups: list[list[str]] = [[] for _ in range(count)]
    if not met:
        at = 0
        for n in range(count):
            groups[n] = list(entrants[at : at + room[n]])
            at += room[n]
    else:
        total = {
            k: sum(met.get(frozenset((k, o)), 0) for o in entrants if o != k) for k in entrants
        }
        order = sorted(entrants, key=lambda k: (-total[k], entrants.index(k)))
        for key in order:
            best = min(
                (n for n in range(count) if len(groups[n]) < room[n]),
                key=lambda n: (_cost(key, groups[n], met), len(groups[n]), n),
            )
            groups[best].append(key)
        _improve(groups, met)
    tables: list[list[str | None]] = []
    for group in groups:
        places: list[str | None] = [*group, *([None] * (SEATS - len(group)))]
        turn = (round_number - 1) % SEATS if group and len(group) == SEATS else 0
        tables.append(places[-turn:] + places[:-turn] if turn else places)
    return tables


def _improve(groups: list[list[str]], met: Met) -> None:
    """Swap entrants between tables while a swap lowers the repeats (first found)."""
    for _ in range(MAX_PASSES):
        changed = False
        for a, b in combinations(range(len(groups)), 2):
            for i, x in enumerate(groups[a]):
                for j, y in enumerate(groups[b]):
                    rest_a = [k for k in groups[a] if k != x]
                    rest_b = [k for k in groups[b] if k != y]
                    now = _cost(x, rest_a, met) + _cost(y, rest_b, met)
                    then = _cost(y, rest_a, met) + _cost(x, rest_b, met)
                    if then < now:
                        groups[a][i], groups[b][j] = y, x
                        changed = True
                        x = y
        if not changed:
            return
