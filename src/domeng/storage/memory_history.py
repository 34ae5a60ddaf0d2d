"""The memory backend's part for players who come back (storage/history.py); the same
contract as :mod:`.sql_history`, in dicts."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable
from itertools import permutations

from .base import StorageError
from .history import (
    COMPUTER,
    HeadToHead,
    HistoryStorage,
    PlayedGame,
    RecordedRound,
    SeriesPoint,
    StoredProfile,
    by_profile,
    sampled,
)


class MemoryHistory(HistoryStorage):
    """The players who come back of a :class:`~domeng.storage.memory.MemoryStorage`,
    which holds it and gives it its ``check_open``."""

    def __init__(self, check_open: Callable[[], None]) -> None:
        self._check_open = check_open
        self._kept = _Kept()

    def _history(self) -> _Kept:
        return self._kept

    def create_profile(self, profile: StoredProfile) -> None:
        self._check_open()
        h = self._history()
        if profile.id in h.profiles:
            raise StorageError(f"profile {profile.id!r} is stored already")
        if any(p.name.casefold() == profile.name.casefold() for p in h.profiles.values()):
            raise StorageError(f"the name {profile.name!r} is taken")
        if profile.token is not None and any(p.token == profile.token for p in h.profiles.values()):
            raise StorageError("that token is another profile's")
        h.profiles[profile.id] = copy.deepcopy(profile)

    def profiles(self, after: str | None = None, limit: int | None = None) -> list[StoredProfile]:
        self._check_open()
        kept = self._history().profiles
        ordered = sorted(kept.values(), key=lambda p: (p.kind == COMPUTER, p.name.casefold(), p.id))
        if after is not None:
            if after not in kept:
                raise StorageError(f"there is no profile {after!r}")
            ordered = ordered[[p.id for p in ordered].index(after) + 1 :]
        return copy.deepcopy(ordered if limit is None else ordered[:limit])

    def profile(
        self, *, id: str | None = None, name: str | None = None, token: str | None = None
    ) -> StoredProfile | None:
        self._check_open()
        for p in self._history().profiles.values():
            if id is not None:
                found = p.id == id
            elif name is not None:
                found = p.name.casefold() == name.casefold()
            else:
                found = token is not None and p.token == token
            if found:
                return copy.deepcopy(p)
        return None

    def recorded_rounds(self, game: str) -> int:
        self._check_open()
        return self._history().games.get(game, 0)

    def record_round(self, done: RecordedRound) -> None:
        self._check_open()
        h = self._history()
        recorded = h.games.get(done.game, 0)
        if done.number != recorded + 1:
            raise StorageError(
                f"round {done.number} of game {done.game!r} is not the next to record "
                f"({recorded} recorded)"
            )
        for p in done.parts:
            if p.profile not in h.profiles:
                raise StorageError(f"there is no profile {p.profile!r}")
        h.games[done.game] = done.number
        h.sources[done.game] = done.source
        if done.record is not None:
            h.records[done.game] = done.record
        for p in done.parts:
            f = h.profiles[p.profile].figures
            key = (p.profile, done.game)
            was = h.played.get(key)
            f.games += was is None
            f.rounds += 1
            f.received += p.received
            f.camat += p.camat
            f.won += p.won
            f.ceki += p.ceki
            f.pollo += p.pollo
            f.manguno += p.manguno
            f.mattikkeng += p.mattikkeng
            f.passebunge += p.passebunge
            f.mu, f.sigma = p.mu, p.sigma
            h.played[key] = PlayedGame(
                done.game, done.source, p.seat,
                (was.rounds if was else 0) + 1,
                (was.received if was else 0) + p.received,
                (was.camat if was else 0) + p.camat,
                (was.won if was else 0) + p.won,
                was.first if was else done.at, done.at, p.mu, p.sigma,
                was.number if was else f.games,
            )  # fmt: skip
        sums = by_profile(done)
        for a, b in permutations(sums, 2):
            (got, seats), (other, other_seats) = sums[a], sums[b]
            old = h.heads.get((a, b), HeadToHead(b, 0, 0, 0, 0, 0))
            h.heads[(a, b)] = HeadToHead(
                b, old.rounds + 1, old.received + got, old.seats + seats,
                old.opponent_received + other, old.opponent_seats + other_seats,
            )  # fmt: skip

    def played_games(self, profile: str, limit: int | None = None) -> list[PlayedGame]:
        self._check_open()
        mine = [g for (pid, _), g in self._history().played.items() if pid == profile]
        mine.sort(key=lambda g: (g.last, g.game), reverse=True)
        return mine if limit is None else mine[:limit]

    def series(self, profile: str, points: int, moving: int) -> list[SeriesPoint]:
        games = sorted(self.played_games(profile), key=lambda g: g.number)
        out = []
        for n in sampled(len(games), points):
            window = games[max(0, n - moving) : n]
            g = games[n - 1]
            got = sum(w.received for w in window)
            out.append(SeriesPoint(n, g.last, g.mu, g.sigma, got, sum(w.rounds for w in window)))
        return out

    def head_to_head(self, profile: str) -> list[HeadToHead]:
        self._check_open()
        mine = [v for (pid, _), v in self._history().heads.items() if pid == profile]
        return sorted(mine, key=lambda v: (-v.rounds, v.opponent))

    def leaderboard(self, min_games: int) -> list[StoredProfile]:
        self._check_open()
        kept = [p for p in self._history().profiles.values() if p.figures.games >= min_games]
        return copy.deepcopy(sorted(kept, key=lambda p: (-p.figures.mu, p.id)))

    def game_record(self, game: str) -> str | None:
        self._check_open()
        return self._history().records.get(game)


@dataclasses.dataclass
class _Kept:
    profiles: dict[str, StoredProfile] = dataclasses.field(default_factory=dict)
    games: dict[str, int] = dataclasses.field(default_factory=dict)
    """Rounds recorded, per game."""
    sources: dict[str, str] = dataclasses.field(default_factory=dict)
    records: dict[str, str] = dataclasses.field(default_factory=dict)
    played: dict[tuple[str, str], PlayedGame] = dataclasses.field(default_factory=dict)
    heads: dict[tuple[str, str], HeadToHead] = dataclasses.field(default_factory=dict)
