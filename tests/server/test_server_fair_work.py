"""Fair work (issue 26, 2): a computer's move never waits behind a hint, a review or a
replay; one person's flood never fills a queue another waits in; a long answer nobody
reads is given up and its file removed."""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
from pathlib import Path
from typing import Any

import pytest

from domeng.server import streams
from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.messages import Hint
from domeng.server.players import BotRunner
from domeng.server.protocols import GIVE_UP
from domeng.server.replays import Replays
from domeng.server.tables import Connection, Table, TableError
from domeng.server.work import IN_FLIGHT, InFlight
from domeng.server.workers import HINT_NICE, RECORD_NICE, in_pool
from domeng.storage import MemoryStorage

from .conftest import drain, run_apart
from .test_server_clock import InlineRunner, settle
from .test_server_replays import long_record

WAIT = 60.0
"""Seconds an answer that must come may take (an upper bound: a loaded machine once
took more than 5 s for hints let go at once); a refusal comes at once."""


def test_each_kind_of_work_has_its_own_workers_and_priority() -> None:
    """A hint runs in the coach's workers, a review or a replay in the records' worker,
    each lower than the computer players' (which run at the service's own)."""

    async def main() -> tuple[int, int, int, int]:
        runner, replays = BotRunner(processes=1), Replays()
        try:
            moves = await in_pool(runner._executor(), os.nice, 0)
            hints = await runner.think(os.nice, 0)
            records = await replays.run(os.nice, 0)
            return os.nice(0), moves, hints, records
        finally:
            runner.close()
            replays.close()

    mine, moves, hints, records = run_here(main)
    assert moves == mine
    assert hints == min(19, mine + HINT_NICE)
    assert records == min(19, mine + RECORD_NICE)


def run_here(main: Any) -> Any:
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result(timeout=120)


def test_a_computers_move_is_never_queued_behind_a_hint() -> None:
    """The coach's only worker is held until a computer's move has been chosen: were the
    move queued behind the hint, neither would end (the move's wait would run out)."""
    with multiprocessing.Manager() as manager:
        made = manager.Event()

        async def main() -> tuple[bool, int]:
            runner = BotRunner(processes=1, coaches=1)
            try:
                hint = asyncio.ensure_future(runner.think(made.wait, 120))
                await asyncio.sleep(0.2)
                move = await asyncio.wait_for(in_pool(runner._executor(), pow, 2, 3), 100)
                made.set()
                return await hint, move
            finally:
                runner.close()

        assert run_here(main) == (True, 8)


class Slow(InlineRunner):
    """A coach that thinks until the test lets it answer."""

    def __init__(self) -> None:
        self.let_go = asyncio.Event()
        self.thinking = 0

    async def think(self, work: Any, *args: object) -> Any:
        self.thinking += 1
        await self.let_go.wait()
        return work(*args)


async def hint_table(hub: Hub, clock: FakeClock) -> tuple[Table, str]:
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": "random"}] * 4
    created = await hub.create_table(
        NewTable.model_validate({"seats": seats, "pace_ms": 0, "hints": True, "stand_in": None})
    )
    t = created.table
    for _ in range(200):
        await settle(hub, clock)
        if t.game.turn == 0 or t.status != "playing":
            break
        clock.advance(1)
    return t, created.tokens[0]


def hint(n: int) -> Hint:
    return Hint.model_validate({"type": "hint", "id": n})


def test_a_seat_has_one_hint_under_way_whichever_connection_asks() -> None:
    async def main() -> None:
        clock = FakeClock()
        runner = Slow()
        hub = Hub(MemoryStorage(), runner, clock)
        t, token = await hint_table(hub, clock)
        if t.game.turn != 0:
            pytest.skip("seat 0 had no turn in this deal")
        first, second = Connection(address="10.0.0.5"), Connection(address="10.0.0.6")
        hub.hello(t, first, token)
        hub.hello(t, second, token)
        asking = asyncio.ensure_future(hub.hint(t, first, hint(1)))
        await asyncio.sleep(0.01)
        assert runner.thinking == 1
        with pytest.raises(TableError) as refused:  # (not let through to wait its turn)
            await asyncio.wait_for(hub.hint(t, second, hint(2)), WAIT)  # the same seat
        assert refused.value.code == "busy" and refused.value.retry_after
        runner.let_go.set()
        await asyncio.wait_for(asking, WAIT)
        assert [m for m in drain(first) if m["type"] == "hint"]
        asked_again = asyncio.ensure_future(hub.hint(t, second, hint(3)))  # its turn now
        await asyncio.wait_for(asked_again, WAIT)
        assert [m["reply_to"] for m in drain(second) if m["type"] == "hint"] == [3]
        assert runner.thinking == 2
        await hub.close()

    run_apart(main)


def test_an_address_has_at_most_its_share_of_hints_under_way() -> None:
    async def main() -> None:
        clock = FakeClock()
        runner = Slow()
        hub = Hub(MemoryStorage(), runner, clock)
        asked = []
        cap = IN_FLIGHT["hint"]
        for _ in range(cap + 1):  # one seat at each of cap + 1 tables, all from one address
            t, token = await hint_table(hub, clock)
            if t.game.turn != 0:
                continue
            c = Connection(address="10.0.0.7")
            hub.hello(t, c, token)
            asked.append((t, c))
        if len(asked) < cap + 1:
            pytest.skip("a deal gave seat 0 no turn")
        under_way = [asyncio.ensure_future(hub.hint(t, c, hint(1))) for t, c in asked[:cap]]
        await asyncio.sleep(0.01)
        t, c = asked[cap]
        with pytest.raises(TableError) as refused:
            await asyncio.wait_for(hub.hint(t, c, hint(1)), WAIT)
        assert refused.value.code == "busy"
        other = Connection(address="10.0.0.8")  # another person is not held up
        hub.hello(t, other, None)
        runner.let_go.set()
        await asyncio.wait_for(asyncio.gather(*under_way), WAIT)
        await hub.hint(t, c, hint(2))  # the share is back once they are answered
        assert [m["reply_to"] for m in drain(c) if m["type"] == "hint"] == [2]
        await hub.close()

    run_apart(main)


def test_work_under_way_is_counted_per_address_and_kind() -> None:
    f = InFlight({"review": 1, "hint": 2})
    f.take("a", "review")
    with pytest.raises(TableError) as refused:
        f.take("a", "review")
    assert refused.value.code == "busy" and refused.value.status == 429
    f.take("b", "review")  # another address
    f.take("a", "hint")
    f.take("a", "hint")  # two hints: its share
    with pytest.raises(TableError):
        f.take("a", "hint")
    f.release("a", "review")
    f.take("a", "review")  # once one is over, another
    with f.hold("c", "review"):
        assert f.under_way("c", "review") == 1
    assert f.under_way("c", "review") == 0
    with pytest.raises(RuntimeError), f.hold("c", "review"):
        raise RuntimeError("the work failed")
    assert f.under_way("c", "review") == 0  # released however it ends


def test_a_long_answer_nobody_reads_is_given_up_and_its_file_removed(tmp_path: Path) -> None:
    """:class:`StreamedFile` sends a file a piece at a time; a piece the client does not
    take within the write deadline gives the client up (its connection is reset), and
    however the answer ends the file is removed and ``done`` called once."""

    def answer(name: str) -> Path:
        path = tmp_path / name
        path.write_bytes(b"x" * (streams.PIECE * 2 + 10))
        return path

    async def send_all(path: Path) -> tuple[list[Any], list[str]]:
        sent: list[Any] = []
        said: list[str] = []
        scope = {"type": "http", "extensions": {GIVE_UP: {"give_up": lambda: said.append("up")}}}

        async def send(message: Any) -> None:
            sent.append(message)

        response = streams.StreamedFile(
            path, media_type="application/json", done=lambda: said.append("done"), idle=0.05
        )
        await response(scope, None, send)  # type: ignore[arg-type]
        return sent, said

    async def send_to_nobody(path: Path) -> list[str]:
        said: list[str] = []
        scope = {"type": "http", "extensions": {GIVE_UP: {"give_up": lambda: said.append("up")}}}
        taken = 0

        async def send(message: Any) -> None:
            nonlocal taken
            taken += 1
            if taken > 2:  # the head and a first piece, then the client stops reading
                await asyncio.Event().wait()

        response = streams.StreamedFile(
            path, media_type="application/json", done=lambda: said.append("done"), idle=0.05
        )
        await response(scope, None, send)  # type: ignore[arg-type]
        return said

    read = answer("read.json")
    sent, said = run_here(lambda: send_all(read))
    assert said == ["done"] and not read.exists()
    head = dict(sent[0]["headers"])
    assert head[b"content-length"] == str(streams.PIECE * 2 + 10).encode() and b"etag" in head
    assert b"".join(m.get("body", b"") for m in sent[1:]) == b"x" * (streams.PIECE * 2 + 10)
    assert sent[-1]["more_body"] is False

    unread = answer("unread.json")
    assert run_here(lambda: send_to_nobody(unread)) == ["up", "done"]
    assert not unread.exists()


def test_the_replays_folder_holds_at_most_its_limit() -> None:
    replays = Replays()
    replays.kept_limit = 1

    async def main() -> None:
        try:
            long = await replays.replay(json.dumps(long_record(120)).encode())
            assert isinstance(long, Path) and replays.kept > 0  # kept until it is sent
            with pytest.raises(TableError) as refused:  # the folder is full
                await replays.replay(json.dumps(long_record(1)).encode())
            assert refused.value.code == "busy" and refused.value.status == 503
            long.unlink()
            replays.forget(long)  # sent: there is room again
            assert isinstance(await replays.replay(json.dumps(long_record(1)).encode()), bytes)
        finally:
            replays.close()

    run_here(main)
