"""The HTTP routes of club tournaments (docs/protocol.md, "Tournaments"), over
:class:`~domeng.server.tournaments.Tournaments`: any process of a service of several
answers each (the tournament is read from the storage); a director's change of a
table another process owns is sent there (:func:`.relay.forward`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from .bodies import read_body
from .club.roles import is_admin, need_admin
from .relay import forward
from .tables import TableError
from .tournament_bodies import (
    DIRECTOR_WORDS,
    ENTRANT_WORDS,
    TOURNAMENT_WORDS,
    DirectorAction,
    EntrantToken,
    NewTournament,
)
from .tournaments import ADMIN, Director, Elsewhere, Tournaments

Handler = Callable[[Request], Awaitable[Response]]
Guard = Callable[[Handler], Handler]
ReadBody = Callable[[Request], Awaitable[object]]
Share = Callable[[Request, str], None]


def _of(request: Request) -> Tournaments:
    kept: Tournaments = request.app.state.tournaments
    return kept


def _in_club(request: Request) -> bool:
    """Whether this is a club's service, where only admins direct tournaments (the
    member is checked: a member who is not an admin is refused ``403 not_admin``)."""
    if getattr(request.app.state, "club", None) is None:
        return False
    need_admin(request.state.member)
    return True


def routes(guarded: Guard, body: ReadBody, share: Share) -> list[BaseRoute]:
    """The tournaments' routes, with the application's guard, body reader and shares."""

    async def create(request: Request) -> Response:
        share(request, "seat")
        new = read_body(await body(request), NewTournament, TOURNAMENT_WORDS)
        ts = _of(request)
        t, director, tokens = await ts.create(new, club=_in_club(request))
        answer = ts.json(t)
        answer["director_token"] = director
        answer["entrant_tokens"] = tokens
        return JSONResponse(answer, status_code=201)

    async def get(request: Request) -> Response:
        ts = _of(request)
        t = await ts.read(request.path_params["id"])
        answer = ts.json(t)
        member = getattr(request.state, "member", None)
        in_club = getattr(request.app.state, "club", None) is not None
        if in_club and member is not None and is_admin(member):
            # every admin directs: the personal links, on any admin's page
            answer["entrant_tokens"] = {e.key: e.token for e in t.entrants if e.token}
        return JSONResponse(answer)

    async def director(request: Request) -> Response:
        share(request, "host")
        action = request.path_params["action"]
        raw = await body(request)
        b = read_body(raw, DirectorAction, DIRECTOR_WORDS)
        ts = _of(request)
        tid = request.path_params["id"]
        who: Director = b.token
        if _in_club(request):
            who = ADMIN
        elif b.token is None:
            raise TableError("missing_token", 'the body must be {"token": "..."}', 422)
        if action == "next":
            t = await ts.next_round(tid, who)
        elif action == "end":
            t, elsewhere = await ts.end(tid, who)
            for owner in elsewhere:  # they end the tables of it they own (refused as over)
                await forward(owner, request, raw, again=True)
            t = await ts.read(tid)  # its tables as they ended
        elif action in ("replace", "withdraw"):
            if b.entrant is None:
                raise TableError("bad_body", f"{action} needs an 'entrant'", 422)
            if action == "replace":
                try:
                    t = await ts.replace(tid, who, b.entrant, b.level)
                except Elsewhere as there:  # the table's owner replaces: its answer is ours
                    return await forward(there.owner, request, raw)
            else:
                t = await ts.withdraw(tid, who, b.entrant)
        elif action == "entrants":
            if b.add is None:
                raise TableError("bad_body", "entrants needs an 'add'", 422)
            e, token = await ts.add(tid, who, b.add)
            answer = ts.json(await ts.read(tid))
            answer["added"] = {**e.json(), "token": token}
            return JSONResponse(answer, status_code=201)
        else:
            raise TableError("not_found", f"there is nothing at {request.url.path}", 404)
        return JSONResponse(ts.json(t))

    async def me(request: Request) -> Response:
        b = read_body(await body(request), EntrantToken, ENTRANT_WORDS)
        return JSONResponse(await _of(request).me(request.path_params["id"], b.token))

    async def results_csv(request: Request) -> Response:
        ts = _of(request)
        t = await ts.read(request.path_params["id"])
        headers = {"Content-Disposition": f'attachment; filename="tournament-{t.id}.csv"'}
        return Response(ts.csv(t), media_type="text/csv; charset=utf-8", headers=headers)

    return [
        Route("/api/tournaments", guarded(create), methods=["POST"]),
        Route("/api/tournaments/{id}", guarded(get)),
        Route("/api/tournaments/{id}/results.csv", guarded(results_csv)),
        Route("/api/tournaments/{id}/me", guarded(me), methods=["POST"]),
        Route("/api/tournaments/{id}/{action}", guarded(director), methods=["POST"]),
    ]
