"""The hub: the master of every table, the one place that orders a table's changes.

A change to a table — a play, a deal, a seat taken or left, a person ready —
is made under the table's lock, in one order: check it (sender, turn, state
number, legality), store it (awaited: the storage runs in a thread of its own,
:class:`~domeng.server.storage.StorageWriter`), apply it to the game, answer
the sender, then send every connection at the table what its seat may see. So
nothing is heard of, by anyone, that the storage has not kept, and a write that
fails leaves the table as it was. While one table waits for its storage the
others go on.

The hub has three parts, each a module: this one (the connections, the players'
actions and :meth:`Hub.apply`), :mod:`.seating` (tables and seats, the host's
changes) and :mod:`.moving` (a table moving on by itself: deals, computer moves,
the stand-in's wait, the turn clock's move; :meth:`~.moving.MovingOn.advance` is
called after every change). Every wait asks the hub's
:class:`~domeng.server.clock.Clock`, so tests replace time. Computer players
choose in workers (:mod:`domeng.server.players`) and their moves go through the
same path as a person's.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
import secrets

from domeng.engine import End, IllegalMoveError, Move, Played, move, parse_tile, tile_name

from .chat import Chat
from .clock import Clock, LoopClock, Timer
from .connection import encode
from .documents import Json
from .fanout import Fanout
from .frames import Framed
from .hinting import Hinting
from .hubbase import log
from .limits import Connections, Limits
from .messages import Back, Play, Ready
from .messages import Chat as ChatMessage
from .moving import MovingOn
from .pacing import Pacing
from .players import BotRunner
from .recording import record_finished_rounds
from .replays import Replays
from .seating import Created, Seating
from .storage import Storage, StorageWriter, StoredPlay
from .tables import SEATS, Connection, Seat, Table, TableError, chat_json, rebuild
from .turnclock import TurnClock

__all__ = ["Created", "Hub"]


class Hub(Seating, MovingOn, Hinting):
    """Every table, its storage and its computer players; see the module docstring."""

    def __init__(
        self,
        storage: Storage,
        runner: BotRunner | None = None,
        clock: Clock | None = None,
        *,
        deals: random.Random | None = None,
        limits: Limits | None = None,
    ) -> None:
        self.store = StorageWriter(storage)
        self.deals = deals or random.Random(secrets.randbits(128))
        """Where every deal's shuffle comes from (a seeded one makes a test's games fixed)."""
        self.runner = runner or BotRunner()
        self.clock: Clock = clock or LoopClock()
        self.tables: dict[str, Table] = {}
        self.turn_clock = TurnClock(self.clock, self.time_out)
        self.chat = Chat(self.clock)
        self.limits = limits or Limits(self.clock)
        self.replays = Replays()
        self.connections = Connections()
        self.fanout = Fanout(self.clock)
        self.pacing = Pacing()
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
            t = self.tables[stored.id] = Table(stored, game, self.clock)
            await record_finished_rounds(self, t)  # a round kept but not yet recorded
            if t.end_reached:  # kept before games that end were kept as such
                await self.finish_if_over(t)
                self.let_go(t)
        await self.close_idle()
        for t in self.tables.values():
            self.advance(t)

    async def close(self) -> None:
        self.turn_clock.close()
        for h in self._timers:
            h.cancel()
        self.pacing.close()
        for t in self.tables.values():
            if t.due is not None:
                t.due.cancel()
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
        self.replays.close()
        await self.store.close()

    # -- tables and seats -------------------------------------------------------

    def seat(self, t: Table, seat: int) -> Seat:
        if not 0 <= seat < SEATS:
            raise TableError("unknown_seat", f"there is no seat {seat} (seats are 0 to 4)", 404)
        return t.seats[seat]

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
        # what the spectators wait for goes out first: the newcomer's state holds it all
        self.fanout.flush(t.id, list(t.watching))
        c.hello = True
        t.join(c, seat)
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
        if not t.leave(c):
            return
        if c.seat is not None:
            s = t.seats[c.seat]
            s.connections -= 1
            if not s.connections:
                s.away_since = self.clock.now()
            self._seats_changed(t)
        self.let_go(t)

    def sync(self, t: Table, c: Connection) -> None:
        """The whole state again, after what the spectators were waiting for."""
        self.fanout.flush(t.id, list(t.watching))
        c.send(self.state_message(t, c.seat))

    def state_message(self, t: Table, seat: int | None) -> Json:
        return {
            "type": "state",
            "state": t.state,
            "table": t.public_json(),
            "view": t.view_json(seat, with_events=True),
            "chat": list(t.chat),
        }

    def broadcast(self, t: Table, *, events: list[Json], kind: str = "update") -> None:
        """Send every connection its seat's view: one message built and encoded per seat
        (all spectators share one), the same text to every connection of that seat."""
        if not (t.seated or t.watching):
            return
        table = t.public_json()
        shared = t.shared_view_json() if kind != "seats" else None  # once for every seat
        texts: dict[int | None, Framed] = {}
        spectators = list(t.watching)
        if kind == "seats":
            self.fanout.flush(t.id, spectators)
        elif spectators:  # gathered (fanout.py); the seats' connections get every change
            message = {
                "type": "update",
                "state": t.state,
                "events": events,
                "table": table,
                "view": t.view_json(None, with_events=False, shared=shared),
            }
            self.fanout.update(t.id, spectators, message)
        targets = list(t.seated) + (spectators if kind == "seats" else [])
        sharing: dict[int | None, int] = {}  # connections that get each text
        for c in targets:  # (a Counter cost a fortieth of a move at one connection a table)
            sharing[c.seat] = sharing.get(c.seat, 0) + 1
        for c in targets:
            framed = texts.get(c.seat)
            if framed is None:
                if kind == "seats":
                    message = {"type": "seats", "state": t.state, "table": table}
                else:
                    message = {
                        "type": "update",
                        "state": t.state,
                        "events": events,
                        "table": table,
                        "view": t.view_json(c.seat, with_events=False, shared=shared),
                    }
                framed = Framed(encode(message), shared=sharing[c.seat] > 1)
                texts[c.seat] = framed
            c.send_framed(framed)

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
            await self.finish_if_over(t)
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
        everyone = list(t.connections)
        framed = Framed(encode(heard), shared=len(everyone) > 1)
        for other in everyone:
            other.send_framed(framed)

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
        before = len(r.events)
        played = after.events[before]  # a play's own event comes before what follows it
        assert isinstance(played, Played)
        index = r.play_count
        now = self.clock.wall()
        try:
            await self.store.add_play(
                t.id,
                r.number,
                index,
                StoredPlay(seat, tile_name(played.tile), played.end.word, stand_in, now),
            )
        except Exception:
            log.exception("could not store a play at table %s", t.id)
            raise TableError("storage", "the move could not be stored; try again", 503) from None
        if stand_in:
            t.stand_ins[-1].add(index)
        t.game.rounds[-1] = after
        t.state += 1
        t.last_active = now
        if after.finished:  # the players' figures and ratings (recording.py)
            await record_finished_rounds(self, t)
        self.arm_clock(t)
        return t.events_json()[before:]

    def arm_clock(self, t: Table) -> None:
        """After a change: the turn clock runs for a person in turn, from now (so that the
        update that says so carries it), and for nobody else."""
        seat = t.game.turn if t.started else None
        if seat is not None and t.computer_level(seat) is None:
            self.turn_clock.arm(t)
        else:
            self.turn_clock.disarm(t)
