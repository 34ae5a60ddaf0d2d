"""A table always moves on (issue 26, 1): the next round waits for ``ready`` until a
deadline, a seat nobody takes until another, the away rule counts time away from play,
``back`` takes a seat back once a round, and a table where several people sit has a
turn clock unless its creator turns it off. Every wait is the table's ``waiting_for``.
All on a fake clock."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from domeng.engine import tile_name
from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.host import HostAction, act
from domeng.server.hub import Hub
from domeng.server.messages import Back, Play, Ready
from domeng.server.tables import CLOCK_OUTS, Connection, Table, TableError
from domeng.server.waits import (
    MIN_READY_SECONDS,
    READY_SECONDS,
    SEAT_SECONDS,
    ready_has_deadline,
    ready_waits,
)
from domeng.storage import MemoryStorage

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle

ANN = {"kind": "person", "name": "Ann"}
BO = {"kind": "person", "name": "Bo"}
COMPUTER = {"kind": "computer", "level": "random"}


DEALS_SEED = 0


async def table(seats: list[Any], **settings: Any) -> tuple[Hub, FakeClock, Table, Any]:
    clock = FakeClock()
    # the deals are seeded: a test plays the same rounds every time (none skips by chance)
    hub = Hub(MemoryStorage(), InlineRunner(), clock, deals=random.Random(DEALS_SEED))
    await hub.load()
    settings.setdefault("pace_ms", 800)
    created = await hub.create_table(NewTable.model_validate({"seats": seats, **settings}))
    return hub, clock, created.table, created


async def play_round(hub: Hub, clock: FakeClock, t: Table, seats: dict[int, Connection]) -> None:
    """The people of ``seats`` play their moves until the round is over."""
    for _ in range(2000):
        await settle(hub, clock)
        if t.status != "playing":
            return
        turn = t.game.turn
        if turn in seats and t.computer_level(turn) is None:
            m = t.game.legal_moves()[0]
            msg = {"type": "play", "tile": tile_name(m.tile), "end": m.end.word, "state": t.state}
            await hub.play(t, seats[turn], Play.model_validate(msg))
        else:
            clock.advance(0.8)
    raise AssertionError("the round did not end")


async def until_ann_in_turn(hub: Hub, clock: FakeClock, t: Table) -> None:
    """The computers play (on the fake clock) until seat 0, Ann's, is in turn."""
    for _ in range(400):
        await settle(hub, clock)
        if t.game.turn == 0:
            return
        clock.advance(0.8)
    raise AssertionError("Ann's turn did not come")


async def ready(hub: Hub, t: Table, c: Connection) -> None:
    await hub.ready(t, c, Ready.model_validate({"type": "ready", "id": 1}))


async def host(hub: Hub, t: Table, token: str, action: str) -> Any:
    return await act(hub, t, HostAction.model_validate({"token": token, "action": action}))


@pytest.mark.parametrize(
    ("turn_seconds", "wait"),
    [(None, READY_SECONDS), (40, 40), (5, MIN_READY_SECONDS), (15, 15)],
)
def test_the_next_round_waits_for_ready_until_its_deadline(
    turn_seconds: int | None, wait: int
) -> None:
    async def main() -> None:
        hub, clock, t, created = await table(
            [ANN, BO] + [COMPUTER] * 3, stand_in=None, turn_seconds=turn_seconds
        )
        ann, bo = Connection(), Connection()
        hub.hello(t, ann, created.tokens[0])
        hub.hello(t, bo, created.tokens[1])
        await play_round(hub, clock, t, {0: ann, 1: bo})
        assert t.status == "between"
        await ready(hub, t, bo)  # Bo is ready at once: Ann holds him up
        waiting = t.public_json()["waiting_for"]
        assert waiting is not None
        assert waiting["kind"] == "ready" and waiting["seats"] == [0]
        assert waiting["seconds"] == wait
        assert waiting["deadline"] == pytest.approx(clock.wall() + wait, abs=0.01)

        clock.advance(wait - 0.001)
        await settle(hub, clock)
        assert t.status == "between" and len(t.game.rounds) == 1  # not yet

        clock.advance(0.001)  # the deadline: the round starts without her
        await settle(hub, clock)
        assert t.seats[0].stored.timeouts >= CLOCK_OUTS and t.public_json()["waiting_for"] is None
        clock.advance(0.8)
        await settle(hub, clock)
        assert len(t.game.rounds) == 2 and t.status == "playing"
        assert t.public_json()["waiting_for"] is None
        assert t.seats[0].stored.timeouts >= CLOCK_OUTS  # kept, as a time-out is
        assert t.public_json()["seats"][0]["stand_in"] is True
        # she is back: the computer stops playing for her
        await hub.back(t, ann, Back.model_validate({"type": "back", "id": 2}))
        assert t.public_json()["seats"][0]["stand_in"] is False
        await hub.close()

    run_apart(main)


def test_ready_in_time_deals_at_once_and_the_wait_is_gone() -> None:
    async def main() -> None:
        hub, clock, t, created = await table([ANN] + [COMPUTER] * 4, stand_in=None)
        ann = Connection()
        hub.hello(t, ann, created.tokens[0])
        await play_round(hub, clock, t, {0: ann})
        clock.advance(READY_SECONDS - 1)
        await ready(hub, t, ann)
        await settle(hub, clock)
        assert len(t.game.rounds) == 2 and t.public_json()["waiting_for"] is None
        assert t.seats[0].stored.timeouts == 0
        assert t.public_json()["seats"][0]["stand_in"] is False
        await hub.close()

    run_apart(main)


def test_two_people_one_ready_the_round_starts_without_the_other() -> None:
    async def main() -> None:
        bo = {"kind": "person", "name": "Bo"}
        hub, clock, t, created = await table(
            [ANN, bo] + [COMPUTER] * 3, stand_in=None, turn_seconds=None
        )
        ann, b = Connection(), Connection()
        hub.hello(t, ann, created.tokens[0])
        hub.hello(t, b, created.tokens[1])
        await play_round(hub, clock, t, {0: ann, 1: b})
        await ready(hub, t, ann)
        await settle(hub, clock)
        waiting = t.public_json()["waiting_for"]
        assert waiting["kind"] == "ready" and waiting["seats"] == [1]  # Ann is ready
        clock.advance(READY_SECONDS)
        await settle(hub, clock)
        assert len(t.game.rounds) == 2  # at once: Ann plays it
        seats = t.public_json()["seats"]
        assert seats[0]["stand_in"] is False and seats[1]["stand_in"] is True
        await hub.close()

    run_apart(main)


def test_the_host_starts_the_next_round_now() -> None:
    async def main() -> None:
        hub, clock, t, created = await table([ANN] + [COMPUTER] * 4, stand_in=None)
        ann = Connection()
        hub.hello(t, ann, created.tokens[0])
        with pytest.raises(TableError) as refused:  # a round is being played
            await host(hub, t, created.host_token, "next_round")
        assert refused.value.code == "not_waiting" and refused.value.status == 409
        await play_round(hub, clock, t, {0: ann})
        answer = await host(hub, t, created.host_token, "next_round")
        assert answer["table"]["waiting_for"] is None
        clock.advance(0.8)  # the pace: only computers play the next round
        await settle(hub, clock)
        assert len(t.game.rounds) == 2
        assert t.public_json()["seats"][0]["stand_in"] is True
        await hub.close()

    run_apart(main)


def test_a_seat_nobody_takes_is_waited_for_then_a_computer_plays_it() -> None:
    async def main() -> None:
        friend = {"kind": "person"}  # invited
        hub, clock, t, created = await table([ANN, friend] + [COMPUTER] * 3)
        ann = Connection()
        hub.hello(t, ann, created.tokens[0])
        await settle(hub, clock)
        waiting = t.public_json()["waiting_for"]
        assert t.status == "waiting"
        assert waiting["kind"] == "seats" and waiting["seats"] == [1]
        assert waiting["seconds"] == SEAT_SECONDS
        clock.advance(SEAT_SECONDS - 0.001)
        await settle(hub, clock)
        assert t.status == "waiting"
        clock.advance(0.001)
        await settle(hub, clock)
        assert t.status == "playing" and t.public_json()["waiting_for"] is None
        assert t.computer_level(1) is not None  # a computer plays the empty seat
        assert t.public_json()["seats"][1]["taken"] is False  # still the friend's to take
        await hub.close()

    run_apart(main)


def test_the_host_waits_longer_or_starts_now() -> None:
    async def main() -> None:
        friend = {"kind": "person"}
        hub, clock, t, created = await table([ANN, friend] + [COMPUTER] * 3)
        clock.advance(SEAT_SECONDS - 10)
        await host(hub, t, created.host_token, "wait")  # the whole time again, from now
        assert t.public_json()["waiting_for"]["seconds"] == SEAT_SECONDS
        clock.advance(SEAT_SECONDS - 0.001)
        await settle(hub, clock)
        assert t.status == "waiting"
        await host(hub, t, created.host_token, "start")
        await settle(hub, clock)
        assert t.status == "playing"
        with pytest.raises(TableError) as refused:
            await host(hub, t, created.host_token, "start")
        assert refused.value.code == "not_waiting"
        await hub.close()

    run_apart(main)


def test_a_table_nobody_sits_at_waits_for_no_deadline() -> None:
    async def main() -> None:
        hub, clock, t, _ = await table([{"kind": "person", "open": True}] * 2 + [COMPUTER] * 3)
        await settle(hub, clock)
        assert t.public_json()["waiting_for"] is None
        clock.advance(SEAT_SECONDS * 10)
        await settle(hub, clock)
        assert t.status == "waiting"
        await hub.close()

    run_apart(main)


def test_coming_back_for_a_moment_does_not_put_the_stand_in_off() -> None:
    """Reconnecting every 10 s and never playing: 30 s away in all, and the stand-in
    plays for her (each hello restarted the count before)."""

    async def main() -> None:
        hub, clock, t, created = await table(
            [ANN] + [COMPUTER] * 4, stand_in="random", replace_after_ms=30_000
        )
        token = created.tokens[0]
        me = Connection()
        hub.hello(t, me, token)
        await until_ann_in_turn(hub, clock, t)
        state = t.state
        hub.disconnect(t, me)
        for _ in range(2):  # 10 s away, back for a moment, twice: 20 s away in all
            clock.advance(10)
            await settle(hub, clock)
            me = Connection()
            hub.hello(t, me, token)
            clock.advance(0.5)
            await settle(hub, clock)
            hub.disconnect(t, me)
        clock.advance(9.999)
        await settle(hub, clock)
        assert t.state == state and not t.public_json()["seats"][0]["stand_in"]
        clock.advance(0.001)  # 30 s away from play in all
        await settle(hub, clock)
        assert t.public_json()["seats"][0]["stand_in"] is True
        clock.advance(0.8)
        await settle(hub, clock)
        assert t.state > state  # the stand-in played for her
        await hub.close()

    run_apart(main)


def test_an_away_seat_shows_when_its_stand_in_takes_over_to_the_millisecond() -> None:
    """The away rule's countdown is the seat's ``away``: none while she is here; when she
    goes, the deadline her time away adds up to (the same in every message, kept
    across a moment back); none once the stand-in plays, nor without a stand-in."""

    async def main() -> None:
        hub, clock, t, created = await table(
            [ANN] + [COMPUTER] * 4, stand_in="random", replace_after_ms=30_000
        )
        token = created.tokens[0]
        me = Connection()
        hub.hello(t, me, token)
        await until_ann_in_turn(hub, clock, t)
        assert all(s["away"] is None for s in t.public_json()["seats"])  # she is here
        hub.disconnect(t, me)
        gone = clock.wall()
        away = t.public_json()["seats"][0]["away"]
        assert away == {"deadline": round(gone + 30, 3), "seconds": 30}
        clock.advance(10)
        await settle(hub, clock)
        assert t.public_json()["seats"][0]["away"] == away  # a deadline, not a time left
        me = Connection()
        hub.hello(t, me, token)  # back for 5 s: none while here
        assert t.public_json()["seats"][0]["away"] is None
        clock.advance(5)
        hub.disconnect(t, me)
        later = t.public_json()["seats"][0]["away"]
        assert later == {"deadline": round(gone + 35, 3), "seconds": 30}  # 20 s left
        clock.advance(19.999)
        await settle(hub, clock)
        assert t.public_json()["seats"][0]["away"] == later
        clock.advance(0.001)  # the stand-in plays for her: nothing more to count
        await settle(hub, clock)
        seat = t.public_json()["seats"][0]
        assert seat["stand_in"] is True and seat["away"] is None
        await hub.close()

    run_apart(main)


def test_no_away_countdown_where_no_stand_in_would_take_over() -> None:
    async def main() -> None:
        for settings in ({"stand_in": None}, {"replace_after_ms": None}):
            hub, clock, t, created = await table([ANN] + [COMPUTER] * 4, **settings)
            me = Connection()
            hub.hello(t, me, created.tokens[0])
            await settle(hub, clock)
            assert t.status == "playing"
            hub.disconnect(t, me)
            assert t.public_json()["seats"][0]["away"] is None, settings
            await hub.close()

    run_apart(main)


def test_back_takes_the_seat_back_once_a_round() -> None:
    async def main() -> None:
        hub, clock, t, created = await table([ANN] + [COMPUTER] * 4, stand_in=None, turn_seconds=15)
        ann = Connection()
        hub.hello(t, ann, created.tokens[0])
        back = Back.model_validate({"type": "back", "id": 1})
        for _ in range(CLOCK_OUTS):  # out of time twice: a computer plays on for her
            for _ in range(400):
                await settle(hub, clock)
                if t.game.turn == 0 and t.computer_level(0) is None:
                    break
                clock.advance(0.8)
            if t.status != "playing":
                pytest.skip("the round ended before Ann ran out of time twice")
            clock.advance(15)
            await settle(hub, clock)
        assert t.seats[0].stored.timeouts == CLOCK_OUTS
        number = len(t.game.rounds)
        await hub.back(t, ann, back)  # back: the first time in this round
        assert t.public_json()["seats"][0]["stand_in"] is False
        for _ in range(400):
            await settle(hub, clock)
            if t.game.turn == 0 or t.status != "playing":
                break
            clock.advance(0.8)
        if t.status != "playing" or len(t.game.rounds) != number:
            pytest.skip("the round ended before Ann's next turn")
        clock.advance(15)  # out of time again without playing: at once, a computer
        await settle(hub, clock)
        assert t.seats[0].stored.timeouts >= CLOCK_OUTS
        assert t.public_json()["seats"][0]["stand_in"] is True
        with pytest.raises(TableError) as refused:  # not again in this round
            await hub.back(t, ann, back)
        assert refused.value.code == "back_limited"
        await hub.close()

    run_apart(main)


@pytest.mark.parametrize(
    ("seats", "named", "clock"),
    [
        ([ANN, {"kind": "person"}] + [COMPUTER] * 3, {}, 60),
        ([ANN, {"kind": "person"}] + [COMPUTER] * 3, {"turn_seconds": None}, None),
        ([ANN, {"kind": "person"}] + [COMPUTER] * 3, {"turn_seconds": 30}, 30),
        ([ANN] + [COMPUTER] * 4, {}, None),
        ([{"kind": "person", "open": True}] * 5, {}, 60),
    ],
)
def test_a_table_where_people_sit_has_a_turn_clock_unless_turned_off(
    seats: list[Any], named: dict[str, Any], clock: int | None
) -> None:
    body = NewTable.model_validate({"seats": seats, **named})
    assert body.settings().turn_seconds == clock


def test_a_seat_nobody_sits_in_is_not_waited_for_between_rounds() -> None:
    async def main() -> None:
        hub, clock, t, created = await table(
            [ANN, {"kind": "person", "open": True}] + [COMPUTER] * 3, stand_in=None
        )
        ann = Connection()
        hub.hello(t, ann, created.tokens[0])
        await host(hub, t, created.host_token, "start")  # without the open seat
        await play_round(hub, clock, t, {0: ann})
        assert ready_waits(t) == [0]  # Ann alone: the open seat is not waited for
        assert t.public_json()["waiting_for"] is None  # and she holds nobody up
        await ready(hub, t, ann)
        await settle(hub, clock)
        assert len(t.game.rounds) == 2  # the open seat did not hold it
        await hub.close()

    run_apart(main)


def test_ready_brings_a_person_back_from_the_stand_in() -> None:
    async def main() -> None:
        hub, clock, t, created = await table(
            [ANN, BO] + [COMPUTER] * 3, stand_in=None, turn_seconds=None
        )
        ann, bo = Connection(), Connection()
        hub.hello(t, ann, created.tokens[0])
        hub.hello(t, bo, created.tokens[1])
        await play_round(hub, clock, t, {0: ann, 1: bo})
        await ready(hub, t, bo)
        clock.advance(READY_SECONDS)  # not ready in time: a computer plays round 2 for her
        await settle(hub, clock)
        clock.advance(0.8)
        await settle(hub, clock)
        assert len(t.game.rounds) == 2
        await play_round(hub, clock, t, {1: bo})
        assert len(t.game.rounds) == 2 and t.status == "between"
        assert t.public_json()["seats"][0]["stand_in"] is True
        await ready(hub, t, bo)
        await ready(hub, t, ann)  # ready for round 3: she plays it herself
        clock.advance(0.8)
        await settle(hub, clock)
        assert len(t.game.rounds) == 3
        assert t.public_json()["seats"][0]["stand_in"] is False
        assert t.seats[0].stored.timeouts == 0
        await hub.close()

    run_apart(main)


def test_a_person_alone_with_computers_is_waited_for_without_a_deadline() -> None:
    """Nobody else sits: reading the round's summary for ten minutes holds nobody up, so
    no computer takes her seat and no "time ran out" is said; "ready" deals at once."""

    async def main() -> None:
        hub, clock, t, created = await table([ANN] + [COMPUTER] * 4, stand_in=None)
        ann = Connection()
        hub.hello(t, ann, created.tokens[0])
        await play_round(hub, clock, t, {0: ann})
        assert t.status == "between" and ready_waits(t) == [0]
        assert not ready_has_deadline(t) and t.public_json()["waiting_for"] is None
        for _ in range(10):
            clock.advance(READY_SECONDS)
            await settle(hub, clock)
        assert len(t.game.rounds) == 1 and t.status == "between"
        assert t.seats[0].stored.timeouts == 0
        assert t.public_json()["seats"][0]["stand_in"] is False
        await ready(hub, t, ann)
        await settle(hub, clock)
        assert len(t.game.rounds) == 2 and t.status == "playing"
        await hub.close()

    run_apart(main)


def test_the_deadline_comes_with_a_second_person_or_a_tournament() -> None:
    """The ready wait ends at a deadline exactly when going on spares someone: a second
    person who sits (an open seat nobody took is nobody), or the tournament the table plays for."""

    async def main() -> None:
        hub1, _, alone, _ = await table([ANN] + [COMPUTER] * 4)
        assert not ready_has_deadline(alone)
        open_seat = {"kind": "person", "open": True}
        hub2, _, invited, _ = await table([ANN, open_seat] + [COMPUTER] * 3)  # nobody took it
        assert not ready_has_deadline(invited)
        hub3, _, two, _ = await table([ANN, BO] + [COMPUTER] * 3)
        assert ready_has_deadline(two)
        alone.settings = dataclasses.replace(alone.settings, tournament="abcdef0123")
        assert ready_has_deadline(alone)
        for hub in (hub1, hub2, hub3):
            await hub.close()

    run_apart(main)
