"""The hub's waits, on a fake clock: the stand-in's wait for an absent person and the
computer players' pace are kept to the millisecond, and nothing waits in real time.

The hub runs here without HTTP, on an event loop of the test's own, with a
:class:`FakeClock` whose time moves only when the test moves it, over every storage.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

from domeng.engine import Move, SeatView
from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.players import BotRunner, choose_move
from domeng.server.storage import MemoryStorage, SQLiteStorage, Storage
from domeng.server.tables import Connection, Table


class InlineRunner(BotRunner):
    """Computer players choosing on the event loop itself (no worker to wait for)."""

    def __init__(self) -> None:
        pass

    async def choose(self, level: str, seed: int, v: SeatView) -> Move:
        return choose_move(level, seed, v)

    def close(self) -> None:
        pass


async def settle(hub: Hub, clock: FakeClock) -> None:
    """Let the hub do all it can without the clock moving: until every table's task is
    done or asleep on the fake clock (the storage's thread answers within this)."""
    for _ in range(5000):  # 5 s of real time at most
        await asyncio.sleep(0.001)
        tasks = [t.task for t in hub.tables.values() if t.task is not None]
        if all(task in clock.sleeping for task in tasks):
            return
    raise AssertionError("the hub did not settle")


def run(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """``asyncio.run(main())`` in a thread of its own (the browser tests may leave a loop
    running in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, main()).result(timeout=60)


def drain(c: Connection) -> list[dict[str, Any]]:
    out = []
    while not c.outbox.empty():
        text = c.outbox.get_nowait()
        if text is not None:
            out.append(json.loads(text))
    return out


STORAGES: dict[str, Callable[[], Storage]] = {
    "sqlite": lambda: SQLiteStorage(":memory:"),
    "memory": MemoryStorage,
}


async def person_and_four_computers(
    storage: Storage, **settings: Any
) -> tuple[Hub, FakeClock, Table, str]:
    clock = FakeClock()
    hub = Hub(storage, InlineRunner(), clock)
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": "random"}] * 4
    t, tokens = await hub.create_table(NewTable.model_validate({"seats": seats, **settings}))
    return hub, clock, t, tokens[0]


async def until_seat_in_turn(hub: Hub, clock: FakeClock, t: Table, seat: int, step: float) -> None:
    """Move the clock on by ``step`` until ``seat`` is in turn (a new round is dealt when
    the last one ends)."""
    for _ in range(200):
        await settle(hub, clock)
        if t.game.turn == seat:
            return
        clock.advance(step)
    raise AssertionError(f"seat {seat} never came to play")


@pytest.mark.parametrize("storage", list(STORAGES))
def test_the_stand_in_plays_for_an_absent_person_to_the_millisecond(storage: str) -> None:
    async def main() -> None:
        hub, clock, t, token = await person_and_four_computers(
            STORAGES[storage](), pace_ms=800, stand_in="random", replace_after_ms=30_000
        )
        me = Connection()
        hub.hello(t, me, token)
        await until_seat_in_turn(hub, clock, t, 0, step=0.8)
        state = t.state
        hub.disconnect(t, me)  # Ann wanders off while in turn

        clock.advance(29.999)
        await settle(hub, clock)
        assert t.state == state
        assert t.public_json()["seats"][0]["stand_in"] is False

        clock.advance(0.001)  # 30 s away: the stand-in takes over ...
        await settle(hub, clock)
        assert t.public_json()["seats"][0]["stand_in"] is True
        assert t.state == state

        clock.advance(0.799)  # ... and moves at the table's pace
        await settle(hub, clock)
        assert t.state == state
        clock.advance(0.001)
        await settle(hub, clock)
        assert t.state == state + 1
        assert t.game.round.plays[-1][0] == 0 or t.game.round.finished
        await hub.close()

    run(main)


def test_a_person_back_in_time_plays_with_no_stand_in() -> None:
    async def main() -> None:
        hub, clock, t, token = await person_and_four_computers(
            MemoryStorage(), pace_ms=800, stand_in="random", replace_after_ms=30_000
        )
        me = Connection()
        hub.hello(t, me, token)
        await until_seat_in_turn(hub, clock, t, 0, step=0.8)
        state = t.state
        hub.disconnect(t, me)
        clock.advance(29.9)
        await settle(hub, clock)
        back = Connection()
        hub.hello(t, back, token)  # back with 100 ms to spare
        clock.advance(3600)  # an hour later: still Ann's turn, nobody played for her
        await settle(hub, clock)
        assert t.state == state
        assert t.game.turn == 0
        assert t.public_json()["seats"][0]["stand_in"] is False
        await hub.close()

    run(main)


def test_computer_players_move_at_the_tables_pace_and_not_before() -> None:
    async def main() -> None:
        clock = FakeClock()
        hub = Hub(MemoryStorage(), InlineRunner(), clock)
        seats = [{"kind": "computer", "level": "random"}] * 5
        t, _ = await hub.create_table(NewTable.model_validate({"seats": seats, "pace_ms": 250}))
        watcher = Connection()
        hub.hello(t, watcher, None)
        await settle(hub, clock)
        moves = []
        for _ in range(8):
            state = t.state
            clock.advance(0.249)
            await settle(hub, clock)
            assert t.state == state, "a computer player moved before its pace"
            clock.advance(0.001)
            await settle(hub, clock)
            assert t.state == state + 1, "a computer player did not move at its pace"
            moves.append(t.state)
        assert [m["type"] for m in drain(watcher)].count("update") >= 8
        await hub.close()

    run(main)
