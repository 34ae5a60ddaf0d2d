"""Tables in one SQLite file: the service's default storage.

Every write is one transaction, committed before the method returns, so a move
that has been stored survives the process being killed (SQLite's write-ahead
log with ``synchronous=NORMAL`` is durable against a crash of the process; only
a power failure may lose the last commits).

The file is shared: while ``domeng serve`` runs on it, ``domeng stats`` and
``domeng play --player`` read and write it too (the write-ahead log lets readers go on
while one process writes; a write waits up to :data:`BUSY_TIMEOUT` for another's to
end). Only a second service is kept out, by the lock of :mod:`.servicelock`.

The schema is versioned (SQLite's ``user_version``): :data:`MIGRATIONS` are the
steps of :mod:`.schema` from an empty file to the current schema, each run once, in
order, in one transaction, so a file made by an older version of Domeng opens in place
and keeps every table.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from .base import StorageError
from .schema import STEPS, VERSION, NewerSchema, statements
from .servicelock import ServiceLock
from .sql import Access, SQLStorage
from .sql_club import SQLClub
from .sql_history import SQLHistory

MIGRATIONS = STEPS
"""The schema, step by step: step N brings a file from ``user_version`` N-1 to N."""

BUSY_TIMEOUT = 5.0
"""Seconds a write waits for another process's write to end (a terminal's round
recorded, a note of ``domeng stats``: a few milliseconds) before it fails."""


class SQLiteStorage(SQLStorage):
    """Tables in one SQLite file (``":memory:"`` for a throwaway store).

    Used from one thread at a time (in the service, the
    :class:`~domeng.storage.writer.StorageWriter`'s); each write is one
    transaction, committed before returning. ``service``: opened by ``domeng serve``,
    the one service of this file (:class:`~domeng.storage.servicelock.DatabaseServed`
    when another has it), until :meth:`close`.
    """

    on_loop = True
    """A commit writes to the write-ahead log, which waits on no disk
    (``synchronous=NORMAL``): only a checkpoint does, after 1,000 pages of log (SQLite's
    default; 15-20 ms on a laptop's SSD)."""

    def __init__(self, path: str | Path, *, service: bool = False) -> None:
        self._batched = False
        access = Access(self._tx, self._read)
        self._club, self._history = SQLClub(access), SQLHistory(access)
        self._lock: ServiceLock | None = None
        if str(path) != ":memory:":
            Path(path).parent.mkdir(parents=True, exist_ok=True)
            if service:
                self._lock = ServiceLock(Path(path))
        try:
            self._db = sqlite3.connect(
                str(path), isolation_level=None, check_same_thread=False, timeout=BUSY_TIMEOUT
            )
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")  # no seat, deal or play of no table
            self._migrate()
        except BaseException:
            if hasattr(self, "_db"):
                self._db.close()
            if self._lock is not None:
                self._lock.release()
            raise

    @property
    def version(self) -> int:
        """The schema's version in this file (``len(MIGRATIONS)`` once opened)."""
        (version,) = self._db.execute("PRAGMA user_version").fetchone()
        return int(version)

    def _migrate(self) -> None:
        # each step in a transaction of its own, the version read again inside it: two
        # processes opening a new file at once run every step once
        while True:
            with self._tx() as db:
                (number,) = db.execute("PRAGMA user_version").fetchone()
                if number > VERSION:
                    raise NewerSchema(number)
                if number == VERSION:
                    return
                for statement in statements(MIGRATIONS[number]):
                    db.execute(statement)
                db.execute(f"PRAGMA user_version = {number + 1}")

    def close(self) -> None:
        self._db.close()
        if self._lock is not None:
            self._lock.release()
            self._lock = None

    # -- transactions ---------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator[None]:
        if self._batched:  # one batch at a time: an inner one is part of it
            yield
            return
        self._db.execute("BEGIN IMMEDIATE")
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
    def _tx(self, *, alone: bool = False) -> Iterator[sqlite3.Connection]:
        # alone or not, a savepoint: it costs no round trip here
        # In autocommit mode the connection opens no transaction by itself: BEGIN (or
        # SAVEPOINT) explicitly, and commit (release) or roll back explicitly. IMMEDIATE:
        # the write lock is taken (or waited for) at once, so a transaction that reads
        # before it writes never finds another process's write in its way half-way
        self._db.execute("SAVEPOINT one" if self._batched else "BEGIN IMMEDIATE")
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

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        yield self._db
