"""A play that cannot be stored is not acknowledged, not sent to anyone, and not kept."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random

import pytest

from domeng.engine import tile_name
from domeng.server.bodies import NewTable
from domeng.server.hub import Hub
from domeng.server.messages import Play
from domeng.server.socket import answer
from domeng.server.tables import Connection
from domeng.storage import SQLiteStorage, StoredPlay

from .conftest import drain


class FailingStorage(SQLiteStorage):
    fail = False

    def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        if self.fail:
            raise OSError("disk full")
        super().add_play(table_id, number, index, play)


def test_a_play_that_cannot_be_stored_is_refused_and_forgotten(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def run() -> None:
        storage = FailingStorage(":memory:")
        # dealt from seed 10, seat 0 holds the LEMPA and opens: at a random deal the round
        # could end before seat 0 ever held a tile that fits (about one in 5,000)
        hub = Hub(storage, deals=random.Random(10))
        computer = {"kind": "computer", "level": "random"}
        created = await hub.create_table(
            NewTable.model_validate(
                {"seats": [{"kind": "person", "name": "Ann"}] + [computer] * 4, "pace_ms": 0}
            )
        )
        t, tokens = created.table, created.tokens
        for _ in range(500):  # the computer players move on the loop's next turns
            if t.game.turn == 0:
                break
            await asyncio.sleep(0.001)
        assert t.game.turn == 0
        me, watcher = Connection(), Connection()
        hub.hello(t, me, tokens[0])
        hub.hello(t, watcher, None)
        drain(me)
        drain(watcher)
        state = t.state
        events = [list(r.events) for r in t.game.rounds]
        move = t.game.legal_moves()[0]
        storage.fail = True
        message = {"type": "play", "tile": tile_name(move.tile), "end": move.end.word}
        message["state"] = state
        await answer(hub.play(t, me, Play.model_validate(message)), me, 1)
        (error,) = drain(me)
        assert error["type"] == "error"
        assert error["code"] == "storage"
        assert drain(watcher) == []
        assert t.state == state
        assert [list(r.events) for r in t.game.rounds] == events
        assert t.game.turn == 0
        assert "could not store a play" in caplog.text  # a fault of the service: logged
        caplog.clear()
        storage.fail = False
        await answer(hub.play(t, me, Play.model_validate(message)), me, 2)
        assert [m["type"] for m in drain(me)][:2] == ["ok", "update"]
        await hub.close()

    # in a thread of its own: another test (a browser's) may have a loop running here
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, run()).result(timeout=30)
