"""A real table service on loopback for the server tests, and small clients for it.

The service runs under uvicorn in a background thread (one per test session)
with its own SQLite file; the tests talk to it over HTTP (httpx) and WebSockets
(the ``websockets`` client), every wait bounded by a timeout.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import json
import logging
import os
import threading
import time
from collections.abc import Callable, Coroutine, Iterator
from pathlib import Path
from typing import Any, TypeVar

import httpx
import pytest
import uvicorn
from argon2 import PasswordHasher
from websockets.sync.client import ClientConnection, connect

from domeng.server import SQLiteStorage, create_app, protocols
from domeng.server.club import passwords
from domeng.server.connection import Connection
from domeng.server.limits import generous

from .postgres import postgres_cluster, postgres_database, postgres_url  # noqa: F401

Json = dict[str, Any]
T = TypeVar("T")
TIMEOUT = 30.0
SERVICE_THREAD = "domeng-test-service"


class ServiceFaults(logging.Handler):
    """Every error or traceback the services it watches log (their threads, named in
    ``threads``: ``start_service(..., watched=)``), for as long as it is a handler.
    Another test's service, in the same process meanwhile, is not watched: one that
    logs a fault on purpose (and checks it) fails no other service's check."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.faults: list[str] = []
        self.threads: set[str] = set()

    def emit(self, record: logging.LogRecord) -> None:
        if record.threadName in self.threads and (
            record.levelno >= logging.ERROR or record.exc_info
        ):
            self.faults.append(record.getMessage())


_services = itertools.count(1)


def run_apart(main: Callable[[], Coroutine[Any, Any, T]], timeout: float = 60) -> T:
    """``asyncio.run(main())`` in a thread of its own (the browser tests may leave an
    event loop running in this one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, main()).result(timeout=timeout)


def drain(c: Connection) -> list[Json]:
    """Every message queued for a connection of the hub (taken off its outbox)."""
    out = []
    while not c.outbox.empty():
        framed = c.outbox.get_nowait()
        if framed is not None:
            out.append(json.loads(framed.text))
    return out


class Service:
    """The address of a running service, with helpers to talk to it."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.http = httpx.Client(base_url=base, timeout=TIMEOUT)

    @property
    def ws_base(self) -> str:
        return self.base.replace("http://", "ws://")

    def level(self) -> str:
        level: str = self.http.get("/api").json()["default_level"]
        return level

    def new_table(self, seats: list[Json], **settings: Any) -> Json:
        r = self.http.post("/api/tables", json={"seats": seats, **settings})
        assert r.status_code == 201, r.text
        body: Json = r.json()
        return body

    def socket(self, table_id: str) -> Socket:
        stack = contextlib.ExitStack()
        url = f"{self.ws_base}/ws/tables/{table_id}"
        # no keepalive pings: the client's ping thread draws its payload from the module's
        # `random`, which Hypothesis (6.170) calls a fault when it happens during a draw
        # no limit to what waits unread (max_queue): a socket a test stopped reading from
        # would otherwise hold its close handshake behind the unread frames (10 s each)
        sock = connect(url, open_timeout=TIMEOUT, ping_interval=None, max_queue=None)
        return Socket(stack.enter_context(sock), stack)


class Socket:
    """A WebSocket to a table that keeps every message it received."""

    def __init__(self, ws: ClientConnection, stack: contextlib.ExitStack) -> None:
        self.ws = ws
        self.stack = stack
        self.received: list[Json] = []
        self.raw: list[str] = []

    def send(self, message: Json | str) -> None:
        self.ws.send(message if isinstance(message, str) else json.dumps(message))

    def recv(self, timeout: float = TIMEOUT) -> Json:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.raw.append(text)
        m: Json = json.loads(text)
        self.received.append(m)
        return m

    def until(self, pred: Callable[[Json], bool], timeout: float = TIMEOUT) -> Json:
        """Receive until a message satisfies ``pred``; fail after ``timeout`` seconds."""
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError("the awaited message did not come")
            m = self.recv(timeout=left)
            if pred(m):
                return m

    def hello(self, token: str | None = None) -> Json:
        """Say hello; answers the ``state`` message that follows the welcome."""
        self.send({"type": "hello", "token": token} if token else {"type": "hello"})
        welcome = self.recv()
        assert welcome["type"] == "welcome", welcome
        return self.until(lambda m: m["type"] == "state")

    def close(self) -> None:
        self.stack.close()


def client_frame(text: str) -> bytes:
    """A masked WebSocket text frame, as a client sends it (for a raw socket)."""
    data = text.encode()
    mask = os.urandom(4)
    head = bytes([0x81])
    if len(data) < 126:
        head += bytes([0x80 | len(data)])
    else:
        head += bytes([0x80 | 126]) + len(data).to_bytes(2, "big")
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))


def start_service(
    db: Path, *, watched: ServiceFaults | None = None, **options: Any
) -> tuple[uvicorn.Server, threading.Thread, str]:
    # a test suite makes hundreds of tables and messages from one address in a moment;
    # the limits themselves are tested with the service's own (test_server_limits.py)
    options.setdefault("shares", generous())
    options.setdefault("spectators_per_address", 1000)  # the suite's sockets, one address
    # the coach at its quickest level: a round's review in a third of the time (that the
    # service judges at the level it was given: test_server_hints.py)
    options.setdefault("coach_level", "expert:fast")
    return serve_in_thread(create_app(SQLiteStorage(db), **options), watched=watched)


def serve_in_thread(
    app: Any, *, watched: ServiceFaults | None = None, **config: Any
) -> tuple[uvicorn.Server, threading.Thread, str]:
    """``app`` served by uvicorn in a thread of this process, on 127.0.0.1 at a port the
    system chooses (``config``: protocols.config's options, such as trusted_proxies);
    its faults kept by ``watched``."""
    # log_config=None: the service's log records reach the root logger (and caplog)
    made = protocols.config(app, host="127.0.0.1", port=0, log_config=None, lifespan="on", **config)
    server = uvicorn.Server(made)
    name = f"{SERVICE_THREAD} {next(_services)}"
    if watched is not None:
        watched.threads.add(name)
    thread = threading.Thread(target=server.run, daemon=True, name=name)
    thread.start()
    deadline = time.monotonic() + 60  # the app's start-up reads its storage, loads bots
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the service did not start")
        time.sleep(0.01)
    port = server.servers[0].sockets[0].getsockname()[1]
    return server, thread, f"http://127.0.0.1:{port}"


@pytest.fixture(scope="session")
def service(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    db = tmp_path_factory.mktemp("server") / "tables.sqlite3"
    faults = ServiceFaults()
    logging.getLogger().addHandler(faults)
    server, thread, base = start_service(db, watched=faults)
    s = Service(base)
    try:
        yield s
    finally:
        s.http.close()
        server.should_exit = True
        thread.join(TIMEOUT)
        logging.getLogger().removeHandler(faults)
    # errors logged late (after the test that caused them) are caught here
    assert not faults.faults, faults.faults


QUICK_HASHER = PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)
"""Argon2id at its lightest (a millisecond a hash): the shipped parameters take 0.4 s of
CPU a hash on this machine, and the server tests hash or check about 60 passwords."""


@pytest.fixture(autouse=True)
def _quick_password_hashes(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    """The club's services run in this process hash members' passwords with
    :data:`QUICK_HASHER`; a test marked ``shipped_hasher`` keeps the shipped one (the
    test of its parameters). The services the tests start as processes keep theirs."""
    if request.node.get_closest_marker("shipped_hasher") is None:
        monkeypatch.setattr(passwords, "HASHER", QUICK_HASHER)


@pytest.fixture(autouse=True)
def no_tracebacks(caplog: pytest.LogCaptureFixture) -> Iterator[None]:
    """The service logs no error and no traceback during any test."""
    caplog.set_level(logging.WARNING)
    yield
    records = [*caplog.get_records("setup"), *caplog.get_records("call"), *caplog.records]
    bad = [r for r in records if r.levelno >= logging.ERROR or r.exc_info]
    assert not bad, [r.getMessage() for r in bad]
