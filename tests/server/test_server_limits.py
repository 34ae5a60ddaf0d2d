"""Fair shares: a flood of messages or of new tables is refused with `rate_limited` (HTTP
429 with Retry-After), changes nothing, and does not slow a person playing. Loopback only,
bounded in count and time."""

from __future__ import annotations

import contextlib
import json
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from domeng.server.clock import FakeClock
from domeng.server.connection import Connection
from domeng.server.limits import ADDRESS_SHARES, MESSAGE_SHARES, Limits
from domeng.server.tables import TableError

from .conftest import start_service


def test_a_connections_share_of_a_kind_refills_at_its_rate_to_the_millisecond() -> None:
    clock = FakeClock()
    limits = Limits(clock)
    c = Connection()
    share = MESSAGE_SHARES["ping"]
    for _ in range(share.burst):
        limits.message(c, "ping")
    with pytest.raises(TableError) as refused:
        limits.message(c, "ping")
    assert refused.value.code == "rate_limited"
    assert refused.value.retry_after == pytest.approx(1 / share.rate)
    assert refused.value.json()["retry_after_ms"] == round(1000 / share.rate)
    limits.message(c, "play")  # another kind has its own share
    limits.message(Connection(), "ping")  # and another connection too
    clock.advance(1 / share.rate - 0.001)
    with pytest.raises(TableError):
        limits.message(c, "ping")
    clock.advance(0.001)
    limits.message(c, "ping")


def test_an_addresses_share_of_new_tables_and_loopback_trusted() -> None:
    clock = FakeClock()
    limits = Limits(clock)
    share = ADDRESS_SHARES["create"]
    for _ in range(share.burst):
        limits.change("192.168.1.50", "create")
    with pytest.raises(TableError) as refused:
        limits.change("192.168.1.50", "create")
    assert refused.value.status == 429
    limits.change("192.168.1.51", "create")  # another device of the home network
    for _ in range(share.burst * 3):
        limits.change("127.0.0.1", "create")  # this computer itself
    strict = Limits(clock, trust_loopback=False)
    for _ in range(share.burst):
        strict.change("127.0.0.1", "create")
    with pytest.raises(TableError):
        strict.change("127.0.0.1", "create")


@pytest.fixture
def strict_service(tmp_path: Path) -> Any:
    """A service with the service's own shares, loopback limited too."""
    server, thread, base = start_service(
        tmp_path / "t.sqlite3", shares=(MESSAGE_SHARES, ADDRESS_SHARES), trust_loopback=False
    )
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(10)


def test_a_flood_of_new_tables_is_refused_with_retry_after(strict_service: str) -> None:
    seats = {"seats": [{"kind": "computer", "level": "random"}] * 5, "pace_ms": 0}
    with httpx.Client(base_url=strict_service, timeout=10) as http:
        made = [http.post("/api/tables", json=seats) for _ in range(ADDRESS_SHARES["create"].burst)]
        assert {r.status_code for r in made} == {201}
        r = http.post("/api/tables", json=seats)
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "rate_limited"
        assert int(r.headers["retry-after"]) >= 1
        listed = http.get("/api/tables", params={"limit": "500"}).json()["tables"]
        assert len(listed) == len(made)


def test_a_flood_of_messages_is_refused_and_a_person_playing_is_not_slowed(
    strict_service: str,
) -> None:
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": "random"}] * 4
    with httpx.Client(base_url=strict_service, timeout=10) as http:
        t = http.post("/api/tables", json={"seats": seats, "pace_ms": 0, "stand_in": None}).json()
    url = strict_service.replace("http://", "ws://") + f"/ws/tables/{t['id']}"
    with connect(url, open_timeout=10) as flood, connect(url, open_timeout=10) as ann:
        flood.send(json.dumps({"type": "hello"}))
        ann.send(json.dumps({"type": "hello", "token": t["tokens"]["0"]}))
        for n in range(300):
            flood.send(json.dumps({"type": "sync", "id": n}))
        start = time.monotonic()
        ann.send(json.dumps({"type": "ping", "id": "ann"}))
        while True:
            m = json.loads(ann.recv(timeout=10))
            if m.get("reply_to") == "ann":
                break
        assert m["type"] == "pong"
        assert time.monotonic() - start < 2.0
        codes = []
        deadline = time.monotonic() + 10
        while len(codes) < 300 and time.monotonic() < deadline:
            m = json.loads(flood.recv(timeout=10))
            if m["type"] == "error":
                codes.append(m["code"])
            elif m["type"] == "state" and m.get("view") is not None:
                codes.append("state")
        assert codes.count("rate_limited") >= 300 - MESSAGE_SHARES["sync"].burst - 5


def test_an_upload_the_client_gives_up_on_logs_nothing(strict_service: str) -> None:
    import socket

    host, port = strict_service.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as s:
        s.sendall(
            b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 5000\r\n\r\n" + b'{"seats": [' + b" " * 100
        )
        time.sleep(0.2)  # the service is reading the body when the client goes
    time.sleep(0.3)  # the autouse fixture then checks that nothing was logged


def test_connections_are_counted_per_address_and_in_all() -> None:
    from domeng.server.limits import Connections

    caps = Connections(per_address=2, in_all=5)
    first = caps.open("192.168.1.50")
    caps.open("192.168.1.50")
    with pytest.raises(TableError) as refused:
        caps.open("192.168.1.50")
    assert refused.value.code == "too_many_connections" and refused.value.status == 429
    caps.closed(first)
    caps.open("192.168.1.50")  # one closed: one may open
    caps.open("127.0.0.1")
    caps.open("127.0.0.1")  # this computer's own are not counted per address...
    caps.open("192.168.1.51")
    with pytest.raises(TableError) as full:
        caps.open("192.168.1.52")  # ...but in all
    assert full.value.status == 503


def test_one_connection_too_many_is_told_why_and_closed(tmp_path: Path) -> None:
    from domeng.server.limits import Connections

    server, thread, base = start_service(tmp_path / "t.sqlite3")
    try:
        seats = [{"kind": "computer", "level": "random"}] * 5
        t = httpx.post(f"{base}/api/tables", json={"seats": seats, "pace_ms": 0}).json()
        hub = server.config.app.app.state.hub  # the app inside forwarded.Forwarded
        hub.connections = Connections(in_all=1)
        url = base.replace("http://", "ws://") + f"/ws/tables/{t['id']}"
        with connect(url, open_timeout=10) as first:
            with connect(url, open_timeout=10) as second:
                m = json.loads(second.recv(timeout=10))
                assert m["code"] == "too_many_connections" and m["retry_after_ms"] == 5000
                with pytest.raises(ConnectionClosed) as closed:
                    second.recv(timeout=10)
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            first.send(json.dumps({"type": "hello"}))
            assert json.loads(first.recv(timeout=10))["type"] == "welcome"
        deadline = time.monotonic() + 10  # the service counts the first out once it closed
        while hub.connections._open and time.monotonic() < deadline:
            time.sleep(0.01)
        with connect(url, open_timeout=10) as again:  # the first closed: room again
            again.send(json.dumps({"type": "hello"}))
            assert json.loads(again.recv(timeout=10))["type"] == "welcome"
    finally:
        server.should_exit = True
        thread.join(10)


def test_this_computer_cannot_take_the_seated_places_by_watching(tmp_path: Path) -> None:
    """The service's own share (20 spectators from one address, loopback counted): the
    21st spectator is told why and closed; a seat's connection still comes in."""
    from domeng.server.limits import SPECTATORS_PER_ADDRESS

    db = tmp_path / "t.sqlite3"
    server, thread, base = start_service(db, spectators_per_address=SPECTATORS_PER_ADDRESS)
    try:
        seats = [{"kind": "person", "name": "Ann"}]
        seats += [{"kind": "computer", "level": "random"}] * 4
        t = httpx.post(f"{base}/api/tables", json={"seats": seats}).json()
        url = base.replace("http://", "ws://") + f"/ws/tables/{t['id']}"
        with contextlib.ExitStack() as stack:
            for _ in range(SPECTATORS_PER_ADDRESS):
                ws = stack.enter_context(connect(url, open_timeout=10))
                ws.send(json.dumps({"type": "hello"}))
                assert json.loads(ws.recv(timeout=10))["type"] == "welcome"
            one_past = stack.enter_context(connect(url, open_timeout=10))
            one_past.send(json.dumps({"type": "hello", "id": "h"}))
            m = json.loads(one_past.recv(timeout=10))
            assert m["code"] == "too_many_spectators" and m["reply_to"] == "h"
            with pytest.raises(ConnectionClosed) as closed:
                one_past.recv(timeout=10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
            ann = stack.enter_context(connect(url, open_timeout=10))
            ann.send(json.dumps({"type": "hello", "token": t["tokens"]["0"]}))
            assert json.loads(ann.recv(timeout=10)) == {
                "type": "welcome", "table_id": t["id"], "seat": 0
            }  # fmt: skip
            ann.send(json.dumps({"type": "ping", "id": "p"}))
            while json.loads(ann.recv(timeout=10))["type"] != "pong":
                pass
            places = server.config.app.app.state.hub.connections
            assert (places.held("watching"), places.held("seated")) == (20, 1)
            assert places.held("greeting") == 0
    finally:
        server.should_exit = True
        thread.join(10)


def test_the_service_raises_its_open_files_limit_where_it_may() -> None:
    import resource

    from domeng.commands.serve import raise_open_files

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        now = raise_open_files(4096)
        wanted = 4096 if hard == resource.RLIM_INFINITY else min(4096, hard)
        assert now >= wanted
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
