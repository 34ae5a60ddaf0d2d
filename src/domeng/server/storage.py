"""Where tables are kept: a small storage interface and its SQLite implementation.

What is stored is the record of each game (its deals and its plays, as
``domeng.record/1`` describes them) plus the table's settings and seats. Never a
pickled object: the service rebuilds every game by replaying its record.

The interface is :class:`Storage`; :class:`SQLiteStorage` implements it with one
file. Every write is committed before the method returns, so a move that has
been stored survives the process being killed (SQLite's write-ahead log with
``synchronous=NORMAL`` is durable against a crash of the process; only a power
failure may lose the last commits).
"""

from __future__ import annotations

import json
import sqlite3
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


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


@dataclass(slots=True)
class StoredDeal:
    hands: list[list[str]]
    unused: list[str]


@dataclass(slots=True)
class StoredPlay:
    seat: int
    tile: str
    end: str


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


class Storage(ABC):
    """The small interface the table service stores through."""

    @abstractmethod
    def create_table(self, table: StoredTable) -> None:
        """Store a new table (its settings and seats; no deal yet)."""

    @abstractmethod
    def load_tables(self) -> list[StoredTable]:
        """Every table, oldest first, with its deals and plays."""

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
    def close(self) -> None:
        """Release the storage."""


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

    Used from one thread (the service's event loop); each write is one
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
        self._db.executescript(_SCHEMA)
        self._db.execute("BEGIN IMMEDIATE")
        self._db.execute("COMMIT")

    def create_table(self, table: StoredTable) -> None:
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
        with self._tx():
            self._put_seat(table_id, seat, data)

    def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
        with self._tx():
            self._put_deal(table_id, number, deal)

    def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        with self._tx():
            self._put_play(table_id, number, index, play)

    def close(self) -> None:
        self._db.close()

    # -- helpers ------------------------------------------------------------

    def _tx(self) -> sqlite3.Connection:
        # In autocommit mode the connection's context manager does not open a
        # transaction; BEGIN explicitly and let __exit__ commit or roll back.
        self._db.execute("BEGIN")
        return self._db

    def _put_seat(self, table_id: str, seat: int, s: StoredSeat) -> None:
        self._db.execute(
            "INSERT OR REPLACE INTO seats (table_id, seat, kind, level, name, token_hash, ready, "
            "seed) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            (table_id, seat, s.kind, s.level, s.name, s.token_hash, s.ready, s.seed),
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
