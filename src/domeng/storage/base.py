"""What the service stores, and the interface every storage backend implements.

What is stored is the record of each game (its deals and its plays, as
``domeng.record/1`` describes them) plus the table's settings and seats. Never a
pickled object: the service rebuilds every game by replaying its record.

:class:`Storage` is the interface. Its methods are plain (blocking) calls; the
service never makes them on its event loop but through
:class:`~domeng.storage.writer.StorageWriter`, one thread that runs them
in order. The contract every backend keeps is written as a test suite,
``tests/server/test_storage_contract.py``.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from .club import (
    AuditEntry,
    ChatReport,
    ClubStorage,
    NoClub,
    StoredGuesses,
    StoredLink,
    StoredMember,
    StoredSession,
)
from .history import (
    HeadToHead,
    HistoryStorage,
    PlayedGame,
    RecordedRound,
    SeriesPoint,
    StoredProfile,
)

CHAT_KEPT = 100
"""How many of a table's last chat messages are kept (:meth:`Storage.add_chat` forgets
the older ones) and :meth:`Storage.load_tables` gives back."""


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
    member: str | None = None
    """In a club, the member or guest the seat's token was handed to (they took the
    seat, or named it at a table they made): their suspension passes the seat to the
    stand-in (None: no member's, or not a club)."""


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


@dataclass(slots=True)
class StoredTournament:
    """A club tournament (``domeng.server.tournaments``): its id, when it was made, and
    its whole state as one JSON document, saved whole at every change (a tournament is
    a few kilobytes, changed a few times an evening). What its tables' records say (who
    won, what each seat received) is read from them, never copied here."""

    id: str
    created: float
    doc: dict[str, Any]
    version: int = 0
    """How many changes of it are kept (0: a new one, not kept yet). A change is made
    from the version read: :meth:`Storage.save_tournament` keeps it only if it is still
    the kept one."""


class TournamentChanged(StorageError):
    """A tournament's change made from a version that is no longer the kept one: another
    change (another process's, at the same moment) was kept first; nothing of this one
    was. Read it again, and decide again."""


class Storage(ABC):
    """The small interface the table service stores through.

    Every write is kept before the method returns (a backend that keeps data on
    disk has committed it), and a write that raises has kept nothing. A write the
    storage refuses raises :class:`StorageError`; any other exception is a fault
    of the storage itself (a full disk, a lost connection).

    Inside :meth:`batch`, writes are kept when the batch ends instead (the service's
    writer gathers the calls waiting for it into one batch: one commit for many).

    A backend holds two parts, its club (:class:`~domeng.storage.club.ClubStorage`) and
    its players who come back (:class:`~domeng.storage.history.HistoryStorage`); the
    methods of those parts, written there with their contracts, are answered here by
    the part.
    """

    on_loop: bool = False
    """Its writes wait on no disk nor network (or only rarely and briefly), so the service
    makes them on its event loop, and only its reads in a thread
    (:class:`~domeng.storage.writer.StorageWriter`)."""

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

    def tables_in_progress(self) -> list[str]:
        """The ids of the tables :meth:`load_tables` would read, in its order: what a
        service reads first at a start, to read the tables themselves a few at a time
        (:meth:`load_some_tables`). This default reads them whole; a backend answers
        from its list of tables alone."""
        return [t.id for t in self.load_tables()]

    def load_some_tables(self, ids: Sequence[str]) -> list[StoredTable]:
        """Those of the tables ``ids`` that are in progress, read as :meth:`load_tables`
        reads each (in no set order). This default reads one at a time."""
        found = (self.load_table(i) for i in ids)
        return [t for t in found if t is not None and t.ended is None]

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
        """Keep a message said at a table: its last :data:`CHAT_KEPT` are kept, the one
        before them is forgotten."""

    # -- the parts a backend holds: its club and its players who come back ----------
    # (their methods' contracts: club.ClubStorage, history.HistoryStorage)

    _club: ClubStorage | None = None
    """The backend's club part (None: it keeps no club, and answers :class:`NoClub`)."""
    _history: HistoryStorage | None = None
    """The backend's part for players who come back (every backend of Domeng holds one;
    a test's wrapper that holds none answers these calls itself)."""

    def _kept_club(self) -> ClubStorage:
        if self._club is None:
            raise NoClub(f"{type(self).__name__} keeps no club")
        return self._club

    def _kept_history(self) -> HistoryStorage:
        if self._history is None:
            raise NotImplementedError(f"{type(self).__name__} keeps no history")
        return self._history

    def create_profile(self, profile: StoredProfile) -> None:
        self._kept_history().create_profile(profile)

    def profiles(self, after: str | None = None, limit: int | None = None) -> list[StoredProfile]:
        return self._kept_history().profiles(after, limit)

    def profile(
        self, *, id: str | None = None, name: str | None = None, token: str | None = None
    ) -> StoredProfile | None:
        return self._kept_history().profile(id=id, name=name, token=token)

    def recorded_rounds(self, game: str) -> int:
        return self._kept_history().recorded_rounds(game)

    def record_round(self, done: RecordedRound) -> None:
        self._kept_history().record_round(done)

    def played_games(self, profile: str, limit: int | None = None) -> list[PlayedGame]:
        return self._kept_history().played_games(profile, limit)

    def series(self, profile: str, points: int, moving: int) -> list[SeriesPoint]:
        return self._kept_history().series(profile, points, moving)

    def head_to_head(self, profile: str) -> list[HeadToHead]:
        return self._kept_history().head_to_head(profile)

    def leaderboard(self, min_games: int) -> list[StoredProfile]:
        return self._kept_history().leaderboard(min_games)

    def game_record(self, game: str) -> str | None:
        return self._kept_history().game_record(game)

    def create_member(self, member: StoredMember) -> None:
        self._kept_club().create_member(member)

    def member(self, *, id: str | None = None, name: str | None = None) -> StoredMember | None:
        return self._kept_club().member(id=id, name=name)

    def members(self) -> list[StoredMember]:
        return self._kept_club().members()

    def save_member(self, member: StoredMember) -> None:
        self._kept_club().save_member(member)

    def remove_member(self, member_id: str) -> None:
        self._kept_club().remove_member(member_id)

    def add_link(self, link: StoredLink) -> None:
        self._kept_club().add_link(link)

    def link(self, code_hash: str) -> StoredLink | None:
        return self._kept_club().link(code_hash)

    def spend_link(self, code_hash: str) -> None:
        self._kept_club().spend_link(code_hash)

    def add_session(self, session: StoredSession) -> None:
        self._kept_club().add_session(session)

    def session(self, token_hash: str) -> StoredSession | None:
        return self._kept_club().session(token_hash)

    def end_sessions(self, member_id: str, token_hash: str | None = None) -> int:
        return self._kept_club().end_sessions(member_id, token_hash)

    def add_audit(self, entry: AuditEntry) -> None:
        self._kept_club().add_audit(entry)

    def audit(self, limit: int) -> list[AuditEntry]:
        return self._kept_club().audit(limit)

    def add_report(self, report: ChatReport) -> None:
        self._kept_club().add_report(report)

    def reports(self) -> list[ChatReport]:
        return self._kept_club().reports()

    def settle_reports(self, table_id: str, said_at: float) -> None:
        self._kept_club().settle_reports(table_id, said_at)

    def hide_chat(self, table_id: str, said_at: float) -> None:
        self._kept_club().hide_chat(table_id, said_at)

    def hidden_chat(self) -> set[tuple[str, float]]:
        return self._kept_club().hidden_chat()

    def club_setting(self, name: str) -> str | None:
        return self._kept_club().club_setting(name)

    def set_club_setting(self, name: str, value: str) -> None:
        self._kept_club().set_club_setting(name, value)

    def guesses(self) -> list[StoredGuesses]:
        return self._kept_club().guesses()

    def save_guesses(self, guesses: StoredGuesses) -> None:
        self._kept_club().save_guesses(guesses)

    def forget_guesses(self, kind: str, name: str) -> None:
        self._kept_club().forget_guesses(kind, name)

    def purge_club(self, now: float, links_before: float, guesses_before: float) -> int:
        return self._kept_club().purge_club(now, links_before, guesses_before)

    def keep_summaries(self, summaries: Mapping[str, dict[str, Any]]) -> None:
        """Keep what the list of tables shows of each table in progress named (by id),
        for the other processes of a service of several to list it without rebuilding
        it (:meth:`summaries_in_progress`). A table not in progress, not stored, or (on
        a leased storage) not this process's is passed over."""
        del summaries  # this default keeps none: each table is listed as rebuilt

    def summaries_in_progress(self) -> list[tuple[str, dict[str, Any] | None]]:
        """The tables in progress, in :meth:`load_tables`' order, each with the summary
        last kept of it by :meth:`keep_summaries` (None: none yet)."""
        return [(i, None) for i in self.tables_in_progress()]

    def save_tournament(
        self, tournament: StoredTournament, tables: Sequence[StoredTable] = ()
    ) -> int:
        """Keep a tournament's change, made from the version kept (``tournament.version``;
        0: a new tournament), and with it the new ``tables`` of a round it starts (each
        as :meth:`create_table` stores one), all or nothing: answers the version kept
        now (one more). :class:`TournamentChanged` when the kept version is another (or
        a new one's id is taken): nothing is kept. Two processes that start the same
        round at once: one round is kept, with its tables, the other not at all."""
        raise StorageError("this storage keeps no tournaments")

    def load_tournament(self, tournament_id: str) -> StoredTournament | None:
        """One tournament, with its version (None: there is none)."""
        return None

    def load_tournaments(self) -> list[StoredTournament]:
        """Every tournament kept, oldest first."""
        return []

    @abstractmethod
    def close(self) -> None:
        """Release the storage."""
