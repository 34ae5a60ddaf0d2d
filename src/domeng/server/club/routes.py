"""A club's HTTP routes (docs/protocol.md, "A club"): signing in and out, claiming a
link, the admins' members page (members, guests, links, suspensions, mutes, the audit
log, the reports) and the chat's reports and hidden messages; the leaderboard of
members."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from domeng.storage import ADMIN, GUEST, MEMBER, Storage, StoredMember

from .. import history
from ..bodies import Name, read_body
from ..refusals import Rule, Wording
from ..tables import TableError, hash_token
from . import moderation
from .members import (
    SIGNUP,
    add_member,
    claim,
    find_member,
    link_address,
    linked_member,
    new_link,
    sign_up,
    signup_open,
)
from .passwords import MAX_PASSWORD, hashed, matches, weakness
from .roles import may_act_on, may_give, need_admin
from .sessions import clear_cookie, cookie_token, lasts, new_session, set_cookie
from .state import Club

AUDIT_SHOWN = 200
"""The admin actions the members page shows, newest first."""

Password = Annotated[str, Field(min_length=0, max_length=MAX_PASSWORD)]
Code = Annotated[str, Field(min_length=1, max_length=100)]


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class SignIn(_Body):
    """``POST /api/session``."""

    name: Name
    password: Password


class ClaimLink(_Body):
    """``POST /api/members/claim``: a member's password (a guest sends none)."""

    code: Code
    password: Password | None = None


class NewMember(_Body):
    """``POST /api/members``."""

    name: Name
    role: Literal["member", "admin"] = "member"


class NewGuest(_Body):
    """``POST /api/guests``: a guest for one table."""

    name: Name
    table: Annotated[str, Field(min_length=1, max_length=40)]


class SignUp(_Body):
    """``POST /api/members/signup``: a new member, where an admin opened sign-up."""

    name: Name
    password: Password


class OpenSignUp(_Body):
    """``POST /api/club/signup`` (an admin): sign-up open to anyone, or not."""

    open: bool


class Suspension(_Body):
    suspended: bool


class Mute(_Body):
    minutes: Annotated[int, Field(ge=0, le=moderation.MAX_MUTE_MINUTES)]


class Said(_Body):
    """A chat message named by its ``at``."""

    at: float


WORDS = Wording(
    status=422,
    rules={
        "name": Rule("bad_name", "must be a text of 1 to 40 printable characters"),
        "password": Rule("bad_password", f"must be a text of at most {MAX_PASSWORD} characters"),
        "code": Rule("bad_code", "must be a link's code"),
        "role": Rule("bad_role", "must be member or admin"),
        "table": Rule("bad_table", "must be a table's id"),
        "suspended": Rule("bad_field", "must be true or false"),
        "open": Rule("bad_field", "must be true or false"),
        "minutes": Rule("bad_field", f"must be 0 to {moderation.MAX_MUTE_MINUTES}"),
        "at": Rule("bad_field", "must be a message's at"),
    },
    # a password is never said back, not even to its sender
    special=lambda e: (
        TableError(
            "bad_password", f"password must be a text of at most {MAX_PASSWORD} characters", 422
        )
        if tuple(e["loc"])[-1:] == ("password",) and e["type"] != "missing"
        else None
    ),
)

ReadBody = Callable[[Request], Awaitable[object]]
Share = Callable[[Request, str], None]
Guarded = Callable[[Callable[[Request], Any]], Callable[[Request], Any]]


def member_json(m: StoredMember) -> dict[str, Any]:
    """A member as the club's pages show them (never their password's hash)."""
    return {
        "id": m.id,
        "name": m.name,
        "role": m.role,
        "claimed": m.password is not None or m.role == GUEST,
        "suspended": m.suspended,
        "muted_until": m.muted_until,
        "table": m.table,
    }


def _club(request: Request) -> Club:
    club: Club = request.app.state.club
    return club


def _me(request: Request) -> StoredMember:
    member: StoredMember = request.state.member
    return member


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _base(request: Request) -> str:
    return str(request.base_url)


def _signed_in(request: Request, member: StoredMember, token: str) -> Response:
    response = JSONResponse({"club": True, "member": member_json(member), "signup": False})
    set_cookie(response, token, lasts(member), secure=request.url.scheme == "https")
    return response


def home_routes() -> list[BaseRoute]:
    """At home there is no club: ``GET /api/session`` says so."""

    async def session(request: Request) -> Response:
        return JSONResponse({"club": False, "member": None, "signup": False})

    return [Route("/api/session", session)]


def routes(guarded: Guarded, body: ReadBody, share: Share) -> list[BaseRoute]:
    """The club's routes, with the application's guard, body reader and shares."""

    async def session(request: Request) -> Response:
        club = _club(request)
        if request.method == "POST":
            return await sign_in(request)
        token = cookie_token(request.headers.get("cookie"))
        if request.method == "DELETE":
            secure = request.url.scheme == "https"
            if token is not None:
                token_hash = hash_token(token)

                def end(s: Storage) -> None:
                    found = s.session(token_hash)
                    if found is not None:
                        s.end_sessions(found.member, token_hash)

                await club.store.call(end)
            response = JSONResponse({"club": True, "member": None, "signup": False})
            clear_cookie(response, secure=secure)
            return response
        signup = await club.store.call(signup_open)
        try:
            member = await club.signed_in(token)
        except TableError:
            return JSONResponse({"club": True, "member": None, "signup": signup})
        return JSONResponse({"club": True, "member": member_json(member), "signup": signup})

    async def signup(request: Request) -> Response:
        share(request, "create")
        club = _club(request)
        asked = read_body(await body(request), SignUp, WORDS)
        if not await club.store.call(signup_open):
            raise TableError(
                "signup_closed", "members are made by the club's admins: ask one for a link", 403
            )
        why = weakness(asked.password, asked.name)
        if why is not None:
            raise TableError("weak_password", why, 422)
        password_hash = await hashed(asked.password)
        now = club.clock.wall()
        member = await club.store.call(lambda s: sign_up(s, asked.name, password_hash, now))
        token = await club.store.call(new_session, member, now)
        response = _signed_in(request, member, token)
        response.status_code = 201
        return response

    async def open_signup(request: Request) -> Response:
        club, me = _club(request), _me(request)
        need_admin(me)
        asked = read_body(await body(request), OpenSignUp, WORDS)
        now = club.clock.wall()

        def kept(s: Storage) -> None:
            with s.batch():
                s.set_club_setting(SIGNUP, "open" if asked.open else "closed")
                moderation.audit(s, now, me, "signup", "open" if asked.open else "closed")

        await club.store.call(kept)
        return JSONResponse({"signup": asked.open})

    async def sign_in(request: Request) -> Response:
        share(request, "seat")
        club = _club(request)
        asked = read_body(await body(request), SignIn, WORDS)
        address = _address(request)
        club.guesses.check(asked.name, address)
        member = await club.store.call(lambda s: s.member(name=asked.name))
        if member is None or member.role == GUEST:
            await club.guessed_wrong(asked.name, address)
            raise TableError("unknown_member", f"{asked.name!r} is not a member here", 401)
        if member.password is None:
            raise TableError(
                "not_claimed", f"{member.name} has not set a password yet: open your link", 401
            )
        if not await matches(member.password, asked.password):
            await club.guessed_wrong(asked.name, address)
            raise TableError("wrong_password", "that is not the password", 401)
        if member.suspended:
            raise TableError("member_suspended", f"{member.name} is suspended from the club", 403)
        await club.guessed_right(asked.name)
        token = await club.store.call(new_session, member, club.clock.wall())
        return _signed_in(request, member, token)

    async def claim_link(request: Request) -> Response:
        share(request, "seat")
        club = _club(request)
        asked = read_body(await body(request), ClaimLink, WORDS)
        now = club.clock.wall()
        member = await club.store.call(linked_member, asked.code, now)
        password_hash = None
        if member.role != GUEST:
            why = weakness(asked.password or "", member.name)
            if why is not None:
                raise TableError("weak_password", why, 422)
            password_hash = await hashed(asked.password or "")
        member = await club.store.call(claim, asked.code, password_hash, now)
        token = await club.store.call(new_session, member, now)
        return _signed_in(request, member, token)

    async def members(request: Request) -> Response:
        club, me = _club(request), _me(request)
        need_admin(me)
        if request.method == "POST":
            share(request, "seat")
            asked = read_body(await body(request), NewMember, WORDS)
            may_give(me, asked.role)
            now = club.clock.wall()
            made = await club.store.call(
                lambda s: add_member(s, asked.name, asked.role, now, by=me.name)
            )
            doc = {**member_json(made.member), "link": link_address(_base(request), made.code)}
            return JSONResponse(doc, status_code=201)
        kept = await club.store.call(lambda s: s.members())
        return JSONResponse({"members": [member_json(m) for m in kept]})

    async def guests(request: Request) -> Response:
        club, me = _club(request), _me(request)
        need_admin(me)
        share(request, "seat")
        asked = read_body(await body(request), NewGuest, WORDS)
        await club.hub.find(asked.table)  # an unknown table is refused
        now = club.clock.wall()
        made = await club.store.call(
            lambda s: add_member(s, asked.name, GUEST, now, table=asked.table, by=me.name)
        )
        link = link_address(_base(request), made.code, guest=True)
        return JSONResponse({**member_json(made.member), "link": link}, status_code=201)

    async def target(request: Request) -> tuple[Club, StoredMember, StoredMember]:
        club, me = _club(request), _me(request)
        need_admin(me)
        share(request, "host")
        mid = request.path_params["id"]
        return club, me, await club.store.call(find_member, mid)

    async def reset_link(request: Request) -> Response:
        club, me, member = await target(request)
        may_act_on(me, member)
        now = club.clock.wall()

        def made(s: Storage) -> str:
            with s.batch():
                code = new_link(s, member, now)
                moderation.audit(s, now, me, "link", member.name)
                return code

        code = await club.store.call(made)
        link = link_address(_base(request), code, guest=member.role == GUEST)
        return JSONResponse({**member_json(member), "link": link})

    async def suspend(request: Request) -> Response:
        club, me, member = await target(request)
        asked = read_body(await body(request), Suspension, WORDS)
        await moderation.suspend(club, me, member, asked.suspended)
        return JSONResponse(member_json(member))

    async def mute(request: Request) -> Response:
        club, me, member = await target(request)
        asked = read_body(await body(request), Mute, WORDS)
        await moderation.mute(club, me, member, asked.minutes)
        return JSONResponse(member_json(member))

    async def one_member(request: Request) -> Response:
        club, me, member = await target(request)
        await moderation.remove(club, me, member)
        return JSONResponse({"removed": member.id})

    async def audit(request: Request) -> Response:
        club = _club(request)
        need_admin(_me(request))
        kept = await club.store.call(lambda s: s.audit(AUDIT_SHOWN))
        entries = [
            {"at": e.at, "actor": e.actor, "action": e.action, "target": e.target,
             "detail": e.detail}
            for e in kept
        ]  # fmt: skip
        return JSONResponse({"audit": entries})

    async def reports(request: Request) -> Response:
        club = _club(request)
        need_admin(_me(request))
        kept = await club.store.call(lambda s: s.reports())
        rows = [
            {"table": r.table_id, "at": r.said_at, "seat": r.seat, "name": r.name,
             "text": r.text, "phrase": r.phrase, "reported": r.at}
            for r in kept
        ]  # fmt: skip
        return JSONResponse({"reports": rows})

    async def report(request: Request) -> Response:
        share(request, "host")
        club = _club(request)
        t = await club.hub.find(request.path_params["id"])
        asked = read_body(await body(request), Said, WORDS)
        await moderation.report(club, t, _me(request), asked.at)
        return JSONResponse({"reported": asked.at}, status_code=201)

    async def hide(request: Request) -> Response:
        share(request, "host")
        club = _club(request)
        need_admin(_me(request))
        t = await club.hub.find(request.path_params["id"])
        asked = read_body(await body(request), Said, WORDS)
        await moderation.hide(club, t, _me(request), asked.at)
        return JSONResponse({"hidden": asked.at})

    async def leaderboard(request: Request) -> Response:
        """The leaderboard of the club's members (and the computer levels, apart)."""
        club = _club(request)

        def rows(s: Storage) -> list[Any]:
            ids = {m.id for m in s.members() if m.role in (MEMBER, ADMIN, "owner")}
            shown = [r for r in history.leaderboard(s) if r["kind"] == "computer" or r["id"] in ids]
            for place, r in enumerate(shown, 1):
                r["place"] = place
            return shown

        players = await club.store.call(rows)
        if request.query_params.get("format") == "csv":
            return Response(
                history.leaderboard_csv(players),
                media_type="text/csv; charset=utf-8",
                headers={"Content-Disposition": 'attachment; filename="domeng-leaderboard.csv"'},
            )
        return JSONResponse({"min_games": history.LEADERBOARD_GAMES, "players": players})

    return [
        Route("/api/session", guarded(session), methods=["GET", "POST", "DELETE"]),
        Route("/api/members/claim", guarded(claim_link), methods=["POST"]),
        Route("/api/members/signup", guarded(signup), methods=["POST"]),
        Route("/api/club/signup", guarded(open_signup), methods=["POST"]),
        Route("/api/members", guarded(members), methods=["GET", "POST"]),
        Route("/api/members/{id}", guarded(one_member), methods=["DELETE"]),
        Route("/api/members/{id}/link", guarded(reset_link), methods=["POST"]),
        Route("/api/members/{id}/suspend", guarded(suspend), methods=["POST"]),
        Route("/api/members/{id}/mute", guarded(mute), methods=["POST"]),
        Route("/api/guests", guarded(guests), methods=["POST"]),
        Route("/api/audit", guarded(audit)),
        Route("/api/reports", guarded(reports)),
        Route("/api/tables/{id}/chat/report", guarded(report), methods=["POST"]),
        Route("/api/tables/{id}/chat/hide", guarded(hide), methods=["POST"]),
        Route("/api/leaderboard", guarded(leaderboard)),
    ]
