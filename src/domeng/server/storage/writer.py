"""Storage off the event loop: one thread runs every call of a backend, in order.

A :class:`~domeng.server.storage.base.Storage` call blocks (a disk's commit, a
network database's round trip). Made on the event loop it would stall every
table; the :class:`StorageWriter` hands each call to its own single thread and
lets the caller ``await`` the result. One thread means the backend sees one call
at a time, in the order they were made, as it would on the loop.

Store-before-acknowledge still holds: the hub awaits a write before it changes
the table, acknowledges or tells anyone, so nothing is heard of that the storage
has not kept (tests/server/test_server_store_before_ack.py, and the SIGKILL tests
of tests/server/test_server_restart_resumes.py).
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, TypeVar

from .base import Storage, StoredChat, StoredDeal, StoredPlay, StoredSeat, StoredTable

T = TypeVar("T")


class StorageWriter:
    """The awaitable face of a :class:`Storage`; its calls run in one worker thread."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="domeng-storage")

    async def _run(self, call: Callable[..., T], *args: object) -> T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._thread, functools.partial(call, *args))

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
        await self._run(self.storage.close)
        self._thread.shutdown(wait=True)
