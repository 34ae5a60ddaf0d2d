"""Who counts as watching a table: a connection too far behind is told why and closed
with code 1008, and neither it nor one who left in the pause keeps computer players going."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

from domeng.server.bodies import NewTable
from domeng.server.frames import Framed
from domeng.server.hub import Hub
from domeng.server.tables import QUEUE_LIMIT, Connection, Table
from domeng.storage import SQLiteStorage

from .conftest import run_apart


def text_of(framed: Framed | None) -> str | None:
    """What the outbox holds, as the text it sends (None: the writer closes)."""
    return None if framed is None else framed.text


def test_a_connection_too_far_behind_gets_an_error_then_is_closed() -> None:
    c = Connection()
    for n in range(QUEUE_LIMIT + 5):
        c.send({"type": "pong", "reply_to": n, "state": 0})
    queued = [text_of(c.outbox.get_nowait()) for _ in range(c.outbox.qsize())]
    assert queued[-1] is None  # the writer closes after what is queued
    error = json.loads(queued[-2] or "")
    assert error["type"] == "error"
    assert error["code"] == "too_far_behind"
    assert str(QUEUE_LIMIT) in error["message"]
    assert error["reply_to"] is None
    assert [json.loads(q or "")["reply_to"] for q in queued[:-2]] == list(range(QUEUE_LIMIT))
    assert c.closed
    assert c.close_code == 1008
    c.send({"type": "pong"})  # nothing more once closed
    assert c.outbox.empty()


def test_a_connection_closed_for_falling_behind_no_longer_watches(tmp_path: Path) -> None:
    # A client that says hello and never reads fell behind and was closed, but stayed
    # among the table's connections until its socket ended: a table of computer
    # players, which deals on only while watched, played on for it.
    async def main() -> tuple[int, int]:
        hub, t = await computer_table(tmp_path, pace_ms=0)
        await round_over(t)
        c = Connection()
        hub.hello(t, c, None)
        for _ in range(QUEUE_LIMIT + 1):
            c.send({"type": "pong"})
        assert c.closed and c in t.connections
        return await rounds_before_and_after_a_while(hub, t)

    at_close, later = run_apart(main)
    assert later <= at_close + 1  # at most the round it was dealing when it closed


def test_a_watcher_who_leaves_in_the_pause_between_rounds_stops_the_next(
    tmp_path: Path,
) -> None:
    async def main() -> tuple[int, int]:
        hub, t = await computer_table(tmp_path, pace_ms=100)
        c = Connection()
        hub.hello(t, c, None)
        await round_over(t)
        hub.disconnect(t, c)  # gone during the pause before the next deal
        return await rounds_before_and_after_a_while(hub, t)

    at_leave, later = run_apart(main)
    assert later == at_leave


async def computer_table(tmp_path: Path, pace_ms: int) -> tuple[Hub, Table]:
    hub = Hub(SQLiteStorage(tmp_path / "t.sqlite3"))
    seats = [{"kind": "computer", "level": "random"}] * 5
    created = await hub.create_table(NewTable.model_validate({"seats": seats, "pace_ms": pace_ms}))
    t, _ = created.table, created.tokens
    return hub, t


async def round_over(t: Table) -> None:
    while t.status != "between":
        await asyncio.sleep(0.005)


async def rounds_before_and_after_a_while(hub: Hub, t: Table) -> tuple[int, int]:
    """The rounds dealt now and half a second later; then the hub is closed."""
    before = len(t.game.rounds)
    await asyncio.sleep(0.5)
    after = len(t.game.rounds)
    await hub.close()
    return before, after


def test_a_connection_too_many_characters_behind_is_closed_too() -> None:
    from domeng.server.connection import QUEUE_BYTES

    c = Connection()
    big = "x" * 100_000
    for _ in range(QUEUE_BYTES // len(big) + 2):
        c.send({"type": "pong", "pad": big})
    assert c.closed and c.close_code == 1008
    texts = [text_of(c.outbox.get_nowait()) for _ in range(c.outbox.qsize())]
    assert json.loads(texts[-2] or "")["code"] == "too_far_behind"
    assert len(texts) - 2 <= QUEUE_BYTES // len(big)  # far fewer than QUEUE_LIMIT messages


def test_an_update_is_encoded_once_per_view_and_the_same_text_goes_to_all(
    tmp_path: Path, monkeypatch: Any
) -> None:
    import domeng.server.fanout as fanout_module
    import domeng.server.tables as hub_module

    encoded: list[str] = []
    real = hub_module.encode

    def counting(message: dict[str, Any]) -> str:
        encoded.append(message["type"])
        return real(message)

    monkeypatch.setattr(hub_module, "encode", counting)
    monkeypatch.setattr(fanout_module, "encode", counting)

    async def main() -> tuple[int, int]:
        hub, t = await computer_table(tmp_path, pace_ms=0)
        watchers = [Connection() for _ in range(50)]
        for c in watchers:
            hub.hello(t, c, None)
        for c in watchers:
            while not c.outbox.empty():
                c.outbox.get_nowait()
        encoded.clear()
        hub.broadcast(t, events=[])
        t.fanout.flush(t.id, watchers)  # the spectators' batch goes out now
        texts = {text_of(c.outbox.get_nowait()) for c in watchers}
        await hub.close()
        return len(encoded), len(texts)

    times, distinct = run_apart(main)
    assert times == 1  # fifty spectators share one view: one encoding
    assert distinct == 1
