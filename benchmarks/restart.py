"""Restart time and memory of the table service after a long history, against a fresh one.

Builds a database of finished games (``--rounds`` rounds in all, ``--per-table`` a game,
played by random computer players, finished as their end was reached) plus
``--in-progress`` tables still being played, then starts `domeng serve` on it (a real
process, loopback only) and measures the time until it answers ``GET /api`` and its
resident memory then; the same on an empty database. It stops the service itself.

    .venv/bin/python benchmarks/restart.py --rounds 25000

Target (issue 13): after 25,000 finished rounds, within 20% of a fresh database's.
With tables in progress (issue 26: under 2 s for 5,000), the service answers before it
has read them all (domeng.server.registry): the time until ``GET /api/tables`` answers,
which waits for the last of them, is printed too.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from domeng.engine import Game, tile_name
from domeng.engine.tiles import names
from domeng.server.settings import Settings
from domeng.storage import SQLiteStorage, StoredDeal, StoredPlay, StoredSeat, StoredTable


def build(db: Path, rounds: int, per_table: int, in_progress: int, seed: int = 1) -> None:
    rng = random.Random(seed)
    storage = SQLiteStorage(db)
    seats = [StoredSeat("computer", "random", f"C{n}", None, 0, n) for n in range(5)]
    tables = rounds // per_table
    now = time.time()
    for n in range(tables + in_progress):
        done = n < tables
        settings = Settings(pace_ms=0, end_rounds=per_table if done else None)
        # a game in progress was played a moment ago, and stopped mid-round (a service
        # holds such tables: their round is half played, nothing is left to record)
        created = float(n) if done else now - 60
        t = StoredTable(f"t{n:06d}", created, settings.json(), [*seats])
        game = Game()
        for _ in range(per_table if done else 1):
            r = game.deal(rng)
            at = 0.0 if done else now - 30
            t.deals.append(StoredDeal([names(h) for h in r.dealt], names(r.unused), at))
            t.plays.append([])
            half = rng.randrange(5, 15)  # plays of a round in progress
            while not r.finished and (done or len(r.plays) < half):
                seat = r.turn
                assert seat is not None
                r.play(rng.choice(r.legal_moves()))
                p = r.plays[-1][1]
                at = 0.0 if done else now - 1
                t.plays[-1].append(StoredPlay(seat, tile_name(p.tile), p.end.word, at=at))
        storage.create_table(t)
        if done:
            storage.end_table(t.id, "end", {"id": t.id, "status": "finished"})
    storage.close()


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def start(db: Path, port: int) -> tuple[float, float, float]:
    """Seconds until the service answers, its resident memory (MB) then, and the seconds
    until it lists its tables in progress (every one of them read)."""
    env = dict(os.environ, DOMENG_DATA_DIR=str(db.parent))
    command = [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", str(port)]
    begun = time.monotonic()
    proc = subprocess.Popen([*command, "--db", str(db)], env=env, stdout=subprocess.DEVNULL)
    try:
        deadline = begun + 300
        while time.monotonic() < deadline:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/api", timeout=1).status_code == 200:
                    answered, mb = time.monotonic() - begun, rss_mb(proc.pid)
                    listed = httpx.get(f"http://127.0.0.1:{port}/api/tables?limit=1", timeout=300)
                    assert listed.status_code == 200, listed.text
                    return answered, mb, time.monotonic() - begun
            except httpx.TransportError:
                time.sleep(0.02)
        raise SystemExit("the service did not start")
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=25_000, help="finished rounds in all")
    parser.add_argument("--per-table", type=int, default=10, help="rounds of each game")
    parser.add_argument("--in-progress", type=int, default=20, help="tables being played")
    parser.add_argument("--port", type=int, default=18_765)
    parser.add_argument("--starts", type=int, default=3, help="starts of each database")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="domeng-restart-") as folder:
        fresh, full = Path(folder) / "fresh.sqlite3", Path(folder) / "full.sqlite3"
        SQLiteStorage(fresh).close()
        began = time.monotonic()
        build(full, args.rounds, args.per_table, args.in_progress)
        size = full.stat().st_size / 1e6
        took = time.monotonic() - began
        print(f"built {args.rounds} finished rounds in {took:.1f} s ({size:.1f} MB)")
        # each started --starts times, in turns: the best of each (a start varies by a
        # tenth of a second with the machine; the interpreter's own start is most of it)
        fresh_runs, full_runs = [], []
        for n in range(args.starts):
            first, second = (fresh, full) if n % 2 == 0 else (full, fresh)
            for db in (first, second):
                (fresh_runs if db == fresh else full_runs).append(start(db, args.port))
        fresh_s, fresh_mb, _ = min(fresh_runs)
        full_s, full_mb, full_listed = min(full_runs)
    print(f"best of {args.starts} starts each")
    print(f"fresh database: started in {fresh_s:.2f} s, {fresh_mb:.0f} MB resident")
    print(
        f"after {args.rounds} finished rounds: started in {full_s:.2f} s, {full_mb:.0f} MB resident"
    )
    print(f"restart: {full_s / fresh_s:.0%} of the time, {full_mb / fresh_mb:.0%} of the memory")
    if args.in_progress:
        read = f"{full_listed:.2f} s"
        print(f"the {args.in_progress} tables in progress all read (listed) after {read}")


if __name__ == "__main__":
    main()
