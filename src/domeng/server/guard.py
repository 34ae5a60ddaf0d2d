"""The service answers only for its own names, and only to its own pages.

A page of any web site a player opens can send requests to the service on their
machine or home network: to ``127.0.0.1`` directly, or through a name of its own
that it points there (DNS rebinding). Two checks close both doors, for every HTTP
request and WebSocket:

- **Host**: the ``Host`` header must name this service — a loopback name
  (``localhost``, ``127.0.0.1``, ``::1``), a home-network address it listens on, or
  a name given with ``domeng serve --allow-host``; else ``400 bad_host``.
- **Origin**: a request that changes something (any method but GET and HEAD) or
  opens a WebSocket, sent by a browser (it carries ``Origin``), must come from a
  page of this same service (the origin's host and port are the ``Host``); else
  ``403 bad_origin``. Programs that send no ``Origin`` (curl, a script) are let in.
"""

from __future__ import annotations

import ipaddress
import json
from collections.abc import Iterable
from urllib.parse import urlsplit

from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def host_name(host: str) -> str | None:
    """The name part of a ``Host`` header (``[::1]:8080`` -> ``::1``), lower case; None
    for a header that names no host."""
    host = host.strip().lower()
    if not host:
        return None
    if host.startswith("["):
        end = host.find("]")
        return host[1:end] if end > 1 else None
    name, _, port = host.partition(":")
    if port and not port.isdigit():
        return None
    return name or None


def _loopback(name: str) -> bool:
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return name == "localhost" or name.endswith(".localhost")


class Guard:
    """ASGI middleware for the Host and Origin checks (see the module docstring)."""

    def __init__(self, app: ASGIApp, allowed: Iterable[str] = ()) -> None:
        self.app = app
        self.allowed = {a.lower().strip("[]") for a in allowed}

    def host_allowed(self, name: str) -> bool:
        return name in self.allowed or name in LOOPBACK_NAMES or _loopback(name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        host = headers.get("host", "")
        name = host_name(host)
        if name is None or not self.host_allowed(name):
            shown = host[:60] or "none"
            await _refuse(scope, receive, send, 400, "bad_host", f"this service is not {shown!r}")
            return
        origin = headers.get("origin")
        changes = scope["type"] == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        if origin is not None and changes and urlsplit(origin).netloc.lower() != host.lower():
            message = f"a page of {origin[:60]!r} may not use this service"
            await _refuse(scope, receive, send, 403, "bad_origin", message)
            return
        await self.app(scope, receive, send)


async def _refuse(
    scope: Scope, receive: Receive, send: Send, status: int, code: str, message: str
) -> None:
    if scope["type"] == "websocket":
        # refused before the handshake: the client sees the HTTP status (403)
        await receive()  # websocket.connect
        await send({"type": "websocket.close", "code": 1008, "reason": code})
        return
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
