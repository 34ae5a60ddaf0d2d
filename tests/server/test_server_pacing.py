"""The computer players' share of the event loop (server/pacing.py): the moves whose
pause is over start a few at a time, in order, and the loop reads its sockets between
two turns, so a person's play is not kept waiting behind a crowd of computers; the
hub's tables move through it."""

from __future__ import annotations

import asyncio
import itertools
import socket

from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.pacing import MOVES_PER_TURN, Pacing
from domeng.server.tables import Connection
from domeng.storage import SQLiteStorage

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle


def test_a_few_moves_start_in_each_turn_of_the_loop_in_the_order_they_came() -> None:
    async def main() -> list[list[int]]:
        pacing = Pacing(per_turn=3)
        begun: list[int] = []
        for n in range(10):
            pacing.start(lambda n=n: begun.append(n))
        seen = [list(begun)]
        while len(begun) < 10:
            await asyncio.sleep(0)  # one turn of the loop
            seen.append(list(begun))
        assert pacing.waiting == 0
        return seen

    seen = run_apart(main)
    assert seen[0] == []  # nothing starts in the turn that handed them over
    counts = [len(s) for s in seen]
    assert counts == sorted(counts)
    assert all(b - a <= 3 for a, b in itertools.pairwise(counts))
    assert seen[-1] == list(range(10))


def test_the_loop_reads_its_sockets_between_two_turns() -> None:
    async def main() -> tuple[int, int]:
        loop = asyncio.get_running_loop()
        pacing = Pacing(per_turn=2)
        begun: list[int] = []
        read_after: list[int] = []
        near, far = socket.socketpair()
        near.setblocking(False)

        def readable() -> None:
            near.recv(100)
            read_after.append(len(begun))
            loop.remove_reader(near)

        loop.add_reader(near, readable)
        for n in range(40):
            pacing.start(lambda n=n: begun.append(n))
        far.send(b"play")  # a person's play arrives while forty moves are due
        while len(begun) < 40:
            await asyncio.sleep(0)
        near.close()
        far.close()
        return read_after[0], len(begun)

    read_after, begun = run_apart(main)
    assert begun == 40
    assert read_after <= 4  # read within two turns, not after the forty


def test_nothing_starts_once_closed() -> None:
    async def main() -> list[int]:
        pacing = Pacing(per_turn=1)
        begun: list[int] = []
        for n in range(5):
            pacing.start(lambda n=n: begun.append(n))
        await asyncio.sleep(0)
        await asyncio.sleep(0)
        pacing.close()
        for _ in range(5):
            await asyncio.sleep(0)
        assert pacing.waiting == 0
        return begun

    begun = run_apart(main)
    assert 1 <= len(begun) <= 2


def test_a_crowd_of_tables_whose_pause_ends_together_moves_a_few_per_turn() -> None:
    async def main() -> list[int]:
        clock = FakeClock()
        # SQLite's writes are made at once on the loop: a move is done in its own turn
        hub = Hub(SQLiteStorage(":memory:"), InlineRunner(), clock)
        seats = [{"kind": "computer", "level": "random"}] * 5
        tables = []
        for _ in range(20):
            body = NewTable.model_validate({"seats": seats, "pace_ms": 800})
            t = (await hub.create_table(body)).table
            hub.hello(t, Connection(), None)
            tables.append(t)
        await settle(hub, clock)
        before = [t.state for t in tables]
        clock.advance(0.8)  # twenty computers' pauses end at once
        moved = [0]
        for _ in range(100):
            await asyncio.sleep(0)
            moved.append(sum(t.state > s for t, s in zip(tables, before, strict=True)))
            if moved[-1] == len(tables):
                break
        await hub.close()
        return moved

    moved = run_apart(main)
    assert moved[-1] == 20
    assert max(b - a for a, b in itertools.pairwise(moved)) <= MOVES_PER_TURN
