"""A club's backup and restore as docs/deploy.md tells it ("Backups and a restore"):
``pg_dump`` of the database while the service runs on it, ``pg_restore`` into a new
database, and a service started on that one serves the same tables, the same records
and the same game in progress, and plays on. Skipped without PostgreSQL (failing under
``CI``), as every PostgreSQL test."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import pytest

from domeng.server import create_app
from domeng.server.limits import generous

from .conftest import TIMEOUT
from .postgres import client_program
from .running import running

COMPUTERS = [{"kind": "computer", "level": "random"}] * 5


def _seen(http: httpx.Client, finished: str, playing: str) -> dict[str, Any]:
    """What a player or a replay reads of the service's tables."""
    listed = http.get("/api/tables", params={"limit": "500"}).json()["tables"]
    return {
        "tables": sorted((t["id"], t["status"]) for t in listed),
        "record": http.get(f"/api/tables/{finished}/record").json(),
        "replay": http.get(f"/api/tables/{finished}/replay").json(),
        "playing": http.get(f"/api/tables/{playing}/view").json(),
    }


def test_a_pg_dump_of_a_running_service_restores_into_a_service_that_reads_the_same(
    postgres_database: Callable[[], str], tmp_path: Path
) -> None:
    from domeng.storage.postgres import PostgresStorage

    pg_dump, pg_restore = client_program("pg_dump"), client_program("pg_restore")
    if pg_dump is None or pg_restore is None:
        pytest.skip("PostgreSQL's pg_dump and pg_restore are not installed")
    source, target = postgres_database(), postgres_database()
    backup = tmp_path / "domeng.dump"
    app = create_app(PostgresStorage(source), shares=generous())
    with running(app) as base, httpx.Client(base_url=base, timeout=TIMEOUT) as http:
        body = {"seats": COMPUTERS, "pace_ms": 0, "end": {"rounds": 1}}
        finished = http.post("/api/tables", json=body).json()["id"]
        # a game in progress that waits for Ani, who is away (no stand-in, no clock)
        ani = {"seats": [{"kind": "person", "name": "Ani"}, *COMPUTERS[1:]], "pace_ms": 0}
        playing = http.post("/api/tables", json={**ani, "stand_in": None}).json()["id"]
        deadline = time.monotonic() + TIMEOUT
        while http.get(f"/api/tables/{finished}").json()["status"] != "finished":
            assert time.monotonic() < deadline, "the computers' game did not end"
            time.sleep(0.05)
        while http.get(f"/api/tables/{playing}").json()["turn"] != 0:
            assert time.monotonic() < deadline, "Ani's turn did not come"
            time.sleep(0.05)
        before = _seen(http, finished, playing)
        # the commands of docs/deploy.md, while the service runs
        subprocess.run([pg_dump, "-Fc", "-f", str(backup), "-d", source], check=True, timeout=60)
    assert len(before["record"]["rounds"]) == 1 and before["playing"]["table"]["turn"] == 0
    subprocess.run([pg_restore, "--no-owner", "-d", target, str(backup)], check=True, timeout=60)
    app = create_app(PostgresStorage(target), shares=generous())
    with running(app) as base, httpx.Client(base_url=base, timeout=TIMEOUT) as http:
        assert _seen(http, finished, playing) == before
        assert http.get("/api/health").json()["database"] is True
        # and it plays on: a new table on the restored database
        assert http.post("/api/tables", json=body).status_code == 201
