"""What the service stores, and the interface every storage backend implements.

What is stored is the record of each game (its deals and its plays, as
``domeng.record/1`` describes them) plus the table's settings and seats. Never a
pickled object: the service rebuilds every game by replaying its record.

:class:`Storage` is the interface. Its methods are plain (blocking) calls; the
service never makes them on its event loop but through
:class:`~domeng.server.storage.writer.StorageWriter`, one thread that runs them
in order. The contract every backend keeps is written as a test suite,
``tests/server/test_storage_contract.py``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .history import (
    HeadToHead,
    PlayedGame,
    RecordedRound,
    SeriesPoint,
    StoredProfile,
)

CHAT_KEPT = 100
"""How many of a table's last chat messages :meth:`Storage.load_tables` gives back."""


class StorageError(Exception):
    """A write the storage refuses (a table, deal or play stored twice, or one for a
    table it does not hold); nothing was stored."""


@dataclass(slots=True)
class StoredSeat:
    """One seat as stored: who sits there and the hash of their seat token."""

    kind: str
    """``"person"`` or ``"computer"``."""
    level: str | None
    """The computer player's name (``"basic"``, ...) for a computer seat."""
    name: str
    token_hash: str | None = None
    """SHA-256 of the person's seat token; None while the seat is open."""
    ready: int = 0
    """The number of the last finished round after which this person said they are ready."""
    seed: int = 0
    """The seed for this seat's computer player (the seat's own or its stand-in)."""
    invite: str | None = None
    """The invitation code an open person's seat asks for (None: none). Kept as it is,
    not as a hash, so that the host can be shown the seat's link again."""
    open: bool = False
    """An open person's seat anyone may take (no invitation)."""
    sits_from: int = 0
    """The round from which the seat's person plays it (a computer plays it before)."""
    timeouts: int = 0
    """Moves in a row the turn clock had a computer make for this seat's person."""
    profile: str | None = None
    """The profile of the seat's person, whose results its rounds count for (None: none;
    a computer seat counts for its level's profile)."""
    hints: int = 0
    """How many of the coach's hints this seat's person asked for (the final standings
    show it)."""


@dataclass(slots=True)
class StoredDeal:
    hands: list[list[str]]
    unused: list[str]
    at: float = 0.0
    """When it was dealt (Unix time; 0 when not known)."""


@dataclass(slots=True)
class StoredPlay:
    seat: int
    tile: str
    end: str
    stand_in: bool = False
    """A computer made this play for the seat's person."""
    at: float = 0.0
    """When it was played (Unix time; 0 when not known)."""


@dataclass(slots=True)
class StoredChat:
    """One message said at a table."""

    seat: int | None
    """The speaker's seat (None: a spectator)."""
    name: str
    text: str | None
    phrase: str | None
    at: float


@dataclass(slots=True)
class StoredTable:
    """Everything the service keeps about a table."""

    id: str
    created: float
    settings: dict[str, Any]
    """Variants, pace, stand-in level, the end of the game (JSON-ready)."""
    seats: list[StoredSeat]
    deals: list[StoredDeal] = field(default_factory=list)
    plays: list[list[StoredPlay]] = field(default_factory=list)
    """The plays of each round, in order (one list per deal)."""
    host_hash: str | None = None
    """SHA-256 of the host's token."""
    host_seat: int | None = None
    """The seat the host took when creating the table (None: none)."""
    ended: str | None = None
    """Why the game ended: "end", "host", "idle" (None: it goes on)."""
    chat: list[StoredChat] = field(default_factory=list)
    """The last messages said at the table (at most :data:`CHAT_KEPT` are loaded)."""


class Storage(ABC):
    """The small interface the table service stores through.

    Every write is kept before the method returns (a backend that keeps data on
    disk has committed it), and a write that raises has kept nothing. A write the
    storage refuses raises :class:`StorageError`; any other exception is a fault
    of the storage itself (a full disk, a lost connection).

    Inside :meth:`batch`, writes are kept when the batch ends instead (the service's
    writer gathers the calls waiting for it into one batch: one commit for many).
    """

    on_loop: bool = False
    """Its writes wait on no disk nor network (or only rarely and briefly), so the service
    makes them on its event loop, and only its reads in a thread
    (:class:`~domeng.server.storage.writer.StorageWriter`)."""

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Keep the writes of the calls made inside together, when the block ends: each
        call still keeps all or nothing (one that raises leaves the others' writes in
        place), and if the batch cannot be kept at its end nothing of it is. This
        default keeps each write at once, as outside a batch."""
        yield

    @abstractmethod
    def create_table(self, table: StoredTable) -> None:
        """Store a new table (its settings and seats, and any deals and plays it has)."""

    @abstractmethod
    def load_tables(self) -> list[StoredTable]:
        """Every table in progress (not ended, not removed), oldest first (by ``created``,
        then ``id``), with its deals, plays and last :data:`CHAT_KEPT` chat messages."""

    @abstractmethod
    def load_table(self, table_id: str) -> StoredTable | None:
        """One table, ended or not (None when there is none, or it was removed)."""

    @abstractmethod
    def finished_tables(
        self, limit: int, after: str | None = None, *, newest: bool = False
    ) -> list[dict[str, Any]]:
        """The summaries of the ended tables (as :meth:`end_table` kept them), oldest first
        (``newest``: newest first), at most ``limit``, from the one after the table
        ``after`` on (which must be an ended table's id; StorageError otherwise)."""

    @abstractmethod
    def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
        """Replace one seat."""

    @abstractmethod
    def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
        """Store round ``number``'s deal (rounds are numbered from 1)."""

    @abstractmethod
    def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        """Store the ``index``-th play (from 0) of round ``number``."""

    @abstractmethod
    def end_table(self, table_id: str, why: str, summary: dict[str, Any]) -> None:
        """Mark a game ended (``why``: "end", "host" or "idle"), with the ``summary`` lists
        of finished tables show (the table as anyone may see it, at its end)."""

    @abstractmethod
    def remove_table(self, table_id: str) -> None:
        """Take a table out of :meth:`load_tables` (its record stays stored)."""

    @abstractmethod
    def add_chat(self, table_id: str, message: StoredChat) -> None:
        """Keep a message said at a table."""

    # -- players who come back (storage/history.py) -------------------------------

    @abstractmethod
    def create_profile(self, profile: StoredProfile) -> None:
        """Store a new profile (StorageError when its id, name in any case, or token is
        taken)."""

    @abstractmethod
    def profiles(self) -> list[StoredProfile]:
        """Every profile, people first, then by name (case aside)."""

    @abstractmethod
    def profile(
        self, *, id: str | None = None, name: str | None = None, token: str | None = None
    ) -> StoredProfile | None:
        """The profile with that id, that name (case aside) or that token."""

    @abstractmethod
    def recorded_rounds(self, game: str) -> int:
        """How many rounds of ``game`` are recorded (0: none)."""

    @abstractmethod
    def record_round(self, done: RecordedRound) -> None:
        """Record a finished round in one write: each part's figures are added to its
        profile's, its game's and its head-to-head rows, and its rating set. The rounds of
        a game are recorded in order, each once (StorageError otherwise, or for a part
        whose profile is not stored)."""

    @abstractmethod
    def played_games(self, profile: str, limit: int | None = None) -> list[PlayedGame]:
        """The games ``profile`` played, newest first (by their last round), at most
        ``limit`` (None: all)."""

    @abstractmethod
    def series(self, profile: str, points: int, moving: int) -> list[SeriesPoint]:
        """The charts of ``profile``'s page, oldest first: after every ``step``-th game
        (``step`` the fewest that keeps to ``points``; the last game always), its rating
        and the sums over that game and the ``moving - 1`` before it."""

    @abstractmethod
    def head_to_head(self, profile: str) -> list[HeadToHead]:
        """Every opponent ``profile`` played rounds with, most rounds first."""

    @abstractmethod
    def leaderboard(self, min_games: int) -> list[StoredProfile]:
        """The profiles with at least ``min_games`` games, highest rating (mu) first."""

    @abstractmethod
    def game_record(self, game: str) -> str | None:
        """A terminal game's record text, as its last recorded round left it."""

    @abstractmethod
    def close(self) -> None:
        """Release the storage."""
