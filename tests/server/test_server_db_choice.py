"""`domeng serve --db`: a SQLite file or a PostgreSQL database, with the same promises.

- every play anyone heard of (a person's acknowledged play, a spectator's update) is
  in the record after the service is killed with SIGKILL mid-play, on both;
- a second service on one database (a SQLite file, a PostgreSQL database) is refused
  with a clear message, while `domeng stats` reads it beside the running service;
- a PostgreSQL database that cannot be reached is said plainly, its password never.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from tests.ports import free_port

from .test_server_restart_resumes import TIMEOUT, hello, serve, until

Json = dict[str, Any]


def domeng(*args: str, data: Path) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, DOMENG_DATA_DIR=str(data), DOMENG_LANG="en")
    return subprocess.run(
        [sys.executable, "-m", "domeng", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )


def _db(backend: str, request: pytest.FixtureRequest, tmp_path: Path) -> Path | str:
    if backend == "postgres":
        url: str = request.getfixturevalue("postgres_url")
        return url
    return tmp_path / "tables.sqlite3"


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_every_play_heard_of_is_kept_when_the_service_is_killed_mid_play(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db = _db(backend, request, tmp_path)
    port = free_port()
    acknowledged: list[Json] = []  # Ann's plays the service answered ok
    with serve(db, port, tmp_path) as (proc, http):
        level = http.get("/api").json()["default_level"]
        seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
        made = http.post("/api/tables", json={"seats": seats, "pace_ms": 0, "stand_in": None})
        ann = made.json()
        robots = http.post(
            "/api/tables", json={"seats": [{"kind": "computer", "level": level}] * 5, "pace_ms": 0}
        ).json()
        ws, got = hello(port, ann["id"], ann["tokens"]["0"])
        latest = got[-1]
        while latest["view"]["summary"] is None and len(acknowledged) < 3:
            view = latest["view"]
            if view["turn"] == 0:
                move = view["legal_moves"][0]
                ws.send(json.dumps({"type": "play", **move, "state": latest["state"]}))
                answer = until(ws, lambda m: m["type"] in ("ok", "error"))
                assert answer["type"] == "ok", answer
                acknowledged.append({"seat": 0, "round": view["round"], **move})
            latest = until(ws, lambda m: m["type"] == "update")
        ws.close()
        # a spectator of the computers' table, which plays on at full speed: the service
        # is killed the moment it has heard of a few plays, in the middle of them
        watcher, _ = hello(port, robots["id"], None)
        heard = until(watcher, lambda m: m["type"] == "update" and len(m["view"]["plays"]) >= 4)
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(TIMEOUT)
        watcher.close()
    with serve(db, port, tmp_path) as (proc, http):
        record = http.get(f"/api/tables/{robots['id']}/record").json()
        kept = record["rounds"][heard["view"]["round"] - 1]["plays"]
        told = heard["view"]["plays"]
        assert [p["tile"] for p in kept[: len(told)]] == [p["tile"] for p in told]
        assert [p["seat"] for p in kept[: len(told)]] == [p["seat"] for p in told]
        # Ann's plays: in the finished rounds of the record, and in her own view of the
        # round in play (the record leaves out a round a person plays)
        mine = http.get(f"/api/tables/{ann['id']}/record").json()
        ann_plays = {
            (n, p["tile"])
            for n, r in enumerate(mine["rounds"], 1)
            for p in r["plays"]
            if p["seat"] == 0
        }
        ws, got = hello(port, ann["id"], ann["tokens"]["0"])
        view = got[-1]["view"]
        ws.close()
        ann_plays |= {(view["round"], p["tile"]) for p in view["plays"] if p["seat"] == 0}
        for play in acknowledged:  # (none when the round ended before Ann's first turn)
            assert (play["round"], play["tile"]) in ann_plays, play


# (several services on one PostgreSQL database are one service: test_server_several.py)
@pytest.mark.parametrize("backend", ["sqlite"])
def test_a_second_service_on_one_database_is_refused_and_stats_reads_it(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db = _db(backend, request, tmp_path)
    with serve(db, free_port(), tmp_path) as (proc, http):
        assert http.get("/api").status_code == 200
        second = domeng("serve", "--no-browser", "--port", "0", "--db", str(db), data=tmp_path)
        assert second.returncode == 1
        assert f"another domeng serve is using the database {db}" in second.stderr
        assert "Traceback" not in second.stderr
        board = domeng("stats", "--db", str(db), "--json", data=tmp_path)
        assert board.returncode == 0, board.stderr
        players = json.loads(board.stdout)["players"]  # no person played a game yet (the
        assert [p for p in players if p["kind"] != "computer"] == []  # levels are listed)
        assert proc.poll() is None  # the first service runs on
        assert http.get("/api").status_code == 200


def test_a_postgres_database_out_of_reach_is_said_plainly_without_its_password(
    tmp_path: Path,
) -> None:
    url = "postgresql://someone:s3cret@127.0.0.1:1/nothing"  # port 1: nobody listens
    got = domeng("serve", "--no-browser", "--port", "0", "--db", url, data=tmp_path)
    assert got.returncode == 1
    assert "cannot open the database postgresql://someone:***@127.0.0.1:1/nothing" in got.stderr
    assert "s3cret" not in got.stderr + got.stdout and "Traceback" not in got.stderr
