"""The table service as an ASGI application (Starlette): HTTP routes and WebSockets.

``create_app(storage)`` builds it; ``domeng serve`` runs it under uvicorn. The
protocol is described in docs/protocol.md. A table's changes are its own
(:class:`~domeng.server.tables.Table`), found by the
:class:`~domeng.server.registry.Registry` (``app.state.hub``); this module only
turns HTTP requests into calls on them (their bodies checked by the models of
:mod:`domeng.server.bodies`) and their answers into JSON. The WebSocket is
:mod:`domeng.server.socket`.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import io
import json
import logging
import sys
from collections.abc import AsyncIterator, Callable, Iterable
from pathlib import Path
from typing import Any, cast
from urllib.parse import urlsplit

import segno
from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import ClientDisconnect, Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    Response,
)
from starlette.routing import BaseRoute, Mount, Route, WebSocketRoute
from starlette.websockets import WebSocket

from domeng import __version__
from domeng.bots.coach import COACH_LEVEL
from domeng.engine import BlockPasses, Opening
from domeng.history import calibration
from domeng.history.ratings import Rating
from domeng.storage import Storage, StorageError

from . import club as club_mode
from . import collector, history, profiles, tournament_routes
from .bodies import (
    LEAVE_WORDS,
    NEW_TABLE_WORDS,
    SEAT_WORDS,
    LeaveSeat,
    NewTable,
    TakeSeat,
    check_new_names,
    read_body,
)
from .clock import Clock, LoopClock
from .club.gate import ClubGate
from .club.routes import home_routes
from .club.routes import routes as club_routes
from .documents import (
    HttpError,
    ServiceInfoDoc,
    TableAnswerDoc,
    TableDoc,
    TablesDoc,
    TakenSeatDoc,
)
from .guard import Guard
from .health import Health, health
from .host import HOST_WORDS, HostAction, act
from .hub import Hub
from .limits import (
    GREETING_PER_ADDRESS,
    SPECTATORS_PER_ADDRESS,
    Connections,
    Limits,
    Share,
    retry_after,
)
from .messages import MAX_MESSAGE
from .paging import page_limit
from .paging import whole_query as _whole
from .players import BotRunner, default_level, levels
from .profiles import make_computer_profiles
from .relay import Relay
from .replays import ReplayFailed
from .reviews import review_text
from .schema import protocol_schema
from .socket import HELLO_TIMEOUT, table_socket
from .streams import StreamedFile
from .tables import STATUSES, Seat, Table, TableError
from .tournaments import Tournaments
from .webfiles import WebFiles, compressed

MAX_QR = 500
"""The longest text ``GET /api/qr.svg`` makes a QR code of."""
MAX_BODY = 16_384
"""The longest HTTP request body accepted, in bytes."""
MAX_RECORD = 4_000_000
"""The longest record accepted by ``POST /api/replay``, in bytes."""


def _error(e: TableError, headers: dict[str, str] | None = None) -> JSONResponse:
    wait = retry_after(e)
    if wait is not None:
        headers = {**(headers or {}), "Retry-After": wait}
    body: HttpError = {"error": e.json()}
    return JSONResponse(body, status_code=e.status, headers=headers)


def _address(request: Request) -> str:
    return request.client.host if request.client is not None else "unknown"


def _share(request: Request, kind: str) -> None:
    """Take the client address's share of ``kind`` (:mod:`.limits`); refuses with 429."""
    _hub(request).limits.change(_address(request), kind)


async def _body(request: Request, limit: int = MAX_BODY) -> object:
    """The request's JSON body ({} when empty); see :func:`_raw_body`."""
    raw = await _raw_body(request, limit)
    if not raw.strip():
        return {}
    try:
        return json.loads(raw)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        raise TableError("bad_json", "the body is not valid JSON", 400) from None


async def _raw_body(request: Request, limit: int) -> bytes:
    """The request's body, as sent. Only ``application/json`` is read: a web
    page of another site cannot send that without the browser asking this service
    first (which it does not allow), so no page can create tables or take seats
    behind a player's back."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/json":
        raise TableError(
            "bad_content_type",
            f"the body must be sent as application/json, not {kind or 'without a type'}",
            415,
        )
    raw = bytearray()
    try:
        async for chunk in request.stream():
            raw += chunk
            if len(raw) > limit:
                raise TableError("too_large", f"the body is longer than {limit} bytes", 413)
    except ClientDisconnect:  # the client gave up sending: nobody to answer, nothing to log
        raise TableError("aborted", "the body was not sent whole", 400) from None
    return bytes(raw)


def _hub(request: Request | WebSocket) -> Hub:
    hub: Hub = request.app.state.hub
    return hub


async def _seat(request: Request) -> tuple[Table, int, Seat]:
    """The table and seat of a ``.../seats/{seat}`` path: an unknown table is named as such
    before its seat is read."""
    hub = _hub(request)
    t = await hub.find(request.path_params["id"])
    text = request.path_params["seat"]
    if not (text.isascii() and text.isdigit()):
        raise TableError("unknown_seat", f"there is no seat {text!r} (seats are 0 to 4)", 404)
    return t, int(text), hub.seat(t, int(text))


Handler = Callable[[Request], Any]


def _guarded(handler: Handler) -> Handler:
    """Turn a :class:`TableError` into its JSON answer."""

    async def endpoint(request: Request) -> Response:
        try:
            response: Response = await handler(request)
        except TableError as e:
            return _error(e)
        return response

    return endpoint


# -- HTTP -------------------------------------------------------------------------------


async def info(request: Request) -> Response:
    answer: ServiceInfoDoc = {
        "name": "domeng",
        "version": __version__,
        "levels": levels(),
        "default_level": default_level(),
        "variants": {
            "opening": [o.value for o in Opening],
            "block_passes": [b.value for b in BlockPasses],
        },
        "max_message": MAX_MESSAGE,
        "addresses": request.app.state.addresses,
    }
    return JSONResponse(answer)


async def tables(request: Request) -> Response:
    """``/api/tables``: one route for both methods, so that a 405 names them both."""
    if request.method == "POST":
        return await create_table(request)
    return await list_tables(request)


async def list_tables(request: Request) -> Response:
    hub = _hub(request)
    status = request.query_params.get("status") or None
    if status is not None and status not in STATUSES:
        known = ", ".join(STATUSES)
        raise TableError("bad_status", f"there is no status {status!r} (known: {known})", 400)
    limit = page_limit(request)
    cursor = request.query_params.get("cursor") or None
    order = request.query_params.get("order") or "oldest"
    if order not in ("oldest", "newest"):
        raise TableError("bad_query", "order must be oldest or newest", 400)
    newest = order == "newest"
    if status == "finished":  # from the database: finished tables are not kept in memory
        try:
            page = await hub.store.finished_tables(limit + 1, cursor, newest=newest)
        except StorageError:
            message = f"there is no table {cursor!r} to go on from"
            raise TableError("bad_cursor", message, 400) from None
        next_id = page[limit - 1]["id"] if len(page) > limit else None
        # what the storage kept of each: its public_json when it ended
        finished: TablesDoc = {"tables": cast(list[TableDoc], page[:limit]), "next": next_id}
        return JSONResponse(finished)
    shown: list[TableDoc] = []
    after = cursor is None
    tables = await hub.listed()  # oldest first; the tables in progress
    for t in reversed(tables) if newest else tables:
        if not after:
            after = t.id == cursor
            continue
        if t.status == "finished" or (status and t.status != status):
            continue
        if len(shown) == limit:
            more: TablesDoc = {"tables": shown, "next": shown[-1]["id"]}
            return JSONResponse(more)
        shown.append(t.shown())
    if not after:
        raise TableError("bad_cursor", f"there is no table {cursor!r} to go on from", 400)
    last: TablesDoc = {"tables": shown, "next": None}
    return JSONResponse(last)


async def create_table(request: Request) -> Response:
    _share(request, "create")
    new = read_body(await _body(request), NewTable, NEW_TABLE_WORDS)
    check_new_names(new)  # no two seats show the same name (names.py)
    club = getattr(request.app.state, "club", None)
    if club is not None:  # a member's own profile only (club/state.py)
        new = await club.table_body(request.state.member, new)
    member = None if club is None else request.state.member.id  # the seats handed to them
    created = await _hub(request).create_table(new, member=member)
    location = {"Location": f"/api/tables/{created.table.id}"}
    return JSONResponse(created.json(), status_code=201, headers=location)


async def get_table(request: Request) -> Response:
    t = await _hub(request).find(request.path_params["id"])
    return JSONResponse(t.public_json())


async def get_view(request: Request) -> Response:
    hub = _hub(request)
    t = await hub.find(request.path_params["id"])
    return JSONResponse(hub.state_message(t, None))


async def get_record(request: Request) -> Response:
    t = await _hub(request).find(request.path_params["id"])
    await request.app.state.tournaments.check_record(t)  # duplicate deals still in play: refused
    headers = {}
    if request.query_params.get("download", "").lower() in ("1", "true", "yes"):
        headers["Content-Disposition"] = f'attachment; filename="domeng-{t.id}.json"'
    return JSONResponse(t.record_json(), headers=headers)


def _json_bytes(doc: object) -> bytes:
    return json.dumps(doc, separators=(",", ":")).encode()


async def get_replay(request: Request) -> Response:
    """The finished rounds step by step (``?round=N``: that round), worked out in the
    replay worker from the table's record."""
    _share(request, "table_replay")
    t = await _hub(request).find(request.path_params["id"])
    await request.app.state.tournaments.check_record(t)
    record = _json_bytes(t.record_json(finished_rounds=True))
    return await _replayed(request, record)


async def replay_record(request: Request) -> Response:
    """Replay a record sent by the client (a file opened in the browser) to watch it."""
    _share(request, "replay")
    return await _replayed(request, await _raw_body(request, MAX_RECORD))


async def _replayed(request: Request, record: bytes) -> Response:
    text = request.query_params.get("round")
    number = _whole(text, "round", 1, 1_000_000, 0) if text else None
    hub, address = _hub(request), _address(request)
    hub.in_flight.take(address, "replay")  # one at a time, until it is sent (work.py)
    try:
        answer = await hub.replays.replay(record, number)
    except ReplayFailed as e:
        hub.in_flight.release(address, "replay")
        raise TableError(e.code, str(e), 400 if e.code == "bad_json" else 422) from None
    except BaseException:
        hub.in_flight.release(address, "replay")
        raise
    if isinstance(answer, bytes):
        hub.in_flight.release(address, "replay")
        return Response(answer, media_type="application/json")
    # a long one, from the worker's file: sent a piece at a time with write deadlines,
    # then removed (streams.py); the replay is under way until then

    def sent() -> None:
        hub.replays.forget(answer)
        hub.in_flight.release(address, "replay")

    return StreamedFile(answer, media_type="application/json", done=sent)


async def get_review(request: Request) -> Response:
    """The coach's review of a seat in a finished round (:mod:`.reviews`)."""
    _share(request, "review")
    t = await _hub(request).find(request.path_params["id"])
    await request.app.state.tournaments.check_record(t)
    record = _json_bytes(t.record_json(finished_rounds=True))
    return await _reviewed(request, record)


async def review_record(request: Request) -> Response:
    """The coach's review of a seat in a round of a record the client sent."""
    _share(request, "review")
    return await _reviewed(request, await _raw_body(request, MAX_RECORD))


async def _reviewed(request: Request, record: bytes) -> Response:
    for name in ("seat", "round"):
        if not request.query_params.get(name):
            raise TableError("bad_query", f"a review needs ?seat=N&round=R ({name} missing)", 400)
    seat = _whole(request.query_params.get("seat"), "seat", 0, 4, 0)
    number = _whole(request.query_params.get("round"), "round", 1, 1_000_000, 1)
    try:
        with _hub(request).in_flight.hold(_address(request), "review"):  # work.py
            level = _hub(request).services.coach_level
            answer = await _hub(request).replays.run(review_text, record, seat, number, level)
    except ReplayFailed as e:
        raise TableError(e.code, str(e), 400 if e.code == "bad_json" else 422) from None
    return Response(answer, media_type="application/json")


async def take_seat(request: Request) -> Response:
    _share(request, "seat")
    t, seat, _ = await _seat(request)
    body = read_body(await _body(request), TakeSeat, SEAT_WORDS)
    club = getattr(request.app.state, "club", None)
    if club is not None:  # a member's own profile only (club/state.py)
        body = await club.seat_body(request.state.member, body)
    member = None if club is None else request.state.member.id  # the seat handed to them
    token = await _hub(request).take_seat(t, seat, body, member)
    taken: TakenSeatDoc = {"table_id": t.id, "seat": seat, "token": token, "table": t.public_json()}
    return JSONResponse(taken, status_code=201)


async def leave_seat(request: Request) -> Response:
    _share(request, "seat")
    t, seat, _ = await _seat(request)
    body = read_body(await _body(request), LeaveSeat, LEAVE_WORDS)
    await _hub(request).leave_seat(t, seat, body)
    left: TableAnswerDoc = {"table": t.public_json()}
    return JSONResponse(left)


async def host(request: Request) -> Response:
    """The host's say (:mod:`.host`)."""
    _share(request, "host")
    t = await _hub(request).find(request.path_params["id"])
    body = read_body(await _body(request), HostAction, HOST_WORDS)
    return JSONResponse(await act(_hub(request), t, body))


async def qr_code(request: Request) -> Response:
    """A QR code of ``?data=`` (a link to share), as SVG."""
    data = request.query_params.get("data", "")
    if not data or len(data) > MAX_QR:
        raise TableError("bad_query", f"data must be 1 to {MAX_QR} characters", 400)
    svg = io.BytesIO()  # a whole SVG document (with its namespace), for an <img>
    segno.make(data, error="m").save(
        svg, kind="svg", scale=4, border=2, dark="#1b1b1b", xmldecl=False
    )
    headers = {"Cache-Control": "max-age=3600"}
    return Response(svg.getvalue(), media_type="image/svg+xml", headers=headers)


async def protocol_schema_route(request: Request) -> Response:
    """The protocol's JSON Schema, made from its typed models (:mod:`.schema`)."""
    return JSONResponse(protocol_schema())


def _protocol_path() -> Path:
    return Path(__file__).resolve().parents[3] / "docs" / "protocol.md"


async def protocol(request: Request) -> Response:
    path = _protocol_path()
    if not path.is_file():
        return PlainTextResponse("docs/protocol.md is not installed with this copy", 404)
    return PlainTextResponse(path.read_text(encoding="utf-8"))


WEB_DIR = Path(__file__).resolve().parent.parent / "web"
"""The browser table's files (``domeng/web``, issue 5), served under ``/web``."""


async def start_page(request: Request) -> Response:
    """The browser table's ``web/index.html`` (its files' addresses with their version,
    :mod:`.webfiles`) when it exists, else a plain list of tables."""
    web: WebFiles = request.app.state.web
    answer = web.start_page(request)
    if answer is not None:
        return answer
    hub = _hub(request)
    rows = []
    for t in reversed(await hub.all_tables()):
        seats = ", ".join(
            html.escape(s.stored.name)
            + ("" if s.stored.kind == "computer" or s.stored.token_hash else " (open)")
            for s in t.seats
        )
        rows.append(
            f"<tr><td><a href='/api/tables/{t.id}'>{t.id}</a></td><td>{t.status}</td>"
            f"<td>{len(t.game.rounds)}</td><td>{seats}</td>"
            f"<td><a href='/api/tables/{t.id}/record'>record</a></td></tr>"
        )
    table = (
        "<table><tr><th>table</th><th>status</th><th>round</th><th>seats</th><th></th></tr>"
        + "".join(rows)
        + "</table>"
        if rows
        else "<p>No tables yet.</p>"
    )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Domeng</title>
<style>body{{font-family:sans-serif;max-width:60em;margin:2em auto;padding:0 1em}}
td,th{{padding:.2em .8em;text-align:left}}</style></head>
<body><h1>Domeng — the table service</h1>
<p>The service is running. The table to play at in the browser is not written yet
(it is the next piece of work); until then this page lists the tables, and any program
can play through the HTTP and WebSocket protocol: see <a href="/api/protocol">the
protocol</a> and <a href="/api">/api</a>. <code>domeng play</code> plays in the terminal.</p>
<h2>Tables</h2>{table}
</body></html>"""
    return HTMLResponse(page)


async def _not_found(request: Request, exc: Exception) -> Response:
    return _error(TableError("not_found", f"there is nothing at {request.url.path}", 404))


DATABASE_WAIT = 1.0
"""Seconds a request the database did not answer is asked to wait before it is sent
again (``Retry-After``)."""


async def _database_unavailable(request: Request, exc: Exception) -> Response:
    """The database server did not answer (a connection it cut, a restart, a failover):
    the request may be sent again, and is told so rather than given a bare 500."""
    logging.getLogger("domeng.server").warning(
        "%s %s: the database did not answer (%s)", request.method, request.url.path, exc
    )
    message = "the database did not answer: try again in a moment"
    return _error(TableError("database_unavailable", message, 503, retry_after=DATABASE_WAIT))


def _database_errors() -> dict[type[Exception], Any]:
    """A network database's failures, answered "try again" (:func:`_database_unavailable`).
    PostgreSQL's driver is loaded only when the storage is a PostgreSQL database
    (:func:`domeng.storage.open_storage`): a home service on its SQLite file, which never
    meets those failures, does not load it for them either."""
    psycopg = sys.modules.get("psycopg")
    if psycopg is None:
        return {}
    return {psycopg.OperationalError: _database_unavailable}


async def _not_allowed(request: Request, exc: Exception) -> Response:
    message = f"{request.method} is not allowed at {request.url.path}"
    allow = getattr(exc, "headers", None) or {}
    return _error(TableError("method_not_allowed", message, 405), dict(allow))


# -- the application ---------------------------------------------------------------------


async def _settle_when_read(hub: Hub) -> None:
    await hub.all_tables()
    collector.settle()


def create_app(
    storage: Storage,
    *,
    runner: BotRunner | None = None,
    addresses: list[str] | None = None,
    clock: Clock | None = None,
    allowed_hosts: Iterable[str] = (),
    hello_timeout: float = HELLO_TIMEOUT,
    shares: tuple[dict[str, Share], dict[str, Share]] | None = None,
    trust_loopback: bool = True,
    pending: Path | None = None,
    calibrated: dict[str, Rating] | None = None,
    settle_memory: bool = False,
    spectators_per_address: int = SPECTATORS_PER_ADDRESS,
    club: bool = False,
    coach_level: str = COACH_LEVEL,
    peer: str | None = None,
) -> Starlette:
    """The service, storing through ``storage``; its tables are loaded at startup. It
    answers for the loopback names, the hosts of ``addresses`` and ``allowed_hosts``
    (:mod:`.guard`). ``pending``: the folder where the terminal leaves the games it played
    while this service held the database (domeng.history.pending), recorded at the start
    and whenever a player's page or the leaderboard is asked for. ``calibrated``: the
    computer levels' first ratings (default: the shipped calibration), given to the levels
    the database has no profile of yet. ``settle_memory``: once loaded, set the garbage
    collector for a long-running service (:mod:`.collector`; the whole process's, so
    only ``domeng serve`` asks for it). ``spectators_per_address``: the spectators' places
    of one client address (:class:`~.limits.Connections`). ``club``: the service of a
    club, for its members only (:mod:`.club`). ``coach_level``: the level at which the
    coach judges every hint and review (an ``expert`` level). ``peer``: this process is
    one of several on its PostgreSQL database (:mod:`.leases`), reached by the others at
    this address; requests for a table another owns are relayed to it (:mod:`.relay`)."""

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        messages, addresses = shares or (None, None)
        limits = Limits(clock or LoopClock(), messages, addresses, trust_loopback=trust_loopback)
        hub = Hub(storage, runner, clock, limits=limits, coach_level=coach_level)
        hub.connections = Connections(  # as many may be greeting as may watch
            spectators_per_address=spectators_per_address,
            greeting_per_address=max(GREETING_PER_ADDRESS, spectators_per_address),
        )
        app.state.hub = hub
        app.state.health = Health(hub)
        if peer is not None:
            hub.several(peer)
        first = calibrated if calibrated is not None else calibration.load()
        await make_computer_profiles(hub.store, levels(), first, hub.clock.wall())
        await history.record_notes(hub.store, pending)
        await hub.start()  # the tables in progress are read in the background (registry.py)
        app.state.tournaments = Tournaments(hub)  # read from the storage when asked for
        if club:  # the members' side: who is muted, the hidden messages
            app.state.club = club_mode.Club(hub)
            await app.state.club.start()
        if settle_memory:
            collector.settle()
            # and again once the tables in progress are read: they live as long
            hub.services.chore(asyncio.get_running_loop().create_task(_settle_when_read(hub)))
        try:
            yield
        finally:
            await hub.close()

    web = WebFiles(WEB_DIR)  # the page's files, with a version in their addresses
    routes: list[BaseRoute] = [
        # a club's own routes first: its leaderboard is of its members
        *(club_routes(_guarded, _body, _share) if club else home_routes()),
        Route("/", start_page),
        Route("/api", _guarded(info)),
        Route("/api/health", health),
        Route("/api/protocol", protocol),
        Route("/api/protocol.schema.json", protocol_schema_route),
        Route("/api/tables", _guarded(tables), methods=["GET", "POST"]),
        Route("/api/tables/{id}", _guarded(get_table)),
        Route("/api/tables/{id}/view", _guarded(get_view)),
        Route("/api/tables/{id}/record", _guarded(get_record)),
        Route("/api/tables/{id}/replay", _guarded(get_replay)),
        Route("/api/replay", _guarded(replay_record), methods=["POST"]),
        Route("/api/tables/{id}/review", _guarded(get_review)),
        Route("/api/review", _guarded(review_record), methods=["POST"]),
        Route("/api/tables/{id}/seats/{seat}", _guarded(take_seat), methods=["POST"]),
        Route("/api/tables/{id}/seats/{seat}/leave", _guarded(leave_seat), methods=["POST"]),
        Route("/api/tables/{id}/host", _guarded(host), methods=["POST"]),
        Route("/api/qr.svg", _guarded(qr_code)),
        *profiles.routes(_guarded, _body, _share),  # players who come back
        *history.routes(_guarded),
        *tournament_routes.routes(_guarded, _body, _share),  # club tournaments
        WebSocketRoute("/ws/tables/{id}", table_socket),
        Mount("/web", app=web, name="web"),
    ]
    hosts = {*allowed_hosts, *(urlsplit(a).hostname or "" for a in addresses or [])}
    app = Starlette(
        routes=routes,
        lifespan=lifespan,
        exception_handlers={404: _not_found, 405: _not_allowed, **_database_errors()},
        # the Guard first: a request it refuses is answered at once, uncompressed
        middleware=[
            Middleware(Guard, allowed=sorted(h for h in hosts if h)),
            Middleware(Relay),  # a table another process owns: its requests go there
            compressed(),
            *([Middleware(ClubGate)] if club else []),  # members only (club/gate.py)
        ],
    )
    app.state.web = web
    app.state.addresses = addresses or []
    app.state.hello_timeout = hello_timeout
    app.state.pending = pending
    return app
