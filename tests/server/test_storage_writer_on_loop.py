"""The storage writer with a backend whose writes wait on no disk (``Storage.on_loop``,
as SQLite's): writes are made on the event loop at once, reads in the writer's
thread, and the backend still sees one call at a time, in the order they were made."""

from __future__ import annotations

import asyncio
import dataclasses
import threading

import pytest

from domeng.storage import MemoryStorage, SQLiteStorage, StorageError, StoredTable
from domeng.storage.base import StoredDeal, StoredPlay
from domeng.storage.writer import StorageWriter

from .conftest import run_apart
from .test_storage_contract import table


class Watched(MemoryStorage):
    """A memory storage that says where and in what order its calls ran; its
    ``load_table`` waits until ``release`` is set."""

    on_loop = True

    def __init__(self) -> None:
        super().__init__()
        self.calls: list[tuple[str, str]] = []
        self.release = threading.Event()

    def _note(self, what: str) -> None:
        self.calls.append((what, threading.current_thread().name))

    def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        self._note(f"play {index}")
        super().add_play(table_id, number, index, play)

    def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
        self._note("deal")
        super().add_deal(table_id, number, deal)

    def load_table(self, table_id: str) -> StoredTable | None:
        self._note("load")
        assert self.release.wait(10)
        return super().load_table(table_id)


def test_sqlite_writes_on_the_loop() -> None:
    assert SQLiteStorage.on_loop and not MemoryStorage.on_loop


def test_writes_are_made_on_the_loop_at_once_and_reads_in_the_thread() -> None:
    store = Watched()
    store.release.set()

    async def main() -> str:
        writer = StorageWriter(store)
        await writer.create_table(table())
        await writer.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
        await writer.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
        loaded = await writer.load_table("t1")
        assert loaded is not None and len(loaded.plays[0]) == 1
        await writer.close()
        return threading.current_thread().name

    loop_thread = run_apart(main)
    assert store.calls == [
        ("deal", loop_thread),
        ("play 0", loop_thread),
        ("load", "domeng-storage"),
    ]


def test_a_write_made_while_a_read_is_out_waits_for_it_and_all_keep_their_order() -> None:
    store = Watched()

    async def main() -> list[BaseException | None]:
        writer = StorageWriter(store)
        await writer.create_table(table())
        await writer.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
        reading = asyncio.ensure_future(writer.load_table("t1"))
        await asyncio.sleep(0.05)  # the read is in the thread, held there
        writes = [
            asyncio.ensure_future(writer.add_play("t1", 1, i, StoredPlay(i % 5, "6-6", "right")))
            for i in range(5)
        ]
        refused = asyncio.ensure_future(writer.add_play("t1", 1, 2, StoredPlay(0, "6-6", "left")))
        await asyncio.sleep(0.05)
        assert not any(w.done() for w in writes)  # behind the read
        assert [c for c, _ in store.calls] == ["deal", "load"]
        store.release.set()
        loaded = await reading
        answers = await asyncio.gather(*writes, refused, return_exceptions=True)
        assert loaded is not None and loaded.plays == [[]]  # made before the plays
        (kept,) = await writer.load_tables()
        assert [p.seat for p in kept.plays[0]] == [0, 1, 2, 3, 4]
        await writer.close()
        return answers

    answers = run_apart(main)
    assert answers[:5] == [None] * 5
    assert isinstance(answers[5], StorageError)  # index 2 again: refused alone
    assert [c for c, _ in store.calls] == ["deal", "load"] + [f"play {i}" for i in range(5)] + [
        "play 2"
    ]


def test_close_waits_for_the_calls_made_before_it() -> None:
    store = Watched()

    async def main() -> None:
        writer = StorageWriter(store)
        await writer.create_table(table())
        reading = asyncio.ensure_future(writer.load_table("t1"))
        await asyncio.sleep(0.02)
        deal = asyncio.ensure_future(writer.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"])))
        closing = asyncio.ensure_future(writer.close())
        await asyncio.sleep(0.02)
        assert not closing.done()
        store.release.set()
        await closing
        assert reading.done() and deal.done()
        with pytest.raises(RuntimeError):
            await writer.add_deal("t1", 2, StoredDeal([["6-6"]], ["0-0"]))

    run_apart(main)
    assert [c for c, _ in store.calls] == ["load", "deal"]


class WatchedCreates(Watched):
    def create_table(self, table: StoredTable) -> None:
        self._note(f"create {table.id}")
        super().create_table(table)


def test_a_table_continued_from_a_record_is_stored_in_the_thread() -> None:
    store = WatchedCreates()
    dealt = StoredDeal([["6-6"]], ["0-0"])
    continued = dataclasses.replace(table("t2"), deals=[dealt], plays=[[]])

    async def main() -> str:
        writer = StorageWriter(store)
        await writer.create_table(table())
        await writer.create_table(continued)  # its rounds: as slow as a read
        await writer.close()
        return threading.current_thread().name

    loop_thread = run_apart(main)
    assert store.calls == [("create t1", loop_thread), ("create t2", "domeng-storage")]
