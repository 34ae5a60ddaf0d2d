"""Benchmark the players' history: a player's page and the leaderboard with 10,000 games.

Fills a throwaway SQLite database (or --db FILE, kept for another run) through the
service's own path: real games played by the engine (computer players, two rounds each
by default), each finished round recorded with its figures and every player's rating
(domeng.history.recorder.record_rounds). One person, Andi, plays every game; forty
other persons share the games, each with the computer levels. Then starts the service
on that file (domeng serve, loopback only) and asks it, over HTTP, for Andi's page and
for the leaderboard, --requests times each, printing the median and the 95th percentile.

    .venv/bin/python benchmarks/history.py --games 10000

Target (issue 15): a player's page and the leaderboard answer in under 50 ms with
10,000 stored games.
"""

from __future__ import annotations

import argparse
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import httpx

from domeng.bots import make_player, player_names
from domeng.engine import Game, view
from domeng.history.calibration import load
from domeng.history.recorder import computer_profiles, person_profile, record_rounds
from domeng.storage import SQLiteStorage

LEVELS = ["random", "basic"]


def fill(db: Path, games: int, rounds: int, seed: int) -> float:
    """Play and record ``games`` games into ``db``; answers the seconds it took."""
    started = time.perf_counter()
    rng = random.Random(seed)
    s = SQLiteStorage(db)
    try:
        computer_profiles(s, player_names(for_people=True), load(), 0.0)
        andi = person_profile(s, "Andi", 0.0).id
        others = [person_profile(s, f"Player {n}", 0.0).id for n in range(40)]
        for n in range(s.recorded_rounds("bench-0") and games, games):
            levels = [rng.choice(LEVELS) for _ in range(3)]
            seats = [andi, rng.choice(others), *levels]
            players = [make_player(rng.choice(LEVELS), rng.randrange(1 << 30)) for _ in seats]
            g = Game()
            for _ in range(rounds):
                g.deal(rng)
                while not g.round.finished:
                    g.play(players[g.turn].choose(view(g.round, g.turn)))
            record_rounds(s, f"bench-{n}", "table", g.rounds, seats, 1_700_000_000.0 + n * 60)
            if n % 1000 == 999:
                print(
                    f"  {n + 1} games recorded ({time.perf_counter() - started:.0f} s)", flush=True
                )
    finally:
        s.close()
    return time.perf_counter() - started


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def timed(http: httpx.Client, path: str, n: int) -> list[float]:
    http.get(path).raise_for_status()  # once to warm up
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        r = http.get(path)
        out.append((time.perf_counter() - t0) * 1000)
        r.raise_for_status()
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--games", type=int, default=10_000)
    ap.add_argument("--rounds", type=int, default=2, help="rounds per game")
    ap.add_argument("--requests", type=int, default=50)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", type=Path, default=None, help="fill or reuse this file")
    args = ap.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="domeng-history-bench-"))
    db = args.db or folder / "history.sqlite3"
    try:
        if not db.exists():
            seconds = fill(db, args.games, args.rounds, args.seed)
            print(f"filled: {args.games} games of {args.rounds} rounds in {seconds:.1f} s")
        port = free_port()
        env = {"DOMENG_DATA_DIR": str(folder)}
        serve = [str(Path(sys.executable).parent / "domeng"), "serve", "--port", str(port)]
        service = subprocess.Popen(
            [*serve, "--db", str(db), "--no-browser"],
            env={**env, "PATH": "/usr/bin:/bin"},
            stdout=subprocess.DEVNULL,
        )
        try:
            http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
            for _ in range(200):
                try:
                    http.get("/api")
                    break
                except httpx.TransportError:
                    time.sleep(0.05)
            andi = next(
                p for p in http.get("/api/profiles").json()["profiles"] if p["name"] == "Andi"
            )
            page = http.get(f"/api/profiles/{andi['id']}").json()
            board = http.get("/api/leaderboard").json()
            print(
                f"Andi: {page['figures']['games']} games, {page['figures']['rounds']} rounds; "
                f"leaderboard: {len(board['players'])} players"
            )
            for label, path in (
                ("player's page", f"/api/profiles/{andi['id']}"),
                ("leaderboard", "/api/leaderboard"),
                ("leaderboard CSV", "/api/leaderboard?format=csv"),
            ):
                ms = sorted(timed(http, path, args.requests))
                p95 = ms[int(0.95 * (len(ms) - 1))]
                print(f"{label}: median {statistics.median(ms):.1f} ms, p95 {p95:.1f} ms")
        finally:
            service.terminate()
            service.wait(10)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
