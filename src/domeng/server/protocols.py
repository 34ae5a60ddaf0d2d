"""The service's HTTP and WebSocket connections under uvicorn, with the limits a home
network needs that uvicorn lacks.

HTTP (``DeadlineHTTP``): a request's line and headers must arrive whole within
``HEADER_TIMEOUT`` of its first byte (or of the connection, for a silent socket), at
most ``MAX_HEADER_BYTES`` of them in ``MAX_HEADERS`` fields; a body may not stall for
``BODY_IDLE`` nor take longer than ``BODY_TIMEOUT`` in all. A client that breaks one
is answered 408 or 431 and its connection closed, so that sockets held open by a slow
or silent client (slowloris) cannot use up the open files.

WebSocket (``AbortingWebSocket``): when the service gives up on a client that does not
read (its queue full, a send stalled), the socket is aborted, not closed: a close
would wait for the unread bytes to drain, which they never do. A message the service has
framed once for many connections is written straight to each socket that takes it at
once (``write_frame``, the socket itself offered to the app as the ASGI extension
``domeng.frames``): one ``update`` to 500 spectators costs 500 socket writes, not 500
trips through the ASGI send. The socket agrees to permessage-deflate only with
``server_no_context_takeover`` (each message compressed on its own), and tells
``write_frame`` which of a message's frames it takes (:mod:`.frames`).
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Sequence
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.extensions.permessage_deflate import (
    PerMessageDeflate,
    ServerPerMessageDeflateFactory,
)
from websockets.protocol import State
from websockets.server import ServerProtocol

from .faults import count_faults
from .forwarded import Forwarded
from .frames import WINDOW_BITS, Framed

HEADER_TIMEOUT = 10.0
BODY_IDLE = 10.0
BODY_TIMEOUT = 120.0
MAX_HEADER_BYTES = 16_384
MAX_HEADERS = 100

_RESET = struct.pack("ii", 1, 0)  # SO_LINGER on, 0 s: closing sends a reset
_REASONS = {408: b"Request Timeout", 431: b"Request Header Fields Too Large"}


class DeadlineHTTP(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol with deadlines for headers and bodies, and a cap
    on the size of the headers."""

    header_timeout = HEADER_TIMEOUT
    body_idle = BODY_IDLE
    body_timeout = BODY_TIMEOUT

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline: asyncio.TimerHandle | None = None
        self._body_by = 0.0
        self._header_bytes = 0
        self._header_count = 0

    # the deadline in force, one at a time
    def _arm(self, seconds: float, status: int, why: str) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._refuse, status, why)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _refuse(self, status: int, why: str) -> None:
        """Answer ``status`` if no answer has begun, and close the connection."""
        self._deadline = None
        if self.transport.is_closing():
            return
        if self.cycle is None or self.cycle.response_complete or not self.cycle.response_started:
            body = why.encode("ascii")
            head = b"HTTP/1.1 %d %s\r\n" % (status, _REASONS[status])
            head += b"content-type: text/plain; charset=utf-8\r\n"
            head += b"content-length: %d\r\nconnection: close\r\n\r\n" % len(body)
            self.transport.write(head + body)
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True  # the request's handler hears it left
            self.cycle.message_event.set()
        self.transport.close()

    def give_up(self) -> None:
        """The app gives up on a client that does not read its answer (a write deadline
        passed): the request's handler hears it left, and the connection is reset, so
        that neither its unread bytes nor the answer's file are kept for it."""
        if self.cycle is not None and not self.cycle.response_complete:
            self.cycle.disconnected = True
            self.cycle.message_event.set()
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
        self.transport.abort()

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm(self.header_timeout, 408, "the request's headers did not arrive in time")

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._header_bytes = self._header_count = 0
        self._arm(self.header_timeout, 408, "the request's headers did not arrive in time")

    def on_url(self, url: bytes) -> None:
        self._count(len(url), 0)
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value) + 4, 1)
        super().on_header(name, value)

    def _count(self, size: int, fields: int) -> None:
        self._header_bytes += size
        self._header_count += fields
        if self._header_bytes > MAX_HEADER_BYTES or self._header_count > MAX_HEADERS:
            self._disarm()
            # refused once, whatever else the parser still reports
            if not self.transport.is_closing():
                self._refuse(431, "the request's headers are too large")

    def on_headers_complete(self) -> None:
        if self.transport.is_closing():
            return
        self._disarm()
        extensions = self.scope.setdefault("extensions", {})
        extensions[GIVE_UP] = {"give_up": self.give_up}  # for a write deadline (streams.py)
        super().on_headers_complete()
        if self.parser.should_upgrade():
            return  # a WebSocket: its hello deadline takes over
        self._body_by = self.loop.time() + self.body_timeout
        self._arm_body()

    def _arm_body(self) -> None:
        seconds = min(self.body_idle, max(0.0, self._body_by - self.loop.time()))
        self._arm(seconds, 408, "the request's body did not arrive in time")

    def on_body(self, body: bytes) -> None:
        if self.transport.is_closing():
            return
        super().on_body(body)
        if self._deadline is not None:
            self._arm_body()

    def on_message_complete(self) -> None:
        self._disarm()
        if self.transport.is_closing() and self.cycle is None:
            return
        super().on_message_complete()

    def data_received(self, data: bytes) -> None:
        if self.transport.is_closing():
            return  # refused: what else it sends is not read
        super().data_received(data)


GIVE_UP = "domeng.give_up"
"""The ASGI extension (in an HTTP request's scope) whose ``give_up`` resets a connection
whose client does not read the answer (:mod:`.streams`)."""

FRAMES = "domeng.frames"
"""The ASGI extension (in a WebSocket's scope) that holds the socket itself, for its
``write_frame`` and ``send_frame``."""


class AbortingWebSocket(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol, aborting the socket of a client the service gave up
    on while bytes still wait to be written to it, and writing framed messages."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # permessage-deflate, each message on its own both ways (no window kept per
        # connection): what uvicorn offers keeps the service's context, which would make
        # a message compressed once for many connections wrong for each of them
        deflate = ServerPerMessageDeflateFactory(
            server_no_context_takeover=True,
            client_no_context_takeover=True,
            compress_settings={"memLevel": 5},
        )
        self.conn = ServerProtocol(
            extensions=[deflate], max_size=self.config.ws_max_size, logger=self.conn.logger
        )
        self.deflate = False
        """The client agreed to compressed frames the service makes once for many."""

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        self.deflate = any(
            isinstance(e, PerMessageDeflate) and e.local_max_window_bits >= WINDOW_BITS
            for e in self.conn.extensions
        )  # a client that asked for a smaller window gets the service's frames plain
        scope = getattr(self, "scope", None)
        if scope is not None:  # accepted (a refused handshake has no app to tell)
            scope["extensions"][FRAMES] = self

    def write_frame(self, framed: Framed) -> bool:
        """Write the message's frame (compressed if the client agreed to it) if the socket
        is open and takes it without waiting; else nothing, and answer False (the
        caller queues it, and its writer waits: :meth:`send_frame`)."""
        if (
            not self.writable.is_set()
            or self.disconnected
            or self.close_sent
            or self.conn.state is not State.OPEN
            or self.transport.is_closing()
        ):
            return False
        self.transport.write(framed.deflated if self.deflate else framed.plain)
        return True

    async def send_frame(self, framed: Framed) -> None:
        """Write the message's frame once the socket takes it; raises ConnectionError if
        the socket is closing or closed."""
        while True:
            await self.writable.wait()
            if self.write_frame(framed):
                return
            if self.writable.is_set():  # not a full buffer: the socket is closing or closed
                raise ConnectionError("the WebSocket is closing")

    async def run_asgi(self) -> None:
        await super().run_asgi()
        if not self.writable.is_set():  # a close would wait for the unread bytes
            sock = self.transport.get_extra_info("socket")
            if sock is not None:  # a reset: the system drops its own copy of them too
                with contextlib.suppress(OSError):
                    sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _RESET)
            self.transport.abort()


def config(app: Any, *, trusted_proxies: Sequence[str] = (), **options: Any) -> uvicorn.Config:
    """A uvicorn configuration for ``app`` with the service's protocols and limits.

    ``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from the proxies
    named in ``trusted_proxies`` (addresses or networks, ``domeng serve --trust-proxy``;
    :mod:`.forwarded`): uvicorn believes them from 127.0.0.1 by default, so any process
    on the machine could pose as any address of the home network and spend its fair
    shares."""
    options.setdefault("proxy_headers", False)  # Forwarded reads them (forwarded.py)
    options.setdefault("ws_max_size", 65_536)
    options.setdefault("ws_per_message_deflate", False)  # the protocol offers its own
    forwarded = Forwarded(app, trusted_proxies)
    made = uvicorn.Config(forwarded, http=DeadlineHTTP, ws=AbortingWebSocket, **options)
    count_faults()  # after uvicorn set its loggers up: a client's fault is counted
    return made
