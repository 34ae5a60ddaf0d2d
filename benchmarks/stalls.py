"""How long the service's event loop stalls during a long replay and during floods.

Starts `domeng serve` (a real process, loopback only), connects one spectator that
pings every 100 ms and keeps each wait for a ``pong`` (in a process of its own, so that
this script's own work — reading a 27 MB answer, sending a flood — does not count as
the service's), and meanwhile:

1. asks for the replay of a ``--rounds``-round game (``POST /api/replay``);
2. floods ``sync`` from ``--flooders`` connections (``--messages`` each);
3. sends ``--messages`` bad ``hello``s from one connection;
4. creates ``--tables`` tables as fast as it can (from loopback, trusted per address).

It prints the longest and the 99th-percentile ping wait for each, and stops by itself.

    .venv/bin/python benchmarks/stalls.py --rounds 2000

Target (issue 13): the largest stall under 50 ms in each.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import connect

from domeng.engine import Game
from domeng.engine.record import record_of


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def long_record(rounds: int, seed: int = 1) -> bytes:
    rng = random.Random(seed)
    game = Game()
    for _ in range(rounds):
        r = game.deal(rng)
        while not r.finished:
            r.play(rng.choice(r.legal_moves()))
    return json.dumps(record_of(game, ["A", "B", "C", "D", "E"])).encode()


def pinger(url: str, conn: Connection) -> None:
    """Ping the table at ``url`` until told to stop; then send back every ping's
    (monotonic time sent, wait) (runs in a process of its own)."""
    asyncio.run(_ping(url, conn))


async def _ping(url: str, conn: Connection) -> None:
    waits: list[tuple[float, float]] = []
    async with connect(url, max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        conn.send("ready")
        n = 0
        while not conn.poll():
            n += 1
            sent = time.monotonic()
            await ws.send(json.dumps({"type": "ping", "id": n}))
            while json.loads(await ws.recv()).get("reply_to") != n:
                pass
            waits.append((sent, time.monotonic() - sent))
            await asyncio.sleep(0.1)  # within the pings' fair share
    conn.send(waits)


async def measure(url: str, loads: list[tuple[str, Callable[[], Awaitable[object]]]]) -> None:
    """Run each load in turn while the pinger pings; print each one's longest wait (of
    the pings sent from its start to 200 ms after its end) and 99th percentile."""
    ours, theirs = multiprocessing.Pipe()
    process = multiprocessing.get_context("spawn").Process(target=pinger, args=(url, theirs))
    process.start()
    try:
        await asyncio.to_thread(ours.recv)  # connected
        spans: list[tuple[str, float, float]] = []
        for name, load in loads:
            await asyncio.sleep(0.3)
            began = time.monotonic()
            await load()
            await asyncio.sleep(0.2)
            spans.append((name, began, time.monotonic()))
        ours.send("stop")
        waits: list[tuple[float, float]] = await asyncio.to_thread(ours.recv)
    finally:
        process.join(10)
        if process.is_alive():
            process.kill()
    for name, began, ended in spans:
        during = sorted(w for sent, w in waits if began <= sent <= ended)
        worst = max(during, default=float("nan")) * 1000
        p99 = during[int(len(during) * 0.99)] * 1000 if during else float("nan")
        print(f"{name}: longest ping wait {worst:.1f} ms, 99th percentile {p99:.1f} ms")


def serve(prefix: str, **popen: Any) -> tuple[subprocess.Popen[bytes], int]:
    """A `domeng serve` on a free loopback port, its database in a new temporary folder
    (``prefix``); its process and port."""
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix=prefix))
    env = dict(os.environ, DOMENG_DATA_DIR=str(folder))
    command = [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", str(port)]
    command += ["--db", str(folder / "t.sqlite3")]
    return subprocess.Popen(command, env=env, **popen), port


async def answering(http: httpx.AsyncClient) -> None:
    """Wait (10 s at most) until the service answers ``GET /api``."""
    for _ in range(200):
        try:
            if (await http.get("/api")).status_code == 200:
                return
        except httpx.TransportError:
            await asyncio.sleep(0.05)


async def run(args: argparse.Namespace) -> None:
    proc, port = serve("domeng-stalls-")
    base = f"http://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            await answering(http)
            seats = [{"kind": "computer", "level": "random"}] * 5
            t = (await http.post("/api/tables", json={"seats": seats, "pace_ms": 200})).json()
            url = f"ws://127.0.0.1:{port}/ws/tables/{t['id']}"
            record = long_record(args.rounds)
            print(f"a record of {args.rounds} rounds: {len(record) / 1e6:.1f} MB")

            async def replay() -> None:
                r = await http.post(
                    "/api/replay", content=record, headers={"content-type": "application/json"}
                )
                print(f"  replay: {r.status_code}, {len(r.content) / 1e6:.0f} MB answered")

            async def flood(kind: str, count: int, connections: int) -> None:
                async def one() -> None:
                    async with connect(url, max_size=None) as ws:
                        if kind == "sync":
                            await ws.send(json.dumps({"type": "hello"}))
                        message = (
                            {"type": "sync"} if kind == "sync" else {"type": "hello", "token": "x"}
                        )
                        for _ in range(count):
                            await ws.send(json.dumps(message))

                await asyncio.gather(*(one() for _ in range(connections)))

            async def tables() -> None:
                for _ in range(args.tables):
                    await http.post("/api/tables", json={"seats": seats, "pace_ms": 60_000})

            loads: list[tuple[str, Callable[[], Awaitable[object]]]] = [
                (f"replay of {args.rounds} rounds", replay),
                (
                    f"sync flood ({args.flooders} x {args.messages})",
                    lambda: flood("sync", args.messages, args.flooders),
                ),
                (f"bad hellos ({args.messages})", lambda: flood("hello", args.messages, 1)),
                (f"new tables ({args.tables})", tables),
            ]
            await measure(url, loads)
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=2000)
    parser.add_argument("--flooders", type=int, default=10)
    parser.add_argument("--messages", type=int, default=500)
    parser.add_argument("--tables", type=int, default=200)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
