"""Fair work under a flood: a table of `expert` computer players and another person's
hint, while one address floods hints, reviews and replays as hard as its shares allow.

Starts `domeng serve` (a real process, loopback only) and:

1. watches a table of five ``expert`` players (pace 0) for ``--seconds`` and counts its
   moves a second: the quiet figure;
2. starts the flood from this machine's one address: ``--hinters`` connections of
   one seat in turn asking for hints in a loop, ``--reviewers`` loops of
   ``POST /api/review`` and ``--replayers`` loops of ``POST /api/replay`` of a long
   game; each request that is refused (``busy``, ``rate_limited``) waits what the
   service says and asks again;
3. meanwhile counts the expert table's moves a second again, and another person (at a
   table of their own, in turn) asks for a hint every ``--every`` seconds and times
   each answer.

It prints the table's moves a second quiet and flooded (and their ratio), the other
person's hint times, and how the flood's requests were answered; it stops by itself.

    .venv/bin/python benchmarks/flood.py --seconds 20

Targets (issue 26): the expert table keeps at least 80% of its moves a second, and
the other person's hint stays under 1 s.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import time
from collections import Counter
from pathlib import Path

import httpx
from websockets.asyncio.client import connect

from stalls import answering, long_record, serve  # type: ignore[import-not-found]

EXAMPLE = Path(__file__).resolve().parents[1] / "examples" / "10-camat.json"


async def count_moves(ws_base: str, table_id: str, seconds: float) -> float:
    """Moves a second at a table, counted from a spectator's updates."""
    async with connect(f"{ws_base}/ws/tables/{table_id}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello"}))
        start = time.monotonic()
        end = start + seconds
        moves = 0
        while (left := end - time.monotonic()) > 0:
            try:
                m = json.loads(await asyncio.wait_for(ws.recv(), left))
            except TimeoutError:
                break
            events = m.get("events") or []
            moves += sum(e.get("kind") == "played" for e in events if isinstance(e, dict))
        return moves / seconds


async def in_turn(http: httpx.AsyncClient, ws_base: str) -> tuple[str, str]:
    """A table where one person (with hints on) is in turn and stays so: the table id
    and the seat's token. Tables are made until seat 0 opens (the LEMPA holder)."""
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": "basic"}] * 4
    for _ in range(200):
        body = {"seats": seats, "pace_ms": 0, "hints": True, "stand_in": None}
        t = (await http.post("/api/tables", json=body)).json()
        async with connect(f"{ws_base}/ws/tables/{t['id']}") as ws:
            await ws.send(json.dumps({"type": "hello", "token": t["tokens"]["0"]}))
            for _ in range(50):
                m = json.loads(await asyncio.wait_for(ws.recv(), 10))
                view = m.get("view")
                if m.get("type") in ("state", "update") and view and view.get("turn") == 0:
                    if len(view.get("legal_moves") or []) > 1:
                        return t["id"], t["tokens"]["0"]
                    break
                if view and view.get("turn") not in (None, 0):
                    continue
    raise RuntimeError("no table put seat 0 in turn with a choice")


async def hint_loop(
    ws_base: str, table_id: str, token: str, stop: float, said: Counter[str]
) -> None:
    async with connect(f"{ws_base}/ws/tables/{table_id}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        n = 0
        while time.monotonic() < stop:
            n += 1
            await ws.send(json.dumps({"type": "hint", "id": n}))
            while time.monotonic() < stop:
                try:
                    m = json.loads(
                        await asyncio.wait_for(ws.recv(), max(0.01, stop - time.monotonic()))
                    )
                except TimeoutError:
                    return
                if m.get("code") == "seat_elsewhere":  # one page per seat: the newest stays
                    said["seat_elsewhere"] += 1
                    return
                if m.get("reply_to") != n:
                    continue
                said[m.get("code", m["type"])] += 1
                if m["type"] == "error":
                    await asyncio.sleep(min(5.0, m.get("retry_after_ms", 1000) / 1000))
                break


async def http_loop(
    http: httpx.AsyncClient, path: str, body: bytes, stop: float, said: Counter[str]
) -> None:
    while time.monotonic() < stop:
        try:
            r = await http.post(path, content=body, headers={"content-type": "application/json"})
        except httpx.HTTPError as e:
            said[type(e).__name__] += 1
            continue
        if r.status_code == 200:
            said["ok"] += 1
            continue
        error = r.json().get("error", {})
        said[error.get("code", str(r.status_code))] += 1
        await asyncio.sleep(min(5.0, error.get("retry_after_ms", 1000) / 1000))


async def other_person(
    ws_base: str, table_id: str, token: str, stop: float, every: float
) -> list[float]:
    """Another person's hints, one every ``every`` seconds: each answer's time."""
    times: list[float] = []
    async with connect(f"{ws_base}/ws/tables/{table_id}", max_size=None) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        n = 0
        while time.monotonic() < stop:
            n += 1
            asked = time.monotonic()
            await ws.send(json.dumps({"type": "hint", "id": n}))
            while True:
                m = json.loads(await asyncio.wait_for(ws.recv(), 60))
                if m.get("reply_to") == n:
                    if m["type"] == "hint":
                        times.append(time.monotonic() - asked)
                    break
            await asyncio.sleep(max(0.0, every - (time.monotonic() - asked)))
    return times


async def main(a: argparse.Namespace) -> None:
    service, port = serve("domeng-flood-", stdout=subprocess.DEVNULL)
    base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
    try:
        async with httpx.AsyncClient(base_url=base, timeout=120) as http:
            await answering(http)
            experts = [{"kind": "computer", "level": "expert"}] * 5
            table = (await http.post("/api/tables", json={"seats": experts, "pace_ms": 0})).json()
            quiet = await count_moves(ws_base, table["id"], a.seconds)
            flooder = await in_turn(http, ws_base)
            other = await in_turn(http, ws_base)
            review = EXAMPLE.read_bytes()
            replay = long_record(a.replay_rounds)
            stop = time.monotonic() + a.seconds + 2
            said: dict[str, Counter[str]] = {k: Counter() for k in ("hint", "review", "replay")}
            flood = [hint_loop(ws_base, *flooder, stop, said["hint"]) for _ in range(a.hinters)]
            flood += [
                http_loop(http, "/api/review?seat=0&round=1", review, stop, said["review"])
                for _ in range(a.reviewers)
            ]
            flood += [
                http_loop(http, "/api/replay", replay, stop, said["replay"])
                for _ in range(a.replayers)
            ]
            tasks = [asyncio.ensure_future(f) for f in flood]
            await asyncio.sleep(1)  # the flood under way
            flooded, times = await asyncio.gather(
                count_moves(ws_base, table["id"], a.seconds),
                other_person(ws_base, *other, stop, a.every),
            )
            await asyncio.gather(*tasks, return_exceptions=True)
    finally:
        service.terminate()
        service.wait(30)
    print(f"expert table, moves a second: quiet {quiet:.2f}, flooded {flooded:.2f}", end="")
    print(f" ({100 * flooded / quiet:.0f}%)" if quiet else "")
    if times:
        median = statistics.median(times)
        print(
            f"another person's hint: {len(times)} answered, median {median:.2f} s,"
            f" max {max(times):.2f} s"
        )
    else:
        print("another person's hint: none answered")
    for kind, counts in said.items():
        print(f"flood of {kind}s: " + ", ".join(f"{k} {n}" for k, n in counts.most_common()))


if __name__ == "__main__":
    p = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    p.add_argument("--seconds", type=float, default=20.0)
    p.add_argument("--hinters", type=int, default=50)
    p.add_argument("--reviewers", type=int, default=6)
    p.add_argument("--replayers", type=int, default=10)
    p.add_argument("--replay-rounds", type=int, default=300)
    p.add_argument("--every", type=float, default=2.0)
    asyncio.run(main(p.parse_args()))
