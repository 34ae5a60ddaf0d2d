"""A database server that does not answer (a connection it cut, a restart, a failover)
is said to the client as ``503 database_unavailable`` with ``Retry-After``, not as a bare
``500``; the service answers again as soon as the database does."""

from __future__ import annotations

import logging
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

from domeng.server import create_app
from domeng.server.limits import generous
from domeng.storage import MemoryStorage

from .conftest import TIMEOUT
from .running import running


def test_a_request_the_database_did_not_answer_is_503_with_retry_after(
    caplog: pytest.LogCaptureFixture,
) -> None:
    store = MemoryStorage()
    cut = {"now": True}
    kept = store.load_tournament

    def load_tournament(tournament_id: str) -> Any:
        if cut["now"]:
            raise psycopg.OperationalError("server closed the connection unexpectedly")
        return kept(tournament_id)

    store.load_tournament = load_tournament  # type: ignore[method-assign]
    app = create_app(store, shares=generous())
    with running(app) as base, httpx.Client(base_url=base, timeout=TIMEOUT) as http:
        r = http.get("/api/tournaments/abcdef0123")
        assert r.status_code == 503, r.text
        assert r.headers["retry-after"] == "1"
        error = r.json()["error"]
        assert error["code"] == "database_unavailable" and error["retry_after_ms"] == 1000
        assert "database did not answer" in error["message"]
        assert "server closed" not in r.text  # the database's own words stay in the log
        said = [m.getMessage() for m in caplog.records if m.name == "domeng.server"]
        assert any("the database did not answer" in m for m in said), said
        cut["now"] = False  # the database answers again: so does the service
        again = http.get("/api/tournaments/abcdef0123")
        assert again.status_code == 404 and again.json()["error"]["code"] == "unknown_tournament"
        assert http.get("/api").status_code == 200
    assert not [r for r in caplog.records if r.levelno >= logging.ERROR]


def test_a_home_service_on_its_sqlite_file_never_loads_the_postgresql_driver(
    tmp_path: Path,
) -> None:
    """storage/opening.py's promise, for the whole service: made on a SQLite file, the
    app (and the ``domeng serve`` command) load no part of psycopg, not even for the
    503 above, which only a PostgreSQL database can raise (about 0.2 s of every start)."""
    program = (
        "import sys, domeng.cli, domeng.commands.serve\n"
        "from domeng.server import create_app\n"
        "from domeng.storage import SQLiteStorage\n"
        f"create_app(SQLiteStorage({str(tmp_path / 'tables.sqlite3')!r}))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('psycopg', 'psycopg_pool')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]", done.stdout + done.stderr


def test_a_service_on_postgresql_answers_its_failures_with_503() -> None:
    """The other side: with the driver loaded (a PostgreSQL storage loads it), its
    OperationalError is handled as :func:`_database_unavailable` by every app made."""
    from domeng.server.app import _database_errors, _database_unavailable

    assert _database_errors() == {psycopg.OperationalError: _database_unavailable}
