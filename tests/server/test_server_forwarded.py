"""Behind a reverse proxy (docs/deploy.md, "Names and forwarded headers"): the client's
address that the per-address limits and the sign-in throttle count is the one in
``X-Forwarded-For`` only when the request came from a proxy named with ``--trust-proxy``;
from any other peer the header is ignored. The club's public name (``--allow-host``) is
the Host the service answers for and the Origin its pages have; every other is refused.
Loopback only, bounded in count."""

from __future__ import annotations

import asyncio
import json
import socket
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import InvalidStatus
from websockets.sync.client import connect

from domeng.server import create_app
from domeng.server.clock import FakeClock
from domeng.server.club.throttle import ADDRESS_FREE
from domeng.server.forwarded import WARNED_AT_MOST, Forwarded
from domeng.server.limits import generous
from domeng.storage import SQLiteStorage

from .conftest import TIMEOUT
from .running import running

COMPUTERS = [{"kind": "computer", "level": "random"}] * 5
PUBLIC = "club.example.org"


def _guess(http: httpx.Client, n: int, forwarded: str) -> int:
    """A wrong sign-in (a name that is no member's) said to come from ``forwarded``."""
    body = {"name": f"nobody{n}", "password": "not the password"}
    r = http.post("/api/session", json=body, headers={"X-Forwarded-For": forwarded})
    return r.status_code


@pytest.mark.parametrize(
    ("trusted", "believed"),
    [
        ((), False),  # no proxy named: the header is anyone's say
        (("10.0.0.1",), False),  # another proxy named, not this peer
        (("127.0.0.1",), True),
        (("127.0.0.0/8",), True),  # a network
    ],
)
def test_the_sign_in_throttle_counts_the_forwarded_address_only_from_a_named_proxy(
    tmp_path: Path, trusted: tuple[str, ...], believed: bool
) -> None:
    app = create_app(
        SQLiteStorage(tmp_path / "club.sqlite3"), club=True, clock=FakeClock(), shares=generous()
    )
    with (
        running(app, trusted_proxies=trusted) as base,
        httpx.Client(base_url=base, timeout=TIMEOUT) as http,
    ):
        for n in range(ADDRESS_FREE + 1):  # the free guesses, and one that locks
            assert _guess(http, n, "203.0.113.7") == 401
        assert _guess(http, ADDRESS_FREE + 1, "203.0.113.7") == 429  # that address is locked
        # another client behind the proxy: its own count if the proxy is believed; the
        # same peer's (locked) if not
        assert _guess(http, ADDRESS_FREE + 2, "203.0.113.8") == (401 if believed else 429)
        # a client cannot leave its lock by naming another address before its own: the
        # address counted is the last one the named proxies did not add
        chain = "198.51.100.1, 203.0.113.7"
        assert _guess(http, ADDRESS_FREE + 3, chain) == 429


def _watch(ws_base: str, table: str, forwarded: str, **connect_options: Any) -> str:
    """A spectator's hello at ``table``, said to come from ``forwarded``: the answer's type
    (or the refusal's code)."""
    url = f"{ws_base}/ws/tables/{table}"
    headers = {"X-Forwarded-For": forwarded}
    with connect(
        url, open_timeout=TIMEOUT, ping_interval=None, additional_headers=headers, **connect_options
    ) as ws:
        ws.send('{"type": "hello"}')
        answer = json.loads(ws.recv(timeout=TIMEOUT))
        if answer["type"] == "error":
            return str(answer["code"])
        return str(answer["type"])


@pytest.mark.parametrize("believed", [True, False])
def test_a_spectators_places_are_counted_by_the_forwarded_address_only_from_a_named_proxy(
    tmp_path: Path, believed: bool
) -> None:
    app = create_app(
        SQLiteStorage(tmp_path / "t.sqlite3"), shares=generous(), spectators_per_address=1
    )
    trusted = ("127.0.0.1",) if believed else ()
    with running(app, trusted_proxies=trusted) as base:
        body = {"seats": COMPUTERS, "pace_ms": 60_000}
        table = httpx.post(f"{base}/api/tables", json=body, timeout=TIMEOUT).json()["id"]
        ws_base = base.replace("http://", "ws://")
        url = f"{ws_base}/ws/tables/{table}"
        first = {"X-Forwarded-For": "203.0.113.7"}
        with connect(url, open_timeout=TIMEOUT, ping_interval=None, additional_headers=first) as ws:
            ws.send('{"type": "hello"}')
            assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "welcome"
            # a second spectator from the same address has no place; one from another
            # address behind the named proxy has its own
            assert _watch(ws_base, table, "203.0.113.7") == "too_many_spectators"
            other = _watch(ws_base, table, "203.0.113.8")
            assert other == ("welcome" if believed else "too_many_spectators")


@pytest.fixture
def public(tmp_path: Path) -> Iterator[str]:
    """A service for the club's public name, behind a proxy on this machine."""
    app = create_app(
        SQLiteStorage(tmp_path / "t.sqlite3"), allowed_hosts=[PUBLIC], shares=generous()
    )
    with running(app, trusted_proxies=("127.0.0.1",)) as base:
        yield base


@pytest.mark.parametrize("host", [PUBLIC, f"{PUBLIC}:443", f"{PUBLIC}:8443", PUBLIC.upper()])
def test_the_public_name_is_a_host_the_service_answers_for(public: str, host: str) -> None:
    r = httpx.get(f"{public}/api/tables", headers={"Host": host}, timeout=TIMEOUT)
    assert r.status_code == 200, r.text


@pytest.mark.parametrize(
    "host", ["evil.example", f"www.{PUBLIC}", f"{PUBLIC}.evil.example", "club.example"]
)
def test_another_name_is_refused_whatever_the_proxy_says(public: str, host: str) -> None:
    headers = {"Host": host, "X-Forwarded-For": "203.0.113.7", "X-Forwarded-Host": PUBLIC}
    r = httpx.get(f"{public}/api/tables", headers=headers, timeout=TIMEOUT)
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_host"


def test_without_the_public_name_it_is_refused(tmp_path: Path) -> None:
    app = create_app(SQLiteStorage(tmp_path / "t.sqlite3"), shares=generous())
    with running(app, trusted_proxies=("127.0.0.1",)) as base:
        r = httpx.get(f"{base}/api/tables", headers={"Host": PUBLIC}, timeout=TIMEOUT)
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_host"


def _create(base: str, host: str, origin: str) -> int:
    headers = {"Host": host, "Origin": origin, "X-Forwarded-Proto": "https"}
    body = {"seats": COMPUTERS, "pace_ms": 60_000}
    return httpx.post(f"{base}/api/tables", json=body, headers=headers, timeout=TIMEOUT).status_code


def test_a_change_from_the_public_pages_is_taken_and_from_another_origin_refused(
    public: str,
) -> None:
    assert _create(public, PUBLIC, f"https://{PUBLIC}") == 201
    assert _create(public, f"{PUBLIC}:8443", f"https://{PUBLIC}:8443") == 201
    for origin in (
        "https://evil.example",
        f"https://{PUBLIC}.evil.example",
        f"https://{PUBLIC}:8443",  # the public name on another port is another site
        "null",
    ):
        assert _create(public, PUBLIC, origin) == 403, origin


def test_a_websocket_from_the_public_pages_opens_and_from_another_origin_is_refused(
    public: str,
) -> None:
    body = {"seats": COMPUTERS, "pace_ms": 60_000}
    table = httpx.post(f"{public}/api/tables", json=body, timeout=TIMEOUT).json()["id"]
    port = int(public.rsplit(":", 1)[1])
    url = f"ws://{PUBLIC}/ws/tables/{table}"  # the Host the proxy passes on

    def to_service() -> socket.socket:
        return socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)

    with connect(url, sock=to_service(), origin=f"https://{PUBLIC}", open_timeout=TIMEOUT) as ws:
        ws.send('{"type": "hello"}')
        assert json.loads(ws.recv(timeout=TIMEOUT))["type"] == "welcome"
    with pytest.raises(InvalidStatus) as refused:
        connect(url, sock=to_service(), origin="https://evil.example", open_timeout=TIMEOUT)
    assert refused.value.response.status_code == 403


def test_a_forwarded_header_from_a_peer_not_named_is_said_once_in_the_log(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A proxy someone forgot to name (every client behind it would count as one)."""
    said = "is not a proxy named with --trust-proxy"
    for trusted, times in (((), 1), (("10.0.0.1",), 1), (("127.0.0.1",), 0)):
        caplog.clear()
        app = create_app(SQLiteStorage(tmp_path / "t.sqlite3"), shares=generous())
        with running(app, trusted_proxies=trusted) as base:
            httpx.get(f"{base}/api")  # without the header: nothing to say
            assert not [r for r in caplog.records if said in r.getMessage()]
            for _ in range(3):
                httpx.get(f"{base}/api", headers={"X-Forwarded-For": "203.0.113.7"})
        warned = [r for r in caplog.records if said in r.getMessage()]
        assert len(warned) == times, (trusted, [r.getMessage() for r in warned])
        if times:
            assert "127.0.0.1" in warned[0].getMessage()
            assert warned[0].levelname == "WARNING"


def test_the_log_is_told_of_so_many_peers_not_named_and_no_more(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A flood of peers saying X-Forwarded-For does not fill the log; each is still
    served as its own address."""
    said = "is not a proxy named with --trust-proxy"
    served: list[str] = []

    async def app(scope: Any, receive: Any, send: Any) -> None:
        served.append(scope["client"][0])

    forwarded = Forwarded(app, ("10.0.0.1",))
    peers = [f"192.0.2.{n}" for n in range(1, WARNED_AT_MOST + 3)]

    async def main() -> None:
        for peer in peers:
            scope = {
                "type": "http",
                "client": (peer, 40000),
                "headers": [(b"x-forwarded-for", b"203.0.113.7")],
            }
            await forwarded(scope, None, None)  # type: ignore[arg-type]

    asyncio.run(main())
    warned = [r.getMessage() for r in caplog.records if said in r.getMessage()]
    assert len(warned) == WARNED_AT_MOST
    assert all(f"from {peer} says" in w for peer, w in zip(peers, warned, strict=False))
    assert served == peers
