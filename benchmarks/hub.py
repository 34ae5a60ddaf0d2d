"""The hub's own CPU a move, without sockets: tables of one scripted person and four
computer players at pace 0, in this process, on SQLite.

Each person is a coroutine reading its connection's outbox and playing through
:meth:`Hub.play` as soon as it is in turn (and saying it is ready after each round),
so the figures leave out uvicorn and the WebSocket frames but keep everything else
(the storage thread, the computer players, the updates). It prints the moves a
second, the CPU a move (the whole process, and the event loop's thread alone) and the
garbage collector's work, over ``--seconds`` after two seconds of warm-up; run it a
few times, the figures vary by a tenth from run to run.

    .venv/bin/python benchmarks/hub.py --tables 100 --seconds 8
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import random
import tempfile
import time
from pathlib import Path

from domeng.server import collector
from domeng.server.bodies import NewTable
from domeng.server.hub import Hub
from domeng.server.messages import Play, Ready
from domeng.server.tables import Connection, Table, TableError
from domeng.storage import SQLiteStorage


async def person(hub: Hub, t: Table, c: Connection, stop_at: float) -> None:
    ready_for = 0
    while time.monotonic() < stop_at:
        framed = await c.outbox.get()
        if framed is None:
            return
        c.sent(framed)  # as the socket's writer does
        m = json.loads(framed.text)
        if m["type"] not in ("state", "update") or m["view"] is None:
            continue
        v = m["view"]
        try:
            if v["summary"] is not None and ready_for != v["round"]:
                ready_for = v["round"]
                await hub.ready(t, c, Ready(type="ready"))
            elif v["summary"] is None and v["turn"] == 0 and v["legal_moves"]:
                first = v["legal_moves"][0]
                play = Play(type="play", state=m["state"], tile=first["tile"], end=first["end"])
                await hub.play(t, c, play)
        except TableError:
            pass  # the table moved on meanwhile: the next update says how


async def run(tables: int, seconds: float, level: str) -> None:
    folder = Path(tempfile.mkdtemp(prefix="domeng-hub-"))
    hub = Hub(SQLiteStorage(folder / "t.sqlite3"), deals=random.Random(1))
    await hub.load()
    computer = {"kind": "computer", "level": level}
    seats = [{"kind": "person", "name": "Bench"}] + [computer] * 4
    body = NewTable.model_validate({"seats": seats, "pace_ms": 0, "stand_in": None})
    at: list[tuple[Table, Connection]] = []
    for _ in range(tables):
        created = await hub.create_table(body)
        c = Connection()
        hub.hello(created.table, c, created.tokens[0])
        at.append((created.table, c))
    collector.settle()  # as domeng serve does once loaded
    collections = [0, 0, 0]

    def counted(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collections[info["generation"]] += 1

    stop_at = time.monotonic() + 2 + seconds
    players = [asyncio.create_task(person(hub, t, c, stop_at)) for t, c in at]
    await asyncio.sleep(2)
    gc.callbacks.append(counted)
    states = sum(t.state for t, _ in at)
    cpu, loop_cpu, began = time.process_time(), time.thread_time(), time.monotonic()
    await asyncio.sleep(seconds)
    moves = sum(t.state for t, _ in at) - states
    cpu, loop_cpu = time.process_time() - cpu, time.thread_time() - loop_cpu
    took = time.monotonic() - began
    gc.callbacks.remove(counted)
    for p in players:
        p.cancel()
    await asyncio.gather(*players, return_exceptions=True)
    await hub.close()
    print(f"{tables} tables of one person and four {level} players at pace 0, {took:.1f} s")
    print(f"moves a second: {moves / took:.0f}")
    print(
        f"CPU a move: {cpu / moves * 1000:.3f} ms ({loop_cpu / moves * 1000:.3f} ms on the "
        f"event loop's thread), {cpu / took:.0%} of a core"
    )
    print(f"garbage collections (young, middle, old): {collections}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=100)
    p.add_argument("--seconds", type=float, default=8.0)
    p.add_argument("--level", default="basic")
    args = p.parse_args()
    if not 0 < args.tables <= 2000 or not 0 < args.seconds <= 120:
        raise SystemExit("keep it bounded: 1-2000 tables, up to 120 seconds")
    asyncio.run(run(args.tables, args.seconds, args.level))


if __name__ == "__main__":
    main()
