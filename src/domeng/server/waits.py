"""What a table waits for between moves, each wait with a deadline that everyone sees.

A table never waits for ever on one person (issue: an idle friend stalled the table):

- **Ready.** After a round, each person says ``ready``. The next round starts once
  they all have, or at the wait's deadline (:func:`ready_seconds`: the turn clock's
  time, at least :data:`MIN_READY_SECONDS`, else :data:`READY_SECONDS`), without
  whoever is not ready: the stand-in plays their seat until they are back
  (``ready`` or ``back``). The host may start the next round at once (``next_round``).
  A person alone at a table of computer players holds nobody up, so their next round
  waits for them, however long they read its summary (:func:`ready_has_deadline`),
  except at a tournament's table, whose round the other tables wait for.
- **Seats never taken.** A new table deals once every person's seat is taken; while
  someone sits and an invited or open seat is still empty, the wait lasts
  :data:`SEAT_SECONDS`, after which the game starts with a computer player in each
  empty seat (the seat stays open: whoever takes it later sits from the next round).
  The host may start at once (``start``) or wait longer (``wait``).

- **Away.** During a round, a person with no connection is counted away
  (``replace_after_ms``, time away from play added up): their seat's ``away`` says
  when the stand-in takes it over (:func:`away_json`), for everyone to see.

The wait is the table's ``waiting_for`` (``{"kind", "seats", "deadline",
"seconds"}``, or null): what it waits for, who, and until when. Like the turn clock
it lives in memory: after a restart the wait starts again, whole.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .clock import Clock, Timer
from .documents import AwayDoc, WaitDoc

if TYPE_CHECKING:
    from .tables import Table

READY_SECONDS = 60
"""How long the next round waits for the people's ``ready`` at a table with no clock."""
MIN_READY_SECONDS = 15
"""The shortest wait for ``ready`` (time to read the round's summary)."""
SEAT_SECONDS = 300
"""How long a new table waits for a seat nobody has taken, while someone sits."""

WaitKind = Literal["ready", "seats"]


def ready_seconds(t: Table) -> int:
    """How long ``t``'s next round waits for the people's ``ready``."""
    clock = t.settings.turn_seconds
    return READY_SECONDS if clock is None else max(MIN_READY_SECONDS, clock)


@dataclass(slots=True)
class Wait:
    kind: WaitKind
    key: int
    """The round after which it waits (``ready``), or 0 (``seats``)."""
    deadline: float
    """The clock's time."""
    seconds: float
    """The wait's whole length."""
    wall: float
    """The deadline as a Unix time."""
    timer: Timer


class Waits:
    """A table's wait; ``on_over(table, kind)`` is called when a wait's time is up."""

    def __init__(self, clock: Clock, on_over: Callable[[Table, WaitKind], None]) -> None:
        self.clock = clock
        self.on_over = on_over
        self._waits: dict[str, Table] = {}
        """The tables that wait (each holds its :class:`Wait` as ``t.wait``)."""

    def wait(self, t: Table, kind: WaitKind, seconds: float, key: int = 0) -> None:
        """``t`` waits for ``kind`` (after round ``key``): for ``seconds`` from now, or
        on, when it already does."""
        w = t.wait
        if w is not None and w.kind == kind and w.key == key:
            return
        self.stop(t)
        self._start(t, kind, key, seconds)

    def longer(self, t: Table, seconds: float) -> bool:
        """``t``'s wait lasts ``seconds`` from now (the host's ``wait``); False when it
        waits for nothing."""
        w = t.wait
        if w is None:
            return False
        self.stop(t)
        self._start(t, w.kind, w.key, seconds)
        return True

    def _start(self, t: Table, kind: WaitKind, key: int, seconds: float) -> None:
        deadline = self.clock.now() + seconds

        def over() -> None:
            w = t.wait
            if w is not None and w.timer is timer:
                self.stop(t)
                self.on_over(t, kind)

        timer = self.clock.call_at(deadline, over)
        t.wait = Wait(kind, key, deadline, seconds, self.clock.wall() + seconds, timer)
        self._waits[t.id] = t

    def stop(self, t: Table) -> None:
        """``t`` waits for nothing (any more)."""
        w = t.wait
        t.wait = None
        self._waits.pop(t.id, None)
        if w is not None:
            w.timer.cancel()

    def close(self) -> None:
        for t in list(self._waits.values()):
            self.stop(t)


def wait_json(t: Table) -> WaitDoc | None:
    """What ``t`` waits for, as its ``waiting_for``: the same in every message for as
    long as the wait lasts (its time is a deadline, not a time left)."""
    w = t.wait
    if w is None:
        return None
    return {
        "kind": w.kind,
        "seats": ready_waits(t) if w.kind == "ready" else empty_seats(t),
        "deadline": round(w.wall, 3),
        "seconds": round(w.seconds),
    }


def ready_waits(t: Table) -> list[int]:
    """The people the next round waits for: those who sit, are not ready, and whom no
    computer plays for (a seat nobody sits in waits for nobody)."""
    number = len(t.game.rounds)
    return [
        n
        for n, s in enumerate(t.seats)
        if s.stored.kind == "person"
        and s.stored.token_hash is not None
        and s.stored.ready < number
        and t.computer_level(n) is None
    ]


def waits_for_ready(t: Table) -> bool:
    """Whether ``t`` is between rounds and its next round waits for someone's ``ready``
    (with a deadline or, a person alone at it, without)."""
    return t.started and not t.finished and t.game.round.finished and bool(ready_waits(t))


def ready_has_deadline(t: Table) -> bool:
    """Whether the wait for ``ready`` ends at a deadline: when going on without whoever is
    not ready spares someone a wait, another person who sits at the table, or the
    tournament the table plays for."""
    if t.settings.tournament is not None:
        return True
    people = sum(s.stored.kind == "person" and s.stored.token_hash is not None for s in t.seats)
    return people > 1


def empty_seats(t: Table) -> list[int]:
    """The people's seats nobody has taken yet."""
    return [
        n
        for n, s in enumerate(t.seats)
        if s.stored.kind == "person" and s.stored.token_hash is None
    ]


def away_json(t: Table, seat: int, now: float) -> AwayDoc | None:
    """When the stand-in takes over ``seat``, whose person is away during a round (None
    when they are here, when it plays for them already, or when nothing would)."""
    s = t.seats[seat]
    after = t.settings.replace_after_ms
    if (
        after is None
        or t.settings.stand_in is None
        or s.connections
        or s.stored.kind != "person"
        or s.stored.token_hash is None
        or not t.in_round
        or t.waiting(seat)
        or t.computer_level(seat, now) is not None
    ):
        return None
    until = t.away_until(seat)
    if s.away_shown[0] != until:  # a new absence: its deadline told as a Unix time, once
        s.away_shown = (until, round(t.clock.wall() + (until - now), 3))
    return {"deadline": s.away_shown[1], "seconds": round(after / 1000)}
