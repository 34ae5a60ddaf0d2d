"""A table's WebSocket over TLS (``wss://``) for the tests that go through nginx, read and
written by one thread only.

websockets' threaded client (``websockets.sync``) reads its socket in a thread of its own
while the caller writes to it, and an ``ssl.SSLSocket`` (OpenSSL's state under it) is
not safe to use from two threads at once: right after a TLS 1.3 handshake the reading
thread takes the server's session tickets while the caller writes the opening request.
Three whole runs of the suite under load each had one opening through nginx that went
unanswered for 30 s; the last one's report showed no connection from nginx to the
service and nothing in nginx's logs, so nginx never had the request. That is the
symptom of CPython's issue 137583 (found with websockets: the server "never receives
what the client sent"); python-engineio's issue 461 shows the same race without any
WebSocket code. asyncio does its TLS in memory, in its loop's one thread: here each
WebSocket has such a loop, and the test talks to it as to the threaded client."""

from __future__ import annotations

import asyncio
import socket
import ssl
import threading
from collections.abc import Coroutine
from types import TracebackType
from typing import Any, Protocol, TypeVar

from websockets.asyncio.client import ClientConnection, connect

from .conftest import TIMEOUT

T = TypeVar("T")


class Talk(Protocol):
    """A table's WebSocket as a test uses it: the threaded client's connection as well as
    a ``Secure``."""

    def send(self, message: str) -> None: ...

    def recv(self, timeout: float | None = None) -> str | bytes: ...

    def close(self) -> None: ...

    def __enter__(self) -> Any: ...


def tls() -> ssl.SSLContext:
    """The client's TLS: any certificate (the test's own, made for it) is taken."""
    context = ssl.create_default_context()
    context.check_hostname = False
    context.verify_mode = ssl.CERT_NONE
    return context


class Secure:
    """One WebSocket over TLS, its reading and writing done in its own event loop's
    thread; ``send``, ``recv`` and ``close`` wait for that loop."""

    def __init__(self, opening: Coroutine[Any, Any, ClientConnection], open_timeout: float):
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="wss", daemon=True)
        self._thread.start()
        self._closed = False
        try:
            self._ws = self._call(opening, open_timeout + 5)
        except BaseException:
            self._stop()
            raise

    def _call(self, work: Coroutine[Any, Any, T], timeout: float) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout)

    def send(self, message: str) -> None:
        self._call(self._ws.send(message), TIMEOUT)

    def recv(self, timeout: float | None = None) -> str | bytes:
        """The next message; ``TimeoutError`` after ``timeout`` seconds (the suite's
        ``TIMEOUT`` without one), ``ConnectionClosed`` once the socket is closed."""
        wait = TIMEOUT if timeout is None else timeout
        return self._call(asyncio.wait_for(self._ws.recv(), wait), wait + 5)

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            self._call(self._ws.close(), TIMEOUT)
        finally:
            self._stop()

    def _stop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(TIMEOUT)
        if not self._thread.is_alive():
            self._loop.close()

    def __enter__(self) -> Secure:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, e: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()


def open_secure(
    port: int,
    path: str,
    public: str,
    open_timeout: float,
    headers: dict[str, str] | None = None,
    source: str = "127.0.0.1",
) -> Secure:
    """A WebSocket to ``wss://public:port/path`` (a page of that origin's), connected to
    127.0.0.1:``port`` from the address ``source``; ``TimeoutError`` when the opening
    (TLS and the upgrade) takes more than ``open_timeout`` seconds."""
    sock = socket.create_connection(
        ("127.0.0.1", port), timeout=open_timeout, source_address=(source, 0)
    )
    sock.setblocking(False)

    async def opening() -> ClientConnection:
        return await connect(
            f"wss://{public}:{port}{path}",
            sock=sock,
            ssl=tls(),
            server_hostname=public,
            origin=f"https://{public}:{port}",  # type: ignore[arg-type]
            additional_headers=headers or {},
            open_timeout=open_timeout,
            ping_interval=None,
        )

    try:
        return Secure(opening(), open_timeout)
    except BaseException:
        sock.close()
        raise
