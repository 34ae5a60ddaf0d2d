"""The hub: the master of every table, the one place that orders a table's changes.

A change to a table — a play, a deal, a seat taken or left, a person ready —
is made under the table's lock, in one order: check it (sender, turn, state
number, legality), store it (awaited: the storage runs in a thread of its own,
:class:`~domeng.server.storage.StorageWriter`), apply it to the game, answer
the sender, then send every connection at the table what its seat may see. So
nothing is heard of, by anyone, that the storage has not kept, and a write that
fails leaves the table as it was. While one table waits for its storage the
others go on.

A table moves on by itself through :meth:`Hub.advance`, called after every
change: it deals the first round once every person's seat is taken, lets a
computer player (or a stand-in for an absent person) move after the table's
pace, and deals the next round once the people at the table are ready. Every
wait asks the hub's :class:`~domeng.server.clock.Clock`, so tests replace time.
Computer players choose in workers (:mod:`domeng.server.players`) and their
moves go through the same path as a person's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import random
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any

from domeng.engine import (
    End,
    Game,
    IllegalMoveError,
    Move,
    deal,
    move,
    parse_tile,
    tile_name,
)
from domeng.engine.tiles import names as tile_names

from .bodies import LeaveSeat, NewTable, TakeSeat, new_table_seats
from .chat import Chat
from .clock import Clock, LoopClock, Timer
from .documents import Json
from .messages import Back, Play, Ready
from .messages import Chat as ChatMessage
from .players import BotRunner
from .storage import Storage, StorageWriter, StoredDeal, StoredPlay, StoredSeat, StoredTable
from .tables import (
    SEATS,
    Connection,
    Seat,
    Table,
    TableError,
    chat_json,
    hash_token,
    invite_code,
    rebuild,
    same_secret,
)
from .turnclock import TurnClock

log = logging.getLogger("domeng.server")

RETRY_AFTER = 1.0
"""Seconds before a deal or a computer's move that could not be stored is tried again."""


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


class Hub:
    """Every table, its storage and its computer players; see the module docstring."""

    def __init__(
        self,
        storage: Storage,
        runner: BotRunner | None = None,
        clock: Clock | None = None,
        *,
        deals: random.Random | None = None,
    ) -> None:
        self.store = StorageWriter(storage)
        self.deals = deals or random.Random(secrets.randbits(128))
        """Where every deal's shuffle comes from (a seeded one makes a test's games fixed)."""
        self.runner = runner or BotRunner()
        self.clock: Clock = clock or LoopClock()
        self.tables: dict[str, Table] = {}
        self.turn_clock = TurnClock(self.clock, self.time_out)
        self.chat = Chat(self.clock)
        self._timers: set[Timer] = set()
        self._wakes: dict[tuple[str, int], Timer] = {}
        self.chores: set[asyncio.Task[None]] = set()
        """Work the hub started that no table owns (the look for idle games)."""

    # -- life -----------------------------------------------------------------

    async def load(self) -> None:
        """Rebuild every stored table by replaying its record, then let each move on."""
        for stored in await self.store.load_tables():
            try:
                game = rebuild(stored)
            except (ValueError, KeyError, TypeError) as e:
                log.warning("table %s could not be replayed and is left out: %s", stored.id, e)
                continue
            self.tables[stored.id] = Table(stored, game, self.clock)
        await self.close_idle()
        for t in self.tables.values():
            self.advance(t)

    async def close(self) -> None:
        self.turn_clock.close()
        for h in self._timers:
            h.cancel()
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        tasks += list(self.chores)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for t in self.tables.values():
            for c in list(t.connections):
                c.close()
        self.runner.close()
        await self.store.close()

    @property
    def idle(self) -> bool:
        """No table has a deal or a computer's move under way (timers may still wait)."""
        return all(t.task is None for t in self.tables.values())

    # -- tables and seats -------------------------------------------------------

    def table(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            raise TableError("unknown_table", f"there is no table {table_id!r}", 404)
        return t

    def seat(self, t: Table, seat: int) -> Seat:
        if not 0 <= seat < SEATS:
            raise TableError("unknown_seat", f"there is no seat {seat} (seats are 0 to 4)", 404)
        return t.seats[seat]

    async def create_table(self, body: NewTable) -> Created:
        """A new table (stored first): the persons named in it get their tokens, the
        creator the host's token, and each invited seat its link."""
        seats = new_table_seats(body)
        tokens: dict[int, str] = {}
        for n, s in enumerate(body.seats):
            if s.kind == "person" and s.name is not None:
                tokens[n] = secrets.token_urlsafe(24)
                seats[n].token_hash = hash_token(tokens[n])
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
            token = secrets.token_urlsafe(24)
            taken = dataclasses.replace(
                s.stored,
                token_hash=hash_token(token),
                name=body.name,
                ready=0,
                invite=None,
                sits_from=len(t.game.rounds) + 1,  # a round being played is not theirs
                timeouts=0,
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
                s.stored, token_hash=None, name=f"Seat {seat}", invite=code, timeouts=0
            )
            await self.change_seat(t, seat, left)

    async def change_seat(self, t: Table, seat: int, new: StoredSeat) -> None:
        """Store a seat's new state and put it in place (under the table's lock): its
        connections become spectators' when its person changed."""
        s = t.seats[seat]
        await self.store.save_seat(t.id, seat, new)
        person_gone = s.stored.token_hash is not None and new.token_hash != s.stored.token_hash
        s.stored = new
        if person_gone:
            for c in list(t.connections):
                if c.seat == seat:
                    c.seat = None
                    s.connections -= 1
                    c.send({"type": "left", "seat": seat})
        if t.game.turn == seat:
            self.turn_clock.disarm(t)
        self._seats_changed(t)

    async def end_table(self, t: Table, why: str) -> None:
        """End the game now (``why``: "host", "idle"); its standings are final."""
        async with t.lock:
            await self.store.end_table(t.id, why)
            t.ended = why
            self.turn_clock.disarm(t)
            self._seats_changed(t)

    async def remove_table(self, t: Table) -> None:
        """Take a finished table out of the list and the service (its record is kept)."""
        async with t.lock:
            await self.store.remove_table(t.id)
            self.tables.pop(t.id, None)
            self.turn_clock.disarm(t)
            for c in list(t.connections):
                c.close()

    async def close_idle(self) -> None:
        """End the games nobody has played at for :data:`IDLE_DAYS` days; look again
        after :data:`IDLE_CHECK` seconds."""
        limit = self.clock.wall() - IDLE_DAYS * 86_400
        for t in list(self.tables.values()):
            if not t.finished and t.last_active < limit and not t.connections:
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

    # -- connections ------------------------------------------------------------

    def hello(self, t: Table, c: Connection, token: str | None) -> None:
        """Bind a connection to the seat of ``token`` (a spectator when None)."""
        if c.hello:
            raise TableError("already_hello", "this connection has already said hello")
        seat: int | None = None
        if token is not None:
            seat = t.seat_of_token(token)
            if seat is None:
                raise TableError("bad_token", "no seat at this table has that token", 403)
        c.hello = True
        c.seat = seat
        t.connections.add(c)
        if seat is not None:
            t.seats[seat].connections += 1
        c.send({"type": "welcome", "table_id": t.id, "seat": seat})
        c.send(self.state_message(t, seat))
        if seat is not None:
            self._seats_changed(t)
        else:
            self.advance(t)  # a table of computer players waiting for someone to watch it

    def disconnect(self, t: Table, c: Connection) -> None:
        c.closed = True
        if c not in t.connections:
            return
        t.connections.discard(c)
        if c.seat is not None:
            s = t.seats[c.seat]
            s.connections -= 1
            if not s.connections:
                s.away_since = self.clock.now()
            self._seats_changed(t)

    def state_message(self, t: Table, seat: int | None) -> Json:
        return {
            "type": "state",
            "state": t.state,
            "table": t.public_json(),
            "view": t.view_json(seat, with_events=True),
            "chat": list(t.chat),
        }

    def broadcast(self, t: Table, *, events: list[Json], kind: str = "update") -> None:
        """Send every connection its seat's view (one view built per seat)."""
        if not t.connections:
            return
        table = t.public_json()
        views: dict[int | None, Json | None] = {}
        for c in list(t.connections):
            if c.seat not in views:
                views[c.seat] = t.view_json(c.seat, with_events=False)
            if kind == "seats":
                c.send({"type": "seats", "state": t.state, "table": table})
            else:
                c.send(
                    {
                        "type": "update",
                        "state": t.state,
                        "events": events,
                        "table": table,
                        "view": views[c.seat],
                    }
                )

    # -- actions ----------------------------------------------------------------

    async def play(self, t: Table, c: Connection, msg: Play) -> None:
        async with t.lock:
            if c.seat is None:
                raise TableError("not_seated", "a spectator cannot play")
            seat = c.seat
            if msg.state != t.state:
                raise TableError(
                    "stale_state", f"the table has moved on: state is {t.state}, not {msg.state}"
                )
            if t.finished:
                raise TableError("game_over", "this game is over")
            if not t.started or t.game.round.finished:
                raise TableError("no_round", "no round is being played")
            if t.game.turn != seat:
                raise TableError("not_your_turn", f"it is seat {t.game.turn}'s turn, not yours")
            if t.waiting(seat):
                message = f"you sit from round {t.seats[seat].stored.sits_from}; watch until then"
                raise TableError("not_your_turn", message)
            events = await self.apply(t, seat, self._move_of(t, msg))
            await self._back(t, seat)  # a person the clock had a computer play for is back
            c.send({"type": "ok", "reply_to": msg.id, "state": t.state})
            self.broadcast(t, events=events)
            self.advance(t)

    async def back(self, t: Table, c: Connection, msg: Back) -> None:
        """ "Back to my seat": a computer no longer plays for this person on the clock."""
        async with t.lock:
            if c.seat is None:
                raise TableError("not_seated", "a spectator has no seat to come back to")
            await self._back(t, c.seat)
            c.send({"type": "ok", "reply_to": msg.id, "state": t.state})
            self._seats_changed(t)

    async def say(self, t: Table, c: Connection, msg: ChatMessage) -> None:
        """Talk at the table: checked (:mod:`.chat`), stored with the table, then heard by
        every connection there."""
        said = self.chat.check(t, c, msg)
        await self.store.add_chat(t.id, said)
        heard = chat_json(said)
        t.chat.append(heard)
        for other in list(t.connections):
            other.send(heard)

    async def _back(self, t: Table, seat: int) -> None:
        s = t.seats[seat]
        if s.stored.timeouts:
            back = dataclasses.replace(s.stored, timeouts=0)
            await self.store.save_seat(t.id, seat, back)
            s.stored = back

    @staticmethod
    def _move_of(t: Table, msg: Play) -> Move:
        """The move a play message names (its ``end`` worked out when it may be left out)."""
        try:
            tile_ = parse_tile(msg.tile)
        except ValueError as e:
            raise TableError("bad_tile", str(e)) from None
        if msg.end is None:
            ends = [m for m in t.game.legal_moves() if m.tile == tile_]
            if len(ends) > 1:
                raise TableError("end_required", f"{msg.tile} fits both ends: say which")
            return ends[0] if ends else move(tile_)
        try:
            return move(tile_, End.parse(msg.end))
        except ValueError as e:
            raise TableError("bad_end", str(e)) from None

    async def ready(self, t: Table, c: Connection, msg: Ready) -> None:
        async with t.lock:
            if c.seat is None:
                raise TableError("not_seated", "a spectator has no seat to be ready in")
            if not t.started:
                raise TableError("no_round", "no round has been dealt yet")
            if t.finished:
                raise TableError("game_over", "this game is over")
            if not t.game.round.finished:
                raise TableError("round_not_over", "the round is still being played")
            seat = c.seat
            s = t.seats[seat]
            ready = dataclasses.replace(s.stored, ready=len(t.game.rounds))
            await self.store.save_seat(t.id, seat, ready)
            s.stored = ready
            c.send({"type": "ok", "reply_to": msg.id, "state": t.state})
            self._seats_changed(t)

    async def apply(self, t: Table, seat: int, m: Move, *, stand_in: bool = False) -> list[Json]:
        """Check a move, store it, then apply it; answers its events, for :meth:`broadcast`
        (the caller acknowledges first, then lets everyone hear of it). Called under the
        table's lock. A move that is illegal, or could not be stored, changes nothing."""
        r = t.game.round
        after = r.clone()  # the move is tried on a copy: the table changes once it is stored
        try:
            after.play(m)
        except IllegalMoveError as e:
            raise TableError("illegal", str(e)) from None
        played = after.plays[-1][1]
        now = self.clock.wall()
        try:
            await self.store.add_play(
                t.id,
                r.number,
                len(after.plays) - 1,
                StoredPlay(seat, tile_name(played.tile), played.end.word, stand_in, now),
            )
        except Exception:
            log.exception("could not store a play at table %s", t.id)
            raise TableError("storage", "the move could not be stored; try again", 503) from None
        before = len(r.events)
        if stand_in:
            t.stand_ins[-1].add(len(after.plays) - 1)
        t.game.rounds[-1] = after
        t.state += 1
        t.last_active = now
        self.turn_clock.disarm(t)
        return t.events_json()[before:]

    # -- moving on by itself -----------------------------------------------------------

    def advance(self, t: Table) -> None:
        """Whatever comes next at ``t`` without a person: deal, a computer's move, a timer."""
        if t.finished or t.task is not None:
            return
        now = self.clock.now()
        if not t.started:
            if all(s.stored.kind == "computer" or s.stored.token_hash for s in t.seats):
                self._start(t, lambda: self._deal(t, 0, pause=False))
            return
        r = t.game.round
        if r.finished:
            waiting = [
                n
                for n, s in enumerate(t.seats)
                if s.stored.kind == "person"
                and s.stored.ready < r.number
                and t.computer_level(n) is None
            ]
            if waiting:
                for n in waiting:
                    self._wake_when_away(t, n, now)
                return
            if self._unwatched(t):
                return  # the next round waits for someone to come back (or to watch)
            # a person plays: deal now; only computers and stand-ins: after the pace
            people = any(
                s.stored.kind == "person" and not t.stood_in(n) for n, s in enumerate(t.seats)
            )
            state = t.state
            self._start(t, lambda: self._deal(t, state, pause=not people))
            return
        seat = r.turn
        assert seat is not None
        level = t.computer_level(seat)
        if level is not None:
            state = t.state
            self._start(t, lambda: self._computer_move(t, seat, level, state))
        else:
            self._wake_when_away(t, seat, now)
            self.turn_clock.arm(t)

    def _start(self, t: Table, work: Callable[[], Coroutine[Any, Any, bool]]) -> None:
        """Run ``work()`` as the table's one task of moving on by itself; it answers True
        when what it did could not be stored (it is tried again after a while)."""

        async def run() -> None:
            retry = False
            try:
                retry = await work()
            finally:
                t.task = None
            if retry:
                self._later(t, RETRY_AFTER)
            else:
                self.advance(t)

        t.task = asyncio.get_running_loop().create_task(run())

    def _later(self, t: Table, delay: float) -> None:
        """Look again at ``t`` after ``delay`` seconds."""
        handle: Timer

        def wake() -> None:
            self._timers.discard(handle)
            self.advance(t)

        handle = self.clock.call_at(self.clock.now() + delay, wake)
        self._timers.add(handle)

    def _wake_when_away(self, t: Table, seat: int, now: float) -> None:
        """Look again when an absent person's time is up (their stand-in then plays)."""
        s = t.seats[seat]
        after = t.settings.replace_after_ms
        key = (t.id, seat)
        if s.connections or after is None or t.settings.stand_in is None or key in self._wakes:
            return
        handle: Timer

        def wake() -> None:
            self._timers.discard(handle)
            del self._wakes[key]
            self._seats_changed(t)

        handle = self.clock.call_at(max(now, s.away_since + after / 1000), wake)
        self._timers.add(handle)
        self._wakes[key] = handle

    def _unwatched(self, t: Table) -> bool:
        """Nobody to deal the next round for: no person of the table is connected, or, at a
        table of computer players, no connection watches it (they play on only while
        someone does, so a table left alone does not play forever)."""
        persons = [s for s in t.seats if s.stored.kind == "person"]
        if persons:
            return not any(s.connections for s in persons)
        return not any(not c.closed for c in t.connections)

    async def _deal(self, t: Table, state: int, *, pause: bool) -> bool:
        """Deal the next round (stored first), after the table's pace when ``pause``.
        Answers True when it could not be stored (and is to be tried again)."""
        if pause:
            await self.clock.sleep(t.settings.pace_ms / 1000)
        async with t.lock:
            if t.state != state or t.finished:
                return False
            if pause and self._unwatched(t):
                return False  # they left during the pause: advance() runs again when one is back
            hands, unused = deal(self.deals)
            now = self.clock.wall()
            d = StoredDeal([tile_names(h) for h in hands], tile_names(unused), now)
            try:
                await self.store.add_deal(t.id, len(t.game.rounds) + 1, d)
            except Exception:
                log.exception("could not store a deal at table %s", t.id)
                return True
            t.deals.append(d)
            t.stand_ins.append(set())
            t.game.start_round(hands, unused)
            t.state += 1
            t.last_active = now
            self.broadcast(t, events=t.events_json())
        return False

    def time_out(self, t: Table, seat: int, state: int) -> None:
        """The person in turn ran out of time (the turn clock): a computer makes this one
        move for them; after :data:`~domeng.server.tables.CLOCK_OUTS` in a row it plays on."""
        if t.task is None and t.state == state and not t.finished:
            level = t.stand_in_level
            self._start(t, lambda: self._computer_move(t, seat, level, state, clocked=True))

    async def _computer_move(
        self, t: Table, seat: int, level: str, state: int, *, clocked: bool = False
    ) -> bool:
        """The computer player's (or stand-in's) move for ``seat``, after the table's pace
        (at once when ``clocked``: the person's time ran out). Answers True when it could
        not be stored (and is to be tried again)."""

        def still() -> bool:
            if t.state != state:
                return False
            now_level = t.computer_level(seat)
            return now_level is None if clocked else now_level == level

        if not clocked:
            await self.clock.sleep(t.settings.pace_ms / 1000)
        if not still():
            return False
        v = t.game.view(seat)
        seed = hash((t.seats[seat].stored.seed, t.state)) & (2**63 - 1)
        try:
            m = await self.runner.choose(level, seed, v)
        except Exception:
            log.exception("computer player %s failed at table %s", level, t.id)
            m = v.legal_moves[0]
        for_person = t.seats[seat].stored.kind == "person"
        async with t.lock:
            if not still():
                return False
            try:
                events = await self.apply(t, seat, m, stand_in=for_person)
            except TableError as e:
                if e.code != "illegal":  # not stored: try again in a moment
                    return True
                log.error("computer player %s at table %s: %s", level, t.id, e.message)
                try:
                    events = await self.apply(t, seat, t.game.legal_moves()[0], stand_in=for_person)
                except TableError:
                    return True
            if clocked:
                s = t.seats[seat]
                out = dataclasses.replace(s.stored, timeouts=s.stored.timeouts + 1)
                with contextlib.suppress(Exception):  # the count is not worth a retry
                    await self.store.save_seat(t.id, seat, out)
                    s.stored = out
            self.broadcast(t, events=events)
        return False
