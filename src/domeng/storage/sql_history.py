"""The SQL backends' part for players who come back (storage/history.py): profiles
with their figures and rating, each game's and each opponent's sums, written once for
SQLite and PostgreSQL. The tables are made by the fourth step of
:data:`~domeng.storage.schema.STEPS`."""

from __future__ import annotations

from itertools import permutations
from typing import Any

from .base import StorageError
from .history import (
    COMPUTER,
    Figures,
    HeadToHead,
    HistoryStorage,
    PlayedGame,
    RecordedRound,
    RoundPart,
    SeriesPoint,
    StoredProfile,
    by_profile,
    sampled,
)
from .sql import Access

_FIGURES = "games, rounds, received, camat, won, ceki, pollo, manguno, mattikkeng, passebunge"
_PROFILE = f"id, name, language, mark, kind, token, created, mu, sigma, {_FIGURES}"


def _profile(row: tuple[Any, ...]) -> StoredProfile:
    pid, name, language, mark, kind, token, created, mu, sigma, *counts = row
    figures = Figures(mu, sigma, *counts)
    return StoredProfile(pid, name, language, mark, kind, token, created, figures)


class SQLHistory(HistoryStorage):
    """The players who come back of a SQL backend (each of
    :class:`~domeng.storage.sql.SQLStorage`'s holds one), kept through the backend's
    :class:`~domeng.storage.sql.Access`."""

    def __init__(self, access: Access) -> None:
        self._access = access

    def create_profile(self, profile: StoredProfile) -> None:
        f = profile.figures
        with self._access.tx() as db:
            db.execute(
                f"INSERT INTO profiles ({_PROFILE}) VALUES ({', '.join('?' * 19)})",
                (
                    profile.id, profile.name, profile.language, profile.mark, profile.kind,
                    profile.token, profile.created, f.mu, f.sigma, f.games, f.rounds,
                    f.received, f.camat, f.won, f.ceki, f.pollo, f.manguno, f.mattikkeng,
                    f.passebunge,
                ),
            )  # fmt: skip

    def profiles(self, after: str | None = None, limit: int | None = None) -> list[StoredProfile]:
        # the order, and the key a page goes on from
        key = f"kind = ?, {self._access.name_order}, id"
        where, values = "", [COMPUTER]
        if after is not None:  # the profiles whose key comes after that profile's
            where = f"WHERE ({key}) > (SELECT {key} FROM profiles WHERE id = ?)"
            values = [COMPUTER, COMPUTER, after, COMPUTER]
        page = "" if limit is None else f" LIMIT {int(limit)}"
        with self._access.read() as db:
            if after is not None:
                known = db.execute("SELECT 1 FROM profiles WHERE id = ?", (after,)).fetchone()
                if known is None:
                    raise StorageError(f"there is no profile {after!r}")
            rows = db.execute(
                f"SELECT {_PROFILE} FROM profiles {where} ORDER BY {key}{page}", tuple(values)
            )
            return [_profile(r) for r in rows]

    def profile(
        self, *, id: str | None = None, name: str | None = None, token: str | None = None
    ) -> StoredProfile | None:
        if id is not None:
            where, value = "id = ?", id
        elif name is not None:
            where, value = self._access.name_is, name
        elif token is not None:
            where, value = "token = ?", token
        else:
            return None
        with self._access.read() as db:
            found = db.execute(f"SELECT {_PROFILE} FROM profiles WHERE {where}", (value,))
            row = found.fetchone()
        return None if row is None else _profile(row)

    def recorded_rounds(self, game: str) -> int:
        with self._access.read() as db:
            row = db.execute("SELECT rounds FROM history_games WHERE id = ?", (game,))
            found = row.fetchone()
        return 0 if found is None else int(found[0])

    def record_round(self, done: RecordedRound) -> None:
        with self._access.tx() as db:
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
                "record = COALESCE(excluded.record, history_games.record)",
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
                    "rounds = played_games.rounds + excluded.rounds, "
                    "received = played_games.received + excluded.received, "
                    "camat = played_games.camat + excluded.camat, "
                    "won = played_games.won + excluded.won, "
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
                    "ON CONFLICT (profile_id, opponent_id) DO UPDATE SET "
                    "rounds = head_to_head.rounds + 1, "
                    "received = head_to_head.received + excluded.received, "
                    "seats = head_to_head.seats + excluded.seats, "
                    "opponent_received = head_to_head.opponent_received "
                    "+ excluded.opponent_received, "
                    "opponent_seats = head_to_head.opponent_seats + excluded.opponent_seats",
                    (a, b, got, seats, other, other_seats),
                )

    def played_games(self, profile: str, limit: int | None = None) -> list[PlayedGame]:
        # no LIMIT for all: SQLite's "LIMIT -1" is an error in PostgreSQL
        with self._access.read() as db:
            rows = db.execute(
                "SELECT p.game_id, g.source, p.seat, p.rounds, p.received, p.camat, p.won, "
                "p.first, p.last, p.mu, p.sigma, p.n FROM played_games p "
                "JOIN history_games g ON g.id = p.game_id WHERE p.profile_id = ? "
                "ORDER BY p.last DESC, p.game_id DESC" + ("" if limit is None else " LIMIT ?"),
                (profile,) if limit is None else (profile, limit),
            )
            return [PlayedGame(*r) for r in rows]

    def series(self, profile: str, points: int, moving: int) -> list[SeriesPoint]:
        with self._access.read() as db:
            (total,) = db.execute(
                "SELECT COUNT(*) FROM played_games WHERE profile_id = ?", (profile,)
            ).fetchone()
            shown = sampled(total, points)
            if not shown:
                return []
            values = ", ".join("(?)" for _ in shown)
            # the sums cast back to integers: PostgreSQL's SUM of integers is a numeric
            rows = db.execute(
                f"WITH shown(n) AS (VALUES {values}) "
                "SELECT g.n, g.last, g.mu, g.sigma, CAST(SUM(w.received) AS BIGINT), "
                "CAST(SUM(w.rounds) AS BIGINT) FROM shown "
                "JOIN played_games g ON g.profile_id = ? AND g.n = shown.n "
                "JOIN played_games w ON w.profile_id = ? AND w.n BETWEEN shown.n - ? AND shown.n "
                "GROUP BY g.n, g.last, g.mu, g.sigma ORDER BY g.n",
                (*shown, profile, profile, moving - 1),
            )
            return [SeriesPoint(*r) for r in rows]

    def head_to_head(self, profile: str) -> list[HeadToHead]:
        with self._access.read() as db:
            rows = db.execute(
                "SELECT opponent_id, rounds, received, seats, opponent_received, opponent_seats "
                "FROM head_to_head "
                "WHERE profile_id = ? ORDER BY rounds DESC, opponent_id",
                (profile,),
            )
            return [HeadToHead(*r) for r in rows]

    def leaderboard(self, min_games: int) -> list[StoredProfile]:
        with self._access.read() as db:
            rows = db.execute(
                f"SELECT {_PROFILE} FROM profiles WHERE games >= ? ORDER BY mu DESC, id",
                (min_games,),
            )
            return [_profile(r) for r in rows]

    def game_record(self, game: str) -> str | None:
        with self._access.read() as db:
            found = db.execute("SELECT record FROM history_games WHERE id = ?", (game,)).fetchone()
        return None if found is None else found[0]


def _parts_by_profile(done: RecordedRound) -> dict[str, list[RoundPart]]:
    """The round's parts of each profile, in seat order: every seat of a level counts,
    written as one (the same sums, the last seat's rating and seat)."""
    out: dict[str, list[RoundPart]] = {}
    for p in done.parts:
        out.setdefault(p.profile, []).append(p)
    return out
