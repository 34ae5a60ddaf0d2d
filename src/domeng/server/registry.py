"""The registry: every table in play, by id, and nothing else of them.

It creates a table (:meth:`Registry.create_table`), finds one
(:meth:`Registry.find`: in memory, else a finished game read from the storage), loads
every table in progress at a start (:meth:`Registry.start`), evicts a finished table
nobody is at, removes one, closes the games nobody has played at for a month, and
closes everything when the service stops.

**A start reads little.** :meth:`Registry.start` reads only the ids of the tables in
progress, then reads and rebuilds the tables themselves in the background,
:data:`LOAD_BATCH` at a time and oldest first, and lets each move on by itself once
all are read (a computer's move, a clock, a stand-in's wait): the service answers at
once, and a table named meanwhile (a connection, a request) is read on the spot and
moves on at once. What
needs them all (the list of tables) waits for the last (:meth:`Registry.all_tables`).
With 5,000 tables in progress this made a start 1.4 s instead of 5.2 s (the capacity
table of docs/protocol.md). What happens at a table is the table's own
business (:class:`~domeng.server.tables.Table`): the registry hands a message to the
table it names and does nothing more with it.

**Several processes.** On PostgreSQL a service may be several processes
(:mod:`.leases`): each owns the tables it holds the lease of, and
:meth:`Registry.home` answers, for a table named, whether another live process owns
it (the request is then relayed there, :mod:`.relay`) or this one does (taking it
over, when its owner's lease ran out). A table taken over at the start, later, or
on demand is read and rebuilt like a table at a start; a table lost is dropped
(:meth:`Registry.drop`). Without leases (SQLite, the tests) one process owns every
table, as before.

The methods named after a table's actions (``hub.play(t, c, msg)``, ``hub.hello``...)
are the table's own, handed on: the names the HTTP routes, the WebSocket and the tests
have always called.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from domeng.bots.coach import COACH_LEVEL
from domeng.engine import Game, Move
from domeng.storage import Storage, StorageWriter, StoredSeat, StoredTable

from . import collector
from .bodies import LeaveSeat, NewTable, TakeSeat, new_table_seats
from .clock import Clock, LoopClock, Timer
from .connection import Connection
from .documents import Ended, EventDoc, NewTableDoc, State
from .errors import TableError
from .fixed import Fixed
from .leases import Dropped, Leases, Owner
from .limits import Connections, Limits
from .listing import Listed, Listing
from .messages import Back, Hint, Play, Ready
from .messages import Chat as ChatMessage
from .pacing import Pacing
from .players import BotRunner
from .profiles import profile_of_token
from .rebuild import rebuild
from .replays import Replays
from .seats import Seat, hash_token, invite_code
from .services import Services, log
from .settings import Settings
from .tables import Table
from .work import InFlight

MOVED = 1012
"""The close code of the connections at a table that another process owns now (the
browser connects again, and reaches it)."""
IDLE_DAYS = 30
"""A game nobody has played at for this many days is closed (its record kept)."""
IDLE_CHECK = 3600.0
"""Seconds between two looks for such games."""
LOAD_BATCH = 500
"""Tables in progress read from the storage in one call at a start (each call is a
hand-over to the storage's thread, slow on a busy machine)."""
BUILD_BATCH = 50
"""Tables rebuilt in one go at a start: between two such batches the service answers
its requests."""


@dataclass(slots=True)
class Created:
    """A new table, with the secrets its creator is given once."""

    table: Table
    tokens: dict[int, str]
    """The seat tokens of the persons named at creation."""
    host_token: str
    invites: dict[int, str]
    """The links of the invited seats (``/?table=...&seat=N&invite=...``)."""

    def json(self) -> NewTableDoc:
        """``POST /api/tables``'s answer."""
        return {
            **self.table.public_json(),
            "tokens": {str(n): tok for n, tok in self.tokens.items()},
            "host_token": self.host_token,
            "invites": {str(n): link for n, link in self.invites.items()},
        }


@dataclass(slots=True)
class NewTableMade:
    """A new table not stored yet (:meth:`Registry.new_table`), with its secrets."""

    stored: StoredTable
    settings: Settings
    tokens: dict[int, str]
    host_token: str


class Registry:
    """Every table in play, by id; see the module docstring."""

    def __init__(
        self,
        storage: Storage,
        runner: BotRunner | None = None,
        clock: Clock | None = None,
        *,
        deals: random.Random | None = None,
        limits: Limits | None = None,
        coach_level: str = COACH_LEVEL,
    ) -> None:
        self.store = StorageWriter(storage)
        self.runner = runner or BotRunner()
        self.clock: Clock = clock or LoopClock()
        self.services = Services(
            self.store,
            self.runner,
            self.clock,
            deals or random.Random(secrets.randbits(128)),
            release=self._release,
            coach_level=coach_level,
        )
        self.tables: dict[str, Table] = {}
        """The tables in memory: every game in progress, and the finished ones someone is
        at (oldest first)."""
        self.limits = limits or Limits(self.clock)
        self.replays = Replays()
        self.connections = Connections()
        self._idle_check: Timer | None = None
        self._unread: dict[str, None] = {}
        """The tables in progress not read yet at a start, oldest first."""
        self._reading: dict[str, asyncio.Future[None]] = {}
        """The tables being read, each with the end of its batch's reading."""
        self._loading: asyncio.Task[None] | None = None
        """The reading of every table in progress, at a start."""
        self.leases: Leases | None = None
        """This process's leases, when it is one of several (:meth:`several`)."""
        self.listing: Listing | None = None
        """The list of every process's tables, when it is one of several."""

    def several(self, address: str) -> None:
        """This process is one of several on the database (PostgreSQL), reached by the
        others at ``address``: it owns only the tables it holds the lease of."""
        self.leases = Leases(self.store, address, adopt=self.adopt, drop=self.drop)
        self.listing = Listing(self.store, lambda: self.tables, self._rebuilt)
        self.services.changed = self.listing.changed

    @property
    def deals(self) -> random.Random:
        return self.services.deals

    @property
    def pacing(self) -> Pacing:
        return self.services.pacing

    @property
    def in_flight(self) -> InFlight:
        return self.services.in_flight

    @property
    def chores(self) -> set[asyncio.Task[None]]:
        return self.services.chores

    @property
    def on_finished(self) -> list[Callable[[Table], None]]:
        """Called with every table whose game is over, once kept (a tournament listens)."""
        return self.services.on_finished

    # -- life -----------------------------------------------------------------

    def table_of(self, stored: StoredTable) -> Table:
        """A stored table, its game rebuilt by replaying its record (not registered)."""
        settings = Settings.from_json(stored.settings)
        return Table(stored, rebuild(stored, settings), self.services, settings)

    async def start(self) -> None:
        """Begin serving: the ids of the tables in progress are read; the tables
        themselves are read, rebuilt and set moving in the background (see the module
        docstring)."""
        if self.leases is not None:  # the tables nobody owns, taken; the lease kept
            ids = await self.leases.start()
            self.leases.run()
            if self.listing is not None:
                self.listing.run()
        else:
            ids = await self.store.tables_in_progress()
        for table_id in ids:
            self._unread[table_id] = None
        self._loading = asyncio.get_running_loop().create_task(self._read_all())
        self.services.chore(self._loading)

    async def adopt(self, ids: list[str]) -> None:
        """Tables this process has just taken over: read, rebuilt and set moving."""
        fresh = [i for i in ids if i not in self.tables and i not in self._reading]
        for table_id in fresh:
            self._unread[table_id] = None
        if fresh:
            await self._read(fresh)

    def drop(self, table_id: str) -> None:
        """A table another process owns now: forgotten here, its timers stopped and its
        connections closed (their browsers come back, and reach the owner)."""
        self._unread.pop(table_id, None)
        t = self.tables.pop(table_id, None)
        if t is None:
            return
        t.store = Dropped(table_id)  # what of it is still on its way writes nothing
        for c in t.connections:
            c.close_code = MOVED
        task = t.stop()
        if task is not None:
            self.services.chore(asyncio.get_running_loop().create_task(_quietly(task)))

    async def home(self, table_id: str) -> Owner | None:
        """The live process that owns ``table_id`` when another does (a client's
        request for it is relayed there); None when this one serves it: it is in
        memory, or not in progress, or this process has just taken it over (its
        owner's lease ran out) and read it."""
        if self.leases is None or table_id in self.tables:
            return None
        await self._named(table_id)
        if table_id in self.tables:
            return None
        found = await self.leases.owner(table_id)
        if isinstance(found, Owner):
            return found
        if found is not None and table_id not in self.tables:
            await self.adopt([table_id])
        return None

    async def load(self) -> None:
        """:meth:`start`, and wait until every table in progress is read and moving."""
        await self.start()
        await self.all_tables()

    async def all_tables(self) -> list[Table]:
        """Every table in memory, oldest first, once every table in progress is read."""
        if self._loading is not None and not self._loading.done():
            await asyncio.shield(self._loading)
        return list(self.tables.values())

    async def listed(self) -> list[Listed]:
        """The list of tables: every table in memory, oldest first, once every table in
        progress is read; and, when this process is one of several, the others' tables
        in progress (:mod:`.listing`)."""
        mine = await self.all_tables()
        if self.listing is None:
            return [Listed.of(t) for t in mine]
        return await self.listing.tables()

    async def _rebuilt(self, ids: list[str]) -> list[Table]:
        """The tables ``ids`` in progress as the database holds them (read, rebuilt, not
        kept)."""
        read: list[Table] = []
        for stored in await self.store.load_some_tables(ids) if ids else []:
            with contextlib.suppress(ValueError, KeyError, TypeError):
                read.append(self.table_of(stored))
        return read

    async def _read_all(self) -> None:
        while self._unread:
            try:
                await self._read(list(itertools.islice(self._unread, LOAD_BATCH)), later=True)
            except Exception:
                log.exception("could not read the tables in progress; each is read when named")
                break
            await asyncio.sleep(0)  # the requests waiting are answered between two batches
        kept = sorted(self.tables.values(), key=lambda t: (t.created, t.id))  # oldest first
        self.tables.clear()
        self.tables.update((t.id, t) for t in kept)
        await self.close_idle()
        for t in kept:  # as they were before the start: those already moving go on
            t.advance()

    async def _read(self, ids: list[str], *, later: bool = False) -> None:
        """Read the tables ``ids`` (in progress, not read yet), rebuild each and let it
        move on (``later``: once every table is read, so that the reading is not held
        up by the first tables' moves); a game nobody has played at for
        :data:`IDLE_DAYS` days is closed."""
        read = asyncio.get_running_loop().create_future()
        for table_id in ids:
            del self._unread[table_id]
            self._reading[table_id] = read
        built: list[Table] = []
        try:
            try:
                found = await self.store.load_some_tables(ids)
            except BaseException:  # not read: read when named, or at the next start
                self._unread.update(dict.fromkeys(ids))
                raise
            for first in range(0, len(found), BUILD_BATCH):
                if first:
                    await asyncio.sleep(0)  # the requests waiting are answered meanwhile
                with collector.paused():  # what is made here is kept
                    for stored in found[first : first + BUILD_BATCH]:
                        try:
                            t = self.table_of(stored)
                        except (ValueError, KeyError, TypeError) as e:
                            log.warning(
                                "table %s could not be replayed and is left out: %s", stored.id, e
                            )
                            continue
                        self.tables[t.id] = t
                        self.services.changed(t.id)
                        built.append(t)
        finally:
            for table_id in ids:
                del self._reading[table_id]
            read.set_result(None)
        idle = self.clock.wall() - IDLE_DAYS * 86_400
        for t in built:
            await t.loaded()
            if not t.finished and t.last_active < idle:
                await self._close_idle(t)
            elif not later:
                t.advance()

    async def _named(self, table_id: str) -> None:
        """A table named before the start has read it is read now."""
        if table_id in self._unread:
            await self._read([table_id])
        elif (reading := self._reading.get(table_id)) is not None:
            await asyncio.shield(reading)

    async def close(self) -> None:
        if self._idle_check is not None:
            self._idle_check.cancel()
        self.services.pacing.close()
        tasks = [task for t in self.tables.values() if (task := t.stop()) is not None]
        tasks += list(self.services.chores)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        if self.listing is not None:
            await self.listing.close()
        if self.leases is not None:  # its tables stopped: the others take them at once
            await self.leases.close()
        self.runner.close()
        self.replays.close()
        await self.store.close()

    # -- tables -----------------------------------------------------------------

    async def create_table(
        self, body: NewTable, fixed: Fixed | None = None, member: str | None = None
    ) -> Created:
        """A new table (stored first): the persons named in it get their tokens, the
        creator the host's token, and each invited seat its link. ``fixed``: what a
        tournament fixes (its deals, its entrants' tokens and profiles); ``member``: the
        club member who made it, to whom the named seats' tokens are handed."""
        new = await self.new_table(body, fixed, member)
        await self.store.create_table(new.stored)
        return await self.open_table(new)

    async def new_table(
        self, body: NewTable, fixed: Fixed | None = None, member: str | None = None
    ) -> NewTableMade:
        """A new table as it will be stored, with its secrets, neither stored nor in play
        yet: :meth:`create_table` stores it alone; a tournament stores a round's tables
        with its own change (:meth:`~domeng.storage.Storage.save_tournament`), then
        each is set in play by :meth:`open_table`."""
        seats = new_table_seats(body)
        tokens: dict[int, str] = {}
        for n, s in enumerate(body.seats):
            if s.kind == "person" and s.name is not None:
                tokens[n] = secrets.token_urlsafe(24)
                seats[n].token_hash = hash_token(tokens[n])
                seats[n].member = member
                if s.profile is not None:  # the seat's rounds count for a profile
                    seats[n].profile = (await profile_of_token(self.store, s.profile)).id
        settings = body.settings()
        if fixed is not None:
            settings = fixed.apply(settings, seats, tokens)
        for st in seats:
            if st.kind == "person" and st.token_hash is None and not st.open:
                st.invite = invite_code()
        table_id = secrets.token_hex(5)
        while table_id in self.tables or table_id in self._unread or table_id in self._reading:
            table_id = secrets.token_hex(5)
        host_token = secrets.token_urlsafe(24)
        stored = StoredTable(
            table_id,
            self.clock.wall(),
            settings.stored_json(),  # kept as the storage's JSON
            seats,
            host_hash=hash_token(host_token),
            host_seat=min(tokens) if tokens else None,
        )
        return NewTableMade(stored, settings, tokens, host_token)

    async def open_table(self, new: NewTableMade) -> Created:
        """A new table, stored already, set in play here: dealt before the answer."""
        t = Table(new.stored, Game(new.settings.variants), self.services, new.settings)
        self.tables[t.id] = t
        self.services.changed(t.id)
        t.advance()
        await t.first_deal()
        return Created(t, new.tokens, new.host_token, t.invites())

    async def find(self, table_id: str) -> Table:
        """A table in memory, or a finished one read from the database."""
        await self._named(table_id)
        t = self.tables.get(table_id)
        if t is not None:
            return t
        stored = await self.store.load_table(table_id)
        if stored is None:
            raise TableError("unknown_table", f"there is no table {table_id!r}", 404)
        return self.table_of(stored)

    async def attend(self, table_id: str) -> Table:
        """The table a connection comes to: a finished one read from the database is kept
        in memory while someone is at it."""
        t = await self.find(table_id)
        if self.leases is not None and not t.finished and table_id not in self.tables:
            message = "the table is moving to another process: connect again"
            raise TableError("busy", message, 503)  # taken over meanwhile
        return self.tables.setdefault(table_id, t)

    def _release(self, t: Table) -> None:
        """A finished table nobody is at leaves memory (read from the database when asked
        for again)."""
        if self.tables.get(t.id) is t:
            del self.tables[t.id]

    async def remove_table(self, t: Table) -> None:
        """Take a finished table out of the list and the service (its record is kept)."""
        await t.remove()

    async def end_table(self, t: Table, why: Ended) -> None:
        await t.end(why)

    async def close_idle(self) -> None:
        """End the games nobody has played at for :data:`IDLE_DAYS` days; look again
        after :data:`IDLE_CHECK` seconds."""
        limit = self.clock.wall() - IDLE_DAYS * 86_400
        for t in list(self.tables.values()):
            if not t.finished and t.last_active < limit:
                await self._close_idle(t)

        def again() -> None:
            self._idle_check = None
            self.services.chore(asyncio.get_running_loop().create_task(self.close_idle()))

        if self._idle_check is not None:  # one look to come at a time
            self._idle_check.cancel()
        self._idle_check = self.clock.call_at(self.clock.now() + IDLE_CHECK, again)

    async def _close_idle(self, t: Table) -> None:
        if t.seated or t.watching:
            return
        try:
            await t.end("idle")
        except Exception:
            log.exception("could not close the idle table %s", t.id)

    # -- a table's own, handed on --------------------------------------------------

    def seat(self, t: Table, seat: int) -> Seat:
        return t.seat(seat)

    def hello(self, t: Table, c: Connection, token: str | None) -> None:
        t.hello(c, token)

    def disconnect(self, t: Table, c: Connection) -> None:
        t.disconnect(c)

    def sync(self, t: Table, c: Connection) -> None:
        t.sync(c)

    def state_message(self, t: Table, seat: int | None) -> State:
        return t.state_message(seat)

    def broadcast(
        self, t: Table, *, events: list[EventDoc], kind: Literal["update", "seats"] = "update"
    ) -> None:
        t.broadcast(events=events, kind=kind)

    async def play(self, t: Table, c: Connection, msg: Play) -> None:
        await t.play(c, msg)

    async def back(self, t: Table, c: Connection, msg: Back) -> None:
        await t.back(c, msg)

    async def ready(self, t: Table, c: Connection, msg: Ready) -> None:
        await t.ready(c, msg)

    async def say(self, t: Table, c: Connection, msg: ChatMessage) -> None:
        await t.say(c, msg)

    async def hint(self, t: Table, c: Connection, msg: Hint) -> None:
        await t.hint(c, msg)

    async def apply(
        self, t: Table, seat: int, m: Move, *, stand_in: bool = False
    ) -> list[EventDoc]:
        return await t.apply(seat, m, stand_in=stand_in)

    def advance(self, t: Table) -> None:
        t.advance()

    async def take_seat(
        self, t: Table, seat: int, body: TakeSeat, member: str | None = None
    ) -> str:
        return await t.take_seat(seat, body, member)

    async def leave_seat(self, t: Table, seat: int, body: LeaveSeat) -> None:
        await t.leave_seat(seat, body)

    async def change_seat(self, t: Table, seat: int, new: StoredSeat) -> None:
        await t.change_seat(seat, new)

    async def go_on_without(self, t: Table) -> None:
        await t.go_on_without()

    async def first_deal(self, t: Table) -> None:
        await t.first_deal()


async def _quietly(task: asyncio.Task[None]) -> None:
    with contextlib.suppress(BaseException):
        await task
