"""The turn clock: how long a person has for each move.

A table created with ``turn_seconds`` gives the person in turn that long. The
hub arms the clock whenever it finds a person in turn (:meth:`TurnClock.arm`)
and disarms it when the move is made or the seat changes hands; when the time
runs out the hub has a computer make that one move for the person
(:meth:`~domeng.server.hub.Hub.time_out`). The deadline is the table's
(``Table.deadline``, on the hub's clock), shown to everyone as the table's
``clock``. It lives in memory only: after a restart of the service the person in
turn is given their whole time again.
"""

from __future__ import annotations

from collections.abc import Callable

from .clock import Clock, Timer
from .tables import Table


class TurnClock:
    """Every table's turn clock; ``on_time_out(table, seat, state)`` is called when the
    person in turn at ``state`` runs out of time."""

    def __init__(self, clock: Clock, on_time_out: Callable[[Table, int, int], None]) -> None:
        self.clock = clock
        self.on_time_out = on_time_out
        self._armed: dict[str, tuple[int, Timer]] = {}
        """Per table id: the state number the clock runs for, and its timer."""

    def arm(self, t: Table) -> None:
        """Start the clock for the person in turn at ``t``'s state (once per state)."""
        seconds = t.settings.turn_seconds
        seat = t.game.turn if t.started else None
        if seconds is None or seat is None or t.finished:
            self.disarm(t)
            return
        armed = self._armed.get(t.id)
        if armed is not None and armed[0] == t.state:
            return
        self.disarm(t)
        state = t.state
        t.deadline = self.clock.now() + seconds

        def ring() -> None:
            self._armed.pop(t.id, None)
            if t.state == state and t.game.turn == seat:
                self.on_time_out(t, seat, state)

        self._armed[t.id] = (state, self.clock.call_at(t.deadline, ring))

    def disarm(self, t: Table) -> None:
        """Stop ``t``'s clock (the move was made, or nobody is to make it now)."""
        armed = self._armed.pop(t.id, None)
        if armed is not None:
            armed[1].cancel()
        t.deadline = None

    def close(self) -> None:
        for _, timer in self._armed.values():
            timer.cancel()
        self._armed.clear()
