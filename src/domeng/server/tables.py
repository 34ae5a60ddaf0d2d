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
import json
from collections.abc import Sequence
from dataclasses import dataclass, field

from domeng.engine import (
    End,
    Game,
    Variants,
    move,
    parse_tile,
)
from domeng.engine.record import record_of
from domeng.engine.tiles import mask_of

from . import wire
from .clock import Clock
from .documents import Json
from .storage import StoredSeat, StoredTable

SEATS = 5
DEFAULT_NAMES = ("Andi", "Besse", "Cicci", "Daeng", "Emba")
MAX_NAME = 40
MAX_PACE_MS = 60_000
DEFAULT_PACE_MS = 800
DEFAULT_REPLACE_AFTER_MS = 30_000
QUEUE_LIMIT = 512
"""Messages waiting for a slow connection before it is closed."""
TIME_SLACK = 1e-6
"""A microsecond: a wait that is due is not missed by the rounding of the clock's floats."""
STATUSES = ("waiting", "playing", "between", "finished")
"""A table's statuses, as ``GET /api/tables?status=`` filters them."""


class TableError(Exception):
    """A request the service refuses; nothing changed. ``status`` is the HTTP status."""

    def __init__(self, code: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status

    def json(self) -> Json:
        return {"code": self.code, "message": self.message}


def hash_token(token: str) -> str:
    # surrogatepass: any text a client sends hashes (and simply matches no seat)
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


@dataclass(slots=True)
class Settings:
    """What a table is created with."""

    variants: Variants = field(default_factory=Variants)
    pace_ms: int = DEFAULT_PACE_MS
    stand_in: str | None = None
    """The computer player that plays for an absent person (None: wait for them)."""
    replace_after_ms: int | None = DEFAULT_REPLACE_AFTER_MS
    """How long a person may be away before the stand-in plays for them."""
    end_rounds: int | None = None
    end_titles: int | None = None

    def json(self) -> Json:
        return {
            "variants": self.variants.to_json(),
            "pace_ms": self.pace_ms,
            "stand_in": self.stand_in,
            "replace_after_ms": self.replace_after_ms,
            "end": (
                {"rounds": self.end_rounds}
                if self.end_rounds is not None
                else {"titles": self.end_titles}
                if self.end_titles is not None
                else None
            ),
        }

    @classmethod
    def from_json(cls, d: Json) -> Settings:
        end = d.get("end") or {}
        return cls(
            variants=Variants.from_json(d.get("variants", {})),
            pace_ms=int(d.get("pace_ms", DEFAULT_PACE_MS)),
            stand_in=d.get("stand_in"),
            replace_after_ms=d.get("replace_after_ms"),
            end_rounds=end.get("rounds"),
            end_titles=end.get("titles"),
        )


class Connection:
    """One WebSocket at a table: its seat (None for a spectator) and its outbox.

    Messages are queued without waiting and written in order by the socket's
    writer; a connection that falls ``QUEUE_LIMIT`` messages behind is closed.
    """

    def __init__(self) -> None:
        self.seat: int | None = None
        self.hello = False
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000
        """The WebSocket close code the writer closes with (1008 for one too far behind)."""

    def send(self, message: Json) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= QUEUE_LIMIT:
            # It sends faster than it reads its answers: say why, then close.
            text = f"this connection fell {QUEUE_LIMIT} messages behind and is closed"
            self._put(
                {"type": "error", "code": "too_far_behind", "message": text, "reply_to": None}
            )
            self.close_code = 1008
            self.close()
            return
        self._put(message)

    def _put(self, message: Json) -> None:
        self.outbox.put_nowait(json.dumps(message, separators=(",", ":"), allow_nan=False))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)


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
        self.seats = [Seat(s, clock.now()) for s in stored.seats]
        self.game = game
        self.deals = stored.deals
        self.connections: set[Connection] = set()
        self.task: asyncio.Task[None] | None = None
        """The table's one piece of moving on by itself (a deal, a computer's move)."""
        self.lock = asyncio.Lock()
        """Held while a change is checked, stored and applied (see the hub)."""
        self.state = len(game.rounds) + sum(len(r.plays) for r in game.rounds)
        self.event_cache: list[Json] = []
        self.cache_round = 0

    # -- reading --------------------------------------------------------------

    @property
    def names(self) -> list[str]:
        return [s.stored.name for s in self.seats]

    @property
    def started(self) -> bool:
        return bool(self.game.rounds)

    @property
    def finished(self) -> bool:
        if not self.game.rounds or not self.game.round.finished:
            return False
        s = self.settings
        if s.end_rounds is not None and len(self.game.rounds) >= s.end_rounds:
            return True
        return s.end_titles is not None and max(self.game.titles) >= s.end_titles

    @property
    def status(self) -> str:
        """One of :data:`STATUSES`."""
        if self.finished:
            return "finished"
        if not self.started:
            return "waiting"
        return "between" if self.game.round.finished else "playing"

    def stood_in(self, seat: int, now: float | None = None) -> bool:
        """Whether the stand-in computer player plays for the person of ``seat`` now."""
        s = self.seats[seat]
        if s.stored.kind != "person" or self.settings.stand_in is None or not self.started:
            return False
        if s.stored.token_hash is None:
            return True
        if s.connections or self.settings.replace_after_ms is None:
            return False
        now = self.clock.now() if now is None else now
        return now + TIME_SLACK >= s.away_since + self.settings.replace_after_ms / 1000

    def computer_level(self, seat: int) -> str | None:
        """The computer player that moves for ``seat`` now, or None when a person does."""
        s = self.seats[seat].stored
        if s.kind == "computer":
            return s.level
        return self.settings.stand_in if self.stood_in(seat) else None

    def seat_of_token(self, token: str) -> int | None:
        h = hash_token(token)
        for n, s in enumerate(self.seats):
            th = s.stored.token_hash
            if th is not None and hmac.compare_digest(th, h):
                return n
        return None

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
                wire.events_json(r.events, self.names, round_number=r.number, start=n)
            )
        return self.event_cache

    def public_json(self) -> Json:
        """The table as anyone may see it (the list, the lobby, every update)."""
        now = self.clock.now()
        number = len(self.game.rounds)
        finished_round = self.started and self.game.round.finished
        seats = []
        for n, s in enumerate(self.seats):
            st = s.stored
            person = st.kind == "person"
            seats.append(
                {
                    "seat": n,
                    "kind": st.kind,
                    "level": st.level,
                    "name": st.name,
                    "taken": st.token_hash is not None if person else True,
                    "connected": s.connections > 0 if person else None,
                    "stand_in": self.stood_in(n, now),
                    "ready": (
                        (st.ready >= number or self.computer_level(n) is not None)
                        if finished_round
                        else None
                    ),
                }
            )
        return {
            "id": self.id,
            "created": self.created,
            "status": self.status,
            "state": self.state,
            "round": number,
            "turn": self.game.turn,
            "seats": seats,
            "stones": self.game.stones,
            "table": self.game.table,
            "camat": self.game.camat,
            "titles": self.game.titles,
            **self.settings.json(),
            "links": {
                "self": f"/api/tables/{self.id}",
                "record": f"/api/tables/{self.id}/record",
                "websocket": f"/ws/tables/{self.id}",
                "join": [
                    f"/?table={self.id}&seat={n}"
                    for n, s in enumerate(self.seats)
                    if s.stored.kind == "person" and s.stored.token_hash is None
                ],
            },
        }

    def view_json(self, seat: int | None, *, with_events: bool) -> Json | None:
        if not self.game.rounds:
            return None
        v = wire.view_json(self.game.round, seat, self.names, events=None)
        if with_events:
            v["events"] = self.events_json()
        return v

    @property
    def hides_last_round(self) -> bool:
        """A round being played at a table with a person's seat: its deal is nobody's to see."""
        people = any(s.stored.kind == "person" for s in self.seats)
        return people and self.started and not self.game.round.finished

    def record_json(self) -> Json:
        """The game so far as a ``domeng.record/1`` document.

        A record holds every deal, so while a round is being played at a table
        with a person's seat that round is left out (it would show every hand);
        at a table of computer players the record goes up to the last play.
        """
        if not self.hides_last_round:
            return record_of(self.game, self.names)
        shown = Game(self.game.variants)
        shown.rounds = self.game.rounds[:-1]
        return record_of(shown, self.names)


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
    "STATUSES",
    "Connection",
    "Seat",
    "Settings",
    "Table",
    "TableError",
    "hash_token",
    "rebuild",
)
