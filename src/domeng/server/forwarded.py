"""``X-Forwarded-For`` and ``X-Forwarded-Proto``, believed only from the proxies named.

``domeng serve --trust-proxy ADDRESS`` (an address or a network, as often as needed)
names the reverse proxies whose headers say who the client is and whether it came
over TLS; uvicorn's :class:`ProxyHeadersMiddleware` then takes as the client the last
address of ``X-Forwarded-For`` that is not a named proxy. From any other peer the
headers are ignored, and its own address is the client's.

A request that carries ``X-Forwarded-For`` from a peer not named is most likely a proxy
someone forgot to name: every client behind it then counts as that one address (one
sign-in throttle for all, and no limits at all when it is this machine). The service
says so in its log, once per such peer (:data:`WARNED_AT_MOST` peers in all).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from starlette.types import ASGIApp, Receive, Scope, Send
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

log = logging.getLogger("domeng.server")

WARNED_AT_MOST = 100
"""Peers the log is told about at most (a flood of them does not fill the log)."""


class Forwarded:
    """ASGI middleware: the forwarded headers of the proxies named (see the module)."""

    def __init__(self, app: ASGIApp, trusted: Sequence[str] = ()) -> None:
        self.proxies: ProxyHeadersMiddleware | None = None
        if trusted:
            self.proxies = ProxyHeadersMiddleware(app, trusted_hosts=list(trusted))  # type: ignore[arg-type]
        self.app = app
        self.warned: set[str] = set()

    def trusted(self, peer: str | None) -> bool:
        return self.proxies is not None and peer in self.proxies.trusted_hosts

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            client = scope.get("client")
            peer = client[0] if client else None
            if self.trusted(peer):
                assert self.proxies is not None
                await self.proxies(scope, receive, send)  # type: ignore[arg-type]
                return
            if peer is not None and peer not in self.warned:
                self._warn_if_forwarded(scope, peer)
        await self.app(scope, receive, send)

    def _warn_if_forwarded(self, scope: Scope, peer: str) -> None:
        if len(self.warned) >= WARNED_AT_MOST:
            return
        if any(name == b"x-forwarded-for" for name, _ in scope["headers"]):
            self.warned.add(peer)
            log.warning(
                "a request from %s says X-Forwarded-For, but %s is not a proxy named with "
                "--trust-proxy: the header is ignored and every client behind it counts "
                "as %s (docs/deploy.md, 'Names and forwarded headers')",
                peer,
                peer,
                peer,
            )
