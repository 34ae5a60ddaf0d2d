"""The hub: every table, changed one step at a time on the event loop.

All of the :class:`Hub`'s methods run on the event loop (one thread), so a
table changes one step at a time: a play is checked (sender, turn, state number,
legality), applied to the engine, stored, acknowledged, and then every
connection at the table is sent what its seat may see. Computer players choose
in workers (:mod:`domeng.server.players`) and their moves go through the same
path.

A table moves on by itself through :meth:`Hub.advance`, called after every
change: it deals the first round once every person's seat is taken, lets a
computer player (or a stand-in for an absent person) move after the table's
pace, and deals the next round once the people at the table are ready.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable

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

from .players import BotRunner
from .storage import Storage, StoredDeal, StoredPlay, StoredTable
from .tables import (
    SEATS,
    Connection,
    Json,
    Seat,
    Table,
    TableError,
    check_name,
    hash_token,
    parse_new_table,
    rebuild,
)

log = logging.getLogger("domeng.server")


class Hub:
    """Every table, its storage and its computer players; see the module docstring."""

    def __init__(self, storage: Storage, runner: BotRunner | None = None) -> None:
        self.storage = storage
        self.runner = runner or BotRunner()
        self.tables: dict[str, Table] = {}
        self._timers: set[asyncio.TimerHandle] = set()
        self._wakes: dict[tuple[str, int], asyncio.TimerHandle] = {}

    # -- life -----------------------------------------------------------------

    def load(self) -> None:
        """Rebuild every stored table by replaying its record, then let each move on."""
        for stored in self.storage.load_tables():
            try:
                game = rebuild(stored)
            except (ValueError, KeyError, TypeError) as e:
                log.warning("table %s could not be replayed and is left out: %s", stored.id, e)
                continue
            self.tables[stored.id] = Table(stored, game)
        for t in self.tables.values():
            self.advance(t)

    async def close(self) -> None:
        for h in self._timers:
            h.cancel()
        tasks = [t.task for t in self.tables.values() if t.task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(BaseException):
                await task
        for t in self.tables.values():
            for c in list(t.connections):
                c.close()
        self.runner.close()
        self.storage.close()

    # -- tables and seats -------------------------------------------------------

    def table(self, table_id: str) -> Table:
        t = self.tables.get(table_id)
        if t is None:
            raise TableError("unknown_table", f"there is no table {table_id!r}", 404)
        return t

    def create_table(self, body: object) -> tuple[Table, dict[int, str]]:
        """A new table from a ``POST /api/tables`` body; persons named in it get their tokens."""
        settings, seats = parse_new_table(body)
        tokens: dict[int, str] = {}
        if isinstance(body, dict):
            for n, s in enumerate(body["seats"]):
                if s.get("kind") == "person" and "name" in s:
                    tokens[n] = secrets.token_urlsafe(24)
                    seats[n].token_hash = hash_token(tokens[n])
        table_id = secrets.token_hex(5)
        while table_id in self.tables:
            table_id = secrets.token_hex(5)
        stored = StoredTable(table_id, time.time(), settings.json(), seats)
        self.storage.create_table(stored)
        t = Table(stored, Game(settings.variants))
        self.tables[table_id] = t
        self.advance(t)
        return t, tokens

    def take_seat(self, table_id: str, seat: int, body: object) -> str:
        t = self.table(table_id)
        if not isinstance(body, dict) or "name" not in body:
            raise TableError("missing_field", 'the body must be {"name": "..."}', 422)
        extra = set(body) - {"name"}
        if extra:
            raise TableError("bad_body", f"unknown field {sorted(extra)[0]!r}", 422)
        name = check_name(body["name"], "name")
        s = self._seat(t, seat)
        if s.stored.kind != "person":
            raise TableError("computer_seat", f"seat {seat} is a computer player's", 409)
        if s.stored.token_hash is not None:
            raise TableError("seat_taken", f"seat {seat} is already taken", 409)
        if t.finished:
            raise TableError("game_over", "this game is over", 409)
        token = secrets.token_urlsafe(24)
        s.stored.token_hash = hash_token(token)
        s.stored.name = name
        s.stored.ready = 0
        s.away_since = time.monotonic()
        self._save_seat(t, seat)
        self._seats_changed(t)
        return token

    def leave_seat(self, table_id: str, seat: int, body: object) -> None:
        t = self.table(table_id)
        s = self._seat(t, seat)
        if not isinstance(body, dict) or not isinstance(body.get("token"), str):
            raise TableError("missing_token", 'the body must be {"token": "..."}', 401)
        if t.seat_of_token(body["token"]) != seat:
            raise TableError("bad_token", f"that is not the token of seat {seat}", 403)
        s.stored.token_hash = None
        s.stored.name = f"Seat {seat}"
        self._save_seat(t, seat)
        for c in list(t.connections):
            if c.seat == seat:
                c.seat = None
                s.connections -= 1
                c.send({"type": "left", "seat": seat})
        self._seats_changed(t)

    def _seat(self, t: Table, seat: int) -> Seat:
        if not 0 <= seat < SEATS:
            raise TableError("unknown_seat", f"there is no seat {seat} (seats are 0 to 4)", 404)
        return t.seats[seat]

    def _save_seat(self, t: Table, seat: int) -> None:
        self.storage.save_seat(t.id, seat, t.seats[seat].stored)

    def _seats_changed(self, t: Table) -> None:
        t.event_cache = []  # names may have changed: the words are rebuilt
        t.cache_round = 0
        self.broadcast(t, events=[], kind="seats")
        self.advance(t)

    # -- connections ------------------------------------------------------------

    def hello(self, t: Table, c: Connection, token: object) -> None:
        """Bind a connection to the seat of ``token`` (a spectator when None)."""
        if c.hello:
            raise TableError("already_hello", "this connection has already said hello")
        seat: int | None = None
        if token is not None:
            if not isinstance(token, str):
                raise TableError("bad_field", "token must be a text")
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
                s.away_since = time.monotonic()
            self._seats_changed(t)

    def state_message(self, t: Table, seat: int | None) -> Json:
        return {
            "type": "state",
            "state": t.state,
            "table": t.public_json(),
            "view": t.view_json(seat, with_events=True),
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

    def play(self, t: Table, c: Connection, msg: Json) -> None:
        if c.seat is None:
            raise TableError("not_seated", "a spectator cannot play; say hello with a seat token")
        seat = c.seat
        state = msg.get("state")
        if "state" not in msg or "tile" not in msg:
            missing = "state" if "state" not in msg else "tile"
            raise TableError("missing_field", f"a play needs {missing!r}")
        if not isinstance(state, int) or isinstance(state, bool):
            raise TableError("bad_field", "state must be a whole number")
        if state != t.state:
            raise TableError(
                "stale_state", f"the table has moved on: state is {t.state}, not {state}"
            )
        if not t.started or t.game.round.finished:
            raise TableError("no_round", "no round is being played")
        if t.game.turn != seat:
            raise TableError("not_your_turn", f"it is seat {t.game.turn}'s turn, not yours")
        tile_text, end_text = msg["tile"], msg.get("end")
        if not isinstance(tile_text, str):
            raise TableError("bad_tile", 'tile must be written like "6-4"')
        try:
            tile_ = parse_tile(tile_text)
        except ValueError as e:
            raise TableError("bad_tile", str(e)) from None
        legal = t.game.legal_moves()
        if end_text is None:
            ends = [m for m in legal if m.tile == tile_]
            if len(ends) > 1:
                raise TableError("end_required", f"{tile_text} fits both ends: say which")
            m = ends[0] if ends else move(tile_)
        else:
            if not isinstance(end_text, str):
                raise TableError("bad_end", "end must be 'left' or 'right'")
            try:
                m = move(tile_, End.parse(end_text))
            except ValueError as e:
                raise TableError("bad_end", str(e)) from None
        events = self.apply(t, seat, m)
        c.send({"type": "ok", "reply_to": msg.get("id"), "state": t.state})
        self.broadcast(t, events=events)
        self.advance(t)

    def ready(self, t: Table, c: Connection, msg: Json) -> None:
        if c.seat is None:
            raise TableError("not_seated", "a spectator has no seat to be ready in")
        if not t.started:
            raise TableError("no_round", "no round has been dealt yet")
        if not t.game.round.finished:
            raise TableError("round_not_over", "the round is still being played")
        if t.finished:
            raise TableError("game_over", "this game is over")
        s = t.seats[c.seat]
        s.stored.ready = len(t.game.rounds)
        self._save_seat(t, c.seat)
        c.send({"type": "ok", "reply_to": msg.get("id"), "state": t.state})
        self._seats_changed(t)

    def apply(self, t: Table, seat: int, m: Move) -> list[Json]:
        """Apply a move and store it; answers its events, for :meth:`broadcast` (the caller
        acknowledges first, then lets everyone hear of it)."""
        r = t.game.round
        before = len(r.events)
        try:
            r.play(m)
        except IllegalMoveError as e:
            raise TableError("illegal", str(e)) from None
        played = r.plays[-1][1]
        try:
            self.storage.add_play(
                t.id,
                r.number,
                len(r.plays) - 1,
                StoredPlay(seat, tile_name(played.tile), played.end.word),
            )
        except Exception:
            log.exception("could not store a play at table %s", t.id)
            self._reload(t)
            raise TableError("storage", "the move could not be stored; try again", 503) from None
        t.state += 1
        return t.events_json()[before:]

    def _reload(self, t: Table) -> None:
        for stored in self.storage.load_tables():
            if stored.id == t.id:
                t.game = rebuild(stored)
                t.deals = stored.deals
                t.state = len(t.game.rounds) + sum(len(r.plays) for r in t.game.rounds)
                t.cache_round = 0

    def deal(self, t: Table) -> bool:
        """Deal the next round (stored first); False when it could not be stored."""
        hands, unused = deal(random.Random(secrets.randbits(128)))
        d = StoredDeal([tile_names(h) for h in hands], tile_names(unused))
        try:
            self.storage.add_deal(t.id, len(t.game.rounds) + 1, d)
        except Exception:
            log.exception("could not store a deal at table %s", t.id)
            self._retry_later(t)
            return False
        t.deals.append(d)
        t.game.start_round(hands, unused)
        t.state += 1
        self.broadcast(t, events=t.events_json())
        return True

    def _retry_later(self, t: Table, delay: float = 1.0) -> None:
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle

        def retry() -> None:
            self._timers.discard(handle)
            self.advance(t)

        handle = loop.call_later(delay, retry)
        self._timers.add(handle)

    # -- moving on by itself -----------------------------------------------------------

    def advance(self, t: Table) -> None:
        """Whatever comes next at ``t`` without a person: deal, a computer's move, a timer."""
        if t.finished or t.task is not None:
            return
        now = time.monotonic()
        if not t.started:
            everyone = all(s.stored.kind == "computer" or s.stored.token_hash for s in t.seats)
            if everyone and self.deal(t):
                self.advance(t)
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
            persons = [s for s in t.seats if s.stored.kind == "person"]
            if any(not t.stood_in(n) for n, s in enumerate(t.seats) if s in persons):
                if self.deal(t):
                    self.advance(t)
            else:
                t.task = asyncio.get_running_loop().create_task(self._deal_later(t, t.state))
            return
        seat = r.turn
        assert seat is not None
        level = t.computer_level(seat)
        if level is not None:
            t.task = asyncio.get_running_loop().create_task(
                self._computer_move(t, seat, level, t.state)
            )
        else:
            self._wake_when_away(t, seat, now)

    def _wake_when_away(self, t: Table, seat: int, now: float) -> None:
        """Look again when an absent person's time is up (their stand-in then plays)."""
        s = t.seats[seat]
        after = t.settings.replace_after_ms
        key = (t.id, seat)
        if s.connections or after is None or t.settings.stand_in is None or key in self._wakes:
            return
        delay = max(0.0, s.away_since + after / 1000 - now) + 0.001

        def wake() -> None:
            self._timers.discard(handle)
            del self._wakes[key]
            self._seats_changed(t)

        handle = asyncio.get_running_loop().call_later(delay, wake)
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

    async def _deal_later(self, t: Table, state: int) -> None:
        try:
            await asyncio.sleep(t.settings.pace_ms / 1000)
        finally:
            t.task = None
        if t.state == state:
            if self._unwatched(t):
                return  # they left during the pause: advance() runs again when one is back
            if not self.deal(t):
                return
        self.advance(t)

    async def _computer_move(self, t: Table, seat: int, level: str, state: int) -> None:
        m: Move | None = None
        try:
            await asyncio.sleep(t.settings.pace_ms / 1000)
            if t.state == state and t.computer_level(seat) == level:
                v = t.game.view(seat)
                seed = hash((t.seats[seat].stored.seed, t.state)) & (2**63 - 1)
                try:
                    m = await self.runner.choose(level, seed, v)
                except Exception:
                    log.exception("computer player %s failed at table %s", level, t.id)
                    m = v.legal_moves[0]
        finally:
            t.task = None
        if m is not None and t.state == state and t.computer_level(seat) == level:
            try:
                events = self.apply(t, seat, m)
            except TableError as e:
                if e.code != "illegal":  # not stored: try again in a moment
                    self._retry_later(t)
                    return
                log.error("computer player %s at table %s: %s", level, t.id, e.message)
                events = self.apply(t, seat, t.game.legal_moves()[0])
            self.broadcast(t, events=events)
        self.advance(t)


def run_safely(action: Callable[[], None], c: Connection, reply_to: object) -> None:
    """Run an action for a connection; a refusal becomes an ``error`` message to it alone."""
    try:
        action()
    except TableError as e:
        c.send({"type": "error", **e.json(), "reply_to": reply_to})
    except Exception:  # a fault of the service, not of the request: say so, keep serving
        log.exception("unexpected failure answering a message")
        message = "the service failed to answer this message"
        c.send({"type": "error", "code": "internal", "message": message, "reply_to": reply_to})
