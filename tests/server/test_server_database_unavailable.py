"""A database server that does not answer (a connection it cut, a restart, a failover)
is said to the client as ``503 database_unavailable`` with ``Retry-After``, not as a bare
``500``; the service answers again as soon as the database does."""

from __future__ import annotations

import logging
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
