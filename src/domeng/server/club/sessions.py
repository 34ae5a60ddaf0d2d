"""Signed-in browsers: a session per sign-in, named by a cookie.

The cookie holds a random token (the storage keeps its SHA-256 only); it is
``HttpOnly`` (no script reads it), ``SameSite=Strict`` (no other site's page sends it)
and ``Secure`` when the service is reached over TLS (directly, or behind a proxy named
with ``--trust-proxy`` that says so). Signing out, a suspension or a removal ends the
session in the storage: the cookie names nothing any more.
"""

from __future__ import annotations

import secrets
from http.cookies import CookieError, SimpleCookie

from starlette.responses import Response

from domeng.storage import GUEST, Storage, StoredMember, StoredSession

from ..tables import hash_token
from .members import DAY, GUEST_HOURS

COOKIE = "domeng_session"
SESSION_DAYS = 30
"""Days a member's session lasts."""


def lasts(member: StoredMember) -> float:
    """Seconds a new session of ``member`` lasts."""
    return GUEST_HOURS * 3600.0 if member.role == GUEST else SESSION_DAYS * DAY


def new_session(s: Storage, member: StoredMember, at: float) -> str:
    """A new session of ``member``: its token, for the cookie."""
    token = secrets.token_urlsafe(32)
    s.add_session(StoredSession(hash_token(token), member.id, at, at + lasts(member)))
    return token


def cookie_token(header: str | None) -> str | None:
    """The session's token in a ``Cookie`` header (None: none)."""
    if not header:
        return None
    jar: SimpleCookie = SimpleCookie()
    try:
        jar.load(header)
    except CookieError:
        return None
    morsel = jar.get(COOKIE)
    return morsel.value if morsel is not None and morsel.value else None


def set_cookie(response: Response, token: str, seconds: float, *, secure: bool) -> None:
    response.set_cookie(
        COOKIE, token, max_age=int(seconds), path="/", httponly=True, samesite="strict",
        secure=secure,
    )  # fmt: skip


def clear_cookie(response: Response, *, secure: bool) -> None:
    response.delete_cookie(COOKIE, path="/", httponly=True, samesite="strict", secure=secure)
