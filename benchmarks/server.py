"""Benchmark the table service: many tables at once, people playing over WebSockets.

Starts `domeng serve` (a real process, a throwaway database, loopback only),
creates N tables of five computer players at a pace, each watched by a
spectator's WebSocket connection (the service deals a computer table's next
round only while someone watches it), and in parallel P tables
where seat 0 is a person played by this script through a real WebSocket
connection (the ``websockets`` client): it plays as soon as it is in turn and
says it is ready after each round. It measures the time from a play sent to
the update that carries it, and prints moves per second (every table's plays)
with the median and 99th percentile of that time. It stops by itself after
--seconds, and stops the service.

    .venv/bin/python benchmarks/server.py --tables 200 --people 20 --seconds 20

Everyone connects during --warmup seconds; plays, CPU and latencies are counted
over the --seconds after it, with this script's garbage collector off (its pauses
would be counted as the service's). With DOMENG_BENCH_SERVE=SCRIPT the service is started as
``python SCRIPT serve ...`` instead of ``python -m domeng serve ...`` (a wrapper of
one's own around ``domeng.cli.main``, to time the garbage collector, say).

Targets: 200 concurrent tables with the 99th percentile under 100 ms (issue 4);
1,000 tables of one scripted person and four computers at pace 800 ms with the
99th percentile under 100 ms (issue 13):

    .venv/bin/python benchmarks/server.py --tables 0 --people 1000 --person-pace-ms 800
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from websockets.asyncio.client import connect

Json = dict[str, Any]

PROFILED = """
import cProfile, signal, sys
from domeng.cli import main
def stop(*_): raise SystemExit(0)
signal.signal(signal.SIGTERM, stop)
profile = cProfile.Profile()
profile.enable()
try:
    main(sys.argv[1:])
finally:
    profile.disable()
    profile.dump_stats({path!r})
"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


async def wait_started(http: httpx.AsyncClient, proc: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise SystemExit("domeng serve stopped before it started")
        try:
            if (await http.get("/api")).status_code == 200:
                return
        except httpx.TransportError:
            pass
        await asyncio.sleep(0.05)
    raise SystemExit("domeng serve did not start within 30 s")


async def person(
    port: int, table_id: str, token: str, times: tuple[float, float], latencies: list[float]
) -> int:
    """Play seat 0 of a table until ``times[1]``; answers how many plays were made from
    ``times[0]`` on (the warm-up's are not counted, nor their latencies)."""
    measure_from, stop_at = times
    made = [0]
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", max_queue=None) as ws:
        await ws.send(dumps({"type": "hello", "token": token}))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(stop_at - time.monotonic()):  # one timer, not one a message
                await _play(ws, table_id, measure_from, latencies, made)
    return made[0]


async def _play(
    ws: Any, table_id: str, measure_from: float, latencies: list[float], made: list[int]
) -> None:
    """Read the table's messages and play the first legal move whenever in turn."""
    sent_at: float | None = None
    sent_state = -1
    view: Json | None = None
    state = -1
    ready_for = 0
    while True:
        m = orjson.loads(await ws.recv())
        if m["type"] in ("state", "update"):
            state, view = m["state"], m["view"]
            if sent_at is not None and m["type"] == "update" and state == sent_state + 1:
                if sent_at >= measure_from:
                    latencies.append(time.perf_counter() - sent_at)
                sent_at = None
        elif m["type"] == "error":
            print(f"error at table {table_id}: {m['message']}", file=sys.stderr)
            sent_at = None
        else:
            continue
        if view is None or sent_at is not None:
            continue
        if view["summary"] is not None:
            if ready_for != view["round"]:
                ready_for = view["round"]
                await ws.send(dumps({"type": "ready"}))
        elif view["turn"] == 0 and view["legal_moves"]:
            move = view["legal_moves"][0]
            sent_state = state
            sent_at = time.perf_counter()
            await ws.send(dumps({"type": "play", **move, "state": state}))
            made[0] += sent_at >= measure_from


async def spectator(port: int, table_id: str, stop_at: float) -> None:
    """Watch a table until ``stop_at``, reading (and dropping) every message."""
    async with connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", max_queue=None) as ws:
        await ws.send(dumps({"type": "hello"}))
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(stop_at - time.monotonic()):
                while True:
                    await ws.recv()


def dumps(message: Json) -> str:
    return orjson.dumps(message).decode()


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU time of a process so far (Linux), or None."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def table_plays(http: httpx.AsyncClient) -> int:
    """Every table's plays so far (the list comes in pages: each is followed)."""
    plays, params = 0, {"limit": "500"}
    while True:
        page = (await http.get("/api/tables", params=params)).json()
        plays += sum(t["state"] - t["round"] for t in page["tables"])
        if not page.get("next"):
            return plays
        params["cursor"] = page["next"]


async def run(args: argparse.Namespace) -> None:
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="domeng-bench-"))
    env = dict(os.environ, DOMENG_DATA_DIR=str(folder))
    command = [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", str(port)]
    if args.profile:
        command[1:3] = ["-c", PROFILED.format(path=args.profile)]
    if os.environ.get("DOMENG_BENCH_SERVE"):  # a wrapper of one's own around the service
        command[1:3] = [os.environ["DOMENG_BENCH_SERVE"]]
    proc = subprocess.Popen([*command, "--db", str(folder / "bench.sqlite3")], env=env)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            await wait_started(http, proc)
            level = args.level or (await http.get("/api")).json()["default_level"]
            computer = {"kind": "computer", "level": level}
            watched: list[str] = []
            for _ in range(args.tables):
                body = {"seats": [computer] * 5, "pace_ms": args.pace_ms}
                r = await http.post("/api/tables", json=body)
                assert r.status_code == 201
                watched.append(r.json()["id"])
            people: list[tuple[str, str]] = []
            for _ in range(args.people):
                body = {
                    "seats": [{"kind": "person", "name": "Bench"}] + [computer] * 4,
                    "pace_ms": args.person_pace_ms,
                    "stand_in": None,
                }
                r = (await http.post("/api/tables", json=body)).json()
                people.append((r["id"], r["tokens"]["0"]))
            # everyone connects during the warm-up; then the measured seconds begin
            measure_from = time.perf_counter() + args.warmup
            stop_at = time.monotonic() + args.warmup + args.seconds
            latencies: list[float] = []
            playing = asyncio.gather(
                *(person(port, tid, tok, (measure_from, stop_at), latencies) for tid, tok in people)
            )
            watching = asyncio.gather(*(spectator(port, tid, stop_at) for tid in watched))
            await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
            # this script's own garbage collections held every connection's reading up
            # (a pause of 158 ms, and 40-55 ms ones every few seconds, with 1,000 people):
            # none while it measures, so that the figures are the service's
            gc.collect()
            gc.freeze()
            gc.disable()
            start_plays = await table_plays(http)
            start_cpu = cpu_seconds(proc.pid)
            start, own_start = time.monotonic(), time.process_time()
            made, _ = await asyncio.gather(playing, watching)
            elapsed = time.monotonic() - start
            gc.enable()
            own = time.process_time() - own_start
            end_cpu = cpu_seconds(proc.pid)
            plays = await table_plays(http) - start_plays
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
        shutil.rmtree(folder, ignore_errors=True)
    print(
        f"{args.tables} computer tables (pace {args.pace_ms} ms) + {args.people} tables "
        f"with a person over WebSocket (pace {args.person_pace_ms} ms), {elapsed:.1f} s "
        f"after {args.warmup:g} s of warm-up, level {level}"
    )
    print(f"moves per second (all tables): {plays / elapsed:.0f}")
    print(f"person plays: {sum(made)}")
    if start_cpu is not None and end_cpu is not None and plays:
        cpu = end_cpu - start_cpu
        print(
            f"service CPU: {cpu / elapsed:.0%} of a core, {cpu / plays * 1000:.2f} ms per move"
            f" (load average now {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores)"
        )
    print(f"this script's CPU (the people and spectators): {own / elapsed:.0%} of a core")
    if latencies:
        ms = sorted(x * 1000 for x in latencies)
        p99 = ms[min(len(ms) - 1, int(len(ms) * 0.99))]
        print(
            f"play sent -> update received: median {statistics.median(ms):.1f} ms, "
            f"99th percentile {p99:.1f} ms, max {ms[-1]:.1f} ms ({len(ms)} plays)"
        )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--tables", type=int, default=200, help="tables of computer players")
    p.add_argument("--people", type=int, default=20, help="tables with a person (this script)")
    p.add_argument("--seconds", type=float, default=20.0, help="how long to measure")
    p.add_argument(
        "--warmup", type=float, default=5.0, help="seconds to connect and play before measuring"
    )
    p.add_argument("--pace-ms", type=int, default=500, help="pace of the computer tables")
    p.add_argument("--person-pace-ms", type=int, default=0, help="pace at the people's tables")
    p.add_argument("--level", default=None, help="computer player (default: the service's)")
    p.add_argument("--profile", metavar="PATH", help="run the service under cProfile into PATH")
    args = p.parse_args()
    if not 0 < args.seconds <= 600 or not 0 <= args.tables <= 2000 or not 0 < args.people <= 2000:
        raise SystemExit("keep it bounded: 0-2000 tables, 1-2000 people, up to 600 seconds")
    uvloop.run(run(args))  # the script's own loop, as light as the service's


if __name__ == "__main__":
    main()
