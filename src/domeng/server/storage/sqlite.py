"""Tables in one SQLite file: the service's default storage.

Every write is one transaction, committed before the method returns, so a move
that has been stored survives the process being killed (SQLite's write-ahead
log with ``synchronous=NORMAL`` is durable against a crash of the process; only
a power failure may lose the last commits).
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .base import Storage, StorageError, StoredDeal, StoredPlay, StoredSeat, StoredTable

_SCHEMA = """
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
"""


class SQLiteStorage(Storage):
    """Tables in one SQLite file (``":memory:"`` for a throwaway store).

    Used from one thread at a time (in the service, the
    :class:`~domeng.server.storage.writer.StorageWriter`'s); each write is one
    transaction, committed before returning. The file is locked for as long as
    the storage is open, so a second service cannot open the same file.
    """

    def __init__(self, path: str | Path) -> None:
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
        self._db.executescript(_SCHEMA)
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("COMMIT")

    def create_table(self, table: StoredTable) -> None:
        if len(table.plays) != len(table.deals):
            raise StorageError("a table's plays come as one list per deal")
        with self._tx():
            self._db.execute(
                "INSERT INTO tables (id, created, settings) VALUES (?, ?, ?)",
                (table.id, table.created, json.dumps(table.settings)),
            )
            for n, s in enumerate(table.seats):
                self._put_seat(table.id, n, s)
            for n, d in enumerate(table.deals, 1):
                self._put_deal(table.id, n, d)
                for i, p in enumerate(table.plays[n - 1]):
                    self._put_play(table.id, n, i, p)

    def load_tables(self) -> list[StoredTable]:
        db = self._db
        tables: dict[str, StoredTable] = {}
        for tid, created, settings in db.execute(
            "SELECT id, created, settings FROM tables ORDER BY created, id"
        ):
            tables[tid] = StoredTable(tid, created, json.loads(settings), [])
        for tid, _, kind, level, name, token_hash, ready, seed in db.execute(
            "SELECT table_id, seat, kind, level, name, token_hash, ready, seed "
            "FROM seats ORDER BY table_id, seat"
        ):
            if tid in tables:
                tables[tid].seats.append(StoredSeat(kind, level, name, token_hash, ready, seed))
        for tid, _, hands, unused in db.execute(
            "SELECT table_id, number, hands, unused FROM deals ORDER BY table_id, number"
        ):
            if tid in tables:
                tables[tid].deals.append(StoredDeal(json.loads(hands), json.loads(unused)))
                tables[tid].plays.append([])
        for tid, number, seat, tile_, end in db.execute(
            "SELECT table_id, number, seat, tile, end_ FROM plays ORDER BY table_id, number, idx"
        ):
            t = tables.get(tid)
            if t is not None and number <= len(t.plays):
                t.plays[number - 1].append(StoredPlay(seat, tile_, end))
        return list(tables.values())

    def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
        with self._tx() as db:
            done = db.execute(
                "UPDATE seats SET kind = ?, level = ?, name = ?, token_hash = ?, ready = ?, "
                "seed = ? WHERE table_id = ? AND seat = ?",
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
            (dealt,) = db.execute(
                "SELECT COUNT(*) FROM deals WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
            if not dealt:
                raise StorageError(f"round {number} of table {table_id!r} is not dealt")
            (played,) = db.execute(
                "SELECT COUNT(*) FROM plays WHERE table_id = ? AND number = ?",
                (table_id, number),
            ).fetchone()
            if index < played:
                raise StorageError(f"play {index} of round {number} is stored already")
            if index != played:
                raise StorageError(f"play {index} of round {number} follows no play")
            self._put_play(table_id, number, index, play)

    def close(self) -> None:
        self._db.close()

    # -- helpers ------------------------------------------------------------

    @contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        """One transaction: committed when the block ends, rolled back when it raises; a
        write the schema refuses (stored twice, or for no such table) is a StorageError."""
        # In autocommit mode the connection's context manager does not open a
        # transaction; BEGIN explicitly and let it commit or roll back.
        self._db.execute("BEGIN")
        try:
            with self._db:
                yield self._db
        except sqlite3.IntegrityError as e:
            raise StorageError(str(e)) from None

    def _put_seat(self, table_id: str, seat: int, s: StoredSeat) -> None:  # at creation
        self._db.execute(
            "INSERT INTO seats (table_id, seat, kind, level, name, token_hash, ready, seed) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seat, *_seat_values(s)),
        )

    def _put_deal(self, table_id: str, number: int, d: StoredDeal) -> None:
        self._db.execute(
            "INSERT INTO deals (table_id, number, hands, unused) VALUES (?, ?, ?, ?)",
            (table_id, number, json.dumps(d.hands), json.dumps(d.unused)),
        )

    def _put_play(self, table_id: str, number: int, index: int, p: StoredPlay) -> None:
        self._db.execute(
            "INSERT INTO plays (table_id, number, idx, seat, tile, end_) VALUES (?, ?, ?, ?, ?, ?)",
            (table_id, number, index, p.seat, p.tile, p.end),
        )


def _seat_values(s: StoredSeat) -> tuple[str, str | None, str, str | None, int, int]:
    return (s.kind, s.level, s.name, s.token_hash, s.ready, s.seed)
