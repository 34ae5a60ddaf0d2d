"""Tables and seats, as the hub changes them: a new table (its tokens, the host's token,
invitations), a seat taken, left or changed by the host, a game ended or removed, and
the games nobody has played at for a month closed."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import secrets
from dataclasses import dataclass

from domeng.engine import Game

from .bodies import LeaveSeat, NewTable, TakeSeat, new_table_seats
from .clock import Timer
from .documents import Json
from .hubbase import HubBase, log
from .profiles import profile_of_token
from .storage import StoredSeat, StoredTable
from .tables import Table, TableError, hash_token, invite_code, rebuild, same_secret

IDLE_DAYS = 30
"""A game nobody has played at for this many days is closed (its record kept)."""
IDLE_CHECK = 3600.0
"""Seconds between two looks for such games."""


@dataclass(slots=True)
class Created:
    """A new table, with the secrets its creator is given once."""

    table: Table
    tokens: dict[int, str]
    """The seat tokens of the persons named at creation."""
    host_token: str
    invites: dict[int, str]
    """The links of the invited seats (``/?table=...&seat=N&invite=...``)."""

    def json(self) -> Json:
        """``POST /api/tables``'s answer."""
        answer = self.table.public_json()
        answer["tokens"] = {str(n): tok for n, tok in self.tokens.items()}
        answer["host_token"] = self.host_token
        answer["invites"] = {str(n): link for n, link in self.invites.items()}
        return answer


class Seating(HubBase):
    """The hub's part that makes tables and changes their seats (under the table's lock,
    stored first)."""

    async def create_table(self, body: NewTable) -> Created:
        """A new table (stored first): the persons named in it get their tokens, the
        creator the host's token, and each invited seat its link."""
        seats = new_table_seats(body)
        tokens: dict[int, str] = {}
        for n, s in enumerate(body.seats):
            if s.kind == "person" and s.name is not None:
                tokens[n] = secrets.token_urlsafe(24)
                seats[n].token_hash = hash_token(tokens[n])
                if s.profile is not None:  # the seat's rounds count for a profile
                    seats[n].profile = (await profile_of_token(self.store, s.profile)).id
        for st in seats:
            if st.kind == "person" and st.token_hash is None and not st.open:
                st.invite = invite_code()
        table_id = secrets.token_hex(5)
        while table_id in self.tables:
            table_id = secrets.token_hex(5)
        host_token = secrets.token_urlsafe(24)
        stored = StoredTable(
            table_id,
            self.clock.wall(),
            body.settings().json(),
            seats,
            host_hash=hash_token(host_token),
            host_seat=min(tokens) if tokens else None,
        )
        await self.store.create_table(stored)
        t = Table(stored, Game(body.settings().variants), self.clock)
        self.tables[table_id] = t
        self.advance(t)
        await self.first_deal(t)
        return Created(t, tokens, host_token, t.invites())

    async def take_seat(self, t: Table, seat: int, body: TakeSeat) -> str:
        s = self.seat(t, seat)
        async with t.lock:
            if s.stored.kind != "person":
                raise TableError("computer_seat", f"seat {seat} is a computer player's", 409)
            if s.stored.token_hash is not None:
                raise TableError("seat_taken", f"seat {seat} is already taken", 409)
            if t.finished:
                raise TableError("game_over", "this game is over", 409)
            code = s.stored.invite
            if not s.stored.open and (
                code is None or body.invite is None or not same_secret(code, body.invite)
            ):
                raise TableError("bad_invite", f"seat {seat} is kept for an invited person", 403)
            profile = None
            if body.profile is not None:  # the seat's rounds count for a profile
                profile = (await profile_of_token(self.store, body.profile)).id
            token = secrets.token_urlsafe(24)
            taken = dataclasses.replace(
                s.stored,
                token_hash=hash_token(token),
                name=body.name,
                ready=0,
                invite=None,
                sits_from=len(t.game.rounds) + 1,  # a round being played is not theirs
                timeouts=0,
                profile=profile,
            )
            await self.store.save_seat(t.id, seat, taken)
            s.stored = taken
            s.away_since = self.clock.now()
            self._seats_changed(t)
        await self.first_deal(t)
        return token

    async def leave_seat(self, t: Table, seat: int, body: LeaveSeat) -> None:
        s = self.seat(t, seat)
        async with t.lock:
            if t.seat_of_token(body.token) != seat:
                raise TableError("bad_token", f"that is not the token of seat {seat}", 403)
            # an open seat is open again to anyone; an invited one waits for a new invitation
            code = None if s.stored.open else invite_code()
            left = dataclasses.replace(
                s.stored, token_hash=None, name=f"Seat {seat}", invite=code, timeouts=0,
                profile=None,
            )  # fmt: skip
            await self.change_seat(t, seat, left)

    async def change_seat(self, t: Table, seat: int, new: StoredSeat) -> None:
        """Store a seat's new state and put it in place (under the table's lock): its
        connections become spectators' when its person changed."""
        s = t.seats[seat]
        await self.store.save_seat(t.id, seat, new)
        person_gone = s.stored.token_hash is not None and new.token_hash != s.stored.token_hash
        s.stored = new
        if person_gone:
            for c in list(t.seated):
                if c.seat == seat:
                    t.unseat(c)
                    s.connections -= 1
                    c.send({"type": "left", "seat": seat})
        if t.game.turn == seat:
            self.turn_clock.disarm(t)
        self._seats_changed(t)

    async def end_table(self, t: Table, why: str) -> None:
        """End the game now (``why``: "host", "idle"); its standings are final."""
        async with t.lock:
            await self.finish(t, why)
            self._seats_changed(t)
        self.let_go(t)

    async def finish(self, t: Table, why: str) -> None:
        """Keep that ``t``'s game is over ("end": its end was reached; "host", "idle"), with
        the summary lists of finished tables show. Under the table's lock."""
        t.ended = why
        self.turn_clock.disarm(t)
        try:
            await self.store.end_table(t.id, why, t.public_json())
        except Exception:
            t.ended = None if why == "end" else t.ended
            raise

    async def finish_if_over(self, t: Table) -> None:
        """After a change: once the game's end is reached, keep that it is over."""
        if t.end_reached and t.ended is None:
            try:
                await self.finish(t, "end")
            except Exception:  # the game is over all the same; tried again at a restart
                log.exception("could not keep that the game at table %s is over", t.id)

    def let_go(self, t: Table) -> None:
        """A finished table nobody is connected to leaves memory (it is read from the
        database when asked for)."""
        if t.finished and not (t.seated or t.watching) and not t.moving:
            self.tables.pop(t.id, None)
            self.fanout.forget(t.id)

    async def find(self, table_id: str) -> Table:
        """A table in memory, or a finished one read from the database."""
        t = self.tables.get(table_id)
        if t is not None:
            return t
        stored = await self.store.load_table(table_id)
        if stored is None:
            raise TableError("unknown_table", f"there is no table {table_id!r}", 404)
        return Table(stored, rebuild(stored), self.clock)

    async def remove_table(self, t: Table) -> None:
        """Take a finished table out of the list and the service (its record is kept)."""
        async with t.lock:
            await self.store.remove_table(t.id)
            self.tables.pop(t.id, None)
            self.fanout.forget(t.id)
            self.turn_clock.disarm(t)
            for c in list(t.connections):
                c.close()

    async def close_idle(self) -> None:
        """End the games nobody has played at for :data:`IDLE_DAYS` days; look again
        after :data:`IDLE_CHECK` seconds."""
        limit = self.clock.wall() - IDLE_DAYS * 86_400
        for t in list(self.tables.values()):
            if not t.finished and t.last_active < limit and not (t.seated or t.watching):
                try:
                    await self.end_table(t, "idle")
                except Exception:
                    log.exception("could not close the idle table %s", t.id)
        handle: Timer

        def again() -> None:
            self._timers.discard(handle)
            chore = asyncio.get_running_loop().create_task(self.close_idle())
            self.chores.add(chore)
            chore.add_done_callback(self.chores.discard)

        handle = self.clock.call_at(self.clock.now() + IDLE_CHECK, again)
        self._timers.add(handle)

    async def first_deal(self, t: Table) -> None:
        """Once a new table's last seat is taken its first round is dealt before the answer
        (which then shows the table playing)."""
        if not t.started and t.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(t.task)

    def _seats_changed(self, t: Table) -> None:
        t.event_cache = []  # names may have changed: the words are rebuilt
        t.cache_round = 0
        self.broadcast(t, events=[], kind="seats")
        self.advance(t)
