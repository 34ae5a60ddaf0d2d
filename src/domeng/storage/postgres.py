"""Tables in a PostgreSQL database: ``domeng serve --db postgresql://USER@HOST/DB``.

The same schema (:mod:`.schema`, in PostgreSQL's words) and the same queries
(:mod:`.sql`, :mod:`.sql_history`) as SQLite, through psycopg 3 and a pool of its
connections (psycopg_pool); one that rested in the pool is checked before it is used
(:data:`CHECK_AFTER`), so that a connection the server dropped is replaced, not failed
on. Every write is one transaction, committed (and so on the server's disk,
``synchronous_commit`` being on by default) before the method returns; inside
:meth:`batch` every call is a savepoint of the batch's one transaction, as in SQLite,
except the busiest writes, one statement each that refuses by its answer
(``SQLStorage._tx(alone=True)``), made without a savepoint: each round trip to the
server also waits for the interpreter while the event loop is busy, and a savepoint
costs two.

Network round trips wait, so the service makes every call in its storage thread
(:attr:`on_loop` is False; :class:`~domeng.storage.writer.StorageWriter`), and gathers
the writes waiting there into one batch: one commit for many moves.

The schema's version is the one row of the table ``domeng_schema``; the steps are
run under a transaction-wide advisory lock, so that processes starting together
migrate once.

Several services on one database are one service (:mod:`.leases`): each table in play
is owned by one process at a time, and every write of a table is fenced by its lease's
epoch. (Before schema step 9 a second service was refused.)
"""

from __future__ import annotations

import functools
import threading
import time
import weakref
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg import errors
from psycopg_pool import ConnectionPool

from .base import StorageError
from .leases import LEASE, Leasing
from .schema import VERSION, NewerSchema, for_postgres
from .sql import Access
from .sql_club import SQLClub
from .sql_history import SQLHistory

CONNECT_TIMEOUT = 10
"""Seconds to wait for the server when connecting."""

CHECK_AFTER = 1.0
"""Seconds a connection may have rested in the pool before it is checked (one round
trip) when taken out: one the server dropped meanwhile (a restart, an idle timeout)
is replaced, not failed on; a busy connection is not checked at every batch."""

POOL_SIZE = 4
"""Connections kept open at most (the service uses one at a time, in its storage
thread; the others are there for a connection being replaced)."""

_MIGRATION_LOCK = 0x646F6D656E67
"""The advisory lock held while the schema is brought up to date ("domeng")."""


@functools.lru_cache(maxsize=256)
def _said(sql: str) -> str:
    """A shared query with PostgreSQL's placeholders (no statement of the storage holds
    a ``?`` or a ``%`` of its own)."""
    return sql.replace("?", "%s")


class _Db:
    """A psycopg connection that runs the shared queries (``?`` placeholders)."""

    __slots__ = ("conn",)

    def __init__(self, conn: psycopg.Connection[Any]) -> None:
        self.conn = conn

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> psycopg.Cursor[Any]:
        return self.conn.execute(_said(sql), parameters)


class PostgresStorage(Leasing):
    """Tables in the PostgreSQL database ``url``; see the module docstring. Used from
    one thread at a time (in the service, the storage thread)."""

    on_loop = False

    _PLAY_IN_ONE_STATEMENT = True

    def __init__(self, url: str, *, service: bool = False, shown: str = "") -> None:
        self.url = url
        self._batch: _Db | None = None
        access = Access(
            self._tx, self._read, name_order="lower(name)", name_is="lower(name) = lower(?)"
        )
        self._club, self._history = SQLClub(access), SQLHistory(access)
        self._owner: int | None = None
        self._broken = False
        self._returned: weakref.WeakKeyDictionary[psycopg.Connection[Any], float] = (
            weakref.WeakKeyDictionary()
        )
        self._init_leases()
        if service:  # a wrong address or password is said here, plainly
            psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT).close()
        self._pool = ConnectionPool(
            url,
            min_size=1,
            max_size=POOL_SIZE,
            kwargs={"connect_timeout": CONNECT_TIMEOUT},
            check=self._check,
            reset=self._rested,
            configure=_configure,
            name="domeng-storage",
            open=False,
        )
        try:
            with psycopg.connect(url, connect_timeout=CONNECT_TIMEOUT) as conn:
                _migrate(conn)
            self._pool.open(wait=True, timeout=CONNECT_TIMEOUT)
        except BaseException:
            self._pool.close()
            raise

    def _rested(self, conn: psycopg.Connection[Any]) -> None:
        """Called as ``conn`` goes back to the pool."""
        self._returned[conn] = time.monotonic()

    def _check(self, conn: psycopg.Connection[Any]) -> None:
        """Called as ``conn`` is taken out of the pool: it is checked if it rested long."""
        if time.monotonic() - self._returned.get(conn, 0.0) >= CHECK_AFTER:
            ConnectionPool.check_connection(conn)

    @property
    def version(self) -> int:
        """The schema's version in the database (:data:`~domeng.storage.schema.VERSION`
        once opened)."""
        with self._read() as db:
            return _version(db)

    def close(self) -> None:
        self._pool.close()

    def _in_batch(self) -> bool:
        return self._batch is not None

    # -- transactions ---------------------------------------------------------

    @contextmanager
    def batch(self) -> Iterator[None]:
        if self._batch is not None and self._owner == threading.get_ident():
            yield  # one batch at a time: an inner one is part of it
            return
        with self._pool.connection() as conn, conn.transaction():
            self._batch, self._owner = _Db(conn), threading.get_ident()
            self._broken = False
            try:
                yield
                if self._broken:  # a statement without its savepoint failed: the
                    # transaction is lost, and nothing of the batch may look kept
                    raise StorageError("a write of the batch failed: none of it is kept")
            finally:
                self._batch = self._owner = None
                self._batch_over()

    @contextmanager
    def _tx(self, *, alone: bool = False) -> Iterator[_Db]:
        try:
            if self._batch is not None:
                if alone:  # no savepoint: two round trips fewer (see SQLStorage._tx)
                    try:
                        yield self._batch
                    except psycopg.Error:
                        self._broken = True
                        raise
                    return
                with self._batch.conn.transaction():  # a savepoint of the batch
                    yield self._batch
                return
            with self._pool.connection() as conn, conn.transaction():
                yield _Db(conn)
        except errors.IntegrityError as e:
            raise StorageError(str(e).strip()) from None

    @contextmanager
    def _read(self) -> Iterator[_Db]:
        if self._batch is not None:
            yield self._batch
            return
        with self._pool.connection() as conn:
            yield _Db(conn)


def _configure(conn: psycopg.Connection[Any]) -> None:
    """A new connection of the pool: a transaction it leaves open (its process stopped
    or stalled in the middle of a write) is ended by the server after a lease's time,
    so that the row locks it held (a write's fence, :mod:`.leases`) do not keep the
    others from taking its tables over."""
    conn.execute(f"SET idle_in_transaction_session_timeout = '{int(LEASE * 1000)}ms'")
    conn.commit()


def _version(db: _Db) -> int:
    db.execute("CREATE TABLE IF NOT EXISTS domeng_schema (version BIGINT NOT NULL)")
    row = db.execute("SELECT version FROM domeng_schema").fetchone()
    return 0 if row is None else int(row[0])


def _migrate(conn: psycopg.Connection[Any]) -> None:
    """Bring the database's schema up to date, step by step, each in one transaction."""
    db = _Db(conn)
    while True:
        with conn.transaction():
            db.execute(f"SELECT pg_advisory_xact_lock({_MIGRATION_LOCK})")
            number = _version(db)
            if number > VERSION:
                raise NewerSchema(number)
            if number == VERSION:
                return
            for statement in for_postgres(number + 1):
                conn.execute(statement)
            if number == 0:
                db.execute("INSERT INTO domeng_schema (version) VALUES (1)")
            else:
                db.execute("UPDATE domeng_schema SET version = ?", (number + 1,))
