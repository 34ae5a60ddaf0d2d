"""The storage writer's batches: at most ``BATCH_LIMIT`` calls in one, in the thread as
on the loop; a batch the storage could not keep answers each of its calls with the
failure; a caller who stopped waiting leaves the others their answers."""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import Iterator

import pytest

from domeng.storage import MemoryStorage, StorageError, StoredTable
from domeng.storage.base import StoredDeal, StoredPlay
from domeng.storage.writer import BATCH_LIMIT, StorageWriter

from .conftest import run_apart
from .test_storage_contract import table

DEALT = StoredDeal([["6-6"]], ["0-0"])


class Held(MemoryStorage):
    """A memory storage that counts the calls of each batch; its ``load_table`` waits
    until ``release`` is set (the writer's thread is busy meanwhile)."""

    def __init__(self) -> None:
        super().__init__()
        self.release = threading.Event()
        self.batches: list[int] = []
        self._calls = 0

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        self._calls = 0
        yield
        self.batches.append(self._calls)

    def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        self._calls += 1
        super().add_play(table_id, number, index, play)

    def load_table(self, table_id: str) -> StoredTable | None:
        self._calls += 1
        assert self.release.wait(10)
        return super().load_table(table_id)


class HeldOnLoop(Held):
    on_loop = True


def plays(n: int) -> list[StoredPlay]:
    return [StoredPlay(i % 5, "6-6", "right") for i in range(n)]


@pytest.mark.parametrize("kind", [Held, HeldOnLoop], ids=["thread", "on-loop"])
def test_the_calls_waiting_behind_a_read_go_in_batches_of_at_most_the_limit(
    kind: type[Held],
) -> None:
    store = kind()
    store.create_table(table())
    store.add_deal("t1", 1, DEALT)
    many = 3 * BATCH_LIMIT + 8

    async def main() -> None:
        writer = StorageWriter(store)
        reading = asyncio.ensure_future(writer.load_table("t1"))
        writes = [
            asyncio.ensure_future(writer.add_play("t1", 1, i, p)) for i, p in enumerate(plays(many))
        ]
        await asyncio.sleep(0)  # every call made (each task's first step), none answered
        assert not reading.done() and not any(w.done() for w in writes)
        store.release.set()
        assert await reading is not None
        assert await asyncio.gather(*writes) == [None] * many
        (kept,) = await writer.load_tables()
        assert [p.seat for p in kept.plays[0]] == [i % 5 for i in range(many)]
        await writer.close()

    run_apart(main)
    assert sum(store.batches) == many + 1  # each call once
    assert max(store.batches) <= BATCH_LIMIT, store.batches


class Unkept(MemoryStorage):
    """A storage whose batch cannot be kept at its end (its commit fails)."""

    @contextlib.contextmanager
    def batch(self) -> Iterator[None]:
        yield
        raise StorageError("the commit failed")


def test_a_batch_that_cannot_be_kept_answers_each_of_its_calls_with_the_failure() -> None:
    store = Unkept()
    store.create_table(table())

    async def main() -> list[BaseException | None]:
        writer = StorageWriter(store)
        calls = [writer.add_deal("t1", 1, DEALT), writer.add_play("t1", 1, 0, plays(1)[0])]
        answers = await asyncio.gather(*calls, return_exceptions=True)
        await writer.close()
        return answers

    answers = run_apart(main)
    # store before acknowledge: nobody hears of a write as kept that the storage did not keep
    assert [str(a) for a in answers] == ["the commit failed"] * 2
    assert all(isinstance(a, StorageError) for a in answers)


def test_a_caller_who_stops_waiting_leaves_the_others_their_answers() -> None:
    store = HeldOnLoop()
    store.create_table(table())
    store.add_deal("t1", 1, DEALT)

    async def main() -> None:
        writer = StorageWriter(store)
        reading = asyncio.ensure_future(writer.load_table("t1"))
        writes = [
            asyncio.ensure_future(writer.add_play("t1", 1, i, p)) for i, p in enumerate(plays(5))
        ]
        await asyncio.sleep(0)  # every call made, the writes waiting behind the read
        writes[0].cancel()  # its caller stops waiting (a connection gone)
        store.release.set()
        assert await reading is not None
        answers = await asyncio.wait_for(asyncio.gather(*writes[1:]), 10)
        assert answers == [None] * 4
        assert writes[0].cancelled()
        (kept,) = await writer.load_tables()
        assert len(kept.plays[0]) == 5  # the write was made all the same, in its order
        await writer.close()

    run_apart(main)
