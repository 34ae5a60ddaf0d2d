"""Slow and silent clients: a socket that says nothing, headers sent a byte at a time,
headers too large, a body that stalls, a WebSocket client that never reads. Each is
answered (408, 431) and its connection closed, or aborted; a person's request is not
touched. Loopback only, each test bounded to a few seconds."""

from __future__ import annotations

import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest
import uvicorn

from domeng.server import protocols
from domeng.server.protocols import AbortingWebSocket

from .conftest import client_frame, start_service

SHORT = 0.4  # the deadlines in these tests, in seconds


@pytest.fixture()
def running(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[uvicorn.Server]:
    monkeypatch.setattr(protocols.DeadlineHTTP, "header_timeout", SHORT)
    monkeypatch.setattr(protocols.DeadlineHTTP, "body_idle", SHORT)
    monkeypatch.setattr(protocols.DeadlineHTTP, "body_timeout", 3 * SHORT)
    server, thread, address = start_service(tmp_path / "t.sqlite3")
    server.address = address  # type: ignore[attr-defined]
    try:
        yield server
    finally:
        server.should_exit = True
        thread.join(10)


@pytest.fixture()
def base(running: uvicorn.Server) -> str:
    address: str = running.address  # type: ignore[attr-defined]
    return address


def _open(base: str) -> socket.socket:
    u = urlsplit(base)
    s = socket.create_connection((u.hostname or "127.0.0.1", u.port or 80), timeout=5)
    return s


def _answer(s: socket.socket) -> bytes:
    """Everything the service sends until it closes the connection (bounded: 5 s)."""
    out = b""
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            chunk = s.recv(65536)
        except ConnectionResetError:
            break
        if not chunk:
            break
        out += chunk
    return out


def test_a_silent_socket_is_answered_408_and_closed(base: str) -> None:
    with _open(base) as s:
        started = time.monotonic()
        reply = _answer(s)
        took = time.monotonic() - started
    assert reply.startswith(b"HTTP/1.1 408 "), reply
    assert b"headers did not arrive in time" in reply
    assert SHORT * 0.8 < took < SHORT + 2


def test_headers_sent_a_byte_at_a_time_meet_the_same_deadline(base: str) -> None:
    request = b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: " + b"a" * 100
    with _open(base) as s:
        started = time.monotonic()
        sent = 0
        try:
            for byte in request:  # one byte every 20 ms: each would reset an idle timer
                s.send(bytes([byte]))
                sent += 1
                time.sleep(0.02)
                if time.monotonic() - started > SHORT + 1:
                    break
        except OSError:
            pass  # closed by the service while still sending: as it should
        reply = _answer(s)
    assert reply.startswith(b"HTTP/1.1 408 "), reply
    assert sent < len(request)  # cut off before the slow headers were done


def test_headers_too_large_are_refused_431(base: str) -> None:
    big = b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: " + b"c" * 20_000 + b"\r\n\r\n"
    with _open(base) as s:
        s.sendall(big)
        reply = _answer(s)
    assert reply.startswith(b"HTTP/1.1 431 "), reply
    many = b"GET /api HTTP/1.1\r\nHost: 127.0.0.1\r\n"
    many += b"".join(b"X-%d: 1\r\n" % i for i in range(150)) + b"\r\n"
    with _open(base) as s:
        s.sendall(many)
        reply = _answer(s)
    assert reply.startswith(b"HTTP/1.1 431 "), reply


def test_a_body_that_stalls_is_answered_408_and_changes_nothing(base: str) -> None:
    before = httpx.get(f"{base}/api/tables").json()
    body = json.dumps({"seats": [{"kind": "computer", "level": "random"}] * 5}).encode()
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    with _open(base) as s:
        s.sendall(head + body[:10])  # ...and the rest never comes
        reply = _answer(s)
    assert reply.startswith(b"HTTP/1.1 408 "), reply
    assert b"body did not arrive in time" in reply
    assert httpx.get(f"{base}/api/tables").json() == before


def test_a_body_trickled_slowly_meets_its_whole_deadline(base: str) -> None:
    body = b"x" * 400
    head = (
        b"POST /api/tables HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        b"Content-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(body)
    )
    with _open(base) as s:
        s.sendall(head)
        started = time.monotonic()
        try:
            for i in range(len(body)):  # each byte inside the idle deadline
                s.send(body[i : i + 1])
                time.sleep(0.05)
                if time.monotonic() - started > 3 * SHORT + 1:
                    break
        except OSError:
            pass
        reply = _answer(s)
    assert reply.startswith(b"HTTP/1.1 408 "), reply


def test_a_person_s_requests_are_untouched_also_on_a_kept_connection(base: str) -> None:
    with httpx.Client(base_url=base, timeout=5) as client:
        assert client.get("/api").status_code == 200
        time.sleep(SHORT * 1.5)  # idle between requests, within keep-alive
        r = client.post("/api/tables", json={"seats": [{"kind": "computer"}] * 5})
        assert r.status_code == 201, r.text
        assert client.get(f"/api/tables/{r.json()['id']}").status_code == 200


def test_a_websocket_client_that_never_reads_is_aborted(
    running: uvicorn.Server, base: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import domeng.server.socket as ws_module

    monkeypatch.setattr(ws_module, "SEND_TIMEOUT", SHORT)
    seats = [{"kind": "computer", "level": "random"}] * 5
    t = httpx.post(f"{base}/api/tables", json={"seats": seats, "pace_ms": 0}).json()
    u = urlsplit(base)
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # a small window: it fills
    s.settimeout(5)
    with s:
        s.connect((u.hostname or "127.0.0.1", u.port or 80))
        key = base64.b64encode(os.urandom(16))
        s.sendall(
            b"GET /ws/tables/%s HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
            % (t["id"].encode(), u.port or 80, key)
        )
        head = b""
        while b"\r\n\r\n" not in head:
            head += s.recv(1)
        assert head.startswith(b"HTTP/1.1 101"), head
        s.sendall(client_frame(json.dumps({"type": "hello"})))
        # asks for the whole table again and again, and reads nothing
        try:
            for i in range(400):
                s.sendall(client_frame(json.dumps({"type": "sync", "id": i})))
        except OSError:
            pass
        # given up (its sends stalled), its socket leaves the service, though the
        # client has read nothing: nothing waits for the unread bytes to drain
        deadline = time.monotonic() + 15
        while any(isinstance(p, AbortingWebSocket) for p in running.server_state.connections):
            assert time.monotonic() < deadline, "the socket of a client given up stayed open"
            time.sleep(0.05)
        # aborted: what was in flight is dropped with a reset, not drained and closed
        with pytest.raises((ConnectionResetError, BrokenPipeError)):
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                if not s.recv(65536):
                    break  # a close after all was drained: not what a reset is
            s.sendall(client_frame(json.dumps({"type": "ping"})))
