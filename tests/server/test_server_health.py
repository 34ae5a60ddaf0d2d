"""``GET /api/health`` (docs/deploy.md, "What to watch"): 200 with the process's figures
while its database answers, 503 when it does not, answered without signing in also in a
club, and never a second probe while one is still out."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import connect

from domeng.server import health as health_module
from domeng.server.clock import FakeClock
from domeng.server.health import Health
from domeng.server.hub import Hub
from domeng.storage import MemoryStorage, SQLiteStorage, StorageError, StoredTable

from .conftest import TIMEOUT, run_apart, start_service
from .running import running

COMPUTERS = [{"kind": "computer", "level": "random"}] * 5


class Unreachable(MemoryStorage):
    """A database that stops answering when told (``down``), or answers only once
    ``answer`` is set (``stuck``)."""

    def __init__(self) -> None:
        super().__init__()
        self.down = False
        self.stuck = False
        self.answer = threading.Event()
        self.probes = 0

    def load_table(self, table_id: str) -> StoredTable | None:
        self.probes += 1
        if self.down:
            raise StorageError("could not connect to server: Connection refused")
        if self.stuck:
            self.answer.wait(TIMEOUT)
        return super().load_table(table_id)


def test_the_figures_while_the_database_answers_and_the_uptime_by_the_clock() -> None:
    async def run() -> None:
        clock = FakeClock()
        hub = Hub(MemoryStorage(), clock=clock)
        health = Health(hub)
        try:
            doc = await health.doc()
            assert doc["ok"] is True and doc["database"] is True
            assert doc["database_ms"] is not None and doc["database_ms"] >= 0
            assert doc["tables"] == {"in_play": 0, "in_memory": 0}
            assert doc["connections"] == {"open": 0, "watching": 0}
            assert doc["process"]["uptime_seconds"] == 0
            clock.advance(12.5)
            assert (await health.doc())["process"]["uptime_seconds"] == 12.5
            assert (await health.doc())["process"]["cpu_seconds"] > 0
        finally:
            await hub.store.close()

    run_apart(run)


def test_a_database_that_fails_makes_the_process_unfit_and_fit_again() -> None:
    async def run() -> None:
        storage = Unreachable()
        hub = Hub(storage, clock=FakeClock())
        health = Health(hub)
        try:
            assert (await health.doc())["ok"] is True
            storage.down = True
            doc = await health.doc()
            assert (doc["ok"], doc["database"], doc["database_ms"]) == (False, False, None)
            storage.down = False
            assert (await health.doc())["ok"] is True
        finally:
            await hub.store.close()

    run_apart(run)


def test_a_probe_that_does_not_answer_in_time_is_not_sent_again_while_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(health_module, "PROBE_TIMEOUT", 0.05)

    async def run() -> None:
        storage = Unreachable()
        hub = Hub(storage, clock=FakeClock())
        health = Health(hub)
        try:
            storage.stuck = True
            assert (await health.doc())["database"] is False  # it took too long
            assert (await health.doc())["database"] is False  # still out: not sent again
            assert storage.probes == 1
            storage.answer.set()
            storage.stuck = False
            for _ in range(200):  # the probe out comes back (in the storage's thread)
                if health._out is not None and health._out.done():
                    break
                await asyncio.sleep(0.01)
            assert (await health.doc())["database"] is True
            assert storage.probes == 2
        finally:
            storage.answer.set()
            await hub.store.close()

    run_apart(run)


@pytest.fixture
def fresh(tmp_path: Path) -> Iterator[str]:
    server, thread, base = start_service(tmp_path / "t.sqlite3")
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)


def test_the_service_answers_200_with_its_tables_and_sockets(fresh: str) -> None:
    with httpx.Client(base_url=fresh, timeout=TIMEOUT) as http:
        r = http.get("/api/health")
        assert r.status_code == 200 and r.headers["cache-control"] == "no-store"
        assert r.json()["tables"] == {"in_play": 0, "in_memory": 0}
        tables = []
        for _ in range(2):  # slow computers: the games stay in play
            body = {"seats": COMPUTERS, "pace_ms": 60_000}
            tables.append(http.post("/api/tables", json=body).json())
        assert http.get("/api/health").json()["tables"]["in_play"] == 2
        end = {"token": tables[0]["host_token"], "action": "end"}
        assert http.post(f"/api/tables/{tables[0]['id']}/host", json=end).status_code == 200
        assert http.get("/api/health").json()["tables"]["in_play"] == 1
        url = fresh.replace("http://", "ws://") + f"/ws/tables/{tables[1]['id']}"
        with connect(url, open_timeout=TIMEOUT, ping_interval=None) as ws:
            ws.send('{"type": "hello"}')
            assert '"welcome"' in str(ws.recv(timeout=TIMEOUT))
            doc = http.get("/api/health").json()
            assert doc["connections"] == {"open": 1, "watching": 1}
            assert doc["process"]["uptime_seconds"] >= 0


class Flaky(SQLiteStorage):
    """A SQLite file whose probe fails while ``down`` is set."""

    down = False

    def load_table(self, table_id: str) -> StoredTable | None:
        if Flaky.down and table_id == "":
            raise StorageError("disk I/O error")
        return super().load_table(table_id)


def test_the_service_answers_503_while_its_database_cannot_be_reached(tmp_path: Path) -> None:
    from domeng.server import create_app

    app = create_app(Flaky(tmp_path / "t.sqlite3"), clock=FakeClock())
    with running(app) as base, httpx.Client(base_url=base, timeout=TIMEOUT) as http:
        assert http.get("/api/health").status_code == 200
        Flaky.down = True
        try:
            r = http.get("/api/health")
        finally:
            Flaky.down = False
        assert r.status_code == 503
        assert (r.json()["ok"], r.json()["database"]) == (False, False)
        assert http.get("/api/health").status_code == 200


def test_a_club_answers_it_without_signing_in(tmp_path: Path) -> None:
    server, thread, base = start_service(tmp_path / "club.sqlite3", club=True, clock=FakeClock())
    try:
        with httpx.Client(base_url=base, timeout=TIMEOUT) as http:
            assert http.get("/api/tables").status_code == 401  # a stranger: nothing else
            r = http.get("/api/health")
            assert r.status_code == 200 and r.json()["ok"] is True
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)


def test_on_postgresql_a_database_that_refuses_connections_makes_the_process_unfit(
    postgres_cluster: str,
    postgres_database: Callable[[], str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The database closed to connections and its connections cut (as a server going
    down does): 503, and 200 again once it lets the service in."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict

    from domeng.storage.postgres import PostgresStorage

    monkeypatch.setattr(health_module, "PROBE_TIMEOUT", 1.0)
    url = postgres_database()
    name = conninfo_to_dict(url)["dbname"]

    def admit(allowed: bool) -> None:
        with psycopg.connect(postgres_cluster, autocommit=True) as admin:
            admin.execute(f"ALTER DATABASE {name} ALLOW_CONNECTIONS {str(allowed).lower()}")
            if not allowed:
                admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s",
                    (name,),
                )

    async def run() -> None:
        hub = Hub(PostgresStorage(url), clock=FakeClock())
        health = Health(hub)
        try:
            assert (await health.doc())["database"] is True
            admit(False)
            assert (await health.doc())["database"] is False
            admit(True)
            deadline = time.monotonic() + 60  # the pool connects again (its back-off)
            while not (await health.doc())["database"]:
                assert time.monotonic() < deadline, "the database was not reached again"
                await asyncio.sleep(0.2)
        finally:
            admit(True)
            await hub.store.close()

    run_apart(run)
