"""The standings a table sends, kept up as events come (the round in play's figures
added play by play, and the last ones sent again when a play changes none), are at
every step those worked out afresh from the whole game."""

from __future__ import annotations

import asyncio

from domeng.engine.standings import standings
from domeng.server.bodies import NewTable
from domeng.server.hub import Hub
from domeng.server.storage import MemoryStorage
from domeng.server.tables import Connection


def test_the_standings_sent_are_those_of_the_whole_game_at_every_step() -> None:
    async def play() -> int:
        hub = Hub(MemoryStorage())
        seats = [{"kind": "computer", "level": "random"}] * 5
        created = await hub.create_table(NewTable.model_validate({"seats": seats, "pace_ms": 0}))
        t = created.table
        watcher = Connection()
        hub.hello(t, watcher, None)
        checked, seen = 0, -1
        try:
            async with asyncio.timeout(60):
                while len(t.game.rounds) < 6:
                    await asyncio.sleep(0)
                    if t.state != seen:
                        seen = t.state
                        assert t.standings_json() == [s.json() for s in standings(t.game)]
                        checked += 1
                    while not watcher.outbox.empty():
                        watcher.outbox.get_nowait()
        finally:
            await hub.close()
        return checked

    assert asyncio.run(play()) > 100  # plays, round ends and deals
