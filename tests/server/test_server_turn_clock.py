"""The turn clock (domeng.server.turnclock) to the millisecond, on a fake clock: each
person in turn gets the table's whole time, the second of two people in a row too;
it runs once per state, for the state it was armed at; it stops when disarmed, and
never runs where nobody is to move (no clock, no round, a finished game)."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from domeng.engine import tile_name
from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.messages import Play, Ready
from domeng.server.tables import Connection, Table
from domeng.server.turnclock import TurnClock
from domeng.storage import MemoryStorage

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle


@dataclass
class Settings:
    turn_seconds: int | None = 15


@dataclass
class Turn:
    turn: int | None = 0


@dataclass
class Tab:
    """What the turn clock reads of a table."""

    id: str = "t1"
    state: int = 1
    started: bool = True
    finished: bool = False
    deadline: float | None = None
    settings: Settings = field(default_factory=Settings)
    game: Turn = field(default_factory=Turn)


def _clock(busy: list[bool] | None = None) -> tuple[FakeClock, TurnClock, list[tuple[int, int]]]:
    """A turn clock whose table takes a time-out unless ``busy[0]`` (moving on by itself)."""
    clock = FakeClock()
    rang: list[tuple[int, int]] = []

    def time_out(t: Table, seat: int, state: int) -> bool:
        if busy and busy[0]:
            return False
        rang.append((seat, state))
        return True

    return clock, TurnClock(clock, time_out), rang


def _arm(tc: TurnClock, t: Tab) -> None:
    tc.arm(t)  # type: ignore[arg-type]


def test_the_person_in_turn_has_the_whole_time_to_the_millisecond() -> None:
    clock, tc, rang = _clock()
    t = Tab()
    _arm(tc, t)
    assert t.deadline == clock.now() + 15
    clock.advance(14.999)
    assert rang == []
    clock.advance(0.001)
    assert rang == [(0, 1)]
    clock.advance(60)
    assert rang == [(0, 1)]  # once


def test_the_clock_runs_once_per_state() -> None:
    clock, tc, rang = _clock()
    t = Tab()
    _arm(tc, t)
    clock.advance(10)
    _arm(tc, t)  # the same state again (a broadcast, a seat changed): no new time
    assert t.deadline == clock.now() + 5
    clock.advance(5)
    assert rang == [(0, 1)]


def test_a_time_out_while_the_table_is_busy_is_taken_once_it_is_not() -> None:
    """The time ran out while a computer's move was still being stored: the person does
    not get a second whole turn; the time-out is taken at the next arming, once."""
    busy = [True]
    clock, tc, rang = _clock(busy)
    t = Tab()
    _arm(tc, t)
    deadline = t.deadline
    clock.advance(15)
    assert rang == []  # the table could not take it yet
    _arm(tc, t)  # still busy (a move stored at this state): still waiting, same deadline
    assert rang == [] and t.deadline == deadline
    busy[0] = False
    _arm(tc, t)  # the table has moved on: the time-out now, not a new 15 s
    assert rang == [(0, 1)]
    _arm(tc, t)
    clock.advance(60)
    assert rang == [(0, 1)]  # once


def test_a_busy_time_out_is_forgotten_once_the_state_moves_on() -> None:
    busy = [True]
    clock, tc, rang = _clock(busy)
    t = Tab()
    _arm(tc, t)
    clock.advance(15)
    busy[0] = False
    t.state, t.game.turn = 2, 1  # the person played meanwhile: the next one's whole time
    _arm(tc, t)
    assert rang == [] and t.deadline == clock.now() + 15


def test_the_second_of_two_people_in_a_row_gets_the_whole_time() -> None:
    clock, tc, rang = _clock()
    t = Tab()
    _arm(tc, t)
    clock.advance(10)  # the first plays after 10 s; the next person is in turn
    t.state, t.game.turn = 2, 1
    _arm(tc, t)
    assert t.deadline == clock.now() + 15
    clock.advance(14.999)
    assert rang == []  # the first person's time is not the second's
    clock.advance(0.001)
    assert rang == [(1, 2)]


def test_the_time_out_is_for_the_state_the_clock_was_armed_at() -> None:
    clock, tc, rang = _clock()
    t = Tab()
    _arm(tc, t)
    t.state = 2  # moved on, the same seat in turn, not armed again
    clock.advance(15)
    assert rang == []
    t.state, t.game.turn = 1, 3  # the state, but another seat in turn
    _arm(tc, t)
    assert rang == []


def test_a_disarmed_clock_stops_and_shows_no_deadline() -> None:
    clock, tc, rang = _clock()
    t = Tab()
    _arm(tc, t)
    tc.disarm(t)  # type: ignore[arg-type]
    assert t.deadline is None
    clock.advance(60)  # the same state and seat: only the disarming keeps it quiet
    assert rang == []
    _arm(tc, t)  # armed again at the same state: the whole time again
    assert t.deadline == clock.now() + 15
    tc.close()
    clock.advance(60)
    assert rang == []


def test_a_clock_armed_again_after_a_disarming_runs_the_whole_time_from_then() -> None:
    """The seat in turn went to a computer and back to a person before the computer
    moved (the same state): the person's time runs from the new arming, and the first
    arming's timer, stopped, does not ring at its old deadline."""
    clock, tc, rang = _clock()
    t = Tab()
    _arm(tc, t)
    clock.advance(10)
    tc.disarm(t)  # type: ignore[arg-type]
    clock.advance(2)
    _arm(tc, t)  # 12 s in: 15 s from now
    assert t.deadline == clock.now() + 15
    clock.advance(3)  # the first arming's deadline
    assert rang == []
    clock.advance(11.999)
    assert rang == []
    clock.advance(0.001)
    assert rang == [(0, 1)]


def test_no_clock_where_nobody_is_to_move() -> None:
    cases: list[dict[str, Any]] = [
        {"settings": Settings(None)},
        {"started": False},
        {"finished": True},
        {"game": Turn(None)},
    ]
    for case in cases:
        clock, tc, rang = _clock()
        t = Tab(**case)
        t.deadline = 123.0  # an old deadline is taken away
        _arm(tc, t)
        assert t.deadline is None, case
        clock.advance(3600)
        assert rang == [], case


async def _two_people() -> tuple[Hub, FakeClock, Table, list[Connection]]:
    """Ann (0) and Budi (1) in a row, three computer players, 15 s a move."""
    clock = FakeClock()
    hub = Hub(MemoryStorage(), InlineRunner(), clock, deals=random.Random(5))
    await hub.load()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Budi"}]
    seats += [{"kind": "computer", "level": "random"}] * 3
    body = {"seats": seats, "pace_ms": 800, "stand_in": None, "turn_seconds": 15}
    created = await hub.create_table(NewTable.model_validate(body))
    t = created.table
    me = [Connection(), Connection()]
    for n in (0, 1):
        hub.hello(t, me[n], created.tokens[n])
    return hub, clock, t, me


async def _play_first_legal(hub: Hub, t: Table, c: Connection) -> None:
    m = t.game.legal_moves()[0]
    msg = {"type": "play", "tile": tile_name(m.tile), "end": m.end.word, "state": t.state}
    await hub.play(t, c, Play.model_validate(msg))


def test_two_people_in_a_row_each_get_the_whole_time_and_the_second_times_out() -> None:
    async def main() -> None:
        hub, clock, t, me = await _two_people()
        for _ in range(2000):  # until Ann plays and Budi is in turn straight after her
            await settle(hub, clock)
            if t.status == "between":
                for n in (0, 1):
                    if t.seats[n].stored.ready < len(t.game.rounds):
                        await hub.ready(t, me[n], Ready.model_validate({"type": "ready"}))
                continue
            if t.game.turn == 1:  # Budi after a computer: he plays at once
                await _play_first_legal(hub, t, me[1])
                continue
            if t.game.turn != 0:
                assert t.public_json()["clock"] is None  # no clock for a computer player
                clock.advance(0.8)
                continue
            clock.advance(10)  # Ann takes 10 s of her 15
            await settle(hub, clock)
            await _play_first_legal(hub, t, me[0])
            if t.game.turn == 1:
                break
        assert t.game.turn == 1
        state = t.state
        clock_json = t.public_json()["clock"]
        assert clock_json["seat"] == 1 and clock_json["left_ms"] == 15_000
        clock.advance(14.999)
        await settle(hub, clock)
        assert t.state == state and t.seats[1].stored.timeouts == 0
        clock.advance(0.001)  # Budi's own 15 s are over: a computer moves for him
        await settle(hub, clock)
        assert t.state > state and t.seats[1].stored.timeouts == 1
        assert t.seats[0].stored.timeouts == 0
        await hub.close()

    run_apart(main)
