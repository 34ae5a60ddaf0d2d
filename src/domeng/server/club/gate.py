"""The club's gate: an ASGI middleware in front of every route (club mode only).

- Only the start page (with the page's files and the rules it holds), ``GET /api``,
  ``GET /api/health``, signing in and out (``/api/session``), claiming a link
  (``POST /api/members/claim``) and signing up where an admin opened it
  (``POST /api/members/signup``) answer without a signed-in member; anything else, HTTP or
  WebSocket, is refused ``401 not_signed_in`` (``403 member_suspended`` for a session of a
  suspended member).
- A guest reaches its one table only (``/api/tables/ID...``, ``/ws/tables/ID``); anything
  else is ``403 guest_outside_table``.
- No one makes a profile (``403 signup_closed``: members are made by admins), and a
  member picks their own profile only (``403 not_your_profile``).
- A request that changes something (any method but GET, HEAD, OPTIONS) or opens a
  WebSocket from another site's page is refused ``403 cross_site`` by its
  ``Sec-Fetch-Site`` header, even with a valid cookie (the :mod:`..guard` refuses a
  foreign ``Origin`` before, and the cookie is ``SameSite=Strict`` besides).

The member is put in the request's state (``request.state.member``); a member's
WebSocket ends at once when they are suspended or removed (:meth:`Club.end_sockets`).
"""

from __future__ import annotations

import asyncio
import json
import re

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from domeng.storage import GUEST, StoredMember

from ..guard import SAFE_METHODS
from ..tables import TableError
from .sessions import cookie_token
from .state import Club

OPEN = re.compile(r"^/(?:web/.*|favicon\.(?:ico|svg)|robots\.txt)?$")
"""The paths anyone may read: the start page and the page's files."""
OPEN_API = frozenset(
    {"/api", "/api/health", "/api/session", "/api/members/claim", "/api/members/signup"}
)
"""The routes anyone may call (``/api/health`` holds figures only, no name: the proxy
and the monitor ask it without signing in; docs/deploy.md keeps it to them)."""
PICK = re.compile(r"^/api/profiles/([^/]+)/pick$")
GUEST_TABLE = re.compile(r"^/(?:api|ws)/tables/([^/]+)(?:/.*)?$")


def _decide(scope: Scope, member: StoredMember) -> None:
    """Refuse what ``member`` may not reach (see the module docstring)."""
    path, method = scope["path"], scope.get("method", "GET")
    if member.role == GUEST:
        m = GUEST_TABLE.match(path)
        if m is None or m.group(1) != member.table:
            raise TableError("guest_outside_table", "a guest plays at their own table only", 403)
    if path == "/api/profiles" and method == "POST":
        raise TableError(
            "signup_closed", "members are made by the club's admins: ask one for a link", 403
        )
    pick = PICK.match(path)
    if pick is not None and pick.group(1) != member.id:
        raise TableError("not_your_profile", "a member picks their own profile only", 403)


class ClubGate:
    """See the module docstring."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = {k.decode("latin-1"): v.decode("latin-1") for k, v in scope["headers"]}
        changes = scope["type"] == "websocket" or scope.get("method", "GET") not in SAFE_METHODS
        site = headers.get("sec-fetch-site", "").lower()
        try:
            if changes and site in ("cross-site", "same-site"):
                raise TableError("cross_site", "a page of another site may not do that", 403)
            path = scope["path"]
            if OPEN.match(path) or path in OPEN_API:
                await self.app(scope, receive, send)
                return
            club: Club = scope["app"].state.club
            member = await club.signed_in(cookie_token(headers.get("cookie")))
            _decide(scope, member)
        except TableError as e:
            await _refuse(scope, receive, send, e)
            return
        scope.setdefault("state", {})["member"] = member
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        ended = club.watch(member.id)
        try:
            await self.app(scope, _until(receive, ended), send)
        finally:
            club.forget(member.id, ended)


def _until(receive: Receive, ended: asyncio.Event) -> Receive:
    """A WebSocket's ``receive`` that answers a disconnection once ``ended`` is set."""

    async def wrapped() -> Message:
        if ended.is_set():
            return {"type": "websocket.disconnect", "code": 4003}
        got = asyncio.ensure_future(receive())
        stop = asyncio.ensure_future(ended.wait())
        try:
            await asyncio.wait((got, stop), return_when=asyncio.FIRST_COMPLETED)
        finally:
            stop.cancel()
        if got.done():
            return got.result()
        got.cancel()
        return {"type": "websocket.disconnect", "code": 4003}

    return wrapped


async def _refuse(scope: Scope, receive: Receive, send: Send, e: TableError) -> None:
    if scope["type"] == "websocket":
        await receive()  # websocket.connect; refused before the handshake (HTTP 403)
        await send({"type": "websocket.close", "code": 1008, "reason": e.code})
        return
    body = json.dumps({"error": e.json()}).encode()
    await send(
        {
            "type": "http.response.start",
            "status": e.status,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"cache-control", b"no-store"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
