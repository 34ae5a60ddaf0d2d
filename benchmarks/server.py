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

Everyone connects and sees their table (up to 30 s), then --warmup seconds pass;
plays, CPU and latencies are counted over the --seconds after them, with this script's
garbage collector off (its pauses would be counted as the service's). A play refused
as too many is sent again after the service's `retry_after_ms`, and counted once.
With DOMENG_BENCH_SERVE=SCRIPT the service is started as
``python SCRIPT serve ...`` instead of ``python -m domeng serve ...`` (a wrapper of
one's own around ``domeng.cli.main``, to time the garbage collector, say).

Targets: 200 concurrent tables with the 99th percentile under 100 ms (issue 4);
1,000 tables of one scripted person and four computers at pace 800 ms with the
99th percentile under 100 ms (issue 13):

    .venv/bin/python benchmarks/server.py --tables 0 --people 1000 --person-pace-ms 800

``--db postgresql://USER@HOST/DB`` runs the service on that PostgreSQL database (an
empty one: the benchmark's tables stay in it) instead of a throwaway SQLite file.

``--processes N`` (PostgreSQL) runs the service as N processes on that database
(docs/architecture.md, "Several processes"): the tables are made through each in turn
(each owns the tables made through it), and every connection goes to one of them
chosen at random, as through a proxy with no stickiness (most are relayed to the
owner); the CPU is all the processes'. ``--kill`` then SIGKILLs the first process
after the measured seconds and prints how long until every table it owned played
again at another::

    .venv/bin/python benchmarks/server.py --db postgresql:///domeng_bench --processes 3 --kill
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import math
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import orjson
import uvloop
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

Json = dict[str, Any]

SEATING = 30.0
"""Seconds at most for every person to connect and see their table before the warm-up."""

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


@dataclass
class Window:
    """The measured seconds (``time.perf_counter()``): from ``start``, set once everyone
    sat down and the warm-up passed, until ``end``; nothing outside is counted."""

    start: float = math.inf
    end: float = math.inf
    seated: int = 0
    """The people whose table's first view came."""

    def holds(self, moment: float) -> bool:
        return self.start <= moment < self.end


async def person(
    port: int, table_id: str, token: str, window: Window, latencies: list[float], made: list[int]
) -> None:
    """Play seat 0 of a table until cancelled, adding to ``made[0]`` the plays sent
    within ``window`` that the table carried (the warm-up's are not counted, nor their
    latencies, nor refused ones). A socket
    closed (its table moved to another process) is opened again."""
    seated = [False]
    while True:
        with contextlib.suppress(ConnectionClosed, OSError):
            url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
            async with connect(url, max_queue=None) as ws:
                await ws.send(dumps({"type": "hello", "token": token}))
                await _play(ws, table_id, window, latencies, (made, seated))
        await asyncio.sleep(0.1)


async def _play(
    ws: Any,
    table_id: str,
    window: Window,
    latencies: list[float],
    counts: tuple[list[int], list[bool]],
) -> None:
    """Read the table's messages and play the first legal move whenever in turn."""
    made, seated = counts
    sent_at: float | None = None
    sent_state = -1
    view: Json | None = None
    state = -1
    ready_for = 0
    while True:
        m = orjson.loads(await ws.recv())
        if m["type"] in ("state", "update"):
            state, view = m["state"], m["view"]
            if not seated[0]:
                seated[0] = True
                window.seated += 1
            # the play carried: any later state (not only an update of exactly the
            # next: one missed and the person would never play again)
            if sent_at is not None and state > sent_state:
                if window.holds(sent_at):  # a play made (refused ones are not counted)
                    latencies.append(time.perf_counter() - sent_at)
                    made[0] += 1
                sent_at = None
        elif m["type"] == "error":
            if m.get("code") != "rate_limited":  # a person sending at once is limited
                print(f"error at table {table_id}: {m['message']}", file=sys.stderr)
            # a refused play is sent again after the wait the service asked for (at
            # once, it was refused again: thousands of refusals in two seconds)
            await asyncio.sleep(m.get("retry_after_ms", 0) / 1000)
            sent_at = None
            ready_for = 0  # a refused `ready` is said again (else the table waits for it)
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


async def spectator(port: int, table_id: str) -> None:
    """Watch a table until cancelled, reading (and dropping) every message (and
    connecting again when its socket is closed)."""
    while True:
        with contextlib.suppress(ConnectionClosed, OSError):
            url = f"ws://127.0.0.1:{port}/ws/tables/{table_id}"
            async with connect(url, max_queue=None) as ws:
                await ws.send(dumps({"type": "hello"}))
                while True:
                    await ws.recv()
        await asyncio.sleep(0.1)


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


async def table_states(http: httpx.AsyncClient) -> dict[str, int]:
    """Every table in progress's state number, by id."""
    states, params = {}, {"limit": "500"}
    while True:
        page = (await http.get("/api/tables", params=params)).json()
        states.update((t["id"], t["state"]) for t in page["tables"])
        if not page.get("next"):
            return states
        params["cursor"] = page["next"]


async def moved_on(http: httpx.AsyncClient, owned: list[str], killed_at: float) -> None:
    """After a SIGKILL: print how long until the first and every one of the killed
    process's tables played again (their state grew, read through another process)."""
    before = {i: s for i, s in (await table_states(http)).items() if i in owned}
    first: float | None = None
    waiting = set(before)
    while waiting and time.monotonic() - killed_at < 30:
        await asyncio.sleep(0.1)
        now = await table_states(http)
        for i in list(waiting):
            if now.get(i, 0) > before[i]:
                waiting.discard(i)
                first = first or time.monotonic() - killed_at
    every = time.monotonic() - killed_at
    print(
        f"SIGKILL -> playing again at another process: the first of its {len(owned)} tables "
        f"after {first or 0:.2f} s, every one after {every:.2f} s"
        + (f" ({len(waiting)} never within 30 s)" if waiting else "")
    )


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="domeng-bench-"))
    env = dict(os.environ, DOMENG_DATA_DIR=str(folder))
    ports = [free_port() for _ in range(args.processes)]
    db = args.db or str(folder / "bench.sqlite3")
    procs: list[subprocess.Popen[bytes]] = []
    for port in ports:
        command = [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", str(port)]
        if args.profile:
            command[1:3] = ["-c", PROFILED.format(path=args.profile)]
        if os.environ.get("DOMENG_BENCH_SERVE"):  # a wrapper of one's own around the service
            command[1:3] = [os.environ["DOMENG_BENCH_SERVE"]]
        procs.append(subprocess.Popen([*command, "--db", db], env=env))
    port, proc = ports[0], procs[0]
    chosen = random.Random(7)  # each connection's process, as a proxy with no stickiness
    try:
        https = [httpx.AsyncClient(base_url=f"http://127.0.0.1:{p}", timeout=30) for p in ports]
        async with contextlib.AsyncExitStack() as stack:
            for h in https:
                await stack.enter_async_context(h)
            for h, p in zip(https, procs, strict=True):
                await wait_started(h, p)
            http = https[-1]  # the list, the plays and the kill's figures through the last
            level = args.level or (await http.get("/api")).json()["default_level"]
            computer = {"kind": "computer", "level": level}
            watched: list[tuple[str, int]] = []
            for n in range(args.tables):
                body = {"seats": [computer] * 5, "pace_ms": args.pace_ms}
                r = await https[n % len(https)].post("/api/tables", json=body)
                assert r.status_code == 201
                watched.append((r.json()["id"], n % len(https)))
            people: list[tuple[str, str, int]] = []
            for n in range(args.people):
                body = {
                    "seats": [{"kind": "person", "name": "Bench"}] + [computer] * 4,
                    "pace_ms": args.person_pace_ms,
                    "stand_in": None,
                }
                r = (await https[n % len(https)].post("/api/tables", json=body)).json()
                people.append((r["id"], r["tokens"]["0"], n % len(https)))
            # everyone connects and sits down (their table's first view, within SEATING
            # seconds), the warm-up passes, then the measured seconds begin: on a loaded
            # machine the sitting down alone took longer than a short warm-up
            latencies: list[float] = []
            window = Window()
            made = [[0] for _ in people]
            clients = [
                asyncio.create_task(person(chosen.choice(ports), tid, tok, window, latencies, n))
                for (tid, tok, _), n in zip(people, made, strict=True)
            ]
            clients += [
                asyncio.create_task(spectator(chosen.choice(ports), tid)) for tid, _ in watched
            ]
            seating_ends = time.monotonic() + SEATING
            while window.seated < len(people) and time.monotonic() < seating_ends:
                await asyncio.sleep(0.05)
            await asyncio.sleep(args.warmup)
            stop_at = time.monotonic() + args.seconds
            window.start = time.perf_counter()
            # this script's own garbage collections held every connection's reading up
            # (a pause of 158 ms, and 40-55 ms ones every few seconds, with 1,000 people):
            # none while it measures, so that the figures are the service's
            gc.collect()
            gc.freeze()
            gc.disable()
            start_plays = await table_plays(http)
            start_cpu = [cpu_seconds(p.pid) for p in procs]
            start, own_start = time.monotonic(), time.process_time()
            await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
            elapsed = time.monotonic() - start
            window.end = time.perf_counter()
            own = time.process_time() - own_start
            end_cpu = [cpu_seconds(p.pid) for p in procs]
            plays = await table_plays(http) - start_plays
            if args.kill:
                owned = [t for t, by in watched if by == 0] + [t for t, _, by in people if by == 0]
                proc.send_signal(signal.SIGKILL)
                await moved_on(http, owned, time.monotonic())
            for client in clients:
                client.cancel()
            await asyncio.gather(*clients, return_exceptions=True)
            gc.enable()
    finally:
        for p in procs:
            p.terminate()
        for p in procs:
            try:
                p.wait(10)
            except subprocess.TimeoutExpired:
                p.kill()
        shutil.rmtree(folder, ignore_errors=True)
    kind = "PostgreSQL" if args.db and args.db.startswith("postgres") else "SQLite"
    print(
        f"{args.tables} computer tables (pace {args.pace_ms} ms) + {args.people} tables "
        f"with a person over WebSocket (pace {args.person_pace_ms} ms), {elapsed:.1f} s "
        f"after {args.warmup:g} s of warm-up, level {level}, on {kind}"
        + (f", {args.processes} processes" if args.processes > 1 else "")
    )
    print(f"moves per second (all tables): {plays / elapsed:.0f}")
    print(f"person plays: {sum(n[0] for n in made)}")
    if None not in start_cpu and None not in end_cpu and plays:
        cpu = sum(e or 0.0 for e in end_cpu) - sum(s or 0.0 for s in start_cpu)
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
    p.add_argument(
        "--db",
        metavar="URL",
        help="the service's database, e.g. an empty PostgreSQL database's postgresql:// URL "
        "(default: a throwaway SQLite file)",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="service processes on the one database (more than one: PostgreSQL only)",
    )
    p.add_argument(
        "--kill",
        action="store_true",
        help="after measuring, SIGKILL the first process and time its tables' takeover",
    )
    args = p.parse_args()
    postgres = bool(args.db) and args.db.startswith("postgres")
    if (args.processes > 1 or args.kill) and not postgres:
        raise SystemExit("several processes (and --kill) need --db postgresql://...")
    if args.kill and args.processes < 2:
        raise SystemExit("--kill needs --processes 2 or more")
    if not 1 <= args.processes <= 8:
        raise SystemExit("keep it bounded: 1-8 processes")
    if not 0 < args.seconds <= 600 or not 0 <= args.tables <= 2000 or not 0 < args.people <= 2000:
        raise SystemExit("keep it bounded: 0-2000 tables, 1-2000 people, up to 600 seconds")
    uvloop.run(run(args))  # the script's own loop, as light as the service's


if __name__ == "__main__":
    main()
