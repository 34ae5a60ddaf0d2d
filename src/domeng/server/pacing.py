"""The computer players' share of the event loop: a few moves at a time.

A thousand tables at a pace of 800 ms each want a computer's move every 0.8 ms on
average, but their timers do not fall due evenly: whenever the loop is held up for a
moment, the moves due in that moment run together, the tables' next moves then fall
due together too, and the clumps grow (measured with 1,000 tables of one person and
four computers: by when they fell due, the moves filled only a fifth of the 10 ms
slots, one slot in a hundred held 250 of them or more, and a person's play waited
behind them, 300 ms at the 99th percentile).

So a move whose pause is over does not start at once: it is handed to
:meth:`Pacing.start`, which starts at most :data:`MOVES_PER_TURN` of them in one turn
of the event loop and keeps the others, in order, for the next turns. Between two
turns the loop reads its sockets, so a person's play is handled within a few moves'
time however many computers are due; and moves that fell due together start spread
out, so their next ones are spread out too.

A table waiting for its pause holds a timer, not a sleeping task: a thousand sleeping
tasks (each a task, its coroutines and futures) were half of the young objects the
garbage collector looked through.
"""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable

MOVES_PER_TURN = 8
"""Computer moves (and paced deals) started in one turn of the event loop at most:
a few milliseconds of work at a thousand tables."""


class Pacing:
    """Starts the moves whose pause is over a few at a time; see the module docstring."""

    def __init__(self, per_turn: int = MOVES_PER_TURN) -> None:
        self.per_turn = per_turn
        self._due: deque[Callable[[], None]] = deque()
        self._next_turn: asyncio.Handle | None = None

    @property
    def waiting(self) -> int:
        """Moves whose pause is over that wait for a turn of the loop."""
        return len(self._due)

    def start(self, begin: Callable[[], None]) -> None:
        """Call ``begin()`` (which starts a move) in a coming turn of the loop, after the
        moves handed over before it."""
        self._due.append(begin)
        if self._next_turn is None:
            self._next_turn = asyncio.get_running_loop().call_soon(self._turn)

    def close(self) -> None:
        """Start nothing more (the service stops)."""
        self._due.clear()
        if self._next_turn is not None:
            self._next_turn.cancel()
            self._next_turn = None

    def _turn(self) -> None:
        self._next_turn = None
        for _ in range(min(self.per_turn, len(self._due))):
            self._due.popleft()()
        if self._due:
            self._next_turn = asyncio.get_running_loop().call_soon(self._turn)
