"""The standings a table sends, kept up as events come (the round in play's figures
added play by play, and the last ones sent again when a play changes none), are at
every change those worked out afresh from the whole game."""

from __future__ import annotations

import asyncio
from typing import Any

from domeng.engine.standings import standings
from domeng.server.bodies import NewTable
from domeng.server.hub import Hub
from domeng.server.tables import Connection, Table
from domeng.storage import MemoryStorage

from .conftest import run_apart


def test_the_standings_sent_are_those_of_the_whole_game_at_every_change() -> None:
    checked: list[int] = []

    async def play() -> None:
        hub = Hub(MemoryStorage())
        sent = Table.broadcast

        def checking(t: Table, **kwargs: Any) -> None:  # every change is broadcast
            assert t.standings_json() == [s.json() for s in standings(t.game)]
            checked.append(t.state)
            sent(t, **kwargs)

        Table.broadcast = checking  # type: ignore[method-assign]
        seats = [{"kind": "computer", "level": "random"}] * 5
        created = await hub.create_table(NewTable.model_validate({"seats": seats, "pace_ms": 0}))
        t = created.table
        watcher = Connection()
        hub.hello(t, watcher, None)
        try:
            async with asyncio.timeout(60):
                while len(t.game.rounds) < 6:
                    await asyncio.sleep(0.001)
                    while not watcher.outbox.empty():
                        watcher.outbox.get_nowait()
        finally:
            Table.broadcast = sent  # type: ignore[method-assign]
            await hub.close()

    run_apart(play)
    assert len(checked) > 50  # the plays, round ends and deals of five rounds and more
