"""The nginx configuration of the repository (deploy/nginx/) in front of ``domeng serve``,
as docs/deploy.md tells a club to run it: a throw-away nginx (its own prefix, pid, logs
and temporary folders in a temporary folder; loopback ports; TLS with a certificate
made for the test) before one ``domeng serve --club`` process and a second upstream
that refuses connections (a process that is down). Through it: the start page, HTTP
sent to HTTPS, a member's link claimed (the session cookie ``Secure``: nginx says the
request came over TLS), an admin's link to a new member naming the public HTTPS
address, a table created, a seat's game played over the WebSocket
upgrade, the health route kept to this machine, and the client addresses that nginx
forwards counted by the service, which ignores the same header from a peer it was not
told to trust.

Skipped with the reason without nginx or openssl (failing under ``CI``: .ci/run installs
them). Bounded in time: every wait has a deadline; everything started is stopped."""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.ports import free_port
from websockets.sync.client import ClientConnection, connect

from domeng.server.club.members import add_member
from domeng.server.club.sessions import COOKIE
from domeng.storage import OWNER, SQLiteStorage

from .conftest import TIMEOUT
from .secure_socket import Secure, Talk, open_secure

DEPLOY = Path(__file__).resolve().parents[2] / "deploy" / "nginx"
PUBLIC = "club.example.org"
START = 90.0
"""Seconds a process has to start (the service reads its database and loads the bots)."""
SPECTATORS = 1
"""The service's spectators' places per address (``--spectators-per-address``)."""
PASSWORD = "kapal-pinisi-7"
OPEN = 30.0
"""Seconds a WebSocket's opening through nginx may take: a fresh-clone CI run with a
browser test beside it (load 16) once took more than 10 s for one."""


def _program(name: str, *more: str) -> str:
    found = shutil.which(name) or next((p for p in more if os.path.exists(p)), None)
    if found is None:
        why = f"no {name}: .ci/run installs it (Debian's package {name})"
        if os.environ.get("CI"):
            pytest.fail(why)
        pytest.skip(why)
    return found


def _below_free_ports(s: socket.socket) -> None:
    """Bind ``s`` to a loopback port below the range the kernel hands out for port 0
    (Linux's ip_local_port_range), where every other test's free port comes from."""
    try:
        low = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        low = 32768
    ports = list(range(max(1024, low - 8000), low))
    random.shuffle(ports)
    for port in ports[:200]:
        try:
            s.bind(("127.0.0.1", port))
            return
        except OSError:
            continue
    s.bind(("127.0.0.1", 0))


@contextlib.contextmanager
def refusing(port: int = 0) -> Iterator[int]:
    """A loopback port where a process is down, kept so while the block runs: a socket
    bound to it and never listening, so the kernel refuses every connection (as for a
    process that died) and no other program can start listening there meanwhile (a
    server that takes a connection but does not answer would hold nginx's request for
    its whole proxy_read_timeout).

    Without ``port``, one below the ports the kernel hands out for port 0, bound without
    SO_REUSEADDR: a port picked from those was once the port another test had just
    found free and then listened on (with SO_REUSEADDR, as servers do, it could share a
    port held with it), and a WebSocket through nginx waited 30 s for its answer. With
    ``port`` (a killed process's), it is bound without SO_REUSEADDR where it can be, with
    it where the killed process's connections still linger (the port then held against
    every program but those that set SO_REUSEADDR too); a port that cannot be bound just
    now is given as it is."""
    with socket.socket() as s:
        if not port:
            _below_free_ports(s)
            yield s.getsockname()[1]
            return
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                yield port
                return
        yield s.getsockname()[1]


def _wait_until(ready: Callable[[], bool], proc: subprocess.Popen[bytes], log: Path) -> None:
    """Until ``ready()``; fails, with the program's log, if it ends or takes too long."""
    deadline = time.monotonic() + START
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"{proc.args!r} ended at its start: {log.read_text()}")
        with contextlib.suppress(OSError, httpx.HTTPError):
            if ready():
                return
        time.sleep(0.05)
    raise AssertionError(f"{proc.args!r} was not ready within {START} s: {log.read_text()}")


def _listens(port: int) -> bool:
    with socket.create_connection(("127.0.0.1", port), 0.5):
        return True


def _once(text: str, old: str, new: str) -> str:
    """``text`` with ``old`` (a regular expression) put as ``new``, found exactly once: a
    change of the configuration the test does not know fails here, not silently."""
    made, n = re.subn(old, new, text, flags=re.MULTILINE)
    assert n == 1, f"deploy/nginx/domeng.conf: {old!r} found {n} times"
    return made


def rendered(upstreams: list[int], http: int, https: int, cert: Path, key: Path) -> str:
    """deploy/nginx/domeng.conf with the test's ports, certificate and snippet, and
    nothing else changed."""
    conf = (DEPLOY / "domeng.conf").read_text()
    servers = "".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;\n" for p in upstreams)
    conf = re.sub(r"^    server 127\.0\.0\.1:\d+ .*;\n", "", conf, flags=re.MULTILINE)
    conf = _once(conf, r"^upstream domeng \{\n", "upstream domeng {\n" + servers)
    conf = _once(conf, r"listen 80;", f"listen 127.0.0.1:{http};")
    conf = _once(conf, r"listen 443 ssl;", f"listen 127.0.0.1:{https} ssl;")
    conf = _once(conf, r"ssl_certificate +/etc/letsencrypt/\S+;", f"ssl_certificate {cert};")
    conf = _once(conf, r"ssl_certificate_key /etc/letsencrypt/\S+;", f"ssl_certificate_key {key};")
    snippet = DEPLOY / "domeng-proxy.conf"
    return _once(conf, r"include /etc/nginx/snippets/domeng-proxy\.conf;", f"include {snippet};")


def certificate(d: Path) -> tuple[Path, Path]:
    """A certificate for the club's public name made for the test, and its key, in ``d``
    (an elliptic-curve key: an RSA key took seconds on a busy machine)."""
    openssl = _program("openssl")
    cert, key = d / "cert.pem", d / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
         "-nodes", "-days", "1",
         "-subj", f"/CN={PUBLIC}", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True, timeout=60,
    )  # fmt: skip
    return cert, key


MAIN = """daemon off;
master_process off;
worker_processes 1;
pid {d}/nginx.pid;
error_log {d}/error.log warn;
events {{ worker_connections 256; }}
http {{
    # which process took each request, and how long it waited (for a failure's reading)
    log_format up '$msec $status $request_time $upstream_addr $upstream_status '
                  '$upstream_response_time $upstream_connect_time "$request"';
    access_log {d}/access.log up;
    client_body_temp_path {d}/client_body;
    proxy_temp_path {d}/proxy;
    fastcgi_temp_path {d}/fastcgi;
    uwsgi_temp_path {d}/uwsgi;
    scgi_temp_path {d}/scgi;
    include {d}/domeng.conf;
}}
"""
"""nginx's own configuration for the test: one process, as the user running the test,
every file of its own in the test's folder."""


@contextlib.contextmanager
def started(command: list[str], log: Path, **options: Any) -> Iterator[subprocess.Popen[bytes]]:
    """``command`` running, its output in ``log``; stopped (SIGTERM, then SIGKILL) after."""
    with log.open("wb") as out:
        proc = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, **options)
        try:
            yield proc
        finally:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
                try:
                    proc.wait(10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(10)


@dataclass
class Proxied:
    """nginx before the service: their ports, and a client of nginx's HTTPS."""

    https: int
    http: int
    service: int
    client: httpx.Client
    """Ani's browser: a member signed in."""
    log: Path
    """nginx's error log."""
    claimed: httpx.Response
    """The answer to Ani's claim of her link."""

    @property
    def origin(self) -> str:
        return f"https://{PUBLIC}:{self.https}"


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proxied]:
    nginx = _program("nginx", "/usr/sbin/nginx")
    d = tmp_path_factory.mktemp("nginx")
    cert, key = certificate(d)
    service, http, https = (free_port() for _ in range(3))
    with refusing() as down:  # a second process, down
        (d / "domeng.conf").write_text(rendered([down, service], http, https, cert, key))
        yield from _served(d, nginx, service, http, https)


def _served(d: Path, nginx: str, service: int, http: int, https: int) -> Iterator[Proxied]:
    """nginx (configured in ``d``) and one ``domeng serve --club`` on ``service``, running;
    Ani's link claimed through nginx."""
    (d / "nginx.conf").write_text(MAIN.format(d=d))
    db = d / "tables.sqlite3"
    storage = SQLiteStorage(db)  # the club's owner, as domeng members add makes her
    code = add_member(storage, "Ani", OWNER, time.time()).code
    storage.close()
    env = dict(os.environ, PYTHONUNBUFFERED="1", DOMENG_DATA_DIR=str(d / "data"))
    serve = [
        sys.executable, "-m", "domeng", "serve", "--no-browser", "--host", "127.0.0.1",
        "--port", str(service), "--db", str(db), "--club",
        "--allow-host", PUBLIC, "--trust-proxy", "127.0.0.1",
        "--spectators-per-address", str(SPECTATORS),
    ]  # fmt: skip
    proxy = [nginx, "-p", str(d), "-c", str(d / "nginx.conf"), "-e", str(d / "error.log")]
    with (
        started(serve, d / "serve.log", env=env) as domeng,
        started(proxy, d / "nginx.out") as server,
    ):
        health = f"http://127.0.0.1:{service}/api/health"
        _wait_until(lambda: httpx.get(health).status_code == 200, domeng, d / "serve.log")
        _wait_until(lambda: _listens(https), server, d / "nginx.out")
        headers = {"Host": f"{PUBLIC}:{https}"}
        with httpx.Client(
            base_url=f"https://127.0.0.1:{https}", verify=False, headers=headers, timeout=TIMEOUT
        ) as client:
            origin = {"Origin": f"https://{PUBLIC}:{https}"}
            body = {"code": code, "password": PASSWORD}
            claimed = client.post("/api/members/claim", json=body, headers=origin)
            yield Proxied(https, http, service, client, d / "error.log", claimed)


def _cookie(p: Proxied) -> dict[str, str]:
    return {"Cookie": f"{COOKIE}={p.client.cookies[COOKIE]}"}


def _socket(
    p: Proxied, table: str, forwarded: str | None = None, source: str = "127.0.0.1"
) -> Secure:
    """Ani's WebSocket to ``table`` through nginx (wss, the public name as its Host), from
    the address ``source``."""
    headers = _cookie(p) | ({"X-Forwarded-For": forwarded} if forwarded else {})
    try:
        return open_secure(
            p.https, f"/ws/tables/{table}", PUBLIC, OPEN, headers=headers, source=source
        )
    except TimeoutError as e:
        raise AssertionError(f"no answer to a WebSocket's opening in {OPEN} s\n{_seen(p)}") from e


_TCP_STATES = {"01": "ESTABLISHED", "08": "CLOSE_WAIT", "0A": "LISTEN"}


def _seen(p: Proxied) -> str:
    """What nginx and the service show, for a WebSocket's opening that went unanswered
    (it happened a few times in whole runs of the suite, never alone): the ends of their
    logs, the sockets of the service's port with the bytes each has not read or sent
    (``/proc/net/tcp``), and the service's own health asked straight."""
    d = p.log.parent
    seen = []
    for name in ("error.log", "access.log", "serve.log"):
        lines = (d / name).read_text(errors="replace").splitlines() if (d / name).exists() else []
        seen.append(f"--- {name}, last lines:\n" + "\n".join(lines[-12:]))
    sockets = []
    for line in Path("/proc/net/tcp").read_text().splitlines()[1:]:
        local, remote, state, queues = line.split()[1:5]
        ports = {int(local.split(":")[1], 16), int(remote.split(":")[1], 16)}
        if p.service in ports and state != "06":  # not those closed already (TIME_WAIT)
            tx, rx = (int(q, 16) for q in queues.split(":"))
            near, far = (int(a.split(":")[1], 16) for a in (local, remote))
            sockets.append(
                f"{near} -> {far} {_TCP_STATES.get(state, state)} unsent {tx} unread {rx}"
            )
    seen.append("--- the service's port's sockets:\n" + "\n".join(sockets))
    try:
        health = httpx.get(f"http://127.0.0.1:{p.service}/api/health", timeout=5).text[:600]
    except httpx.HTTPError as e:
        health = f"no answer: {e!r}"
    seen.append(f"--- the service's /api/health, asked straight: {health}")
    return "\n".join(seen)


def _recv(ws: Talk) -> Any:
    return json.loads(ws.recv(timeout=TIMEOUT))


def _hello(ws: Talk, token: str | None = None) -> str:
    """Say hello: the answer's type, or the refusal's code."""
    ws.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
    answer = _recv(ws)
    return str(answer["code"] if answer["type"] == "error" else answer["type"])


def _new_table(p: Proxied, pace_ms: int = 0) -> Any:
    seats = [{"kind": "person", "name": "Ani"}] + [{"kind": "computer", "level": "random"}] * 4
    r = p.client.post(
        "/api/tables", json={"seats": seats, "pace_ms": pace_ms}, headers={"Origin": p.origin}
    )
    assert r.status_code == 201, r.text
    return r.json()


def test_the_start_page_through_nginx_and_plain_http_sent_to_https(proxied: Proxied) -> None:
    r = proxied.client.get("/")
    assert r.status_code == 200 and "<html" in r.text.lower()
    assert proxied.client.get("/api").json()["name"] == "domeng"
    plain = httpx.get(f"http://127.0.0.1:{proxied.http}/?x=1", headers={"Host": PUBLIC})
    assert plain.status_code == 301 and plain.headers["location"] == f"https://{PUBLIC}/?x=1"
    # the first upstream is down: nginx passed it over (and said so in its log)
    assert "connect() failed (111: Connection refused)" in proxied.log.read_text()


def test_a_members_link_claimed_through_nginx_gives_a_secure_cookie(proxied: Proxied) -> None:
    assert proxied.claimed.status_code == 200, proxied.claimed.text
    cookie = proxied.claimed.headers["set-cookie"].lower()
    assert "secure" in cookie and "httponly" in cookie and "samesite=strict" in cookie
    assert proxied.client.get("/api/session").json()["member"]["name"] == "Ani"
    stranger = httpx.get(
        f"https://127.0.0.1:{proxied.https}/api/tables",
        headers={"Host": f"{PUBLIC}:{proxied.https}"},
        verify=False,
        timeout=TIMEOUT,
    )
    assert stranger.status_code == 401  # a club: members only


def test_a_link_an_admin_makes_through_nginx_names_the_public_https_address(
    proxied: Proxied,
) -> None:
    r = proxied.client.post(
        "/api/members", json={"name": "Besse"}, headers={"Origin": proxied.origin}
    )
    assert r.status_code == 201, r.text
    assert r.json()["link"].startswith(f"https://{PUBLIC}:{proxied.https}/?claim=")


def test_a_table_made_over_https_is_played_over_the_websocket_upgrade(proxied: Proxied) -> None:
    table = _new_table(proxied)
    assert proxied.client.get(f"/api/tables/{table['id']}").json()["id"] == table["id"]
    with _socket(proxied, table["id"]) as ws:
        ws.send(json.dumps({"type": "hello", "token": table["tokens"]["0"]}))
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:  # until it is Ani's turn: she plays
            m = _recv(ws)
            view = m.get("view")
            if (
                m["type"] in ("state", "update")
                and view
                and view["turn"] == 0
                and view["legal_moves"]
            ):
                move = view["legal_moves"][0]
                ws.send(json.dumps({"type": "play", **move, "state": m["state"], "id": 1}))
                break
        else:
            raise AssertionError("Ani's turn did not come")
        ok = _recv(ws)
        while ok["type"] != "ok":
            assert ok["type"] != "error", ok
            ok = _recv(ws)
        assert ok["reply_to"] == 1
    now = proxied.client.get(f"/api/tables/{table['id']}").json()
    assert now["state"] > m["state"]  # the play is the table's (stored before the ok)


def test_a_change_from_another_origin_is_refused_through_nginx(proxied: Proxied) -> None:
    seats = {"seats": [{"kind": "computer", "level": "random"}] * 5}
    r = proxied.client.post("/api/tables", json=seats, headers={"Origin": "https://evil.example"})
    assert (r.status_code, r.json()["error"]["code"]) == (403, "bad_origin")
    r = proxied.client.get("/api", headers={"Host": "evil.example"})
    assert (r.status_code, r.json()["error"]["code"]) == (400, "bad_host")


def test_the_health_route_answers_this_machine_only(proxied: Proxied) -> None:
    r = proxied.client.get("/api/health")
    assert r.status_code == 200 and r.json()["database"] is True
    # nginx allows 127.0.0.1 and ::1 only: another address (here 127.0.0.2) is refused
    elsewhere = httpx.HTTPTransport(local_address="127.0.0.2", verify=False)
    with httpx.Client(transport=elsewhere, headers=proxied.client.headers) as other:
        r = other.get(f"https://127.0.0.1:{proxied.https}/api/health", timeout=TIMEOUT)
        assert r.status_code == 403


def test_the_service_counts_the_addresses_nginx_forwards_and_ignores_others(
    proxied: Proxied,
) -> None:
    table = _new_table(proxied, pace_ms=60_000)["id"]
    # through nginx (named with --trust-proxy): the client nginx names is counted; a
    # client before nginx (a proxy of its own) said who it forwards for
    with _socket(proxied, table, "203.0.113.7") as first:
        assert _hello(first) == "welcome"
        with _socket(proxied, table, "203.0.113.7") as again:
            assert _hello(again) == "too_many_spectators"  # one place per address
        with _socket(proxied, table, "203.0.113.8") as other:
            assert _hello(other) == "welcome"  # another address, its own place
    # a client of nginx that is no proxy the service trusts (127.0.0.2) cannot pose as
    # others: nginx adds the address the client came from, and that one is counted
    with _socket(proxied, table, "203.0.113.11", source="127.0.0.2") as first:
        assert _hello(first) == "welcome"
        with _socket(proxied, table, "203.0.113.12", source="127.0.0.2") as second:
            assert _hello(second) == "too_many_spectators"
    # straight to the service from a peer it was not told to trust (127.0.0.2): the
    # header is ignored, and the peer counted (this machine: one address for all)
    url = f"ws://{PUBLIC}/ws/tables/{table}"

    def direct(forwarded: str) -> ClientConnection:
        sock = socket.create_connection(
            ("127.0.0.1", proxied.service), timeout=TIMEOUT, source_address=("127.0.0.2", 0)
        )
        headers = _cookie(proxied) | {"X-Forwarded-For": forwarded}
        return connect(
            url, sock=sock, additional_headers=headers, open_timeout=OPEN, ping_interval=None
        )

    with direct("203.0.113.9") as peer:
        assert _hello(peer) == "welcome"
        with direct("203.0.113.10") as same_peer:
            assert _hello(same_peer) == "too_many_spectators"
