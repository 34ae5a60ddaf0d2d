"""One table of computer players at pace 0, watched by many spectators: how fast it plays.

Starts `domeng serve` (a real process, loopback only), opens ``--spectators``
WebSocket connections that watch one table of five computer players at pace 0
(they read every message), and counts the table's moves a second over
``--seconds``; then the same with a single spectator. It also prints the messages
a second the service sent to all the spectators. It stops by itself.

    .venv/bin/python benchmarks/crowd.py --spectators 500

Target (issue 13): at least 1,000 moves a second with 500 spectators, and with
1,000 no worse than half the speed with one.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def watch(url: str, stop_at: float, counts: list[int]) -> None:
    async with connect(url, max_size=None, open_timeout=60) as ws:
        await ws.send('{"type": "hello"}')
        n = 0
        while time.monotonic() < stop_at:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.01, stop_at - time.monotonic()))
                n += 1
            except TimeoutError:
                break
        counts.append(n)


async def one_run(base: str, spectators: int, seconds: float) -> tuple[float, float, float]:
    seats = [{"kind": "computer", "level": "random"}] * 5
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        t = (await http.post("/api/tables", json={"seats": seats, "pace_ms": 0})).json()
        url = base.replace("http://", "ws://") + f"/ws/tables/{t['id']}"
        counts: list[int] = []
        stop_at = time.monotonic() + seconds + 5  # the first seconds: connecting
        tasks = [asyncio.create_task(watch(url, stop_at, counts)) for _ in range(spectators)]
        await asyncio.sleep(5)
        first = (await http.get(f"/api/tables/{t['id']}")).json()
        began, own = time.monotonic(), time.process_time()
        await asyncio.gather(*tasks)
        took = time.monotonic() - began
        own = time.process_time() - own
        last = (await http.get(f"/api/tables/{t['id']}")).json()
    moves = (last["state"] - last["round"]) - (first["state"] - first["round"])
    return moves / took, sum(counts) / (seconds + 5), own / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10)
    args = parser.parse_args()
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="domeng-crowd-"))
    env = dict(os.environ, DOMENG_DATA_DIR=str(folder))
    command = [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", str(port)]
    proc = subprocess.Popen([*command, "--db", str(folder / "t.sqlite3")], env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(400):
            try:
                if httpx.get(f"{base}/api", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        alone, _, _ = asyncio.run(one_run(base, 1, args.seconds))
        crowd, sent, own = asyncio.run(one_run(base, args.spectators, args.seconds))
    finally:
        proc.terminate()
        proc.wait(30)
    print(f"one spectator: {alone:.0f} moves a second")
    print(f"{args.spectators} spectators: {crowd:.0f} moves a second ({crowd / alone:.0%})")
    print(f"messages a second to the spectators: {sent:.0f}")
    print(f"this script's CPU (the spectators reading): {own:.0%} of a core")


if __name__ == "__main__":
    main()
