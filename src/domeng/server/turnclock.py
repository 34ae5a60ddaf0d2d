"""The turn clock: how long a person has for each move.

A table created with ``turn_seconds`` gives the person in turn that long. Each
table has its own :class:`TurnClock`: the table arms it whenever it finds a person
in turn (:meth:`TurnClock.arm`) and disarms it when the move is made or the seat
changes hands; when the time runs out the table has a computer make that one move
for the person (:meth:`~domeng.server.tables.Table.time_out`). The deadline is the
table's (``Table.deadline``, on the service's clock), shown to everyone as the table's
``clock``. It lives in memory only: after a restart of the service the person in
turn is given their whole time again.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from .clock import Clock, Timer

if TYPE_CHECKING:
    from .tables import Table


@dataclass(slots=True)
class _Armed:
    state: int
    """The state number the clock runs for."""
    timer: Timer
    rung: Literal["no", "waiting", "taken"] = "no"
    """Whether the time ran out: "waiting" while the table was moving on by itself (a
    computer's move still being stored), so the time-out waits for that to end and is
    not forgotten; "taken" once the table has it (at most once per state)."""


class TurnClock:
    """A table's turn clock; ``on_time_out(table, seat, state)`` is called when the
    person in turn at ``state`` runs out of time, and answers False when the table cannot
    take it yet (it is moving on by itself): the clock then asks again at the next
    :meth:`arm` for that state, which the table makes once it has moved on."""

    def __init__(self, clock: Clock, on_time_out: Callable[[Table, int, int], bool]) -> None:
        self.clock = clock
        self.on_time_out = on_time_out
        self._armed: dict[str, _Armed] = {}
        """Per table id: the clock running for its state."""

    def arm(self, t: Table) -> None:
        """Start the clock for the person in turn at ``t``'s state (once per state: arming
        it again at the same state keeps its deadline, and a time-out that came while the
        table was busy is taken now)."""
        seconds = t.settings.turn_seconds
        seat = t.game.turn if t.started else None
        if seconds is None or seat is None or t.finished:
            self.disarm(t)
            return
        armed = self._armed.get(t.id)
        if armed is not None and armed.state == t.state:
            if armed.rung == "waiting" and self.on_time_out(t, seat, t.state):
                armed.rung = "taken"
            return
        self.disarm(t)
        state = t.state
        t.deadline = self.clock.now() + seconds

        def ring() -> None:
            mine = self._armed.get(t.id)
            if mine is None or mine.state != state:
                return
            if t.state != state or t.game.turn != seat:
                del self._armed[t.id]
            else:
                mine.rung = "taken" if self.on_time_out(t, seat, state) else "waiting"

        self._armed[t.id] = _Armed(state, self.clock.call_at(t.deadline, ring))

    def disarm(self, t: Table) -> None:
        """Stop ``t``'s clock (the move was made, or nobody is to make it now)."""
        armed = self._armed.pop(t.id, None)
        if armed is not None:
            armed.timer.cancel()
        t.deadline = None

    def close(self) -> None:
        for armed in self._armed.values():
            armed.timer.cancel()
        self._armed.clear()
