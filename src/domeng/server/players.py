"""Computer players for the service.

A move is chosen from the seat's view: the light players (``random``, ``basic``:
microseconds a move) on the event loop itself, every other level (the searching
``expert`` players) in a process pool, so that a strong player thinking never holds
up the other tables. The coach's hints have workers of their own, at a lower
priority, so that a computer's move never waits behind a hint (:mod:`.work`). The player is made
afresh for each move from its name and a seed derived from the seat's seed and
the position, so no player object has to live across processes or restarts.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

from domeng.bots import make_player, player_names
from domeng.engine import Move, SeatView

from .workers import HINT_NICE, HINT_PROCESSES, in_pool, worker_pool

T = TypeVar("T")

LIGHT_LEVELS = frozenset({"random", "basic"})
"""Players cheap enough to choose on the service's own loop: ``basic`` takes 13 µs a
move (median; 60 µs at the 99th percentile), less than handing the move to a thread
and back costs."""


def levels() -> list[str]:
    """The computer players a person may seat."""
    return player_names(for_people=True)


def default_level() -> str:
    """The level used when none is given (``basic`` once it exists)."""
    known = levels()
    return "basic" if "basic" in known else known[0]


def choose_move(level: str, seed: int, v: SeatView) -> Move:
    """What player ``level`` plays from view ``v`` (runs in a worker)."""
    return make_player(level, seed).choose(v)


class BotRunner:
    """Runs computer players' choices: the light ones on the loop, the others in worker
    processes (an ``expert`` thinks for a quarter of a second and more)."""

    def __init__(self, *, processes: int | None = None, coaches: int = HINT_PROCESSES) -> None:
        self._processes: ProcessPoolExecutor | None = None
        self._process_count = processes or max(1, (os.cpu_count() or 2) - 1)
        self._coach: ProcessPoolExecutor | None = None
        self._coach_count = coaches

    def _executor(self) -> ProcessPoolExecutor:
        if self._processes is None:
            self._processes = worker_pool(self._process_count)
        return self._processes

    async def choose(self, level: str, seed: int, v: SeatView) -> Move:
        if level in LIGHT_LEVELS:
            return choose_move(level, seed, v)
        return await in_pool(self._executor(), choose_move, level, seed, v)

    async def think(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in the coach's own workers (a hint: a module-level function and
        picklable arguments), never in the computer players' queue (:mod:`.work`)."""
        if self._coach is None:
            self._coach = worker_pool(self._coach_count, nice=HINT_NICE)
        return await in_pool(self._coach, work, *args)

    def close(self) -> None:
        for pool in (self._processes, self._coach):
            if pool is not None:
                pool.shutdown(wait=False, cancel_futures=True)
