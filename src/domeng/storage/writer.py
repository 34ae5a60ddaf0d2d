"""Storage off the event loop: one thread runs every call of a backend, in order.

A :class:`~domeng.storage.base.Storage` call blocks (a disk's commit, a
network database's round trip). Made on the event loop it would stall every
table; the :class:`StorageWriter` hands each call to its own single thread and
lets the caller ``await`` the result. One thread means the backend sees one call
at a time, in the order they were made, as it would on the loop.

A backend whose writes never wait on a disk or a network (:attr:`Storage.on_loop`:
SQLite, whose write-ahead log commits into the system's memory) has its writes made
on the loop instead, at once, and only its reads and slow work (``call``) go to the
thread; a write made while those are out waits for them, so the backend still sees
one call at a time, in order. Handing every write to a thread cost more than the
write: the thread waits for the interpreter each time the busy loop holds it
(measured at 1,000 tables: a play waited 50 ms for its storage at the median, 240 ms
at the 99th percentile; on the loop, under 1 ms).

Store-before-acknowledge still holds: a table awaits a write (kept with the batch it
was in) before it changes the table, acknowledges or tells anyone, so nothing is
heard of that the storage has not kept (tests/server/test_server_store_before_ack.py,
and the SIGKILL tests of tests/server/test_server_restart_resumes.py).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import queue
import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from .base import (
    Storage,
    StoredChat,
    StoredDeal,
    StoredPlay,
    StoredSeat,
    StoredTable,
    StoredTournament,
)

T = TypeVar("T")

BATCH_LIMIT = 64
"""Calls kept in one batch at most (one commit for all of them)."""

_Outcome = tuple[bool, Any]  # (True, the result) or (False, the exception)


class _Call:
    __slots__ = ("call", "future", "loop", "quick")

    def __init__(
        self,
        call: Callable[[], Any],
        loop: asyncio.AbstractEventLoop,
        future: asyncio.Future[Any],
        quick: bool = False,
    ) -> None:
        self.call = call
        self.loop = loop
        self.future = future
        self.quick = quick
        """A write made on the loop when the backend allows it (:attr:`Storage.on_loop`)."""


class _Handoff:
    """Reads and slow work the loop gives the thread in on-loop mode."""

    __slots__ = ("calls", "loop")

    def __init__(self, calls: list[_Call], loop: asyncio.AbstractEventLoop) -> None:
        self.calls = calls
        self.loop = loop


_CLOSE = object()


class StorageWriter:
    """The awaitable face of a :class:`Storage`; its calls run in one worker thread.

    The calls waiting when the thread comes to them run as one batch
    (:meth:`Storage.batch`, at most :data:`BATCH_LIMIT`): one commit for the moves
    of many tables at once. Each caller hears its answer only once the batch is kept.
    With a backend that allows it (:attr:`Storage.on_loop`) the writes are made on the
    loop at once, or, while a read is out in the thread, gathered behind it into one
    batch (see the module docstring).
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._queue: queue.SimpleQueue[_Call | _Handoff | object] = queue.SimpleQueue()
        self._closed: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._work, name="domeng-storage", daemon=True)
        self.on_loop = storage.on_loop
        self._pending: deque[_Call] = deque()
        """On-loop mode: the calls not made yet, in order."""
        self._draining: asyncio.AbstractEventLoop | None = None
        """On-loop mode: the loop that makes the pending calls (a turn of it is due, or
        the thread has work of it); None while nothing is pending."""
        self._drained: asyncio.Future[None] | None = None

    async def _run(self, call: Callable[..., T], *args: object, quick: bool = False) -> T:
        if self._closed is not None:
            raise RuntimeError("the storage is closed")
        loop = asyncio.get_running_loop()
        if self.on_loop and quick and self._draining is None:  # nothing waits: made now
            return call(*args)  # a write alone is its own transaction: no batch around it
        future: asyncio.Future[T] = loop.create_future()
        c = _Call(functools.partial(call, *args), loop, future, quick)
        if self.on_loop:
            if self._draining is None:
                self._draining = loop
                loop.call_soon(self._drain)
            elif self._draining is not loop:
                raise RuntimeError("a storage on the loop serves one event loop at a time")
            self._pending.append(c)
        else:
            self._start_thread()
            self._queue.put(c)
        return await future

    def _start_thread(self) -> None:
        if self._thread.ident is None:
            self._thread.start()  # at the first call: a writer never used holds no thread

    def _drain(self) -> None:
        """On-loop mode, on the loop: make the writes at the head of the pending calls
        in one batch, or hand the thread the reads and slow work there (it comes back
        here when done); come back next turn for what is left."""
        loop = self._draining
        assert loop is not None
        quick: list[_Call] = []
        while self._pending and self._pending[0].quick and len(quick) < BATCH_LIMIT:
            quick.append(self._pending.popleft())
        if quick:
            for c, outcome in zip(quick, self._batch([c.call for c in quick]), strict=True):
                _resolve(c.future, outcome)
        elif self._pending:
            slow: list[_Call] = []
            while self._pending and not self._pending[0].quick and len(slow) < BATCH_LIMIT:
                slow.append(self._pending.popleft())
            self._hand_off(_Handoff(slow, loop))
            return
        if self._pending:
            loop.call_soon(self._drain)
        else:
            self._draining = None
            if self._drained is not None and not self._drained.done():
                self._drained.set_result(None)

    def _hand_off(self, work: _Handoff) -> None:
        self._start_thread()
        self._queue.put(work)

    def _handed_back(self, work: _Handoff, outcomes: list[_Outcome]) -> None:
        """On the loop: the thread has done ``work``; answer its calls and go on."""
        for c, outcome in zip(work.calls, outcomes, strict=True):
            _resolve(c.future, outcome)
        self._drain()

    def _work(self) -> None:
        stop = False
        while not stop:
            calls = [self._queue.get()]
            while len(calls) < BATCH_LIMIT and calls[-1] is not _CLOSE:
                try:
                    calls.append(self._queue.get_nowait())
                except queue.Empty:
                    break
            stop = calls[-1] is _CLOSE
            for work in calls:
                if isinstance(work, _Handoff):
                    self._do_handoff(work)
            batch = [c for c in calls if isinstance(c, _Call)]
            if batch:
                self._settle(batch, self._batch([c.call for c in batch]))
        closing = self._closed
        try:
            self.storage.close()
        finally:
            if closing is not None:
                with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
                    closing.get_loop().call_soon_threadsafe(_resolve, closing, (True, None))

    def _do_handoff(self, work: _Handoff) -> None:
        """In the thread: the loop's reads and slow work."""
        outcomes = self._batch([c.call for c in work.calls])
        with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
            work.loop.call_soon_threadsafe(self._handed_back, work, outcomes)

    def _batch(self, batch: list[Callable[[], Any]]) -> list[_Outcome]:
        outcomes: list[_Outcome] = []
        try:
            with self.storage.batch():
                for call in batch:
                    try:
                        outcomes.append((True, call()))
                    except Exception as e:
                        outcomes.append((False, e))
        except Exception as e:  # the batch could not be kept: none of its writes is
            outcomes = [(False, e)] * len(batch)
        return outcomes

    @staticmethod
    def _settle(batch: list[_Call], outcomes: list[_Outcome]) -> None:
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], _Outcome]]] = {}
        for c, outcome in zip(batch, outcomes, strict=True):
            by_loop.setdefault(c.loop, []).append((c.future, outcome))
        for loop, answers in by_loop.items():
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
                loop.call_soon_threadsafe(_resolve_all, answers)

    async def load_tables(self) -> list[StoredTable]:
        return await self._run(self.storage.load_tables)

    async def create_table(self, table: StoredTable) -> None:
        # a table continued from a record brings its rounds: as slow as a read
        await self._run(self.storage.create_table, table, quick=not table.deals)

    async def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
        await self._run(self.storage.save_seat, table_id, seat, data, quick=True)

    async def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
        await self._run(self.storage.add_deal, table_id, number, deal, quick=True)

    async def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        await self._run(self.storage.add_play, table_id, number, index, play, quick=True)

    async def end_table(self, table_id: str, why: str, summary: dict[str, Any]) -> None:
        await self._run(self.storage.end_table, table_id, why, summary, quick=True)

    async def load_table(self, table_id: str) -> StoredTable | None:
        return await self._run(self.storage.load_table, table_id)

    async def tables_in_progress(self) -> list[str]:
        return await self._run(self.storage.tables_in_progress)

    async def load_some_tables(self, ids: Sequence[str]) -> list[StoredTable]:
        return await self._run(self.storage.load_some_tables, ids)

    async def finished_tables(
        self, limit: int, after: str | None = None, *, newest: bool = False
    ) -> list[dict[str, Any]]:
        call = functools.partial(self.storage.finished_tables, newest=newest)
        return await self._run(call, limit, after)

    async def remove_table(self, table_id: str) -> None:
        await self._run(self.storage.remove_table, table_id)

    async def add_chat(self, table_id: str, message: StoredChat) -> None:
        await self._run(self.storage.add_chat, table_id, message, quick=True)

    async def save_tournament(
        self, tournament: StoredTournament, tables: Sequence[StoredTable] = ()
    ) -> int:
        return await self._run(self.storage.save_tournament, tournament, tables, quick=True)

    async def load_tournament(self, tournament_id: str) -> StoredTournament | None:
        return await self._run(self.storage.load_tournament, tournament_id)

    async def load_tournaments(self) -> list[StoredTournament]:
        return await self._run(self.storage.load_tournaments)

    async def call(self, work: Callable[..., T], *args: object, quick: bool = False) -> T:
        """``work(storage, *args)`` in the storage's thread, in order with every other call:
        what reads and records the history of players (:mod:`domeng.history.recorder`)
        as one piece of work, with nothing of it on the event loop. ``quick``: work as
        small as a write (recording one round), made on the loop like the writes when
        the backend allows it."""
        return await self._run(work, self.storage, *args, quick=quick)

    async def close(self) -> None:
        """Finish the calls already made, then close the storage (in its thread)."""
        if self._draining is not None:  # on-loop mode: the calls made first
            if self._drained is None or self._drained.done():
                self._drained = asyncio.get_running_loop().create_future()
            await self._drained
        if self._thread.ident is None:  # never used: the storage is closed here
            self.storage.close()
            return
        if self._closed is None:
            self._closed = asyncio.get_running_loop().create_future()
            self._queue.put(_CLOSE)
        await self._closed
        self._thread.join()


def _resolve(future: asyncio.Future[Any], outcome: _Outcome) -> None:
    if future.done():  # its caller stopped waiting (cancelled)
        return
    ok, value = outcome
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _resolve_all(answers: list[tuple[asyncio.Future[Any], _Outcome]]) -> None:
    for future, outcome in answers:
        _resolve(future, outcome)
