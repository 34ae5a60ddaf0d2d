"""Requests for a table another process owns, relayed to it (a service of several).

In a service of several processes (:mod:`.leases`) a client may reach any of them (a
reverse proxy that spreads connections with no stickiness, a person's link). Reads
(every GET) are answered by any process from the database. What changes a table goes
to its owner, the one process that writes it: this ASGI middleware, on a process that
does not own the table a request names, **forwards it through**:

- a WebSocket (``/ws/tables/{id}``) is accepted here and relayed, frame by frame both
  ways, over a WebSocket of its own to the owner: the client's hello, plays and chat
  go there, the owner's updates come back in order. When the owner goes (killed, or
  its table taken over) the relay closes the client's socket with 1012, and the
  browser connects again (through any process) to the new owner;
- a POST to ``/api/tables/{id}/...`` (a seat taken or left, the host's say) is sent to
  the owner as it came, and its answer given back.

The client's address goes along as ``X-Forwarded-For`` (the owner believes it when
the relaying process's address is among its ``--trust-proxy``). Host and Origin were
checked here (:mod:`.guard`); the relayed request carries no Origin.

Forward-through, not a redirect: behind a proxy with no stickiness a browser cannot be
sent to one process, and a person's link names the club's one address.

A route that finds out only once it has read the request that another process must
make the change (a tournament's director replacing a no-show at a table owned
elsewhere) sends it there with :func:`forward`, the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import re
import urllib.error
import urllib.request
from typing import TYPE_CHECKING, Any

from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from .errors import TableError
from .leases import Owner

if TYPE_CHECKING:
    from .registry import Registry

log = logging.getLogger("domeng.server")

_SOCKET = re.compile(r"^/ws/tables/([^/]+)$")
_CHANGE = re.compile(r"^/api/tables/([^/]+)/.+$")
TIMEOUT = 10.0
"""Seconds a relayed request (or a relayed socket's opening) may take at the owner."""
BODY_LIMIT = 65_536
"""The longest body relayed (the routes that change a table take far less)."""
MOVED = 1012
"""The close code of a relayed socket whose owner went (the browser connects again)."""
_KEPT_CLOSES = frozenset({1000, 1008, 1013, 4404, 4409})
"""The owner's close codes handed on as they are; any other is :data:`MOVED`."""
RELAYED = b"x-domeng-relayed"
"""The header a relayed request carries: its process serves it, whatever it believes of
the table's owner (no request goes round between two processes)."""
_HEADERS = ("content-type", "cookie", "user-agent", "accept-language", "authorization")
"""The request's headers that go along."""


class Relay:
    """ASGI middleware: a table's WebSocket or change sent on to its owner (see the
    module docstring); everything else, and every request when the process is alone,
    passes."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        owner = await self._owner(scope)
        if owner is None:
            await self.app(scope, receive, send)
        elif any(name == RELAYED for name, _ in scope.get("headers", [])):
            await _moving(scope, receive, send)  # relayed here once: never sent on again
        elif scope["type"] == "websocket":
            await _relay_socket(owner, scope, receive, send)
        else:
            await _relay_request(owner, scope, receive, send)

    async def _owner(self, scope: Scope) -> Owner | None:
        if scope["type"] == "websocket":
            found = _SOCKET.match(scope["path"])
        elif scope["type"] == "http" and scope["method"] == "POST":
            found = _CHANGE.match(scope["path"])
        else:
            return None
        hub: Registry | None = getattr(scope["app"].state, "hub", None)
        if found is None or hub is None or hub.leases is None:
            return None
        try:
            return await hub.home(found.group(1))
        except Exception:  # the database is away: answered here (a read, or a refusal)
            log.exception("could not find the owner of table %s", found.group(1))
            return None


async def _moving(scope: Scope, receive: Receive, send: Send) -> None:
    """A relayed request for a table that moved on meanwhile: try again (the browser
    does), and by then the relaying process knows its owner."""
    if scope["type"] == "websocket":
        client = WebSocket(scope, receive, send)
        await client.accept()
        await client.close(code=MOVED)
        return
    await _answer(send, 503, {"code": "busy", "message": _MOVING})


_MOVING = "the table is moving to another process; try again in a moment"


def _headers(scope: Scope) -> dict[str, str]:
    """The headers that go along, with the client's address added to X-Forwarded-For."""
    sent: dict[str, str] = {}
    forwarded = ""
    for raw_name, raw_value in scope.get("headers", []):
        name, value = raw_name.decode("latin-1").lower(), raw_value.decode("latin-1")
        if name in _HEADERS:
            sent[name] = value
        elif name == "x-forwarded-for":
            forwarded = value
    client = scope.get("client")
    if client:
        forwarded = f"{forwarded}, {client[0]}" if forwarded else str(client[0])
    if forwarded:
        sent["x-forwarded-for"] = forwarded
    sent[RELAYED.decode()] = "1"
    return sent


def _target(owner: Owner, scope: Scope, *, socket: bool) -> str:
    base = owner.address.rstrip("/")
    if socket:
        base = "ws" + base.removeprefix("http")
    query = scope.get("query_string", b"").decode("latin-1")
    return f"{base}{scope['path']}{'?' + query if query else ''}"


async def _relay_request(owner: Owner, scope: Scope, receive: Receive, send: Send) -> None:
    body = bytearray()
    more = True
    while more:
        message = await receive()
        if message["type"] == "http.disconnect":
            return
        body += message.get("body", b"")
        more = message.get("more_body", False)
        if len(body) > BODY_LIMIT:
            await _answer(send, 413, {"code": "too_large", "message": "the body is too long"})
            return
    request = urllib.request.Request(
        _target(owner, scope, socket=False),
        data=bytes(body),
        headers=_headers(scope),
        method="POST",
    )
    try:
        status, kind, answer = await asyncio.to_thread(_fetch, request)
    except OSError as e:
        log.warning("could not relay a request to %s: %s", owner.address, e)
        await _answer(send, 503, {"code": "busy", "message": _MOVING})
        return
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", kind.encode("latin-1"))],
        }
    )
    await send({"type": "http.response.body", "body": answer})


async def forward(owner: Owner, request: Request, body: object, *, again: bool = False) -> Response:
    """``request`` (its JSON ``body`` read already) sent as it came to the process
    ``owner``, and its answer given back. A request that was relayed here already is
    not sent on again: refused ``503 busy`` (the table moved meanwhile; the client
    tries again). ``again``: sent by this process after doing its part (a tournament
    ended: the owner of its other tables ends them), whose answer is not given back
    but only waited for (nothing is refused when the owner is away: it ended)."""
    relayed = any(name == RELAYED for name, _ in request.scope.get("headers", []))
    if relayed and not again:
        raise TableError("busy", _MOVING, 503)
    sent = urllib.request.Request(
        _target(owner, request.scope, socket=False),
        data=json.dumps(body).encode(),
        headers={**_headers(request.scope), "content-type": "application/json"},
        method="POST",
    )
    try:
        status, kind, answer = await asyncio.to_thread(_fetch, sent)
    except OSError as e:
        log.warning("could not send a request on to %s: %s", owner.address, e)
        if again:
            return Response(status_code=204)
        raise TableError("busy", _MOVING, 503) from None
    return Response(answer, status_code=status, headers={"content-type": kind})


def _fetch(request: urllib.request.Request) -> tuple[int, str, bytes]:
    """The owner's answer: its status, content type and body (an error's too)."""
    try:
        with urllib.request.urlopen(request, timeout=TIMEOUT) as r:
            return int(r.status), r.headers.get("content-type", "application/json"), r.read()
    except urllib.error.HTTPError as e:
        with e:
            return int(e.code), e.headers.get("content-type", "application/json"), e.read()


async def _answer(send: Send, status: int, doc: dict[str, Any]) -> None:
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [(b"content-type", b"application/json")],
        }
    )
    await send({"type": "http.response.body", "body": json.dumps(doc).encode()})


async def _relay_socket(owner: Owner, scope: Scope, receive: Receive, send: Send) -> None:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed

    client = WebSocket(scope, receive, send)
    try:
        upstream = await connect(
            _target(owner, scope, socket=True),
            additional_headers=_headers(scope),
            open_timeout=TIMEOUT,
            max_size=None,
            compression=None,
        )
    except (OSError, TimeoutError, ConnectionClosed, Exception) as e:
        log.warning("could not relay a WebSocket to %s: %s", owner.address, e)
        await client.accept()
        await client.close(code=MOVED)  # the browser comes again, by then to the new owner
        return
    await client.accept()
    code = MOVED

    async def down() -> None:  # the owner's messages to the client
        nonlocal code
        try:
            async for frame in upstream:
                await client.send_text(frame if isinstance(frame, str) else frame.decode())
        except ConnectionClosed:
            pass
        received = upstream.close_code
        if received in _KEPT_CLOSES:
            code = received

    async def up() -> None:  # the client's messages to the owner
        with contextlib.suppress(WebSocketDisconnect, ConnectionClosed, RuntimeError):
            while True:
                message: Message = await client.receive()
                if message["type"] == "websocket.disconnect":
                    return
                text = message.get("text")
                await upstream.send(text if text is not None else message.get("bytes") or b"")

    tasks = {asyncio.create_task(down()), asyncio.create_task(up())}
    try:
        await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        with contextlib.suppress(Exception):
            await upstream.close()
        with contextlib.suppress(Exception):
            await client.close(code=code)
