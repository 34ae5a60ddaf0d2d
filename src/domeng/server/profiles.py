"""Players who come back, on the service: profiles to pick or make, and a profile's
token on a seat.

No passwords on a home service: anyone may pick any person's profile
(``POST /api/profiles/{id}/pick`` gives its token), or make one
(``POST /api/profiles``: a name unique on the service whatever its case, a language,
a mark from :data:`MARKS`). The browser keeps the token like a seat token and sends it
when it takes a seat (``"profile"`` in the body), so that seat's rounds count for the
profile. Computer levels are profiles too (their ids are the levels' names), made at
the service's start with calibrated ratings; no one picks them.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from domeng.history.ratings import Rating
from domeng.history.recorder import computer_profiles
from domeng.storage import COMPUTER, PERSON, Figures, Storage, StorageError, StoredProfile
from domeng.storage.writer import StorageWriter

from .bodies import Name, read_body
from .documents import PickedProfileDoc, ProfileDoc, ProfileKind, ProfilesDoc
from .errors import TableError
from .paging import page_limit
from .refusals import Rule, Wording

MARKS = ("red", "orange", "gold", "green", "teal", "blue", "purple", "pink")
"""The colours a person's profile may be shown in."""
LANGUAGES = ("id", "en", "tr", "pt", "nl", "hi")
"""The languages a profile may ask for (the browser's six)."""


class NewProfile(BaseModel):
    """``POST /api/profiles``: a person's new profile."""

    model_config = ConfigDict(strict=True, extra="forbid")

    name: Name
    language: Literal["id", "en", "tr", "pt", "nl", "hi"] = "en"
    mark: Literal["red", "orange", "gold", "green", "teal", "blue", "purple", "pink"] = "blue"


PROFILE_WORDS = Wording(
    status=422,
    first=("missing", "extra_forbidden"),
    rules={
        "name": Rule("bad_name", "must be a text of 1 to 40 printable characters"),
        "language": Rule("bad_language", f"must be one of {', '.join(LANGUAGES)}"),
        "mark": Rule("bad_mark", f"must be one of {', '.join(MARKS)}"),
    },
    missing=lambda name: ("missing_field", 'the body must be {"name": "..."}'),
    special=lambda e: (
        TableError("missing_field", 'the body must be {"name": "..."}', 422)
        if tuple(e["loc"]) == () and e["type"] != "extra_forbidden"
        else None
    ),
)


def profile_kind(kind: str) -> ProfileKind:
    """A stored profile's kind (:data:`PERSON` or :data:`COMPUTER`) as the answers name it."""
    return "computer" if kind == COMPUTER else "person"


def profile_json(p: StoredProfile) -> ProfileDoc:
    """A profile as anyone may see it (never its token)."""
    f = p.figures
    return {
        "id": p.id,
        "name": p.name,
        "kind": profile_kind(p.kind),
        "language": p.language,
        "mark": p.mark,
        "rating": round(f.mu, 2),
        "uncertainty": round(2 * f.sigma, 2),
        "games": f.games,
        "rounds": f.rounds,
    }


def with_token(p: StoredProfile, token: str) -> PickedProfileDoc:
    """A person's profile with its token, for the browser that made or picked it."""
    return {**profile_json(p), "token": token}


async def make_computer_profiles(
    store: StorageWriter, levels: list[str], calibration: dict[str, Rating], at: float
) -> None:
    """The service's start: every computer level has its profile."""
    await store.call(computer_profiles, levels, calibration, at)


async def profile_of_token(store: StorageWriter, token: str) -> StoredProfile:
    """The person's profile a token names (a refusal when none does)."""

    def find(s: Storage) -> StoredProfile | None:
        return s.profile(token=token)

    found = await store.call(find)
    if found is None or found.kind != PERSON:
        raise TableError("bad_profile", "no profile has that token", 403)
    return found


async def token_of(store: StorageWriter, pid: str) -> str | None:
    """The token of the person's profile ``pid`` (None when there is none)."""
    found = await store.call(lambda s: s.profile(id=pid))
    return None if found is None else found.token


def _new(s: Storage, body: NewProfile, at: float) -> tuple[StoredProfile, str]:
    if s.profile(name=body.name) is not None or s.profile(id=body.name) is not None:
        raise TableError("name_taken", f"the name {body.name!r} is taken on this service", 409)
    token = secrets.token_urlsafe(24)
    pid = "p-" + secrets.token_hex(6)
    while s.profile(id=pid) is not None:
        pid = "p-" + secrets.token_hex(6)
    made = StoredProfile(
        pid, body.name, body.language, body.mark, PERSON, token, at, Figures(25.0, 25 / 3)
    )
    try:
        s.create_profile(made)
    except StorageError:
        message = f"the name {body.name!r} is taken on this service"
        raise TableError("name_taken", message, 409) from None
    return made, token


Guard = Callable[[Callable[[Request], Any]], Callable[[Request], Any]]
ReadBody = Callable[[Request], Awaitable[object]]
Share = Callable[[Request, str], None]


def routes(guarded: Guard, body: ReadBody, share: Share) -> list[BaseRoute]:
    """The profiles' routes, with the application's guard, body reader and shares."""

    def store(request: Request) -> StorageWriter:
        writer: StorageWriter = request.app.state.hub.store
        return writer

    async def list_or_make(request: Request) -> Response:
        if request.method == "POST":
            share(request, "seat")
            new = read_body(await body(request), NewProfile, PROFILE_WORDS)
            at = request.app.state.hub.clock.wall()
            made, token = await store(request).call(_new, new, at)
            return JSONResponse(with_token(made, token), status_code=201)
        limit = page_limit(request)
        cursor = request.query_params.get("cursor") or None
        try:  # one more than the page: is there a next one?
            kept = await store(request).call(lambda s: s.profiles(cursor, limit + 1))
        except StorageError:
            message = f"there is no profile {cursor!r} to go on from"
            raise TableError("bad_cursor", message, 400) from None
        shown = [profile_json(p) for p in kept[:limit]]
        listed: ProfilesDoc = {
            "profiles": shown,
            "next": shown[-1]["id"] if len(kept) > limit else None,
        }
        return JSONResponse(listed)

    async def pick(request: Request) -> Response:
        pid = request.path_params["id"]
        found = await store(request).call(lambda s: s.profile(id=pid))
        if found is None:
            raise TableError("unknown_profile", f"there is no profile {pid!r}", 404)
        if found.kind == COMPUTER or found.token is None:
            raise TableError("computer_profile", f"{found.name} is a computer player's", 409)
        return JSONResponse(with_token(found, found.token))

    return [
        Route("/api/profiles", guarded(list_or_make), methods=["GET", "POST"]),
        Route("/api/profiles/{id}/pick", guarded(pick), methods=["POST"]),
    ]
