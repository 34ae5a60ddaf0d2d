"""A player's page, the leaderboard (also as CSV) and a terminal game's record, read
from the figures the storage keeps up to date as rounds end (never from every record).

Every figure is a sum of :func:`domeng.history.figures.round_figures` over the rounds
recorded, so it agrees with ``domeng replay`` of the same games
(tests/history/test_figures_agree_with_records.py).
"""

from __future__ import annotations

import csv
import io
import logging
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from domeng.bots.levels import LADDER
from domeng.history.pending import record_pending
from domeng.storage import PlayedGame, SeriesPoint, Storage, StoredProfile
from domeng.storage.writer import StorageWriter

from .documents import (
    FiguresDoc,
    HeadToHeadDoc,
    LeaderboardDoc,
    LeaderboardRowDoc,
    PlayedGameDoc,
    PlayerPageDoc,
    SeriesDoc,
    TableStonesDoc,
)
from .errors import TableError
from .profiles import Guard, profile_json, profile_kind

log = logging.getLogger("domeng.server")

LEADERBOARD_GAMES = 5
"""The games a player needs to be on the leaderboard."""
RECENT = 20
"""The recent games a player's page lists."""
SERIES_POINTS = 200
"""The most points a chart of a player's page is drawn from."""
MOVING = 10
"""The games the stones-per-round moving average is taken over."""


def _per(n: int, d: int, scale: int = 1) -> float:
    return round(scale * n / d, 3) if d else 0.0


def figures_json(p: StoredProfile) -> FiguresDoc:
    """A profile's figures, with the rates a page shows."""
    f = p.figures
    return {
        "games": f.games,
        "rounds": f.rounds,
        "received": f.received,
        "stones_per_round": _per(f.received, f.rounds),
        "camat": f.camat,
        "camat_per_100_rounds": _per(f.camat, f.rounds, 100),
        "rounds_won": f.won,
        "ceki": f.ceki,
        "pollo": f.pollo,
        "manguno": f.manguno,
        "mattikkeng": f.mattikkeng,
        "passebunge": f.passebunge,
        "passebunge_per_round": _per(f.passebunge, f.rounds),
    }


def game_json(g: PlayedGame) -> PlayedGameDoc:
    replay = f"#/replay/{g.game}" if g.source == "table" else None
    return {
        "game": g.game,
        "source": "table" if g.source == "table" else "terminal",
        "seat": g.seat,
        "rounds": g.rounds,
        "received": g.received,
        "stones_per_round": _per(g.received, g.rounds),
        "camat": g.camat,
        "rounds_won": g.won,
        "first": g.first,
        "last": g.last,
        "rating": round(g.mu, 2),
        "uncertainty": round(2 * g.sigma, 2),
        "replay": replay,
        "record": None if replay else f"/api/games/{g.game}/record",
    }


def series_json(points: list[SeriesPoint]) -> SeriesDoc:
    """The charts' points, oldest first: the rating after a game, and the stones per round
    over it and the :data:`MOVING` - 1 before it (a moving average), at most
    :data:`SERIES_POINTS` of each (the storage picks them)."""
    return {
        "rating": [(p.last, round(p.mu, 2), round(2 * p.sigma, 2)) for p in points],
        "stones": [(p.last, _per(p.received, p.rounds)) for p in points],
        "games": [p.game for p in points],
        "moving_games": MOVING,
    }


def player_page(s: Storage, pid: str) -> PlayerPageDoc | None:
    """A player's page (in the storage's thread); None when there is no such profile."""
    p = s.profile(id=pid)
    if p is None:
        return None
    games = s.played_games(pid, RECENT)
    names = {o.id: o for o in s.profiles()}
    heads: list[HeadToHeadDoc] = []
    for h in s.head_to_head(pid):
        o = names.get(h.opponent)
        if o is None:
            continue
        heads.append(
            {
                "opponent": {
                    "id": o.id,
                    "name": o.name,
                    "kind": profile_kind(o.kind),
                    "mark": o.mark,
                },
                "rounds": h.rounds,
                "stones_per_round": _per(h.received, h.seats),
                "opponent_stones_per_round": _per(h.opponent_received, h.opponent_seats),
            }
        )
    return {
        "profile": profile_json(p),
        "figures": figures_json(p),
        "recent": [game_json(g) for g in games],
        "head_to_head": heads,
        "series": series_json(s.series(pid, SERIES_POINTS, MOVING)),
    }


def leaderboard(s: Storage) -> list[LeaderboardRowDoc]:
    """The players with at least :data:`LEADERBOARD_GAMES` games and every computer level
    (from a fresh install on: its rating is calibrated before it plays), highest rating
    first."""
    shown = s.leaderboard(LEADERBOARD_GAMES)
    ids = {p.id for p in shown}
    levels = [p for p in s.profiles() if profile_kind(p.kind) == "computer" and p.id not in ids]
    ranked = sorted([*shown, *levels], key=lambda p: (-p.figures.mu, -_rung(p), p.id))
    out: list[LeaderboardRowDoc] = []
    place = 0
    for n, p in enumerate(ranked, 1):
        if n == 1 or p.figures.mu != ranked[n - 2].figures.mu:
            place = n  # equal ratings share a place: 1, 1, 3
        out.append({"place": place, **profile_json(p), "figures": figures_json(p)})
    return out


def _rung(p: StoredProfile) -> int:
    """A computer level's step on the ladder (-1 for anyone else): of levels rated alike
    (a calibration gives levels its paired trials could not tell apart one rating), the
    higher step is listed first, as players expect of "Master" and "Expert"."""
    if profile_kind(p.kind) == "computer" and p.id in LADDER:
        return LADDER.index(p.id)
    return -1


CSV_COLUMNS = (
    "place", "name", "kind", "rating", "uncertainty", "games", "rounds", "stones_per_round",
    "camat", "camat_per_100_rounds", "rounds_won", "ceki", "pollo", "manguno", "mattikkeng",
    "passebunge_per_round",
)  # fmt: skip


def leaderboard_csv(rows: list[LeaderboardRowDoc]) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\r\n")
    w.writerow(CSV_COLUMNS)
    for r in rows:
        flat: dict[str, Any] = {**r, **r["figures"]}
        w.writerow([flat[c] for c in CSV_COLUMNS])
    return out.getvalue()


async def record_notes(store: StorageWriter, pending: Path | None) -> None:
    """Record the terminal's games noted in ``pending`` (None: none are looked for)."""
    if pending is not None and any(pending.glob("terminal-*.json")):
        try:
            await store.call(record_pending, pending)
        except Exception:
            log.exception("could not record the terminal's games noted in %s", pending)


def routes(guarded: Guard) -> list[BaseRoute]:
    async def store_of(request: Request) -> StorageWriter:
        writer: StorageWriter = request.app.state.hub.store
        await record_notes(writer, request.app.state.pending)
        return writer

    def store(request: Request) -> StorageWriter:
        writer: StorageWriter = request.app.state.hub.store
        return writer

    async def page(request: Request) -> Response:
        pid = request.path_params["id"]
        doc = await (await store_of(request)).call(player_page, pid)
        if doc is None:
            raise TableError("unknown_profile", f"there is no profile {pid!r}", 404)
        return JSONResponse(doc)

    async def board(request: Request) -> Response:
        rows = await (await store_of(request)).call(leaderboard)
        if request.query_params.get("format") == "csv":
            return Response(
                leaderboard_csv(rows),
                media_type="text/csv; charset=utf-8",
                headers={"Content-Disposition": 'attachment; filename="domeng-leaderboard.csv"'},
            )
        doc: LeaderboardDoc = {"min_games": LEADERBOARD_GAMES, "players": rows}
        return JSONResponse(doc)

    async def record(request: Request) -> Response:
        gid = request.path_params["id"]
        text = await store(request).call(lambda s: s.game_record(gid))
        if text is None:
            raise TableError("unknown_game", f"no terminal game {gid!r} is kept", 404)
        return Response(text, media_type="application/json")

    async def stones(request: Request) -> Response:
        """Each seat's STONES after each finished round (the chart of the standings)."""
        t = await request.app.state.hub.find(request.path_params["id"])
        rounds = [list(r.stones) for r in t.game.rounds if r.finished]
        doc: TableStonesDoc = {"table_id": t.id, "stones": rounds}
        return JSONResponse(doc)

    return [
        Route("/api/tables/{id}/stones", guarded(stones)),
        Route("/api/profiles/{id}", guarded(page)),
        Route("/api/leaderboard", guarded(board)),
        Route("/api/games/{id}/record", guarded(record)),
    ]
