"""Club tournaments in the service (docs/tournaments.md, docs/protocol.md).

A :class:`Tournaments` answers for every tournament: made by ``POST /api/tournaments``,
its rounds started by the director (``.../next``), each round's tables made through the
hub with the round's deals fixed (:class:`~domeng.server.fixed.Fixed`), and the
standings worked out by :mod:`domeng.tournament.scoring` from the tables' records.

**The storage is the truth, not this process.** A tournament is one JSON document in
the storage (its entrants, its rounds and their tables' ids and seats, whether it was
ended), read at every request (:meth:`Tournaments.read`): any process of a service of
several answers every route, and a restart finds every tournament. What its tables'
records say is read from them, never copied into the document: whether each table is
over, and what each seat received (the records of the tables this process owns are the
ones in its memory, the same as stored; the others' are read from the storage). A
finished table's figures never change: each process keeps them once worked out.

**A change is made from the version read** (:meth:`~domeng.storage.Storage.save_tournament`):
two changes at once, in two processes, cannot both be kept; the one refused is decided
again from the tournament as it is now. A round is started with its tables in one
transaction: two ``next`` at once start one round (the other is refused
``409 round_in_play``, as one sent while the round is played), and a process killed
while starting one leaves the round whole or not at all. The round's tables are ordinary
leased tables (:mod:`.leases`): when their process dies, others take them over and they
play on. A director's change of a table another process owns (a no-show replaced, the
tables ended with the tournament) is sent to that process (:func:`.relay.forward`).

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
from domeng.storage import (
    GUEST,
    PERSON,
    Storage,
    StoredTable,
    StoredTournament,
    TournamentChanged,
)
from domeng.tournament import plan, reading, scoring
from domeng.tournament.plan import Format
from domeng.tournament.seating import add_meetings, seat

from .bodies import NewTable
from .documents import Json, SeatKind, TableStatus
from .fixed import Fixed
from .hub import Hub
from .leases import Owner
from .names import first_same, shown
from .players import default_level
from .profiles import profile_of_token
from .registry import NewTableMade
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
    """A table of a tournament round: its id at the hub and who holds each seat (kept),
    and what its record says (read, :meth:`Tournaments.read`)."""

    id: str
    seats: list[str]
    finished: bool = False
    """Read: its game is over."""
    results: Json | None = None
    """Read: the table's figures (scoring's shapes as JSON): its finished deals
    (duplicate), or its game's end once over (table games)."""


@dataclass(slots=True)
class Round:
    number: int
    tables: list[RoundTable]


_READ_ONLY = ("finished", "results")
"""What a round's table has that its record says, not the tournament's document (a
document kept before version 10 of the schema has them: they are read again)."""


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
    version: int = 0
    """The version of the stored document it was read from (0: new, not stored)."""

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
        """What the storage keeps (not what the tables' records say)."""
        d = dataclasses.asdict(self)
        del d["version"]
        for r in d["played"]:
            for x in r["tables"]:
                for k in _READ_ONLY:
                    del x[k]
        return d

    @classmethod
    def from_doc(cls, d: Json, version: int = 0) -> Tournament:
        kept = {k: v for k, v in d.items() if k not in ("entrants", "played")}
        t = cls(**kept, entrants=[Entrant(**e) for e in d["entrants"]], version=version)
        t.played = [
            Round(
                r["number"],
                [RoundTable(x["id"], x["seats"]) for x in r["tables"]],
            )
            for r in d["played"]
        ]
        return t

    def stored(self) -> StoredTournament:
        return StoredTournament(self.id, self.created, self.doc(), self.version)


class Elsewhere(Exception):
    """A director's change of a table that another live process owns: the request is
    sent there (:func:`.relay.forward`), which makes it."""

    def __init__(self, owner: Owner) -> None:
        super().__init__(f"the table is owned by the process at {owner.address}")
        self.owner = owner


TRIES = 8
"""Times a change is decided again when another process's change was kept first."""


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
        self.lock = asyncio.Lock()
        """This process's changes, one at a time (the others': by the version)."""
        self.over: dict[str, Json] = {}
        """The figures of the finished tables read so far, by table id (they never
        change)."""

    # -- reading ---------------------------------------------------------------

    async def read(self, tid: str) -> Tournament:
        """The tournament as stored, with what its tables' records say now; refused
        ``404 unknown_tournament``."""
        stored = await self.hub.store.load_tournament(tid)
        if stored is None:
            raise TableError("unknown_tournament", f"there is no tournament {tid!r}", 404)
        t = Tournament.from_doc(stored.doc, stored.version)
        for r in t.played:
            for n, rt in enumerate(r.tables, 1):
                await self._read_table(t, r.number, n, rt)
        return t

    async def _read_table(self, t: Tournament, number: int, n: int, rt: RoundTable) -> None:
        """Whether ``rt`` is over and its figures, from its record (this process's table
        in memory, or the stored one)."""
        kept = self.over.get(rt.id)
        if kept is not None:
            rt.finished, rt.results = True, kept
            return
        try:
            table = await self.hub.find(rt.id)
        except TableError:  # not kept (removed): nothing of it counts
            rt.finished, rt.results = True, {}
            return
        rt.finished = table.finished
        rt.results = _results(t, table.game, number, n, rt, live=not rt.finished)
        if rt.finished:
            self.over[rt.id] = rt.results

    async def director(self, tid: str, token: Director) -> Tournament:
        """The tournament whose director this is, read: the director's token, or, in a
        club, an admin (``token`` :data:`ADMIN`, said by the routes once the member is
        checked)."""
        t = await self.read(tid)
        if not isinstance(token, ClubAdmin) and (token is None or not t.is_director(token)):
            raise TableError("not_director", "that is not this tournament's director's token", 403)
        return t

    async def _save(self, t: Tournament, tables: list[StoredTable] | None = None) -> None:
        """Keep ``t``'s change, made from the version it was read at (with the new
        tables of its round); :class:`TournamentChanged` when another was kept first."""
        t.version = await self.hub.store.save_tournament(t.stored(), tables or [])

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
        t = Tournament(
            id=secrets.token_hex(5),
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
        for _ in range(TRIES):
            try:
                await self._save(t)
                return t, director, tokens
            except TournamentChanged:  # its id is another's: another id
                t.id = secrets.token_hex(5)
        raise TableError("busy", "could not find a free id for the tournament", 503)

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
            for _ in range(TRIES):
                t = await self.director(tid, token)
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
                with contextlib.suppress(TournamentChanged):
                    await self._save(t)
                    return e, tokens.get(e.key)
        raise _busy()

    async def withdraw(self, tid: str, token: Director, key: str) -> Tournament:
        """An entrant leaves: not seated from the next round (their scores stay)."""
        async with self.lock:
            for _ in range(TRIES):
                t = await self.director(tid, token)
                self._not_over(t)
                t.entrant(key).active = False
                with contextlib.suppress(TournamentChanged):
                    await self._save(t)
                    return t
        raise _busy()

    async def end(self, tid: str, token: Director) -> tuple[Tournament, list[Owner]]:
        """The tournament is over: tables still playing are ended, the standings final.
        Answers it, and the other processes that own some of its tables still playing
        (the routes send them the director's word: :meth:`end` there ends those).

        Said again once it is over (a repeated word, another process's), it ends the
        tables still playing that this process owns, and is refused
        ``409 tournament_over``."""
        async with self.lock:
            for _ in range(TRIES):
                t = await self.director(tid, token)
                if t.status == "finished":
                    await self._end_tables(t)
                    self._not_over(t)
                t.ended = True
                with contextlib.suppress(TournamentChanged):
                    await self._save(t)
                    break
            else:
                raise _busy()
        return t, await self._end_tables(t)

    async def _end_tables(self, t: Tournament) -> list[Owner]:
        """End the tables of ``t``'s last round still playing that this process owns (or
        takes over: their owner is dead); answers the live processes that own others."""
        owners: dict[str, Owner] = {}
        for rt in t.played[-1].tables if t.played else []:
            if rt.finished:
                continue
            owner = await self.hub.home(rt.id)
            if owner is not None:
                owners[owner.process] = owner
                continue
            with contextlib.suppress(TableError):
                table = await self.hub.find(rt.id)
                if not table.finished:
                    await self.hub.end_table(table, "host")
        return list(owners.values())

    async def replace(self, tid: str, token: Director, key: str, level: str | None) -> Tournament:
        """A no-show: a computer player takes their seat at their table of this round
        (their scores at it stay theirs, as a stand-in's). :class:`Elsewhere` when
        another live process owns that table."""
        async with self.lock:
            t = await self.director(tid, token)
            self._not_over(t)
            e = t.entrant(key)
            if e.kind != "person":
                raise TableError("computer_entrant", f"{e.name} is a computer player", 409)
            found = self._table_of(t, key)
            if found is None:
                raise TableError("not_seated", f"{e.name} sits at no table now", 409)
            rt, seat_number = found
            owner = await self.hub.home(rt.id)
            if owner is not None:
                raise Elsewhere(owner)
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
        """Seat the active entrants, make the round's tables (its deals fixed), deal.

        The round and its tables are kept in one transaction, made from the version
        read: another ``next`` kept first (in another process) makes this one decided
        again, and refused as the round is in play."""
        async with self.lock:
            for _ in range(TRIES):
                t = await self.director(tid, token)
                made = await self._plan_round(t)
                try:
                    await self._save(t, [m.stored for m in made])
                except TournamentChanged:
                    continue  # another change was kept first: decided again
                for m in made:  # kept: each table is set in play here, its owner
                    await self.hub.open_table(m)
                break
            else:
                raise _busy()
        return await self.read(tid)

    async def _plan_round(self, t: Tournament) -> list[NewTableMade]:
        """The next round of ``t``, added to it, and its tables, not stored yet."""
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
        tables: list[RoundTable] = []
        made = await self._make_tables(t, layout, fixed_deals, fills, tables)
        t.played.append(Round(number, tables))
        return made

    async def _make_tables(
        self,
        t: Tournament,
        layout: list[list[str | None]],
        fixed_deals: Any,
        fills: list[Entrant],
        tables: list[RoundTable],
    ) -> list[NewTableMade]:
        """Make a round's tables into ``tables`` (not stored yet: answered), a computer in
        each empty place."""
        made: list[NewTableMade] = []
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
            new = await self._make_table(t, keys, fixed_deals)
            tables.append(RoundTable(new.stored.id, keys))
            made.append(new)
        return made

    async def _make_table(self, t: Tournament, keys: list[str], deals: Any) -> NewTableMade:
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
        return await self.hub.new_table(body, fixed)

    # -- what anyone may see ----------------------------------------------------

    def lines(self, t: Tournament) -> list[scoring.Line]:
        """The standings, from the tables' figures as read (:meth:`read`): the finished
        tables', and the finished deals of the tables in play (live)."""
        deals: list[scoring.DealPlayed] = []
        games: list[scoring.TableGame] = []
        for r in t.played:
            for rt in r.tables:
                res = rt.results or {}
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

    async def check_record(self, table: Table) -> None:
        """Refuse a table's record (its replay, its review) while its duplicate deals are
        still being played at another table of the round: it shows every hand."""
        tid = table.settings.tournament
        if tid is None:
            return
        stored = await self.hub.store.load_tournament(tid)
        if stored is None:
            return
        t = Tournament.from_doc(stored.doc, stored.version)
        if t.format != "duplicate" or t.ended:
            return
        for r in t.played:
            if not any(rt.id == table.id for rt in r.tables):
                continue
            for n, rt in enumerate(r.tables, 1):
                if rt.id != table.id:
                    await self._read_table(t, r.number, n, rt)
            if not all(rt.finished for rt in r.tables if rt.id != table.id):
                message = (
                    "this table's deals are being played at other tables of the tournament: "
                    "its record is shown once the round is over at every table"
                )
                raise TableError("round_in_play", message, 409)

    async def me(self, tid: str, token: str) -> EntrantViewDoc:
        """An entrant's own view: who they are, and their table now (or next)."""
        t = await self.read(tid)
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


def _busy() -> TableError:
    message = "the tournament is being changed by others at this moment: try again"
    return TableError("busy", message, 503)


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
