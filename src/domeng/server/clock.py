"""The service's clock: the time now, and "wake me at t".

Everything in the service that waits — a computer player's pace, the pause
between rounds, the stand-in's wait for an absent person, a retry after a
storage fault — asks a :class:`Clock`, never :func:`time.monotonic` or
:func:`asyncio.sleep` directly. The service runs on :class:`LoopClock` (the
event loop's own monotonic time); tests run on :class:`FakeClock`, whose time
moves only when the test says so, so a 30-second wait is checked to the
millisecond without sleeping.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import time
from collections.abc import Callable
from typing import Protocol


class Timer(Protocol):
    """A wake-up that can be called off."""

    def cancel(self) -> None: ...


class Clock(Protocol):
    """Monotonic seconds, and callbacks at a time on that scale."""

    def now(self) -> float:
        """Seconds on a monotonic scale (only differences mean anything)."""
        ...

    def wall(self) -> float:
        """The time of day, as a Unix time (for what people are told, never for waits)."""
        ...

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        """Run ``callback`` on the event loop once :meth:`now` reaches ``when``."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds`` of this clock's time."""
        ...


class LoopClock:
    """The running event loop's time (monotonic), its timers and its sleep."""

    def now(self) -> float:
        return asyncio.get_running_loop().time()

    def wall(self) -> float:
        return time.time()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        return asyncio.get_running_loop().call_at(when, callback)

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class _FakeTimer:
    def __init__(self) -> None:
        self.cancelled = False

    def cancel(self) -> None:
        self.cancelled = True


def _us(seconds: float) -> int:
    return round(seconds * 1_000_000)


class FakeClock:
    """A clock for tests: time stands still until :meth:`advance` moves it.

    Time is kept in whole microseconds, so that steps of a millisecond add up
    exactly. Callbacks due by the new time run in the order of their times (and
    of their scheduling, for equal times), each seeing :meth:`now` as its own
    due time. Sleepers are woken the same way; their coroutines go on when the
    event loop next runs. :attr:`sleeping` holds the tasks asleep on this clock.
    """

    def __init__(self, start: float = 1000.0, wall: float = 1_800_000_000.0) -> None:
        self._now = _us(start)
        self._wall_offset = wall - start
        self._due: list[tuple[int, int, _FakeTimer, Callable[[], None]]] = []
        self._order = itertools.count()
        self.sleeping: set[asyncio.Task[object]] = set()

    def now(self) -> float:
        return self._now / 1_000_000

    def wall(self) -> float:
        return self.now() + self._wall_offset

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = _FakeTimer()
        heapq.heappush(self._due, (_us(when), next(self._order), timer, callback))
        return timer

    async def sleep(self, seconds: float) -> None:
        woken = asyncio.get_running_loop().create_future()

        def wake() -> None:
            if not woken.done():
                woken.set_result(None)

        timer = self.call_at(self.now() + max(0.0, seconds), wake)
        task = asyncio.current_task()
        if task is not None:
            self.sleeping.add(task)
        try:
            await woken
        finally:
            timer.cancel()
            if task is not None:
                self.sleeping.discard(task)

    def advance(self, seconds: float) -> None:
        """Move time on by ``seconds``, running every callback that falls due."""
        until = self._now + _us(seconds)
        while self._due and self._due[0][0] <= until:
            when, _, timer, callback = heapq.heappop(self._due)
            if timer.cancelled:
                continue
            self._now = max(self._now, when)
            callback()
        self._now = until
