"""A table in play: one object that owns itself.

A :class:`Table` holds its game (rebuilt by replaying its stored record), its five
seats and the connections at it, and it is the only writer of all of them. Every
change to it — a play, a deal, a seat taken or left, a person ready, a line of chat —
is made by one of its methods, under its lock, in one order: check it (sender, turn,
state number, legality), store it (awaited: :class:`~domeng.storage.StorageWriter`),
apply it to the game, answer the sender, then tell every connection what its seat
may see (:meth:`Table.broadcast`). So nothing is heard of, by anyone, that the storage
has not kept, and a write that fails leaves the table as it was. While one table waits
for its storage the others go on.

The table moves on by itself (:mod:`.moving`: :meth:`Table.advance`, called after every
change): the first deal once every person's seat is taken, a computer player's (or a stand-in's)
move after the table's pace, the next round once the people are ready, the stand-in's
wait for an absent person, the move the turn clock makes for a person out of time.

Its parts are collaborators, each a module with its own state and refusals:
:mod:`.turnclock` (the person in turn's deadline), :mod:`.waits` (the wait for ``ready``
and for seats nobody took), :mod:`.chat` (what may be said, how fast), :mod:`.hinting`
(the coach's hints, one per seat at a time), :mod:`.fanout` (the spectators' updates,
gathered), :mod:`.showing` (what the table shows: its public JSON, the views, their
caches) and :mod:`.host` (the host's say). What every table shares (the storage, the
computer players' workers, the clock) comes in one :class:`~.services.Services`; the
:class:`~domeng.server.registry.Registry` above creates, finds, loads and evicts tables.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import secrets
from collections import deque
from collections.abc import Sequence
from typing import Literal, cast

from domeng.engine import End, Game, IllegalMoveError, Move, Played, move, parse_tile
from domeng.engine.tiles import tile_name
from domeng.storage import CHAT_KEPT, StoredPlay, StoredSeat, StoredTable

from .bodies import LeaveSeat, TakeSeat
from .clock import Timer
from .connection import QUEUE_LIMIT, Connection, encode
from .documents import (
    ChatDoc,
    ClockDoc,
    Ended,
    EventDoc,
    Json,
    Seats,
    SharedViewDoc,
    StandingDoc,
    State,
    TableDoc,
    TableStatus,
    Update,
    ViewDoc,
)
from .errors import TableError
from .fanout import Fanout
from .frames import Framed
from .hinting import Hints
from .messages import Back, Hint, Play, Ready
from .messages import Chat as ChatMessage
from .moving import MovingOn
from .names import refuse_taken
from .players import default_level
from .profiles import profile_of_token
from .rebuild import rebuild
from .recording import record_finished_rounds
from .seats import (
    CLOCK_OUTS,
    DEFAULT_NAMES,
    MAX_NAME,
    SEATS,
    TIME_SLACK,
    Seat,
    hash_token,
    invite_code,
    same_secret,
)
from .services import Services, log
from .settings import Settings
from .showing import Showing, chat_json
from .turnclock import TurnClock
from .waits import (
    Wait,
    WaitKind,
    Waits,
)

STATUSES = ("waiting", "playing", "between", "finished")
"""A table's statuses, as ``GET /api/tables?status=`` filters them."""


class Table:
    """One table in play, its own master; see the module docstring."""

    def __init__(
        self,
        stored: StoredTable,
        game: Game,
        services: Services,
        settings: Settings | None = None,
    ) -> None:
        self.services = services
        self.store = services.store
        self.clock = services.clock
        self.id = stored.id
        self.created = stored.created
        self.settings = settings or Settings.from_json(stored.settings)
        now = self.clock.now()
        self.seats = [Seat(s, now) for s in stored.seats]
        self.game = game
        self.deals = stored.deals
        self.host_hash = stored.host_hash
        self.host_seat = stored.host_seat
        self.ended = cast("Ended | None", stored.ended)  # the storage keeps it as text
        """Why the game ended before its end was reached ("host", "idle"), or None."""
        self.stand_ins: list[set[int]] = [
            {i for i, p in enumerate(plays) if p.stand_in} for plays in stored.plays
        ]
        """Per round, the indices of the plays a computer made for a person."""
        last = stored.created
        for d in stored.deals:
            last = max(last, d.at)
        for plays in stored.plays:
            for p in plays:
                last = max(last, p.at)
        self.last_active = last
        """When the game last moved (Unix time)."""
        self.chat: deque[ChatDoc] = deque(
            (chat_json(c) for c in stored.chat if services.shown(stored.id, c.at)), maxlen=CHAT_KEPT
        )
        self.seated: set[Connection] = set()
        """The connections of the seats' persons (see :meth:`join`)."""
        self.watching: set[Connection] = set()
        """The spectators' connections, kept apart so that an update to the seats does
        not look through a crowd of them."""
        self.lock = asyncio.Lock()
        """Held while a change is checked, stored and applied."""
        self.state = len(game.rounds) + sum(len(r.plays) for r in game.rounds)
        self.deadline: float | None = None
        """When the person in turn runs out of time (the clock's time), or None."""
        self.wait: Wait | None = None
        """What the table waits for between moves, until when (:mod:`.waits`)."""
        self.start_anyway = False
        """The first round is dealt with seats nobody took (their wait is over)."""
        # its collaborators
        self.moving_on = MovingOn(self)
        self.shown = Showing(self)
        self.turn_clock = TurnClock(self.clock, Table.time_out)
        self.waits = Waits(self.clock, Table.wait_over)
        self.talk = services.talk(self.clock)
        self.hints = Hints(self, services.runner, services.in_flight)
        self.fanout = Fanout(self.clock)

    # -- connections ----------------------------------------------------------

    @property
    def connections(self) -> set[Connection]:
        """Every connection at the table (a new set)."""
        return self.seated | self.watching

    def join(self, c: Connection, seat: int | None) -> None:
        """``c`` is at the table, in ``seat`` (None: watching)."""
        c.seat = seat
        (self.watching if seat is None else self.seated).add(c)

    def leave(self, c: Connection) -> bool:
        """``c`` is no longer at the table; answers whether it was."""
        if c in self.seated:
            self.seated.discard(c)
        elif c in self.watching:
            self.watching.discard(c)
        else:
            return False
        return True

    def unseat(self, c: Connection) -> None:
        """``c``'s seat went to someone else: it watches now."""
        self.seated.discard(c)
        self.join(c, None)

    def hello(self, c: Connection, token: str | None) -> None:
        """Bind a connection to the seat of ``token`` (a spectator when None)."""
        if c.hello:
            raise TableError("already_hello", "this connection has already said hello")
        seat: int | None = None
        if token is not None:
            seat = self.seat_of_token(token)
            if seat is None:
                raise TableError("bad_token", "no seat at this table has that token", 403)
        # what the spectators wait for goes out first: the newcomer's state holds it all
        self.fanout.flush(self.id, list(self.watching))
        c.hello = True
        self.join(c, seat)
        if seat is not None:
            s = self.seats[seat]
            if not s.connections:  # back for now: the time away is kept until they play
                s.away_before += max(0.0, self.clock.now() - s.away_since)
            s.connections += 1
        c.send({"type": "welcome", "table_id": self.id, "seat": seat})
        c.send(self.state_message(seat))
        if seat is not None:
            self.seats_changed()
        else:
            self.advance()  # a table of computer players waiting for someone to watch it

    def disconnect(self, c: Connection) -> None:
        c.closed = True
        if not self.leave(c):
            return
        if c.seat is not None:
            s = self.seats[c.seat]
            s.connections -= 1
            if not s.connections:
                s.away_since = self.clock.now()
            self.seats_changed()
        self.let_go()

    def sync(self, c: Connection) -> None:
        """The whole state again, after what the spectators were waiting for."""
        self.fanout.flush(self.id, list(self.watching))
        c.send(self.state_message(c.seat))

    # -- reading --------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [s.stored.name for s in self.seats]

    @property
    def moving(self) -> bool:
        """The table moves on by itself: a deal or a computer's move is on its way."""
        return self.moving_on.moving

    @property
    def started(self) -> bool:
        return bool(self.game.rounds)

    @property
    def in_round(self) -> bool:
        """A round is being played."""
        return bool(self.game.rounds) and not self.game.round.finished

    @property
    def end_reached(self) -> bool:
        if not self.game.rounds or not self.game.round.finished:
            return False
        s = self.settings
        if s.end_rounds is not None and len(self.game.rounds) >= s.end_rounds:
            return True
        return s.end_titles is not None and max(self.game.titles) >= s.end_titles

    @property
    def finished(self) -> bool:
        return self.ended is not None or self.end_reached

    @property
    def why_ended(self) -> Ended | None:
        """ "end", "host", "idle", or None while the game goes on."""
        if self.ended is not None:
            return self.ended
        return "end" if self.end_reached else None

    @property
    def status(self) -> TableStatus:
        """One of :data:`STATUSES`."""
        if self.finished:
            return "finished"
        if not self.started:
            return "waiting"
        return "between" if self.game.round.finished else "playing"

    @property
    def stand_in_level(self) -> str:
        """Who plays a person's seat when a computer must: the table's stand-in, else the
        default level."""
        return self.settings.stand_in or default_level()

    def seat(self, seat: int) -> Seat:
        """Seat number ``seat``; refuses a number that names none."""
        if not 0 <= seat < SEATS:
            raise TableError("unknown_seat", f"there is no seat {seat} (seats are 0 to 4)", 404)
        return self.seats[seat]

    def waiting(self, seat: int) -> bool:
        """The seat's person took it during this round and sits from the next one."""
        s = self.seats[seat].stored
        return (
            s.kind == "person"
            and s.token_hash is not None
            and self.in_round
            and s.sits_from > len(self.game.rounds)
        )

    def away(self, seat: int, now: float | None = None) -> bool:
        """The seat's person has no connection, and has had none for the table's
        ``replace_after_ms`` in all since they last played (time away from play, not
        one absence: reconnecting now and then does not put the stand-in off)."""
        s = self.seats[seat]
        if s.connections or self.settings.replace_after_ms is None:
            return False
        now = self.clock.now() if now is None else now
        return now + TIME_SLACK >= self.away_until(seat)

    def away_until(self, seat: int) -> float:
        """When the absent person of ``seat`` counts as away (the clock's time)."""
        s = self.seats[seat]
        after = (self.settings.replace_after_ms or 0) / 1000
        return s.away_since - s.away_before + after

    def computer_level(self, seat: int, now: float | None = None) -> str | None:
        """The computer player that moves for ``seat`` now, or None when a person does (or
        the table waits for one)."""
        s = self.seats[seat].stored
        if s.kind == "computer":
            return s.level
        if not self.started:
            return None
        if s.token_hash is None:  # an open seat: the stand-in, and in a round anyway
            if self.settings.stand_in is not None:
                return self.settings.stand_in
            return self.stand_in_level if self.in_round else None
        if self.waiting(seat) or s.timeouts >= CLOCK_OUTS:
            return self.stand_in_level
        if self.settings.stand_in is not None and self.away(seat, now):
            return self.settings.stand_in
        return None

    def stood_in(self, seat: int, now: float | None = None) -> bool:
        """Whether a computer plays for the person of ``seat`` now."""
        return (
            self.seats[seat].stored.kind == "person" and self.computer_level(seat, now) is not None
        )

    def view_seat(self, seat: int | None) -> int | None:
        """The seat whose view a connection of ``seat`` gets: its own, but a spectator's
        while its person waits for the next round."""
        return None if seat is None or self.waiting(seat) else seat

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for n, s in enumerate(self.seats):
            th = s.stored.token_hash
            if th is not None and hmac.compare_digest(th, h):
                return n
        return None

    def invites(self) -> dict[int, str]:
        """The links of the invited seats still open (the host's to share)."""
        return {
            n: f"/?table={self.id}&seat={n}&invite={s.stored.invite}"
            for n, s in enumerate(self.seats)
            if s.stored.kind == "person" and s.stored.token_hash is None and s.stored.invite
        }

    def is_host(self, token: str) -> bool:
        return self.host_hash is not None and hmac.compare_digest(self.host_hash, hash_token(token))

    # -- what it shows (:mod:`.showing`) ----------------------------------------

    def public_json(self) -> TableDoc:
        return self.shown.public_json()

    def view_json(
        self, seat: int | None, *, with_events: bool, shared: SharedViewDoc | None = None
    ) -> ViewDoc | None:
        return self.shown.view_json(seat, with_events=with_events, shared=shared)

    def shared_view_json(self) -> SharedViewDoc | None:
        return self.shown.shared_view_json()

    def events_json(self) -> list[EventDoc]:
        return self.shown.events_json()

    def standings_json(self) -> list[StandingDoc]:
        return self.shown.standings_json()

    def clock_json(self) -> ClockDoc | None:
        return self.shown.clock_json()

    def record_json(self, *, finished_rounds: bool = False) -> Json:
        return self.shown.record_json(finished_rounds=finished_rounds)

    def state_message(self, seat: int | None) -> State:
        return self.shown.state_message(seat)

    @property
    def hides_last_round(self) -> bool:
        return self.shown.hides_last_round

    # -- the order of a change --------------------------------------------------

    def broadcast(
        self, *, events: list[EventDoc], kind: Literal["update", "seats"] = "update"
    ) -> None:
        """Send every connection its seat's view: one message built and encoded per seat
        (all spectators share one), the same text to every connection of that seat."""
        self.services.changed(self.id)  # what the list shows of it, kept (listing.py)
        if not (self.seated or self.watching):
            return
        table = self.public_json()
        shared = self.shared_view_json() if kind != "seats" else None  # once for every seat
        texts: dict[int | None, Framed] = {}
        spectators = list(self.watching)
        if kind == "seats":
            self.fanout.flush(self.id, spectators)
        elif spectators:  # gathered (fanout.py); the seats' connections get every change
            watched: Update = {
                "type": "update",
                "state": self.state,
                "events": events,
                "table": table,
                "view": self.view_json(None, with_events=False, shared=shared),
            }
            self.fanout.update(self.id, spectators, watched)
        targets = list(self.seated) + (spectators if kind == "seats" else [])
        sharing: dict[int | None, int] = {}  # connections that get each text
        for c in targets:  # (a Counter cost a fortieth of a move at one connection a table)
            sharing[c.seat] = sharing.get(c.seat, 0) + 1
        for c in targets:
            framed = texts.get(c.seat)
            if framed is None:
                message: Seats | Update
                if kind == "seats":
                    message = {"type": "seats", "state": self.state, "table": table}
                else:
                    message = {
                        "type": "update",
                        "state": self.state,
                        "events": events,
                        "table": table,
                        "view": self.view_json(c.seat, with_events=False, shared=shared),
                    }
                framed = Framed(encode(message), shared=sharing[c.seat] > 1)
                texts[c.seat] = framed
            c.send_framed(framed)

    async def apply(self, seat: int, m: Move, *, stand_in: bool = False) -> list[EventDoc]:
        """Check a move, store it, then apply it; answers its events, for :meth:`broadcast`
        (the caller acknowledges first, then lets everyone hear of it). Called under the
        table's lock. A move that is illegal, or could not be stored, changes nothing;
        after the game's end (the host's, reached while a computer thought) none is made."""
        if self.finished:
            raise TableError("game_over", "this game is over")
        r = self.game.round
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
                self.id,
                r.number,
                index,
                StoredPlay(seat, tile_name(played.tile), played.end.word, stand_in, now),
            )
        except Exception:
            log.exception("could not store a play at table %s", self.id)
            raise TableError("storage", "the move could not be stored; try again", 503) from None
        if stand_in:
            self.stand_ins[-1].add(index)
        self.game.rounds[-1] = after
        self.state += 1
        self.last_active = now
        if after.finished:  # the players' figures and ratings (recording.py)
            await record_finished_rounds(self.store, self)
        self.arm_clock()
        return self.events_json()[before:]

    def arm_clock(self) -> None:
        """After a change: the turn clock runs for a person in turn, from now (so that the
        update that says so carries it), and for nobody else."""
        seat = self.game.turn if self.started else None
        if seat is not None and self.computer_level(seat) is None:
            self.turn_clock.arm(self)
        else:
            self.turn_clock.disarm(self)

    def seats_changed(self) -> None:
        """After a change of seats: everyone hears of it, and the table moves on."""
        self.shown.names_changed()  # names may have changed: the words are made again
        self.broadcast(events=[], kind="seats")
        self.advance()

    async def finish(self, why: Ended) -> None:
        """Keep that the game is over ("end": its end was reached; "host", "idle"), with
        the summary lists of finished tables show. Under the table's lock."""
        self.ended = why
        self.turn_clock.disarm(self)
        self.waits.stop(self)
        try:
            await self.store.end_table(self.id, why, cast(Json, self.public_json()))
        except Exception:
            self.ended = None if why == "end" else self.ended
            raise
        for heard in self.services.on_finished:  # a tournament hears that its table is over
            heard(self)

    async def finish_if_over(self) -> None:
        """After a change: once the game's end is reached, keep that it is over."""
        if self.end_reached and self.ended is None:
            try:
                await self.finish("end")
            except Exception:  # the game is over all the same; tried again at a restart
                log.exception("could not keep that the game at table %s is over", self.id)

    def let_go(self) -> None:
        """A finished table nobody is connected to leaves memory (it is read from the
        database when asked for)."""
        if self.finished and not (self.seated or self.watching) and not self.moving:
            self.stop()  # no timer of it is left behind (an absent person's wait)
            self.services.release(self)

    # -- the people's actions -----------------------------------------------------

    async def play(self, c: Connection, msg: Play) -> None:
        async with self.lock:
            if c.seat is None:
                raise TableError("not_seated", "a spectator cannot play")
            seat = c.seat
            if msg.state != self.state:
                raise TableError(
                    "stale_state",
                    f"the table has moved on: state is {self.state}, not {msg.state}",
                )
            if self.finished:
                raise TableError("game_over", "this game is over")
            if not self.started or self.game.round.finished:
                raise TableError("no_round", "no round is being played")
            if self.game.turn != seat:
                raise TableError("not_your_turn", f"it is seat {self.game.turn}'s turn, not yours")
            if self.waiting(seat):
                message = (
                    f"you sit from round {self.seats[seat].stored.sits_from}; watch until then"
                )
                raise TableError("not_your_turn", message)
            events = await self.apply(seat, self._move_of(msg))
            await self._back(seat)  # a person the clock had a computer play for is back
            self.seats[seat].played()
            c.send({"type": "ok", "reply_to": msg.id, "state": self.state})
            self.broadcast(events=events)
            await self.finish_if_over()
            self.advance()

    async def back(self, c: Connection, msg: Back) -> None:
        """ "Back to my seat": a computer no longer plays for this person on the clock.
        Once a round: a person who took the seat back, then let the clock run out again
        without playing, is refused ``back_limited`` until the round is over (then
        ``ready`` brings them back)."""
        async with self.lock:
            if c.seat is None:
                raise TableError("not_seated", "a spectator has no seat to come back to")
            s = self.seats[c.seat]
            if s.back_spent and s.back_spent == len(self.game.rounds):
                message = (
                    "you took your seat back and let the clock run out again: a computer "
                    "plays for you until this round is over; say ready for the next one"
                )
                raise TableError("back_limited", message, 409)
            taken_back = s.stored.timeouts > 0
            await self._back(c.seat)
            s.played()
            s.backed = taken_back
            c.send({"type": "ok", "reply_to": msg.id, "state": self.state})
            self.seats_changed()

    async def say(self, c: Connection, msg: ChatMessage) -> None:
        """Talk at the table: checked (:mod:`.chat`), stored with the table, then heard by
        every connection there."""
        said = self.talk.check(self, c, msg)
        await self.store.add_chat(self.id, said)
        heard = chat_json(said)
        self.chat.append(heard)
        everyone = list(self.connections)
        framed = Framed(encode(heard), shared=len(everyone) > 1)
        for other in everyone:
            other.send_framed(framed)

    async def _back(self, seat: int) -> None:
        s = self.seats[seat]
        if s.stored.timeouts:
            back = dataclasses.replace(s.stored, timeouts=0)
            await self.store.save_seat(self.id, seat, back)
            s.stored = back

    def _move_of(self, msg: Play) -> Move:
        """The move a play message names (its ``end`` worked out when it may be left out)."""
        try:
            tile_ = parse_tile(msg.tile)
        except ValueError as e:
            raise TableError("bad_tile", str(e)) from None
        if msg.end is None:
            ends = [m for m in self.game.legal_moves() if m.tile == tile_]
            if len(ends) > 1:
                raise TableError("end_required", f"{msg.tile} fits both ends: say which")
            return ends[0] if ends else move(tile_)
        try:
            return move(tile_, End.parse(msg.end))
        except ValueError as e:
            raise TableError("bad_end", str(e)) from None

    async def ready(self, c: Connection, msg: Ready) -> None:
        async with self.lock:
            if c.seat is None:
                raise TableError("not_seated", "a spectator has no seat to be ready in")
            if not self.started:
                raise TableError("no_round", "no round has been dealt yet")
            if self.finished:
                raise TableError("game_over", "this game is over")
            if not self.game.round.finished:
                raise TableError("round_not_over", "the round is still being played")
            seat = c.seat
            s = self.seats[seat]
            # ready is being here: a computer that played for them (the clock's, the
            # wait's) no longer does
            ready = dataclasses.replace(s.stored, ready=len(self.game.rounds), timeouts=0)
            await self.store.save_seat(self.id, seat, ready)
            s.stored = ready
            s.played()
            c.send({"type": "ok", "reply_to": msg.id, "state": self.state})
            self.seats_changed()

    async def hint(self, c: Connection, msg: Hint) -> None:
        """The coach's hint for ``c``'s seat (:mod:`.hinting`), counted for the seat once a
        decision."""
        seat, state, body = await self.hints.think(c)
        async with self.lock:
            s = self.seats[seat]
            if self.hints.counted.get(seat) != state:  # one count a decision, however often asked
                counted = dataclasses.replace(s.stored, hints=s.stored.hints + 1)
                try:
                    await self.store.save_seat(self.id, seat, counted)
                    s.stored = counted
                    self.hints.counted[seat] = state
                except Exception:  # the hint is still given; only its count is not kept
                    log.exception("could not store a hint's count at table %s", self.id)
            c.send(
                {
                    "type": "hint",
                    "reply_to": msg.id,
                    "state": state,
                    "seat": seat,
                    **body,
                    "hints": s.stored.hints,
                }
            )
            self.seats_changed()

    # -- seats --------------------------------------------------------------------

    async def take_seat(self, seat: int, body: TakeSeat, member: str | None = None) -> str:
        """Seat a person at ``seat``: answers their token (``member``: the club member or
        guest it is handed to, kept with the seat)."""
        s = self.seat(seat)
        async with self.lock:
            if s.stored.kind != "person":
                raise TableError("computer_seat", f"seat {seat} is a computer player's", 409)
            if s.stored.token_hash is not None:
                raise TableError("seat_taken", f"seat {seat} is already taken", 409)
            if self.finished:
                raise TableError("game_over", "this game is over", 409)
            code = s.stored.invite
            if not s.stored.open and (
                code is None or body.invite is None or not same_secret(code, body.invite)
            ):
                raise TableError("bad_invite", f"seat {seat} is kept for an invited person", 403)
            refuse_taken([x.stored for x in self.seats], seat, body.name)
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
                sits_from=len(self.game.rounds) + 1,  # a round being played is not theirs
                timeouts=0,
                profile=profile,
                member=member,
            )
            await self.store.save_seat(self.id, seat, taken)
            s.stored = taken
            s.away_since = self.clock.now()
            self.seats_changed()
        await self.first_deal()
        return token

    async def leave_seat(self, seat: int, body: LeaveSeat) -> None:
        s = self.seat(seat)
        async with self.lock:
            if self.seat_of_token(body.token) != seat:
                raise TableError("bad_token", f"that is not the token of seat {seat}", 403)
            # an open seat is open again to anyone; an invited one waits for a new invitation
            code = None if s.stored.open else invite_code()
            left = dataclasses.replace(
                s.stored, token_hash=None, name=f"Seat {seat}", invite=code, timeouts=0,
                profile=None, member=None,
            )  # fmt: skip
            await self.change_seat(seat, left)

    async def change_seat(self, seat: int, new: StoredSeat) -> None:
        """Store a seat's new state and put it in place (under the table's lock): its
        connections become spectators' when its person changed."""
        s = self.seats[seat]
        await self.store.save_seat(self.id, seat, new)
        person_gone = s.stored.token_hash is not None and new.token_hash != s.stored.token_hash
        s.stored = new
        if person_gone:
            for c in list(self.seated):
                if c.seat == seat:
                    self.unseat(c)
                    s.connections -= 1
                    c.send({"type": "left", "seat": seat})
        if self.game.turn == seat:
            self.turn_clock.disarm(self)
        self.seats_changed()

    async def end(self, why: Ended) -> None:
        """End the game now (``why``: "host", "idle"); its standings are final."""
        async with self.lock:
            await self.finish(why)
            self.seats_changed()
        self.let_go()

    async def remove(self) -> None:
        """Take the finished table out of the storage's list (its record is kept) and
        close every connection at it; the registry forgets it."""
        async with self.lock:
            await self.store.remove_table(self.id)
            self.services.release(self)
            self.fanout.forget(self.id)
            self.turn_clock.disarm(self)
            self.waits.stop(self)
            for c in list(self.connections):
                c.close()

    async def first_deal(self) -> None:
        """Once a new table's last seat is taken its first round is dealt before the answer
        (which then shows the table playing)."""
        if not self.started and self.task is not None:
            with contextlib.suppress(Exception):
                await asyncio.shield(self.task)

    # -- moving on by itself (:mod:`.moving`) ----------------------------------------

    def advance(self) -> None:
        """Whatever comes next without a person: deal, a computer's move, a timer."""
        self.moving_on.advance()

    def wait_over(self, kind: WaitKind) -> None:
        self.moving_on.wait_over(kind)

    async def go_on_without(self) -> None:
        await self.moving_on.go_on_without()

    def time_out(self, seat: int, state: int) -> bool:
        return self.moving_on.time_out(seat, state)

    @property
    def task(self) -> asyncio.Task[None] | None:
        """The table's one piece of moving on by itself (a deal, a computer's move)."""
        return self.moving_on.task

    @property
    def due(self) -> Timer | None:
        """The end of the pause before that piece starts (see :mod:`.pacing`)."""
        return self.moving_on.due

    # -- life -----------------------------------------------------------------------

    async def loaded(self) -> None:
        """Just read from the storage at a start: record a round kept but not yet recorded,
        keep that a game is over (kept before games that end were kept as such)."""
        if any(r.finished for r in self.game.rounds):
            await record_finished_rounds(self.store, self)
        if self.end_reached:
            await self.finish_if_over()
            self.let_go()

    def stop(self) -> asyncio.Task[None] | None:
        """The service stops: every timer of the table is cancelled and its connections
        closed; answers its task of moving on, cancelled, for the caller to await."""
        self.turn_clock.close()
        self.waits.close()
        self.fanout.forget(self.id)
        for c in list(self.connections):
            c.close()
        return self.moving_on.stop()


__all__: Sequence[str] = (
    "CLOCK_OUTS",
    "DEFAULT_NAMES",
    "MAX_NAME",
    "QUEUE_LIMIT",
    "SEATS",
    "STATUSES",
    "Connection",
    "Seat",
    "Services",
    "Settings",
    "Table",
    "TableError",
    "chat_json",
    "hash_token",
    "invite_code",
    "rebuild",
    "same_secret",
)
