"""What the storage keeps about players who come back: their profiles, the figures
summed as rounds end, and what each played game and each opponent gave them.

The figures are kept up to date round by round (:meth:`Storage.record_round`), so a
player's page and the leaderboard read a few rows, never the records. They are sums of
what :func:`domeng.history.figures.round_figures` worked out from each finished round,
so they always agree with a replay of the same records.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

PERSON = "person"
COMPUTER = "computer"


@dataclass(slots=True)
class Figures:
    """A player's figures over every recorded round, and their rating now."""

    mu: float
    sigma: float
    games: int = 0
    rounds: int = 0
    received: int = 0
    """Stones received, over every round."""
    camat: int = 0
    """CAMAT titles."""
    won: int = 0
    ceki: int = 0
    pollo: int = 0
    manguno: int = 0
    mattikkeng: int = 0
    passebunge: int = 0


@dataclass(slots=True)
class StoredProfile:
    """A player: a person who picked or made a profile, or a computer level."""

    id: str
    """A person's: ``p-`` and hex digits; a computer level's: its name (``basic``)."""
    name: str
    """Unique on this service, whatever the case of its letters."""
    language: str
    mark: str
    """A colour or symbol from a small set (the service's profiles offer them)."""
    kind: str
    """:data:`PERSON` or :data:`COMPUTER`."""
    token: str | None
    """What a browser or the terminal that picked the profile names it by (None for a
    computer level, which no one picks). Not a secret: a home service has no passwords,
    and anyone there may pick any person's profile."""
    created: float
    figures: Figures


@dataclass(frozen=True, slots=True)
class RoundPart:
    """One profile's part in a finished round: its figures, and its rating after it."""

    profile: str
    seat: int
    place: int
    received: int
    won: bool
    camat: bool
    ceki: bool
    pollo: bool
    manguno: bool
    mattikkeng: bool
    passebunge: int
    mu: float
    sigma: float


@dataclass(slots=True)
class RecordedRound:
    """A finished round, as the history records it."""

    game: str
    """The table's id, or a terminal game's (``terminal-`` and its record's name)."""
    source: str
    """``"table"`` or ``"terminal"``."""
    number: int
    """The round's number in its game, from 1: each game's rounds are recorded in order."""
    at: float
    parts: list[RoundPart]
    """The profiles that played it (a seat that no profile played is not in it)."""
    record: str | None = None
    """A terminal game's record as it is now (its replay; a table's is the table's)."""


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """What one game gave one player (newest first in :meth:`Storage.played_games`)."""

    game: str
    source: str
    seat: int
    rounds: int
    received: int
    camat: int
    won: int
    first: float
    last: float
    mu: float
    sigma: float
    """The player's rating after the last round of this game recorded."""
    number: int = 0
    """The game's number among the player's, from 1, in the order they began."""


@dataclass(frozen=True, slots=True)
class SeriesPoint:
    """One point of a player's charts: after a game, their rating, and the stones and
    rounds of that game and the few before it (a moving sum)."""

    game: int
    """The game's number among the player's (:attr:`PlayedGame.number`)."""
    last: float
    mu: float
    sigma: float
    received: int
    rounds: int


def sampled(total: int, points: int) -> list[int]:
    """The numbers of the games a chart of at most ``points`` points shows of ``total``:
    every ``step``-th, counted back from the last (which is always shown)."""
    step = max(1, -(-total // max(1, points)))
    first = total - step * ((total - 1) // step)
    return list(range(first, total + 1, step)) if total else []


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """One opponent, over the rounds a player played with them."""

    opponent: str
    rounds: int
    """Rounds played together."""
    received: int
    """The player's stones received in those rounds (over its seats)."""
    seats: int
    """The player's seats over those rounds (a level may sit in several seats of one)."""
    opponent_received: int
    opponent_seats: int


def by_profile(done: RecordedRound) -> dict[str, tuple[int, int]]:
    """Each profile's stones received in the round and its seats (a level may sit in
    several): what its head-to-head rows add."""
    sums: dict[str, tuple[int, int]] = {}
    for p in done.parts:
        got, seats = sums.get(p.profile, (0, 0))
        sums[p.profile] = (got + p.received, seats + 1)
    return sums


class HistoryStorage(ABC):
    """What keeps the players who come back: a part each backend holds (the SQL
    backends' queries, :mod:`.sql_history`; the memory backend's dicts,
    :mod:`.memory_history`) and to which the :class:`~domeng.storage.base.Storage`
    interface's history methods go (the contract: tests/history)."""

    @abstractmethod
    def create_profile(self, profile: StoredProfile) -> None:
        """Store a new profile (StorageError when its id, name in any case, or token is
        taken)."""

    @abstractmethod
    def profiles(self, after: str | None = None, limit: int | None = None) -> list[StoredProfile]:
        """The profiles, people first, then by name (case aside), then by id: those
        after the profile whose id is ``after`` (None: from the first; StorageError when
        no profile has that id), at most ``limit`` (None: all)."""

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
