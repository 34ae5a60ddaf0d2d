"""Tables, seats, tokens and connections: what the service keeps about each table.

A :class:`Table` holds a table's settings, its five seats, the game (rebuilt by
replaying its stored record) and the connections watching it, and answers what
anyone may see of it. The :class:`~domeng.server.hub.Hub` changes tables;
:mod:`~domeng.server.bodies` checks what a new table is created with.
"""

from __future__ import annotations

import asyncio
import hashlib
import hmac
import math
import secrets
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass

from domeng.engine import (
    End,
    Game,
    move,
    parse_tile,
)
from domeng.engine.record import record_of
from domeng.engine.standings import Tally
from domeng.engine.tiles import mask_of

from . import wire
from .clock import Clock, Timer
from .connection import QUEUE_LIMIT, Connection
from .documents import Json
from .players import default_level
from .settings import Settings
from .sharedview import SharedView
from .storage import CHAT_KEPT, StoredChat, StoredSeat, StoredTable

SEATS = 5
DEFAULT_NAMES = ("Andi", "Besse", "Cicci", "Daeng", "Emba")
MAX_NAME = 40
TIME_SLACK = 1e-6
"""A microsecond: a wait that is due is not missed by the rounding of the clock's floats."""
CLOCK_OUTS = 2
"""Moves in a row the turn clock makes for a person before a computer plays on for them."""
STATUSES = ("waiting", "playing", "between", "finished")
"""A table's statuses, as ``GET /api/tables?status=`` filters them."""


class TableError(Exception):
    """A request the service refuses; nothing changed. ``status`` is the HTTP status."""

    def __init__(
        self, code: str, message: str, status: int = 400, *, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        """For ``rate_limited``: the seconds until the request would be let through."""

    def json(self) -> Json:
        d: Json = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            d["retry_after_ms"] = math.ceil(self.retry_after * 1000)
        return d


def hash_token(token: str) -> str:
    # surrogatepass: any text a client sends hashes (and simply matches no seat)
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(kept: str, given: str) -> bool:
    """Whether a secret a client gave is the one kept (in constant time)."""
    return hmac.compare_digest(kept.encode(), given.encode("utf-8", "surrogatepass"))


def invite_code() -> str:
    """A new invitation code, for a seat's link."""
    return secrets.token_urlsafe(9)


@dataclass(slots=True, eq=False)
class Seat:
    stored: StoredSeat
    away_since: float
    """When the seat's person was last seen (the clock's time): at a restart, the restart."""
    connections: int = 0


class Table:
    """One table: its settings, seats, the game (rebuilt from its record) and its connections."""

    def __init__(self, stored: StoredTable, game: Game, clock: Clock) -> None:
        self.id = stored.id
        self.created = stored.created
        self.clock = clock
        self.settings = Settings.from_json(stored.settings)
        self._settings_json = self.settings.json()
        self._links = {
            "self": f"/api/tables/{self.id}",
            "record": f"/api/tables/{self.id}/record",
            "websocket": f"/ws/tables/{self.id}",
        }
        self.seats = [Seat(s, clock.now()) for s in stored.seats]
        self.game = game
        self.deals = stored.deals
        self.host_hash = stored.host_hash
        self.host_seat = stored.host_seat
        self.ended = stored.ended
        """Why the game ended before its end was reached ("host", "idle"), or None."""
        self.stand_ins: list[set[int]] = [
            {i for i, p in enumerate(plays) if p.stand_in} for plays in stored.plays
        ]
        """Per round, the indices of the plays a computer made for a person."""
        self.last_active = max(
            [stored.created]
            + [d.at for d in stored.deals]
            + [p.at for plays in stored.plays for p in plays]
        )
        """When the game last moved (Unix time)."""
        self.chat: deque[Json] = deque((chat_json(c) for c in stored.chat), maxlen=CHAT_KEPT)
        self.seated: set[Connection] = set()
        """The connections of the seats' persons (see :meth:`join`)."""
        self.watching: set[Connection] = set()
        """The spectators' connections, kept apart so that an update to the seats does
        not look through a crowd of them."""
        self.task: asyncio.Task[None] | None = None
        """The table's one piece of moving on by itself (a deal, a computer's move)."""
        self.due: Timer | None = None
        """The end of the pause before that piece starts (see :mod:`.pacing`)."""
        self.lock = asyncio.Lock()
        """Held while a change is checked, stored and applied (see the hub)."""
        self.state = len(game.rounds) + sum(len(r.plays) for r in game.rounds)
        self.deadline: float | None = None
        """When the person in turn runs out of time (the clock's time), or None."""
        self.event_cache: list[Json] = []
        self._shared = SharedView()
        self.cache_round = 0
        self._tally = Tally()
        """The standings' figures of the finished rounds, added as they finish."""
        self._live: tuple[int, Tally, int] | None = None
        """The round in play's number, the finished rounds' tally with its events so far
        added, and how many of them were (a play adds only its own)."""
        self._standings: tuple[tuple[int, ...], list[Json]] | None = None
        """The last standings sent, with the figures they were made from."""

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

    # -- reading --------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [s.stored.name for s in self.seats]

    @property
    def moving(self) -> bool:
        """The table moves on by itself: a deal or a computer's move is on its way."""
        return self.task is not None or self.due is not None

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
    def why_ended(self) -> str | None:
        """ "end", "host", "idle", or None while the game goes on."""
        if self.ended is not None:
            return self.ended
        return "end" if self.end_reached else None

    @property
    def status(self) -> str:
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
        """The seat's person has had no connection for the table's ``replace_after_ms``."""
        s = self.seats[seat]
        if s.connections or self.settings.replace_after_ms is None:
            return False
        now = self.clock.now() if now is None else now
        return now + TIME_SLACK >= s.away_since + self.settings.replace_after_ms / 1000

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

    def events_json(self) -> list[Json]:
        """The current round's events as JSON with their words (cached, append-only)."""
        if not self.game.rounds:
            return []
        r = self.game.round
        if self.cache_round != r.number:
            self.cache_round = r.number
            self.event_cache = []
        n = len(self.event_cache)
        if n < len(r.events):
            self.event_cache.extend(
                wire.events_json(
                    r.events,
                    self.names,
                    round_number=r.number,
                    start=n,
                    stand_ins=self.stand_ins[r.number - 1],
                )
            )
        return self.event_cache

    def clock_json(self) -> Json | None:
        if self.deadline is None or self.game.turn is None:
            return None
        left = max(0.0, self.deadline - self.clock.now())
        return {
            "seat": self.game.turn,
            "left_ms": round(left * 1000),
            "deadline": round(self.clock.wall() + left, 3),
        }

    def standings_json(self) -> list[Json]:
        """The standings so far: the finished rounds' tally, and the round being played."""
        rounds = self.game.rounds
        done = len(rounds) - (1 if self.in_round else 0)
        while self._tally.rounds < done:
            self._tally.add(rounds[self._tally.rounds])
        tally = self._tally
        if self.in_round:
            events = rounds[-1].events
            if self._live is None or self._live[0] != len(rounds):
                self._live = (len(rounds), tally.copy(), 0)
            _, tally, seen = self._live
            if seen < len(events):
                tally.add_events(events[seen:])
                self._live = (len(rounds), tally, len(events))
        titles, stones = self.game.titles, self.game.stones
        key = (*titles, *stones, *tally.figures())
        if self._standings is None or self._standings[0] != key:  # most plays change none
            self._standings = (key, [s.json() for s in tally.ranked(titles, stones)])
        return self._standings[1]

    def public_json(self) -> Json:
        """The table as anyone may see it (the list, the lobby, every update)."""
        now = self.clock.now()
        number = len(self.game.rounds)
        finished_round = self.started and self.game.round.finished
        seats = []
        for n, s in enumerate(self.seats):
            st = s.stored
            if st.kind == "person":
                open_seat = st.token_hash is None
                stand_in = self.computer_level(n, now) is not None
                connected: bool | None = s.connections > 0
                waiting = self.waiting(n)
                ready = st.ready >= number or stand_in
            else:  # a computer's seat: taken, and ready with its level
                open_seat = stand_in = waiting = False
                connected = None
                ready = st.ready >= number or st.level is not None
            seats.append(
                {
                    "seat": n,
                    "kind": st.kind,
                    "level": st.level,
                    "name": st.name,
                    "taken": not open_seat,
                    "open": open_seat and st.open,
                    "invited": open_seat and not st.open,
                    "connected": connected,
                    "waiting": waiting,
                    "stand_in": stand_in,
                    "ready": ready if finished_round else None,
                    "hints": st.hints,
                }
            )
        return {
            "id": self.id,
            "created": self.created,
            "status": self.status,
            "ended": self.why_ended,
            "state": self.state,
            "round": number,
            "turn": self.game.turn,
            "host": self.host_seat,
            "seats": seats,
            "stones": self.game.stones,
            "table": self.game.table,
            "camat": self.game.camat,
            "titles": self.game.titles,
            "clock": self.clock_json(),
            "standings": self.standings_json(),
            **self._settings_json,
            "links": {
                **self._links,
                "join": [
                    f"/?table={self.id}&seat={n}"
                    for n, s in enumerate(self.seats)
                    if s.stored.kind == "person" and s.stored.token_hash is None and s.stored.open
                ],
            },
        }

    def shared_view_json(self) -> Json | None:
        """What every seat's view of the round shows alike (:func:`wire.shared_view_json`),
        for :meth:`view_json` to build several seats' views from; read from the round's
        new events only (:mod:`.sharedview`). The answer itself is not kept: at a
        thousand tables the kept ones were most of the young objects the garbage
        collector looks through."""
        return self._shared.json(self.game.round) if self.game.rounds else None

    def view_json(
        self, seat: int | None, *, with_events: bool, shared: Json | None = None
    ) -> Json | None:
        """What a connection of ``seat`` sees of the round (None before the first deal);
        ``shared``: :meth:`shared_view_json` of this state, when made already."""
        if not self.game.rounds:
            return None
        r = self.game.round
        v = wire.view_json(r, self.view_seat(seat), shared=shared)
        if with_events:
            v["events"] = self.events_json()
        return v

    @property
    def hides_last_round(self) -> bool:
        """A round being played at a table with a person's seat: its deal is nobody's to see."""
        people = any(s.stored.kind == "person" for s in self.seats)
        return people and self.started and not self.game.round.finished

    def record_json(self, *, finished_rounds: bool = False) -> Json:
        """The game so far as a ``domeng.record/1`` document (``finished_rounds``: its
        finished rounds alone).

        A record holds every deal, so while a round is being played at a table
        with a person's seat that round is left out (it would show every hand);
        at a table of computer players the record goes up to the last play.
        """
        if not (self.hides_last_round or (finished_rounds and self.in_round)):
            return record_of(self.game, self.names, stand_ins=self.stand_ins)
        shown = Game(self.game.variants)
        shown.rounds = self.game.rounds[:-1]
        return record_of(shown, self.names, stand_ins=self.stand_ins[:-1])


def chat_json(c: StoredChat) -> Json:
    said: Json = {"type": "chat", "seat": c.seat, "name": c.name}
    said["phrase" if c.phrase is not None else "text"] = (
        c.phrase if c.phrase is not None else c.text
    )
    said["at"] = c.at
    return said


def rebuild(stored: StoredTable) -> Game:
    """Replay a stored table's deals and plays into a game."""
    settings = Settings.from_json(stored.settings)
    game = Game(settings.variants)
    for d, plays in zip(stored.deals, stored.plays, strict=True):
        hands = [mask_of(parse_tile(t) for t in h) for h in d.hands]
        game.start_round(hands, mask_of(parse_tile(t) for t in d.unused))
        for p in plays:
            if game.turn != p.seat:
                raise ValueError(f"stored play out of turn in round {len(game.rounds)}")
            game.play(move(parse_tile(p.tile), End.parse(p.end)))
    return game


__all__: Sequence[str] = (
    "QUEUE_LIMIT",
    "STATUSES",
    "Connection",
    "Seat",
    "Settings",
    "Table",
    "TableError",
    "hash_token",
    "rebuild",
)
