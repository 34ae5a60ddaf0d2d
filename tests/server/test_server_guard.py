"""The service answers only for its own names and only to its own pages (docs/protocol.md,
"Who may talk to the service"): a request with another Host, or a change from a page of
another origin, is refused and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import connect

from domeng.server.guard import host_name

COMPUTERS = {"seats": [{"kind": "computer", "level": "random"}] * 5}


def count(service: Any) -> int:
    return len(service.http.get("/api/tables", params={"limit": "500"}).json()["tables"])


@pytest.mark.parametrize(
    ("header", "name"),
    [
        ("127.0.0.1:8080", "127.0.0.1"),
        ("LOCALHOST", "localhost"),
        ("[::1]:8080", "::1"),
        ("[::1]", "::1"),
        ("192.168.1.20:8080", "192.168.1.20"),
        ("", None),
        ("[::1", None),
        ("evil.example:http", None),
    ],
)
def test_the_name_in_a_host_header(header: str, name: str | None) -> None:
    assert host_name(header) == name


@pytest.mark.parametrize("host", ["evil.example", "evil.example:8080", "192.168.1.99", ""])
def test_a_request_for_another_host_is_refused_and_changes_nothing(service: Any, host: str) -> None:
    before = count(service)
    for method, path in (("GET", "/api/tables"), ("POST", "/api/tables"), ("GET", "/")):
        r = service.http.request(method, path, json=COMPUTERS, headers={"host": host})
        assert r.status_code == 400, (method, path, r.text)
        assert r.json()["error"]["code"] == "bad_host"
    assert count(service) == before


def test_the_loopback_names_are_the_services_own(service: Any) -> None:
    port = service.base.rsplit(":", 1)[1]
    for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "127.0.0.5"):
        assert service.http.get("/api", headers={"host": host}).status_code == 200, host


def test_a_change_from_a_page_of_another_origin_is_refused(service: Any) -> None:
    before = count(service)
    for origin in ("http://evil.example", "null", "http://127.0.0.1:1"):
        r = service.http.post("/api/tables", json=COMPUTERS, headers={"origin": origin})
        assert r.status_code == 403, origin
        assert r.json()["error"]["code"] == "bad_origin"
    assert count(service) == before
    # the service's own page, and a program that says no origin, may
    own = service.base
    assert (
        service.http.post("/api/tables", json=COMPUTERS, headers={"origin": own}).status_code == 201
    )
    assert service.http.post("/api/tables", json=COMPUTERS).status_code == 201
    # reading is harmless: a browser shows another site's page no answer it was not allowed
    assert service.http.get("/api", headers={"origin": "http://evil.example"}).status_code == 200


def test_a_websocket_from_a_page_of_another_origin_is_refused(service: Any) -> None:
    t = service.new_table(COMPUTERS["seats"], pace_ms=0)
    url = f"{service.ws_base}/ws/tables/{t['id']}"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, origin="http://evil.example", open_timeout=10)
    assert refused.value.response.status_code == 403
    with connect(url, origin=service.base, open_timeout=10) as ws:
        ws.send('{"type": "ping", "id": 1}')
        assert '"pong"' in str(ws.recv(timeout=10))


def test_a_websocket_that_never_says_hello_is_closed(tmp_path: Any) -> None:
    from .conftest import start_service

    server, thread, base = start_service(tmp_path / "t.sqlite3", hello_timeout=0.3)
    try:
        import httpx

        seats = COMPUTERS["seats"]
        t = httpx.post(f"{base}/api/tables", json={"seats": seats, "pace_ms": 0}).json()
        url = base.replace("http://", "ws://") + f"/ws/tables/{t['id']}"
        with connect(url, open_timeout=10) as ws:
            ws.send('{"type": "ping", "id": 1}')  # a ping does not put the deadline off
            assert '"pong"' in str(ws.recv(timeout=10))
            error = str(ws.recv(timeout=10))
            assert '"hello_timeout"' in error
            with pytest.raises(ConnectionClosed):
                ws.recv(timeout=10)
        with connect(url, open_timeout=10) as ws:  # one who says hello in time stays
            ws.send('{"type": "hello"}')
            assert '"welcome"' in str(ws.recv(timeout=10))
    finally:
        server.should_exit = True
        thread.join(10)


def test_forwarded_addresses_are_believed_only_from_the_proxies_named() -> None:
    """uvicorn believes X-Forwarded-For from 127.0.0.1 unless told otherwise: the
    service's configuration believes it from the proxies ``--trust-proxy`` names alone."""
    import asyncio
    import threading
    import time

    import httpx
    import uvicorn

    from domeng.server import protocols

    async def echo(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        body = f"{scope['client'][0]} {scope['scheme']}".encode()
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})

    def seen(**options: Any) -> str:
        config = protocols.config(echo, host="127.0.0.1", port=0, log_config=None, **options)
        server = uvicorn.Server(config)
        thread = threading.Thread(target=lambda: asyncio.run(server.serve()), daemon=True)
        thread.start()
        try:
            for _ in range(500):
                if server.started:
                    break
                time.sleep(0.01)
            port = server.servers[0].sockets[0].getsockname()[1]
            headers = {"x-forwarded-for": "192.168.1.50", "x-forwarded-proto": "https"}
            return httpx.get(f"http://127.0.0.1:{port}/", headers=headers).text
        finally:
            server.should_exit = True
            thread.join(10)

    assert seen() == "127.0.0.1 http"  # no proxy named: the socket's own address
    assert seen(trusted_proxies=["10.0.0.1"]) == "127.0.0.1 http"  # not from that one
    assert seen(trusted_proxies=["127.0.0.1"]) == "192.168.1.50 https"
