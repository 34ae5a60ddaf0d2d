"""What a table shows (:mod:`domeng.server.showing`) and a seat's time away
(:mod:`domeng.server.seats`), in process on a fake clock: a seat kept for an invited
person is not open, a turn clock never shows time below zero, the record of the
finished rounds leaves the round in play out, and playing starts the time away
afresh."""

from __future__ import annotations

import random

from domeng.engine import tile_name
from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.messages import Play
from domeng.server.tables import Connection
from domeng.storage import MemoryStorage

from .conftest import run_apart
from .test_server_clock import InlineRunner, ann_in_turn, settle


def test_a_seat_kept_for_an_invited_person_is_not_open() -> None:
    async def main() -> None:
        hub = Hub(MemoryStorage(), InlineRunner(), FakeClock(), deals=random.Random(1))
        seats = [
            {"kind": "person", "name": "Ann"},
            {"kind": "person"},  # invited
            {"kind": "person", "open": True},  # anyone's
        ] + [{"kind": "computer", "level": "random"}] * 2
        t = (await hub.create_table(NewTable.model_validate({"seats": seats}))).table
        shown = [(s["open"], s["invited"], s["taken"]) for s in t.public_json()["seats"]]
        assert shown[:3] == [(False, False, True), (False, True, False), (True, False, False)]
        assert t.public_json()["links"]["join"] == [f"/?table={t.id}&seat=2"]
        await hub.close()

    run_apart(main)


def test_a_turn_clock_past_its_deadline_shows_none_left_never_less() -> None:
    async def main() -> None:
        hub, clock, t, _, _ = await ann_in_turn(
            MemoryStorage(), ready=True, pace_ms=800, stand_in=None, turn_seconds=15
        )
        assert t.deadline is not None
        t.deadline = clock.now() - 2.5  # its timer late (a busy loop): due, not yet run
        shown = t.public_json()["clock"]
        assert shown == {"seat": 0, "left_ms": 0, "deadline": round(clock.wall(), 3)}
        await hub.close()

    run_apart(main)


def test_the_record_of_the_finished_rounds_leaves_the_round_in_play_out() -> None:
    """At a table of computers the record goes up to the last play; the record the
    replays and reviews read (its finished rounds) does not hold the round in play."""

    async def main() -> None:
        clock = FakeClock()
        hub = Hub(MemoryStorage(), InlineRunner(), clock, deals=random.Random(4))
        seats = [{"kind": "computer", "level": "random"}] * 5
        t = (await hub.create_table(NewTable.model_validate({"seats": seats}))).table
        hub.hello(t, Connection(), None)  # watched: it plays
        for _ in range(5):
            clock.advance(1)
            await settle(hub, clock)
        assert t.in_round and len(t.game.rounds) == 1 and t.game.round.plays
        assert len(t.record_json()["rounds"]) == 1
        assert t.record_json(finished_rounds=True)["rounds"] == []
        await hub.close()

    run_apart(main)


def test_playing_starts_the_time_away_afresh() -> None:
    """Away 20 of the table's 30 seconds, back, and she plays: the next absence has its
    whole 30 seconds before the stand-in takes her seat."""

    async def main() -> None:
        hub, clock, t, token, me = await ann_in_turn(
            MemoryStorage(), ready=True, pace_ms=800, stand_in="random", replace_after_ms=30_000
        )
        hub.disconnect(t, me)
        clock.advance(20)
        await settle(hub, clock)
        me = Connection()
        hub.hello(t, me, token)  # back, 10 seconds to spare
        m = t.game.legal_moves()[0]
        msg = {"type": "play", "tile": tile_name(m.tile), "end": m.end.word, "state": t.state}
        await hub.play(t, me, Play.model_validate(msg))
        hub.disconnect(t, me)
        clock.advance(29.9)
        await settle(hub, clock)
        assert t.public_json()["seats"][0]["stand_in"] is False
        clock.advance(0.1)
        await settle(hub, clock)
        assert t.public_json()["seats"][0]["stand_in"] is True
        await hub.close()

    run_apart(main)
