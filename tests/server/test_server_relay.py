"""The relay of a service of several processes (:mod:`domeng.server.relay`) between two
small apps on loopback: a "relaying" one whose tables are owned by an "owner" app that
echoes what reached it. What goes along (the body, the query, the headers kept, the
client's address last in ``X-Forwarded-For``), what comes back (the owner's status, its
close codes), and what is not sent on. The whole service of several processes is in
test_server_several.py (PostgreSQL); this holds the relay's own rules, quickly."""

from __future__ import annotations

import asyncio
import json
import logging
import socket
import sqlite3
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from domeng.server.errors import TableError
from domeng.server.leases import Owner
from domeng.server.relay import BODY_LIMIT, MOVED, Relay, forward

from .conftest import TIMEOUT
from .running import running

FAR = "far"
"""The table another process owns."""
BROKEN = "broken"
"""The table whose owner cannot be looked up (the database is away)."""


async def _echo(request: Request) -> JSONResponse:
    """The owner: what reached it, answered with a refusal's status (not 200)."""
    body = await request.body()
    doc = {
        "path": request.url.path,
        "query": request.url.query,
        "headers": dict(request.headers),
        "length": len(body),
        "start": body[:20].decode("latin-1"),
    }
    return JSONResponse(doc, status_code=409)


async def _echo_socket(ws: WebSocket) -> None:
    """The owner's socket: each text echoed with the query; ``close N`` closes with N."""
    await ws.accept()
    try:
        while True:
            text = await ws.receive_text()
            if text.startswith("close "):
                await ws.close(code=int(text.split()[1]))
                return
            forwarded = ws.headers.get("x-forwarded-for")
            await ws.send_text(json.dumps({"said": text, "query": ws.url.query, "for": forwarded}))
    except WebSocketDisconnect:
        pass


async def _here(request: Request) -> JSONResponse:
    return JSONResponse({"served": "here"})


async def _here_socket(ws: WebSocket) -> None:
    await ws.accept()
    await ws.send_text("here")
    await ws.close(code=1000)


class _Hub:
    """What the relay asks of the registry: who owns a table (None: this process)."""

    def __init__(self, owner: str) -> None:
        self.leases = object()  # a service of several processes
        self.owner = owner
        self.asked: list[str] = []

    async def home(self, table_id: str) -> Owner | None:
        self.asked.append(table_id)
        if table_id == BROKEN:
            raise sqlite3.OperationalError("unable to open database file")  # not an OSError
        return Owner("p-owner", self.owner) if table_id == FAR else None


@pytest.fixture
def relaying() -> Iterator[tuple[str, _Hub]]:
    """The base URL of a relaying process, and its hub; its tables' owner echoes."""
    owner = Starlette(
        routes=[
            Route("/api/tables/{id}/{rest:path}", _echo, methods=["POST"]),
            WebSocketRoute("/ws/tables/{id}", _echo_socket),
        ]
    )
    with running(owner) as owner_base:
        here = Starlette(
            routes=[
                Route("/api/tables/{id}/{rest:path}", _here, methods=["POST"]),
                WebSocketRoute("/ws/tables/{id}", _here_socket),
            ],
            middleware=[Middleware(Relay)],
        )
        hub = _Hub(owner_base + "/")
        here.state.hub = hub
        with running(here) as base:
            yield base, hub


def test_a_change_goes_to_the_owner_as_it_came_and_its_answer_comes_back(
    relaying: tuple[str, _Hub],
) -> None:
    base, _ = relaying
    headers = {
        "Cookie": "domeng_session=s3cret",
        "Content-Type": "application/json",
        "X-Forwarded-For": "198.51.100.1",  # the client's own say (or its proxy's)
        "Origin": f"{base}",
    }
    r = httpx.post(
        f"{base}/api/tables/{FAR}/seats/2?lang=id",
        content=b'{"name": "Besse"}',
        headers=headers,
        timeout=TIMEOUT,
    )
    assert r.status_code == 409  # the owner's refusal, as it was
    assert r.headers["content-type"] == "application/json"
    got = r.json()
    assert got["path"] == f"/api/tables/{FAR}/seats/2" and got["query"] == "lang=id"
    assert got["length"] == 17 and got["start"] == '{"name": "Besse"}'
    sent = got["headers"]
    assert sent["cookie"] == "domeng_session=s3cret"  # a member's session goes along
    assert sent["content-type"] == "application/json"
    assert sent["x-domeng-relayed"] == "1"
    assert "origin" not in sent  # checked at the relaying process
    # the address the relaying process saw comes last: the owner, which trusts the
    # relaying process, takes it, never one the client wrote itself
    assert sent["x-forwarded-for"] == "198.51.100.1, 127.0.0.1"


def test_a_change_without_a_forwarded_address_says_the_clients_own(
    relaying: tuple[str, _Hub],
) -> None:
    base, _ = relaying
    r = httpx.post(f"{base}/api/tables/{FAR}/leave", content=b"{}", timeout=TIMEOUT)
    assert r.json()["headers"]["x-forwarded-for"] == "127.0.0.1" and r.json()["query"] == ""


def test_a_body_up_to_the_limit_is_relayed_and_a_longer_one_refused(
    relaying: tuple[str, _Hub],
) -> None:
    base, _ = relaying
    url = f"{base}/api/tables/{FAR}/host"
    whole = httpx.post(url, content=b"x" * BODY_LIMIT, timeout=TIMEOUT)
    assert whole.status_code == 409 and whole.json()["length"] == BODY_LIMIT
    longer = httpx.post(url, content=b"x" * (BODY_LIMIT + 1), timeout=TIMEOUT)
    assert longer.status_code == 413 and longer.json()["code"] == "too_large"


def test_a_request_relayed_once_is_not_sent_on_again(relaying: tuple[str, _Hub]) -> None:
    """It reached a process that believes another owns the table (the table moved
    meanwhile): the client is told to come again, and nothing goes round."""
    base, hub = relaying
    headers = {"X-Domeng-Relayed": "1"}
    r = httpx.post(f"{base}/api/tables/{FAR}/leave", headers=headers, timeout=TIMEOUT)
    assert r.status_code == 503 and r.json()["code"] == "busy"
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{FAR}"
    with (
        connect(url, open_timeout=TIMEOUT, additional_headers=headers) as ws,
        pytest.raises(ConnectionClosed) as closed,
    ):
        ws.recv(timeout=TIMEOUT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == MOVED
    assert hub.asked == [FAR, FAR]


def test_what_this_process_owns_or_cannot_look_up_is_served_here(
    relaying: tuple[str, _Hub], caplog: pytest.LogCaptureFixture
) -> None:
    base, _ = relaying
    r = httpx.post(f"{base}/api/tables/mine/leave", timeout=TIMEOUT)
    assert r.status_code == 200 and r.json() == {"served": "here"}
    # the owner's look-up fails (the database is away): answered here, and logged
    r = httpx.post(f"{base}/api/tables/{BROKEN}/leave", timeout=TIMEOUT)
    assert r.status_code == 200 and r.json() == {"served": "here"}
    logged = [rec for rec in caplog.records if f"owner of table {BROKEN}" in rec.getMessage()]
    assert logged and logged[0].exc_info is not None
    caplog.clear()  # that traceback was the point (no_tracebacks would refuse it)


def test_a_socket_is_relayed_both_ways_and_the_owners_close_handed_on(
    relaying: tuple[str, _Hub],
) -> None:
    base, _ = relaying
    url = f"{base.replace('http://', 'ws://')}/ws/tables/{FAR}?lang=id"
    for code, seen in ((1000, 1000), (4404, 4404), (4409, 4409), (4000, MOVED)):
        with connect(url, open_timeout=TIMEOUT) as ws:
            ws.send("hello")
            echoed = json.loads(ws.recv(timeout=TIMEOUT))
            assert echoed == {"said": "hello", "query": "lang=id", "for": "127.0.0.1"}
            ws.send(f"close {code}")
            with pytest.raises(ConnectionClosed) as closed:
                ws.recv(timeout=TIMEOUT)
        # a table the owner does not have (4404) is not a table that moved (1012):
        # the browser would come again for ever
        assert closed.value.rcvd is not None and closed.value.rcvd.code == seen, code


def _request(*headers: tuple[bytes, bytes]) -> Request:
    scope: dict[str, Any] = {
        "type": "http",
        "method": "POST",
        "path": f"/api/tables/{FAR}/seats/1",
        "query_string": b"",
        "headers": list(headers),
        "client": ("127.0.0.1", 40000),
    }
    return Request(scope)


def _away() -> str:
    """The address of a process that is gone (a loopback port nobody listens on)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    return f"http://127.0.0.1:{port}"


def test_forward_sends_on_once_and_an_ended_tournament_waits_for_no_owner_away(
    relaying: tuple[str, _Hub], caplog: pytest.LogCaptureFixture
) -> None:
    _, hub = relaying
    owner = Owner("p-owner", hub.owner)
    relayed = (b"x-domeng-relayed", b"1")

    async def main() -> None:
        answer = await forward(owner, _request(), {"seat": 2})
        assert answer.status_code == 409  # the owner's answer, given back
        with pytest.raises(TableError) as refused:
            await forward(owner, _request(relayed), {"seat": 2})
        assert refused.value.code == "busy" and refused.value.status == 503
        gone = Owner("p-gone", _away())
        with pytest.raises(TableError) as away:
            await forward(gone, _request(), {"seat": 2})
        assert away.value.code == "busy"
        # sent again after this process did its part: the owner being away is no refusal
        done = await forward(gone, _request(relayed), {}, again=True)
        assert done.status_code == 204

    with caplog.at_level(logging.WARNING):
        asyncio.run(main())
