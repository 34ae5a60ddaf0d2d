"""The SQLite backend's part for players who come back (storage/history.py): profiles
with their figures and rating, each game's and each opponent's sums. The tables are
made by the fourth step of :data:`~domeng.server.storage.sqlite.MIGRATIONS`."""

from __future__ import annotations

import sqlite3
from contextlib import AbstractContextManager
from itertools import permutations
from typing import Any

from .base import StorageError
from .history import (
    COMPUTER,
    Figures,
    HeadToHead,
    PlayedGame,
    RecordedRound,
    RoundPart,
    SeriesPoint,
    StoredProfile,
    by_profile,
    sampled,
)

MIGRATION = """
    CREATE TABLE profiles (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        language TEXT NOT NULL,
        mark TEXT NOT NULL,
        kind TEXT NOT NULL,
        token TEXT UNIQUE,
        created REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        rounds INTEGER NOT NULL DEFAULT 0,
        received INTEGER NOT NULL DEFAULT 0,
        camat INTEGER NOT NULL DEFAULT 0,
        won INTEGER NOT NULL DEFAULT 0,
        ceki INTEGER NOT NULL DEFAULT 0,
        pollo INTEGER NOT NULL DEFAULT 0,
        manguno INTEGER NOT NULL DEFAULT 0,
        mattikkeng INTEGER NOT NULL DEFAULT 0,
        passebunge INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX profiles_by_rating ON profiles (games, mu);
    CREATE TABLE history_games (
        id TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        record TEXT
    );
    CREATE TABLE played_games (
        profile_id TEXT NOT NULL REFERENCES profiles(id),
        game_id TEXT NOT NULL REFERENCES history_games(id),
        seat INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        received INTEGER NOT NULL,
        camat INTEGER NOT NULL,
        won INTEGER NOT NULL,
        first REAL NOT NULL,
        last REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (profile_id, game_id)
    );
    CREATE INDEX played_games_newest ON played_games (profile_id, last, game_id);
    CREATE UNIQUE INDEX played_games_in_order ON played_games (profile_id, n, received, rounds);
    CREATE TABLE head_to_head (
        profile_id TEXT NOT NULL REFERENCES profiles(id),
        opponent_id TEXT NOT NULL REFERENCES profiles(id),
        rounds INTEGER NOT NULL,
        received INTEGER NOT NULL,
        seats INTEGER NOT NULL,
        opponent_received INTEGER NOT NULL,
        opponent_seats INTEGER NOT NULL,
        PRIMARY KEY (profile_id, opponent_id)
    );
    ALTER TABLE seats ADD COLUMN profile TEXT;
"""
"""Step 4 of the schema: players who come back."""

_FIGURES = "games, rounds, received, camat, won, ceki, pollo, manguno, mattikkeng, passebunge"
_PROFILE = f"id, name, language, mark, kind, token, created, mu, sigma, {_FIGURES}"


def _profile(row: tuple[Any, ...]) -> StoredProfile:
    pid, name, language, mark, kind, token, created, mu, sigma, *counts = row
    figures = Figures(mu, sigma, *counts)
    return StoredProfile(pid, name, language, mark, kind, token, created, figures)


class SQLiteHistory:
    """Mixed into :class:`~domeng.server.storage.sqlite.SQLiteStorage`."""

    _db: sqlite3.Connection

    def _tx(self) -> AbstractContextManager[sqlite3.Connection]:
        raise NotImplementedError

    def create_profile(self, profile: StoredProfile) -> None:
        f = profile.figures
        with self._tx() as db:
            db.execute(
                f"INSERT INTO profiles ({_PROFILE}) VALUES ({', '.join('?' * 19)})",
                (
                    profile.id, profile.name, profile.language, profile.mark, profile.kind,
                    profile.token, profile.created, f.mu, f.sigma, f.games, f.rounds,
                    f.received, f.camat, f.won, f.ceki, f.pollo, f.manguno, f.mattikkeng,
                    f.passebunge,
                ),
            )  # fmt: skip

    def profiles(self) -> list[StoredProfile]:
        rows = self._db.execute(
            f"SELECT {_PROFILE} FROM profiles ORDER BY kind = ?, name COLLATE NOCASE, id",
            (COMPUTER,),
        )
        return [_profile(r) for r in rows]

    def profile(
        self, *, id: str | None = None, name: str | None = None, token: str | None = None
    ) -> StoredProfile | None:
        if id is not None:
            where, value = "id = ?", id
        elif name is not None:
            where, value = "name = ?", name  # the column compares without case
        elif token is not None:
            where, value = "token = ?", token
        else:
            return None
        row = self._db.execute(f"SELECT {_PROFILE} FROM profiles WHERE {where}", (value,))
        found = row.fetchone()
        return None if found is None else _profile(found)

    def recorded_rounds(self, game: str) -> int:
        row = self._db.execute("SELECT rounds FROM history_games WHERE id = ?", (game,))
        found = row.fetchone()
        return 0 if found is None else int(found[0])

    def record_round(self, done: RecordedRound) -> None:
        with self._tx() as db:
            found = db.execute(
                "SELECT rounds FROM history_games WHERE id = ?", (done.game,)
            ).fetchone()
            recorded = 0 if found is None else int(found[0])
            if done.number != recorded + 1:
                raise StorageError(
                    f"round {done.number} of game {done.game!r} is not the next to record "
                    f"({recorded} recorded)"
                )
            db.execute(
                "INSERT INTO history_games (id, source, rounds, record) VALUES (?, ?, ?, ?) "
                "ON CONFLICT (id) DO UPDATE SET rounds = excluded.rounds, "
                "record = COALESCE(excluded.record, record)",
                (done.game, done.source, done.number, done.record),
            )
            for pid, mine in _parts_by_profile(done).items():  # a level in 4 seats: once
                last = mine[-1]  # its rating after the round, and the seat it ends in
                new_game = (
                    db.execute(
                        "SELECT 1 FROM played_games WHERE profile_id = ? AND game_id = ?",
                        (pid, done.game),
                    ).fetchone()
                    is None
                )
                received = sum(p.received for p in mine)
                camat, won = sum(p.camat for p in mine), sum(p.won for p in mine)
                changed = db.execute(
                    "UPDATE profiles SET games = games + ?, rounds = rounds + ?, "
                    "received = received + ?, camat = camat + ?, won = won + ?, "
                    "ceki = ceki + ?, pollo = pollo + ?, manguno = manguno + ?, "
                    "mattikkeng = mattikkeng + ?, passebunge = passebunge + ?, mu = ?, "
                    "sigma = ? WHERE id = ?",
                    (
                        int(new_game), len(mine), received, camat, won,
                        sum(p.ceki for p in mine), sum(p.pollo for p in mine),
                        sum(p.manguno for p in mine), sum(p.mattikkeng for p in mine),
                        sum(p.passebunge for p in mine), last.mu, last.sigma, pid,
                    ),
                )  # fmt: skip
                if changed.rowcount != 1:
                    raise StorageError(f"there is no profile {pid!r}")
                (games,) = db.execute("SELECT games FROM profiles WHERE id = ?", (pid,)).fetchone()
                db.execute(
                    "INSERT INTO played_games (profile_id, game_id, seat, rounds, received, "
                    "camat, won, first, last, mu, sigma, n) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
                    "ON CONFLICT (profile_id, game_id) DO UPDATE SET seat = excluded.seat, "
                    "rounds = rounds + excluded.rounds, received = received + excluded.received, "
                    "camat = camat + excluded.camat, won = won + excluded.won, "
                    "last = excluded.last, mu = excluded.mu, sigma = excluded.sigma",
                    (
                        pid, done.game, last.seat, len(mine), received, camat, won,
                        done.at, done.at, last.mu, last.sigma, games,
                    ),
                )  # fmt: skip
            sums = by_profile(done)
            for a, b in permutations(sums, 2):
                (got, seats), (other, other_seats) = sums[a], sums[b]
                db.execute(
                    "INSERT INTO head_to_head (profile_id, opponent_id, rounds, received, seats, "
                    "opponent_received, opponent_seats) VALUES (?, ?, 1, ?, ?, ?, ?) "
                    "ON CONFLICT (profile_id, opponent_id) DO UPDATE SET rounds = rounds + 1, "
                    "received = received + excluded.received, seats = seats + excluded.seats, "
                    "opponent_received = opponent_received + excluded.opponent_received, "
                    "opponent_seats = opponent_seats + excluded.opponent_seats",
                    (a, b, got, seats, other, other_seats),
                )

    def played_games(self, profile: str, limit: int | None = None) -> list[PlayedGame]:
        rows = self._db.execute(
            "SELECT p.game_id, g.source, p.seat, p.rounds, p.received, p.camat, p.won, "
            "p.first, p.last, p.mu, p.sigma, p.n FROM played_games p "
            "JOIN history_games g ON g.id = p.game_id WHERE p.profile_id = ? "
            "ORDER BY p.last DESC, p.game_id DESC LIMIT ?",
            (profile, -1 if limit is None else limit),
        )
        return [PlayedGame(*r) for r in rows]

    def series(self, profile: str, points: int, moving: int) -> list[SeriesPoint]:
        (total,) = self._db.execute(
            "SELECT COUNT(*) FROM played_games WHERE profile_id = ?", (profile,)
        ).fetchone()
        shown = sampled(total, points)
        if not shown:
            return []
        values = ", ".join("(?)" for _ in shown)
        rows = self._db.execute(
            f"WITH shown(n) AS (VALUES {values}) "
            "SELECT g.n, g.last, g.mu, g.sigma, SUM(w.received), SUM(w.rounds) FROM shown "
            "JOIN played_games g ON g.profile_id = ? AND g.n = shown.n "
            "JOIN played_games w ON w.profile_id = ? AND w.n BETWEEN shown.n - ? AND shown.n "
            "GROUP BY g.n ORDER BY g.n",
            (*shown, profile, profile, moving - 1),
        )
        return [SeriesPoint(*r) for r in rows]

    def head_to_head(self, profile: str) -> list[HeadToHead]:
        rows = self._db.execute(
            "SELECT opponent_id, rounds, received, seats, opponent_received, opponent_seats "
            "FROM head_to_head "
            "WHERE profile_id = ? ORDER BY rounds DESC, opponent_id",
            (profile,),
        )
        return [HeadToHead(*r) for r in rows]

    def leaderboard(self, min_games: int) -> list[StoredProfile]:
        rows = self._db.execute(
            f"SELECT {_PROFILE} FROM profiles WHERE games >= ? ORDER BY mu DESC, id",
            (min_games,),
        )
        return [_profile(r) for r in rows]

    def game_record(self, game: str) -> str | None:
        row = self._db.execute("SELECT record FROM history_games WHERE id = ?", (game,))
        found = row.fetchone()
        return None if found is None else found[0]


def _parts_by_profile(done: RecordedRound) -> dict[str, list[RoundPart]]:
    """The round's parts of each profile, in seat order: every seat of a level counts,
    written as one (the same sums, the last seat's rating and seat)."""
    out: dict[str, list[RoundPart]] = {}
    for p in done.parts:
        out.setdefault(p.profile, []).append(p)
    return out
