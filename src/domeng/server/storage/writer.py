"""Storage off the event loop: one thread runs every call of a backend, in order.

A :class:`~domeng.server.storage.base.Storage` call blocks (a disk's commit, a
network database's round trip). Made on the event loop it would stall every
table; the :class:`StorageWriter` hands each call to its own single thread and
lets the caller ``await`` the result. One thread means the backend sees one call
at a time, in the order they were made, as it would on the loop.

Store-before-acknowledge still holds: the hub awaits a write (kept with the batch it
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
from collections.abc import Callable
from typing import Any, TypeVar

from .base import Storage, StoredChat, StoredDeal, StoredPlay, StoredSeat, StoredTable

T = TypeVar("T")

BATCH_LIMIT = 64
"""Calls kept in one batch at most (one commit for all of them)."""

_Outcome = tuple[bool, Any]  # (True, the result) or (False, the exception)


class _Call:
    __slots__ = ("call", "future", "loop")

    def __init__(
        self, call: Callable[[], Any], loop: asyncio.AbstractEventLoop, future: asyncio.Future[Any]
    ) -> None:
        self.call = call
        self.loop = loop
        self.future = future


_CLOSE = object()


class StorageWriter:
    """The awaitable face of a :class:`Storage`; its calls run in one worker thread.

    The calls waiting when the thread comes to them run as one batch
    (:meth:`Storage.batch`, at most :data:`BATCH_LIMIT`): one commit for the moves
    of many tables at once. Each caller hears its answer only once the batch is kept.
    """

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._queue: queue.SimpleQueue[_Call | object] = queue.SimpleQueue()
        self._closed: asyncio.Future[None] | None = None
        self._thread = threading.Thread(target=self._work, name="domeng-storage", daemon=True)

    async def _run(self, call: Callable[..., T], *args: object) -> T:
        if self._closed is not None:
            raise RuntimeError("the storage is closed")
        if self._thread.ident is None:
            self._thread.start()  # at the first call: a writer never used holds no thread
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Call(functools.partial(call, *args), loop, future))
        return await future

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
            batch = [c for c in calls if isinstance(c, _Call)]
            if batch:
                self._settle(batch, self._batch(batch))
        closing = self._closed
        try:
            self.storage.close()
        finally:
            if closing is not None:
                with contextlib.suppress(RuntimeError):  # the loop is gone: nobody waits
                    closing.get_loop().call_soon_threadsafe(_resolve, closing, (True, None))

    def _batch(self, batch: list[_Call]) -> list[_Outcome]:
        outcomes: list[_Outcome] = []
        try:
            with self.storage.batch():
                for c in batch:
                    try:
                        outcomes.append((True, c.call()))
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
        await self._run(self.storage.create_table, table)

    async def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
        await self._run(self.storage.save_seat, table_id, seat, data)

    async def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
        await self._run(self.storage.add_deal, table_id, number, deal)

    async def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        await self._run(self.storage.add_play, table_id, number, index, play)

    async def end_table(self, table_id: str, why: str, summary: dict[str, Any]) -> None:
        await self._run(self.storage.end_table, table_id, why, summary)

    async def load_table(self, table_id: str) -> StoredTable | None:
        return await self._run(self.storage.load_table, table_id)

    async def finished_tables(
        self, limit: int, after: str | None = None, *, newest: bool = False
    ) -> list[dict[str, Any]]:
        call = functools.partial(self.storage.finished_tables, newest=newest)
        return await self._run(call, limit, after)

    async def remove_table(self, table_id: str) -> None:
        await self._run(self.storage.remove_table, table_id)

    async def add_chat(self, table_id: str, message: StoredChat) -> None:
        await self._run(self.storage.add_chat, table_id, message)

    async def call(self, work: Callable[..., T], *args: object) -> T:
        """``work(storage, *args)`` in the storage's thread, in order with every other call:
        what reads and records the history of players (:mod:`domeng.history.recorder`)
        as one piece of work, with nothing of it on the event loop."""
        return await self._run(work, self.storage, *args)

    async def close(self) -> None:
        """Finish the calls already made, then close the storage (in its thread)."""
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
