"""The hub's waits, on a fake clock: the stand-in's wait for an absent person and the
computer players' pace are kept to the millisecond, and nothing waits in real time.

The hub runs here without HTTP, on an event loop of the test's own, with a
:class:`FakeClock` whose time moves only when the test moves it, over every storage.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest

from domeng.engine import Move, SeatView, tile_name
from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.messages import Back, Play, Ready
from domeng.server.players import BotRunner, choose_move
from domeng.server.tables import Connection, Table
from domeng.storage import MemoryStorage, SQLiteStorage, Storage

from .conftest import drain, run_apart


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
    done or asleep on the fake clock, no move whose pause is over waits for its turn
    (pacing.py), and the storage's thread has answered."""
    for _ in range(5000):  # 5 s of real time at most
        await asyncio.sleep(0.001)
        tasks = [t.task for t in hub.tables.values() if t.task is not None]
        asleep = all(task in clock.sleeping for task in tasks)
        if asleep and not hub.chores and not hub.pacing.waiting:
            return
    raise AssertionError("the hub did not settle")


STORAGES: dict[str, Callable[[], Storage]] = {
    "sqlite": lambda: SQLiteStorage(":memory:"),
    "memory": MemoryStorage,
}


async def person_and_four_computers(
    storage: Storage, **settings: Any
) -> tuple[Hub, FakeClock, Table, str]:
    clock = FakeClock()
    hub = Hub(storage, InlineRunner(), clock, deals=random.Random(11))
    await hub.load()  # as the service starts: every stored table, and the look for idle ones
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": "random"}] * 4
    created = await hub.create_table(NewTable.model_validate({"seats": seats, **settings}))
    t, tokens = created.table, created.tokens
    return hub, clock, t, tokens[0]


async def until_seat_in_turn(
    hub: Hub, clock: FakeClock, t: Table, seat: int, step: float, me: Connection | None = None
) -> None:
    """Move the clock on by ``step`` until ``seat`` is in turn; between rounds ``me`` (the
    seat's connection) says it is ready."""
    for _ in range(400):
        await settle(hub, clock)
        if t.game.turn == seat:
            return
        behind = t.seats[seat].stored.ready < len(t.game.rounds)
        if me is not None and t.status == "between" and behind:
            await hub.ready(t, me, Ready.model_validate({"type": "ready"}))
            continue
        clock.advance(step)
    raise AssertionError(f"seat {seat} never came to play")


async def ann_in_turn(
    storage: Storage, ready: bool = False, **settings: Any
) -> tuple[Hub, FakeClock, Table, str, Connection]:
    """Ann and four computers (``settings`` the table's), Ann connected, once it is her
    turn (the clock moved on 0.8 s at a time; between rounds she says ready when
    ``ready``): the hub, its clock, the table, her token and her connection."""
    hub, clock, t, token = await person_and_four_computers(storage, **settings)
    me = Connection()
    hub.hello(t, me, token)
    await until_seat_in_turn(hub, clock, t, 0, step=0.8, me=me if ready else None)
    return hub, clock, t, token, me


@pytest.mark.parametrize("storage", list(STORAGES))
def test_the_stand_in_plays_for_an_absent_person_to_the_millisecond(storage: str) -> None:
    async def main() -> None:
        hub, clock, t, _, me = await ann_in_turn(
            STORAGES[storage](), pace_ms=800, stand_in="random", replace_after_ms=30_000
        )
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

    run_apart(main)


def test_a_person_back_in_time_plays_with_no_stand_in() -> None:
    async def main() -> None:
        hub, clock, t, token, me = await ann_in_turn(
            MemoryStorage(), pace_ms=800, stand_in="random", replace_after_ms=30_000
        )
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

    run_apart(main)


def test_computer_players_move_at_the_tables_pace_and_not_before() -> None:
    async def main() -> None:
        clock = FakeClock()
        hub = Hub(MemoryStorage(), InlineRunner(), clock)
        seats = [{"kind": "computer", "level": "random"}] * 5
        created = await hub.create_table(NewTable.model_validate({"seats": seats, "pace_ms": 250}))
        t, _ = created.table, created.tokens
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

    run_apart(main)


def test_the_turn_clock_plays_for_a_person_out_of_time_and_then_plays_on() -> None:
    async def main() -> None:
        hub, clock, t, _, me = await ann_in_turn(
            MemoryStorage(), pace_ms=800, stand_in=None, turn_seconds=15
        )
        told = [m for m in drain(me) if m["type"] == "update" and m["view"]["turn"] == 0][-1]
        assert told["table"]["clock"]["seat"] == 0  # the update that gives her the turn says so
        clock_json = t.public_json()["clock"]
        assert clock_json["seat"] == 0 and clock_json["left_ms"] == 15_000
        state = t.state
        clock.advance(14.999)
        await settle(hub, clock)
        assert t.state == state  # still hers
        assert t.public_json()["clock"]["left_ms"] == 1
        clock.advance(0.001)  # out of time: a computer makes this one move for her, at once
        await settle(hub, clock)
        assert t.state == state + 1
        assert t.seats[0].stored.timeouts == 1
        played = [e for e in t.events_json() if e["kind"] == "played"][-1]
        assert played["seat"] == 0 and played["stand_in"] is True
        assert "computer plays for Ann" in played["text"]
        assert not t.public_json()["seats"][0]["stand_in"]  # one move only

        # out of time a second time in a row: from then on a computer plays on for her
        await until_seat_in_turn(hub, clock, t, 0, step=0.8, me=me)
        clock.advance(15)
        await settle(hub, clock)
        assert t.seats[0].stored.timeouts == 2
        assert t.public_json()["seats"][0]["stand_in"] is True
        # "back to my seat": she plays again, on the clock
        back = Back.model_validate({"type": "back", "id": 1})
        await hub.back(t, me, back)
        assert t.seats[0].stored.timeouts == 0
        assert not t.public_json()["seats"][0]["stand_in"]
        await hub.close()

    run_apart(main)


def test_a_person_who_plays_in_time_plays_and_the_count_starts_again() -> None:
    async def main() -> None:
        hub, clock, t, _, me = await ann_in_turn(
            MemoryStorage(), ready=True, pace_ms=800, stand_in=None, turn_seconds=15
        )
        clock.advance(15)
        await settle(hub, clock)
        assert t.seats[0].stored.timeouts == 1
        await until_seat_in_turn(hub, clock, t, 0, step=0.8, me=me)
        clock.advance(14)
        m = t.game.legal_moves()[0]
        msg = {"type": "play", "tile": tile_name(m.tile), "end": m.end.word, "state": t.state}
        await hub.play(t, me, Play.model_validate(msg))
        assert t.seats[0].stored.timeouts == 0
        played = [e for e in t.events_json() if e["kind"] == "played" and e["seat"] == 0][-1]
        assert played["stand_in"] is False
        assert t.public_json()["clock"] is None or t.public_json()["clock"]["seat"] != 0
        await hub.close()

    run_apart(main)


def test_a_game_nobody_played_at_for_30_days_is_closed_and_its_record_kept() -> None:
    async def main() -> None:
        hub, clock, t, _ = await person_and_four_computers(MemoryStorage(), pace_ms=800)
        for _ in range(500):  # Ann never comes: the stand-in plays her round to its end
            await settle(hub, clock)
            if t.status == "between":
                break
            clock.advance(1.0)
        assert t.status == "between" and not t.finished
        clock.advance(29 * 86_400)
        await settle(hub, clock)
        assert not t.finished  # 29 days: still open
        clock.advance(2 * 86_400)
        await settle(hub, clock)
        assert t.finished and t.why_ended == "idle"
        assert t.public_json()["status"] == "finished"
        assert t.record_json()["format"] == "domeng.record/1"
        await hub.close()

    run_apart(main)


def test_only_games_in_progress_live_in_memory_and_a_finished_one_is_read_when_asked(
    tmp_path: Any,
) -> None:
    async def main() -> None:
        db = tmp_path / "t.sqlite3"
        clock = FakeClock()
        hub = Hub(SQLiteStorage(db), InlineRunner(), clock, deals=random.Random(3))
        await hub.load()
        seats = [{"kind": "computer", "level": "random"}] * 5
        short = NewTable.model_validate({"seats": seats, "pace_ms": 10, "end": {"rounds": 1}})
        done = (await hub.create_table(short)).table
        going = (await hub.create_table(NewTable.model_validate({"seats": seats}))).table
        watcher = Connection()
        hub.hello(t=done, c=watcher, token=None)
        for _ in range(500):
            await settle(hub, clock)
            if done.finished:
                break
            clock.advance(0.01)
        assert done.why_ended == "end"
        assert done.id in hub.tables  # watched: kept while someone is there
        hub.disconnect(done, watcher)
        assert done.id not in hub.tables and going.id in hub.tables
        record = done.record_json()
        await hub.close()

        again = Hub(SQLiteStorage(db), InlineRunner(), FakeClock())
        await again.load()  # a restart rebuilds the game in progress alone
        assert list(again.tables) == [going.id]
        found = await again.find(done.id)
        assert found.finished and found.record_json() == record
        assert (await again.store.finished_tables(10))[0]["id"] == done.id
        await again.close()

    run_apart(main)
