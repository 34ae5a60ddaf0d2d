"""Tables in one SQLite file: the service's default storage.

Every write is one transaction, committed before the method returns, so a move
that has been stored survives the process being killed (SQLite's write-ahead
log with ``synchronous=NORMAL`` is durable against a crash of the process; only
a power failure may lose the last commits).

The schema is versioned (SQLite's ``user_version``): :data:`MIGRATIONS` are the
steps from an empty file to the current schema, each run once, in order, in one
transaction, so a file made by an older version of Domeng opens in place and
keeps every table.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .base import (
    CHAT_KEPT,
    Storage,
    StorageError,
    StoredChat,
    StoredDeal,
    StoredPlay,
    StoredSeat,
    StoredTable,
)
from .sqlite_history import MIGRATION as HISTORY_MIGRATION
from .sqlite_history import SQLiteHistory

MIGRATIONS: tuple[str, ...] = (
    # 1: tables, seats, and the record (deals and plays)
    """
    CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        settings TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        level TEXT,
        name TEXT NOT NULL,
        token_hash TEXT,
        ready INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE IF NOT EXISTS deals (
        table_id TEXT NOT NULL REFERENCES tables(id),
        number INTEGER NOT NULL,
        hands TEXT NOT NULL,
        unused TEXT NOT NULL,
        PRIMARY KEY (table_id, number)
    );
    CREATE TABLE IF NOT EXISTS plays (
        table_id TEXT NOT NULL REFERENCES tables(id),
        number INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        tile TEXT NOT NULL,
        end_ TEXT NOT NULL,
        PRIMARY KEY (table_id, number, idx)
    );
    """,
    # 2: playing with friends: the host, invitations, a seat's first round, the turn
    # clock, stand-in plays, the end of a game, removed tables, talk at the table.
    # The seats open before invitations existed stay open to anyone.
    """
    ALTER TABLE tables ADD COLUMN host_hash TEXT;
    ALTER TABLE tables ADD COLUMN host_seat INTEGER;
    ALTER TABLE tables ADD COLUMN ended TEXT;
    ALTER TABLE tables ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN invite TEXT;
    ALTER TABLE seats ADD COLUMN open INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN sits_from INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
    UPDATE seats SET open = 1 WHERE kind = 'person';
    ALTER TABLE deals ADD COLUMN at REAL NOT NULL DEFAULT 0;
    ALTER TABLE plays ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE plays ADD COLUMN at REAL NOT NULL DEFAULT 0;
    CREATE TABLE chat (
        table_id TEXT NOT NULL REFERENCES tables(id),
        n INTEGER NOT NULL,
        seat INTEGER,
        name TEXT NOT NULL,
        text TEXT,
        phrase TEXT,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    """,
    # 3: the tables in progress alone are read at a start; a finished one keeps the
    # summary its lists show
    """
    ALTER TABLE tables ADD COLUMN summary TEXT;
    CREATE INDEX tables_in_progress ON tables (ended, removed, created, id);
    """,
    # 4: players who come back: profiles, their figures and ratings, a seat's profile
    HISTORY_MIGRATION,
    # 5: the coach's hints a seat's person asked for
    """
    ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    """,
)
"""The schema, step by step: step N brings a file from ``user_version`` N-1 to N."""

_SEAT_COLUMNS = (
    "kind, level, name, token_hash, ready, seed, invite, open, sits_from, timeouts, profile, hints"
)


class SQLiteStorage(SQLiteHistory, Storage):
    """Tables in one SQLite file (``":memory:"`` for a throwaway store).

    Used from one thread at a time (in the service, the
    :class:`~domeng.server.storage.writer.StorageWriter`'s); each write is one
    transaction, committed before returning. The file is locked for as long as
    the storage is open, so a second service cannot open the same file.
    """

    on_loop = True
    """A commit writes to the write-ahead log, which waits on no disk
    (``synchronous=NORMAL``): only a checkpoint does, after 1,000 pages of log (SQLite's
    default; 15-20 ms on a laptop's SSD)."""

    def __init__(self, path: str | Path) -> None:
        self._batched = False
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(
            str(path), isolation_level=None, check_same_thread=False, timeout=0.5
        )
        # One service per file: the exclusive lock is taken now and held until close
        # (the system releases it if the process dies, even by SIGKILL).
        self._db.execute("PRAGMA locking_mode=EXCLUSIVE")
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute("PRAGMA foreign_keys=ON")  # no seat, deal or play of no table
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("COMMIT")
        self._migrate()

    @property
    def version(self) -> int:
        """The schema's version in this file (``len(MIGRATIONS)`` once opened)."""
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        return int(version)

    def _migrate(self) -> None:
        for number in range(self.version, len(MIGRATIONS)):
            with self._tx() as db:
                for statement in MIGRATIONS[number].split(";"):
                    if statement.strip():
                        db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")

    def create_table(self, table: StoredTable) -> None:
        if len(table.plays) != len(table.deals):
            raise StorageError("a table's plays come as one list per deal")
        with self._tx() as db:
            db.execute(
                "INSERT INTO tables (id, created, settings, host_hash, host_seat, ended) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    table.id,
                    table.created,
                    json.dumps(table.settings),
                    table.host_hash,
                    table.host_seat,
                    table.ended,
                ),
            )
            for n, s in enumerate(table.seats):
                db.execute(
                    f"INSERT INTO seats (table_id, seat, {_SEAT_COLUMNS}) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (table.id, n, *_seat_values(s)),
                )
            for n, d in enumerate(table.deals, 1):
                self._put_deal(table.id, n, d)
                for i, p in enumerate(table.plays[n - 1]):
                    self._put_play(table.id, n, i, p)
            for n, c in enumerate(table.chat):
                self._put_chat(table.id, n, c)

    def load_tables(self) -> list[StoredTable]:
        return self._load("ended IS NULL AND NOT removed", ())

    def load_table(self, table_id: str) -> StoredTable | None:
        found = self._load("id = ? AND NOT removed", (table_id,))
        return found[0] if found else None

    def finished_tables(
        self, limit: int, after: str | None = None, *, newest: bool = False
    ) -> list[dict[str, Any]]:
        where, params = "ended IS NOT NULL AND NOT removed", ()
        if after is not None:
            row = self._db.execute(
                f"SELECT created, id FROM tables WHERE id = ? AND {where}", (after,)
            ).fetchone()
            if row is None:
                raise StorageError(f"there is no finished table {after!r} to go on from")
            where += f" AND (created, id) {'<' if newest else '>'} (?, ?)"
            params = tuple(row)
        order = "created DESC, id DESC" if newest else "created, id"
        rows = self._db.execute(
            f"SELECT summary FROM tables WHERE {where} ORDER BY {order} LIMIT ?",
            (*params, limit),
        )
        return [json.loads(summary) for (summary,) in rows]

    def _load(self, where: str, params: tuple[object, ...]) -> list[StoredTable]:
        """The tables that ``where`` picks, whole, oldest first (only theirs are read)."""
        db = self._db
        tables: dict[str, StoredTable] = {}
        picked = f"SELECT id FROM tables WHERE {where}"
        for tid, created, settings, host_hash, host_seat, ended in db.execute(
            "SELECT id, created, settings, host_hash, host_seat, ended FROM tables "
            f"WHERE {where} ORDER BY created, id",
            params,
        ):
            tables[tid] = StoredTable(
                tid, created, json.loads(settings), [], host_hash=host_hash,
                host_seat=host_seat, ended=ended,
            )  # fmt: skip
        for tid, _, *values in db.execute(
            f"SELECT table_id, seat, {_SEAT_COLUMNS} FROM seats WHERE table_id IN ({picked}) "
            "ORDER BY table_id, seat",
            params,
        ):
            kind, level, name, token_hash, ready, seed, invite, open_, *counts = values
            sits, timeouts, pid, hints = counts
            seat = StoredSeat(kind, level, name, token_hash, ready, seed, invite, bool(open_))
            seat.sits_from, seat.timeouts, seat.profile, seat.hints = sits, timeouts, pid, hints
            tables[tid].seats.append(seat)
        for tid, _, hands, unused, at in db.execute(
            f"SELECT table_id, number, hands, unused, at FROM deals WHERE table_id IN ({picked}) "
            "ORDER BY table_id, number",
            params,
        ):
            tables[tid].deals.append(StoredDeal(json.loads(hands), json.loads(unused), at))
            tables[tid].plays.append([])
        for tid, number, seat, tile_, end, stand_in, at in db.execute(
            "SELECT table_id, number, seat, tile, end_, stand_in, at FROM plays "
            f"WHERE table_id IN ({picked}) ORDER BY table_id, number, idx",
            params,
        ):
            t = tables[tid]
            if number <= len(t.plays):
                t.plays[number - 1].append(StoredPlay(seat, tile_, end, bool(stand_in), at))
        for tid, seat, name, text, phrase, at in db.execute(
            "SELECT table_id, seat, name, text, phrase, at FROM ("
            "  SELECT *, ROW_NUMBER() OVER (PARTITION BY table_id ORDER BY n DESC) AS back"
            f"  FROM chat WHERE table_id IN ({picked})) WHERE back <= ? ORDER BY table_id, n",
            (*params, CHAT_KEPT),
        ):
            tables[tid].chat.append(StoredChat(seat, name, text, phrase, at))
        return list(tables.values())

    def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
        with self._tx() as db:
            sets = ", ".join(f"{c.strip()} = ?" for c in _SEAT_COLUMNS.split(","))
            done = db.execute(
                f"UPDATE seats SET {sets} WHERE table_id = ? AND seat = ?",
                (*_seat_values(data), table_id, seat),
            )
            if done.rowcount != 1:
                raise StorageError(f"table {table_id!r} has no seat {seat}")

    def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
        with self._tx() as db:
            (dealt,) = db.execute(
                "SELECT COUNT(*) FROM deals WHERE table_id = ?", (table_id,)
            ).fetchone()
            if number <= dealt:
                raise StorageError(f"round {number} of table {table_id!r} is dealt already")
            if number != dealt + 1:
                raise StorageError(f"round {number} of table {table_id!r} follows no round")
            self._put_deal(table_id, number, deal)

    def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        with self._tx() as db:
            # one statement: a play is the busiest write. Plain ? placeholders: a numbered
            # one (?1) bound from a sequence warns on Python 3.12 before 3.12.4
            # (cpython#117995), an error under the tests' warnings-as-errors
            dealt, played = db.execute(
                "SELECT (SELECT COUNT(*) FROM deals WHERE table_id = ? AND number = ?), "
                "(SELECT COUNT(*) FROM plays WHERE table_id = ? AND number = ?)",
                (table_id, number, table_id, number),
            ).fetchone()
            if not dealt:
                raise StorageError(f"round {number} of table {table_id!r} is not dealt")
            if index < played:
                raise StorageError(f"play {index} of round {number} is stored already")
            if index != played:
                raise StorageError(f"play {index} of round {number} follows no play")
            self._put_play(table_id, number, index, play)

    def end_table(self, table_id: str, why: str, summary: dict[str, Any]) -> None:
        with self._tx() as db:
            done = db.execute(
                "UPDATE tables SET ended = ?, summary = ? WHERE id = ?",
                (why, json.dumps(summary), table_id),
            )
            self._one(done, table_id)

    def remove_table(self, table_id: str) -> None:
        with self._tx() as db:
            self._one(
                db.execute("UPDATE tables SET removed = 1 WHERE id = ?", (table_id,)), table_id
            )

    def add_chat(self, table_id: str, message: StoredChat) -> None:
        with self._tx() as db:
            (n,) = db.execute(
                "SELECT COALESCE(MAX(n) + 1, 0) FROM chat WHERE table_id = ?", (table_id,)
            ).fetchone()
            self._put_chat(table_id, n, message)

    def close(self) -> None:
        self._db.close()

    # -- helpers ------------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator[None]:
        if self._batched:  # one batch at a time: an inner one is part of it
            yield
            return
        self._db.execute("BEGIN")
        self._batched = True
        try:
            yield
            self._db.execute("COMMIT")
        except BaseException:
            if self._db.in_transaction:
                self._db.execute("ROLLBACK")
            raise
        finally:
            self._batched = False

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction (in a batch: a savepoint of it): kept when the block ends,
        rolled back when it raises; a write the schema refuses (stored twice, or for no
        such table) is a StorageError."""
        # In autocommit mode the connection opens no transaction by itself: BEGIN (or
        # SAVEPOINT) explicitly, and commit (release) or roll back explicitly.
        self._db.execute("SAVEPOINT one" if self._batched else "BEGIN")
        try:
            yield self._db
            self._db.execute("RELEASE one" if self._batched else "COMMIT")
        except BaseException as e:
            if self._batched:
                self._db.execute("ROLLBACK TO one")
                self._db.execute("RELEASE one")
            elif self._db.in_transaction:
                self._db.execute("ROLLBACK")
            if isinstance(e, sqlite3.IntegrityError):
                raise StorageError(str(e)) from None
            raise

    @staticmethod
    def _one(done: sqlite3.Cursor, table_id: str) -> None:
        if done.rowcount != 1:
            raise StorageError(f"there is no table {table_id!r}")

    def _put_deal(self, table_id: str, number: int, d: StoredDeal) -> None:
        self._db.execute(
            "INSERT INTO deals (table_id, number, hands, unused, at) VALUES (?, ?, ?, ?, ?)",
            (table_id, number, json.dumps(d.hands), json.dumps(d.unused), d.at),
        )

    def _put_play(self, table_id: str, number: int, index: int, p: StoredPlay) -> None:
        self._db.execute(
            "INSERT INTO plays (table_id, number, idx, seat, tile, end_, stand_in, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, number, index, p.seat, p.tile, p.end, int(p.stand_in), p.at),
        )

    def _put_chat(self, table_id: str, n: int, c: StoredChat) -> None:
        self._db.execute(
            "INSERT INTO chat (table_id, n, seat, name, text, phrase, at) "
            "VALUES (?, ?, ?, ?, ?, ?, ?)",
            (table_id, n, c.seat, c.name, c.text, c.phrase, c.at),
        )


def _seat_values(
    s: StoredSeat,
) -> tuple[str, str | None, str, str | None, int, int, str | None, int, int, int, str | None, int]:
    return (
        s.kind, s.level, s.name, s.token_hash, s.ready, s.seed, s.invite, int(s.open),
        s.sits_from, s.timeouts, s.profile, s.hints,
    )  # fmt: skip
