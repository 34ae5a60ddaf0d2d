"""Club tournaments in the service (docs/tournaments.md, docs/protocol.md).

A :class:`Tournaments` keeps every tournament: made by ``POST /api/tournaments``, its
rounds started by the director (``.../next``), each round's tables made through the
hub with the round's deals fixed (:class:`~domeng.server.fixed.Fixed`), and the
standings worked out from the tables' games by :mod:`domeng.tournament.scoring`. It
hears that a table is over from the hub (``hub.on_finished``). Each change is stored
first (one JSON document per tournament, :meth:`~domeng.storage.Storage.save_tournament`).

The pure parts (scoring, seating, deals) are in :mod:`domeng.tournament`; this module
only keeps the state and talks to the hub.
"""

from __future__ import annotations

import asyncio
import contextlib
import csv
import dataclasses
import io
import secrets
from dataclasses import dataclass, field
from typing import Any, cast

from domeng.engine import Game
from domeng.engine.seatname import name_key, seat_name
from domeng.storage import GUEST, PERSON, Storage, StoredTournament
from domeng.tournament import plan, reading, scoring
from domeng.tournament.plan import Format
from domeng.tournament.seating import add_meetings, seat

from .bodies import NewTable
from .documents import Json, SeatKind, TableStatus
from .fixed import Fixed
from .hub import Hub
from .names import first_same, shown
from .players import default_level
from .profiles import profile_of_token
from .tables import Table, TableError, hash_token, same_secret
from .tournament_bodies import NewTournament, PersonEntrant
from .tournament_documents import (
    EntrantDoc,
    EntrantTableDoc,
    EntrantViewDoc,
    TournamentDoc,
)

STATUSES = ("waiting", "playing", "between", "finished")


class ClubAdmin:
    """What the routes pass instead of a director's token when a club's admin acts: in a
    club the admins direct every tournament (the member is checked by the routes)."""


ADMIN = ClubAdmin()
Director = str | ClubAdmin | None
"""Who says they direct: the director's token, a club's admin, or nobody (None)."""


@dataclass(slots=True)
class Entrant:
    """Someone who plays the tournament (or a computer filling a table: ``fill``)."""

    key: str
    kind: str
    name: str
    level: str | None = None
    profile: str | None = None
    token_hash: str | None = None
    """A person's: the hash of their one token, for every table they sit at."""
    active: bool = True
    """False once withdrawn: not seated from the next round on."""
    fill: bool = False
    """A computer filling the last table: its scores are shown, not ranked."""
    token: str | None = None
    """In a club only, a person's token itself (kept as a table keeps a seat's
    invitation code): every admin directs, so every admin's page shows the personal
    links, not only the page of the admin who made the tournament."""

    def json(self) -> EntrantDoc:
        return {
            "key": self.key,
            "kind": cast(SeatKind, self.kind),
            "name": self.name,
            "level": self.level,
            "active": self.active,
            "fill": self.fill,
        }


@dataclass(slots=True)
class RoundTable:
    """A table of a tournament round: its id at the hub and who holds each seat."""

    id: str
    seats: list[str]
    finished: bool = False
    results: Json | None = None
    """The table's figures once its game is over (scoring's shapes as JSON)."""


@dataclass(slots=True)
class Round:
    number: int
    tables: list[RoundTable]


@dataclass(slots=True)
class Tournament:
    id: str
    created: float
    name: str
    format: str
    rounds: int
    deals: int
    table: Json
    seed: int
    director_hash: str
    entrants: list[Entrant]
    played: list[Round] = field(default_factory=list)
    ended: bool = False

    @property
    def status(self) -> TableStatus:
        if self.ended:
            return "finished"
        if not self.played:
            return "waiting"
        if not all(t.finished for t in self.played[-1].tables):
            return "playing"
        return "finished" if len(self.played) >= self.rounds else "between"

    def entrant(self, key: str) -> Entrant:
        for e in self.entrants:
            if e.key == key:
                return e
        raise TableError("unknown_entrant", f"there is no entrant {key!r}", 404)

    def is_director(self, token: str) -> bool:
        return same_secret(self.director_hash, hash_token(token))

    def doc(self) -> Json:
        """What the storage keeps."""
        return dataclasses.asdict(self)

    @classmethod
    def from_doc(cls, d: Json) -> Tournament:
        kept = {k: v for k, v in d.items() if k not in ("entrants", "played")}
        t = cls(**kept, entrants=[Entrant(**e) for e in d["entrants"]])
        t.played = [Round(r["number"], [RoundTable(**x) for x in r["tables"]]) for r in d["played"]]
        return t


def _person(s: Storage, pid: str, *, club: bool) -> str:
    """The name of the person whose profile's id is ``pid`` (in a club: a member, neither a
    guest nor suspended); refused ``404 unknown_profile`` (``unknown_member``) else."""
    if club:
        m = s.member(id=pid)
        if m is None or m.role == GUEST or m.suspended:
            raise TableError("unknown_member", f"there is no member {pid!r} to enter", 404)
    p = s.profile(id=pid)
    if p is None or p.kind != PERSON:
        raise TableError("unknown_profile", f"there is no person's profile {pid!r}", 404)
    return p.name


def _fraction_json(x: Any) -> float:
    return round(float(x), 2)


class Tournaments:
    """Every tournament of the service; see the module docstring."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.all: dict[str, Tournament] = {}
        self.by_table: dict[str, str] = {}
        self.lock = asyncio.Lock()
        self.chores: set[asyncio.Task[None]] = set()
        hub.on_finished.append(self.table_finished)

    # -- life -----------------------------------------------------------------

    async def load(self) -> None:
        """Every stored tournament; the tables of a round in play that ended while the
        service was down are read as over."""
        for stored in await self.hub.store.load_tournaments():
            t = Tournament.from_doc(stored.doc)
            self.all[t.id] = t
            for r in t.played:
                for rt in r.tables:
                    self.by_table[rt.id] = t.id
        for t in self.all.values():
            if t.played and not t.ended:
                for rt in t.played[-1].tables:
                    if not rt.finished:
                        with contextlib.suppress(TableError):
                            table = await self.hub.find(rt.id)
                            if table.finished:
                                self._finish(t, rt, table)
                await self._save(t)

    async def _save(self, t: Tournament) -> None:
        await self.hub.store.save_tournament(StoredTournament(t.id, t.created, t.doc()))

    def find(self, tid: str) -> Tournament:
        t = self.all.get(tid)
        if t is None:
            raise TableError("unknown_tournament", f"there is no tournament {tid!r}", 404)
        return t

    def director(self, tid: str, token: Director) -> Tournament:
        """The tournament whose director this is: the director's token, or, in a club, an
        admin (``token`` :data:`ADMIN`, said by the routes once the member is checked)."""
        t = self.find(tid)
        if not isinstance(token, ClubAdmin) and (token is None or not t.is_director(token)):
            raise TableError("not_director", "that is not this tournament's director's token", 403)
        return t

    # -- the director's say -----------------------------------------------------

    async def create(
        self, body: NewTournament, *, club: bool = False
    ) -> tuple[Tournament, str, dict[str, str]]:
        """A new tournament (stored first); answers it, the director's token and each
        person's token by entrant key. ``club``: a club's (a profile's id is a member's)."""
        tokens: dict[str, str] = {}
        entrants: list[Entrant] = []
        for n, e in enumerate(body.entrants, 1):
            entrants.append(await self._entrant(f"e{n}", e, tokens, club=club))
        same = first_same([_shown(e) for e in entrants])
        if same is not None:  # they may sit at one table: no two seats show one name
            first, later = entrants[same[0]], entrants[same[1]]
            message = f"entrant {later.key}: name {later.name!r} is {first.key}'s already"
            raise TableError("same_name", message, 422)
        director = secrets.token_urlsafe(24)
        tid = secrets.token_hex(5)
        while tid in self.all:
            tid = secrets.token_hex(5)
        t = Tournament(
            id=tid,
            created=self.hub.clock.wall(),
            name=body.name,
            format=body.format,
            rounds=body.rounds,
            deals=body.deals,
            table=body.table.model_dump(),
            seed=body.seed if body.seed is not None else secrets.randbits(63),
            director_hash=hash_token(director),
            entrants=entrants,
        )
        await self._save(t)
        self.all[tid] = t
        return t, director, tokens

    async def _entrant(
        self, key: str, e: Any, tokens: dict[str, str], *, club: bool = False
    ) -> Entrant:
        if isinstance(e, PersonEntrant):
            name, profile = e.name, None
            if e.profile is not None:
                p = await profile_of_token(self.hub.store, e.profile)
                name, profile = name or p.name, p.id
            elif e.profile_id is not None:
                pid = e.profile_id
                found = await self.hub.store.call(lambda s: _person(s, pid, club=club))
                name, profile = name or found, pid
            token = secrets.token_urlsafe(24)
            tokens[key] = token
            kept = token if club else None
            return Entrant(
                key, "person", cast(str, name), None, profile, hash_token(token), token=kept
            )
        level = e.level or default_level()
        return Entrant(key, "computer", e.name or seat_name(f"Computer {key[1:]}", level), level)

    async def add(self, tid: str, token: Director, new: Any) -> tuple[Entrant, str | None]:
        """A late arrival: seated from the next round."""
        async with self.lock:
            t = self.director(tid, token)
            self._not_over(t)
            tokens: dict[str, str] = {}
            key = f"e{sum(not x.fill for x in t.entrants) + 1}"
            e = await self._entrant(key, new, tokens, club=isinstance(token, ClubAdmin))
            if e.kind == "computer" and new.name is None:  # named by default: a free name
                e.name = seat_name(_fill_name(t, int(key[1:])), cast(str, e.level))
            other = next(
                (x for x in t.entrants if name_key(_shown(x)) == name_key(_shown(e))), None
            )
            if other is not None:  # they may sit at one table: no two seats show one name
                message = f"{other.key} is called {other.name!r} already: choose another name"
                raise TableError("same_name", message, 409)
            t.entrants.append(e)
            try:
                await self._save(t)
            except Exception:
                t.entrants.pop()
                raise
            return e, tokens.get(e.key)

    async def withdraw(self, tid: str, token: Director, key: str) -> Tournament:
        """An entrant leaves: not seated from the next round (their scores stay)."""
        async with self.lock:
            t = self.director(tid, token)
            self._not_over(t)
            e = t.entrant(key)
            e.active = False
            await self._save(t)
            return t

    async def end(self, tid: str, token: Director) -> Tournament:
        """The tournament is over: tables still playing are ended, the standings final."""
        async with self.lock:
            t = self.director(tid, token)
            self._not_over(t)
            t.ended = True
            await self._save(t)
        if t.played:
            for rt in t.played[-1].tables:
                if not rt.finished:
                    with contextlib.suppress(TableError):
                        table = await self.hub.find(rt.id)
                        if not table.finished:
                            await self.hub.end_table(table, "host")
        return t

    async def replace(self, tid: str, token: Director, key: str, level: str | None) -> Tournament:
        """A no-show: a computer player takes their seat at their table of this round
        (their scores at it stay theirs, as a stand-in's)."""
        async with self.lock:
            t = self.director(tid, token)
            self._not_over(t)
            e = t.entrant(key)
            if e.kind != "person":
                raise TableError("computer_entrant", f"{e.name} is a computer player", 409)
            found = self._table_of(t, key)
            if found is None:
                raise TableError("not_seated", f"{e.name} sits at no table now", 409)
            rt, seat_number = found
            table = await self.hub.find(rt.id)
            if table.finished:
                raise TableError("game_over", "that table's game is over", 409)
            lvl = level or default_level()
            async with table.lock:
                s = table.seats[seat_number]
                new = dataclasses.replace(
                    s.stored, kind="computer", level=lvl, name=seat_name(e.name, lvl),
                    token_hash=None, invite=None, open=False, timeouts=0,
                )  # fmt: skip
                await self.hub.change_seat(table, seat_number, new)
            return t

    def _not_over(self, t: Tournament) -> None:
        if t.status == "finished":
            raise TableError("tournament_over", "this tournament is over", 409)

    def _table_of(self, t: Tournament, key: str) -> tuple[RoundTable, int] | None:
        if not t.played:
            return None
        for rt in t.played[-1].tables:
            if key in rt.seats:
                return rt, rt.seats.index(key)
        return None

    async def next_round(self, tid: str, token: Director) -> Tournament:
        """Seat the active entrants, make the round's tables (its deals fixed), deal."""
        async with self.lock:
            t = self.director(tid, token)
            status = t.status
            if status == "playing":
                raise TableError("round_in_play", "the round is still being played", 409)
            if status == "finished":
                raise TableError("tournament_over", "this tournament is over", 409)
            number = len(t.played) + 1
            active = [e.key for e in t.entrants if e.active and not e.fill]
            if not active:
                raise TableError("no_entrants", "no entrant is left to play", 409)
            met: dict[frozenset[str], int] = {}
            for r in t.played:
                add_meetings(met, [rt.seats for rt in r.tables])
            layout = seat(active, met, number)
            deals = plan.round_deals(t.seed, number, t.deals)
            fixed_deals = tuple(
                (tuple(tuple(h) for h in hands), tuple(unused)) for hands, unused in deals
            )
            fills = [e for e in t.entrants if e.fill]
            known = len(t.entrants)
            tables: list[RoundTable] = []
            try:
                await self._make_tables(t, layout, fixed_deals, fills, tables)
                t.played.append(Round(number, tables))
                await self._save(t)
            except Exception:  # nothing of the round is kept: its tables made so far end
                if t.played and t.played[-1].tables is tables:
                    t.played.pop()
                del t.entrants[known:]
                for rt in tables:
                    self.by_table.pop(rt.id, None)
                    with contextlib.suppress(Exception):
                        await self.hub.end_table(await self.hub.find(rt.id), "host")
                raise
        return t

    async def _make_tables(
        self,
        t: Tournament,
        layout: list[list[str | None]],
        fixed_deals: Any,
        fills: list[Entrant],
        tables: list[RoundTable],
    ) -> None:
        """Make a round's tables into ``tables``, a computer in each empty place."""
        for places in layout:
            keys: list[str] = []
            for k in places:
                if k is None:
                    used = set(keys)
                    fill = next((f for f in fills if f.key not in used), None)
                    if fill is None:
                        level = t.table.get("stand_in") or default_level()
                        fill = Entrant(
                            f"c{len(fills) + 1}", "computer",
                            seat_name(_fill_name(t, len(fills) + 1), level), level, fill=True,
                        )  # fmt: skip
                        fills.append(fill)
                        t.entrants.append(fill)
                    k = fill.key
                keys.append(k)
            table = await self._make_table(t, keys, fixed_deals)
            tables.append(RoundTable(table.id, keys))
            self.by_table[table.id] = t.id

    async def _make_table(self, t: Tournament, keys: list[str], deals: Any) -> Table:
        settings = t.table
        seats: list[Json] = []
        hashes: dict[int, str] = {}
        profiles: dict[int, str] = {}
        for n, k in enumerate(keys):
            e = t.entrant(k)
            if e.kind == "person":
                seats.append({"kind": "person", "name": e.name})
                hashes[n] = cast(str, e.token_hash)
                if e.profile:
                    profiles[n] = e.profile
            else:
                seats.append({"kind": "computer", "level": e.level, "name": e.name})
        body = NewTable.model_validate(
            {
                "seats": seats,
                "variants": settings.get("variants") or {},
                "pace_ms": settings.get("pace_ms", 800),
                "turn_seconds": settings.get("turn_seconds"),
                "stand_in": settings.get("stand_in") or default_level(),
                "end": {"rounds": t.deals},
                "hints": False,
            }
        )
        fixed = Fixed(deals, t.id, hashes, profiles, fresh=t.format == "duplicate")
        created = await self.hub.create_table(body, fixed)
        return created.table

    # -- hearing from the tables ------------------------------------------------

    def table_finished(self, table: Table) -> None:
        """The hub's word that a table's game is over (``hub.on_finished``)."""
        tid = self.by_table.get(table.id)
        t = self.all.get(tid) if tid else None
        if t is None or not t.played:
            return
        for r in t.played:
            for rt in r.tables:
                if rt.id == table.id and not rt.finished:
                    self._finish(t, rt, table, r.number)
                    task = asyncio.get_running_loop().create_task(self._save_quietly(t))
                    self.chores.add(task)
                    task.add_done_callback(self.chores.discard)

    async def _save_quietly(self, t: Tournament) -> None:
        async with self.lock:
            with contextlib.suppress(Exception):  # kept again at the next change
                await self._save(t)

    def _finish(self, t: Tournament, rt: RoundTable, table: Table, number: int = 0) -> None:
        number = number or next(r.number for r in t.played if rt in r.tables)
        rt.finished = True
        rt.results = _results(t, table.game, number, t.played[number - 1].tables.index(rt) + 1, rt)

    async def close(self) -> None:
        for task in list(self.chores):
            with contextlib.suppress(BaseException):
                await task

    # -- reading ----------------------------------------------------------------

    def lines(self, t: Tournament) -> list[scoring.Line]:
        """The standings, from the finished tables' figures and the tables in play's
        finished deals (live)."""
        deals: list[scoring.DealPlayed] = []
        games: list[scoring.TableGame] = []
        for r in t.played:
            for n, rt in enumerate(r.tables, 1):
                res = rt.results
                if res is None:
                    table = self.hub.tables.get(rt.id)
                    if table is None:
                        continue
                    res = _results(t, table.game, r.number, n, rt, live=True)
                deals += [scoring.DealPlayed(**_tupled(d)) for d in res.get("deals", [])]
                if res.get("game") is not None:
                    games.append(scoring.TableGame(**_tupled(res["game"])))
        lines = (
            scoring.duplicate_lines(deals)
            if t.format == "duplicate"
            else scoring.games_lines(games)
        )
        for e in t.entrants:
            lines.setdefault(e.key, scoring.Line(e.key))
        ranked_keys = {e.key for e in t.entrants if not e.fill}
        return scoring.ranked(lines.values(), ranked_keys)

    def json(self, t: Tournament) -> TournamentDoc:
        """``GET /api/tournaments/{id}``: what anyone may see (never a token)."""
        names = {e.key: e for e in t.entrants}
        return {
            "id": t.id,
            "name": t.name,
            "created": t.created,
            "format": cast(Format, t.format),
            "status": t.status,
            "rounds_planned": t.rounds,
            "deals": t.deals,
            "table": t.table,
            "scale": plan.GAMES_SCALE if t.format == "games" else None,
            "entrants": [e.json() for e in t.entrants],
            "rounds": [
                {
                    "number": r.number,
                    "tables": [
                        {
                            "id": rt.id,
                            "number": n,
                            "finished": rt.finished,
                            "seats": [
                                {"key": k, "name": names[k].name, "seat": s}
                                for s, k in enumerate(rt.seats)
                            ],
                            "links": {
                                "watch": f"/#/watch/{rt.id}",
                                "table": f"/api/tables/{rt.id}",
                                "record": f"/api/tables/{rt.id}/record",
                            },
                        }
                        for n, rt in enumerate(r.tables, 1)
                    ],
                }
                for r in t.played
            ],
            "standings": [
                {
                    "key": x.key,
                    "name": names[x.key].name,
                    "place": x.place,
                    "ranked": x.place is not None,
                    "score": _fraction_json(x.score),
                    "won": x.won,
                    "passebunge": x.passebunge,
                    "deals": x.deals,
                }
                for x in self.lines(t)
            ],
            "links": {
                "self": f"/api/tournaments/{t.id}",
                "standings": f"/#/tournament/{t.id}",
                "results": f"/#/tournament/{t.id}/print",
                "csv": f"/api/tournaments/{t.id}/results.csv",
            },
        }

    def csv(self, t: Tournament) -> str:
        out = io.StringIO()
        w = csv.writer(out)
        w.writerow(["place", "name", "score", "rounds_won", "passebunge", "deals", "ranked"])
        names = {e.key: e.name for e in t.entrants}
        for x in self.lines(t):
            w.writerow(
                [
                    x.place if x.place is not None else "",
                    names[x.key],
                    f"{float(x.score):.2f}",
                    x.won,
                    x.passebunge,
                    x.deals,
                    "yes" if x.place is not None else "no",
                ]
            )
        return out.getvalue()

    def check_record(self, table: Table) -> None:
        """Refuse a table's record (its replay, its review) while its duplicate deals are
        still being played at another table of the round: it shows every hand."""
        t = self.all.get(table.settings.tournament or "")
        if t is None or t.format != "duplicate" or t.ended:
            return
        for r in t.played:
            if any(rt.id == table.id for rt in r.tables) and not all(
                rt.finished for rt in r.tables if rt.id != table.id
            ):
                message = (
                    "this table's deals are being played at other tables of the tournament: "
                    "its record is shown once the round is over at every table"
                )
                raise TableError("round_in_play", message, 409)

    def me(self, tid: str, token: str) -> EntrantViewDoc:
        """An entrant's own view: who they are, and their table now (or next)."""
        t = self.find(tid)
        h = hash_token(token)
        for e in t.entrants:
            if e.token_hash is not None and same_secret(e.token_hash, h):
                found = self._table_of(t, e.key) if e.active else None
                table: EntrantTableDoc | None = None
                if found is not None and t.status in ("playing", "between"):
                    rt, seat_number = found
                    table = {"id": rt.id, "seat": seat_number, "finished": rt.finished,
                             "round": len(t.played)}  # fmt: skip
                return {"entrant": e.json(), "table": table, "status": t.status}
        raise TableError("bad_token", "no entrant of this tournament has that token", 403)


def _results(
    t: Tournament, game: Game, number: int, table_number: int, rt: RoundTable, *, live: bool = False
) -> Json:
    """A table's figures as JSON: its finished deals (duplicate) or its game's end."""
    if t.format == "duplicate":
        played = reading.deals_played(game, number, table_number, rt.seats)
        return {"deals": [dataclasses.asdict(d) for d in played]}
    if live:
        return {}
    return {"game": dataclasses.asdict(reading.table_game(game, number, table_number, rt.seats))}


def _tupled(d: Json) -> Json:
    return {k: tuple(v) if isinstance(v, list) else v for k, v in d.items()}


__all__ = ["STATUSES", "Tournaments"]


def _shown(e: Entrant) -> str:
    """The name an entrant's seat shows (a computer's without its level): :mod:`.names`."""
    return shown(e.kind, e.level, e.name)


def _fill_name(t: Tournament, number: int) -> str:
    """The name of a computer the service names (one filling a table, one entered
    without a name late), ``Computer N``: the first from ``number`` on that no entrant
    shows (no two seats of a table show one name, :mod:`.names`)."""
    used = {name_key(_shown(e)) for e in t.entrants}
    while name_key(f"Computer {number}") in used:
        number += 1
    return f"Computer {number}"
