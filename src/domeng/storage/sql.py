"""What the two SQL backends share: every query of the tables, written once.

:class:`SQLStorage` keeps the tables, seats, deals, plays and chat in the schema of
:mod:`.schema`; the two parts each backend holds keep the rest,
:class:`~domeng.storage.sql_history.SQLHistory` the players' history and
:class:`~domeng.storage.sql_club.SQLClub` the club. A backend gives its connection
through :meth:`SQLStorage._tx` (one write transaction, a savepoint of it inside
:meth:`~domeng.storage.base.Storage.batch`) and :meth:`SQLStorage._read`, to its parts
as an :class:`Access` (with the few things SQL dialects say differently). The
queries use SQLite's plain ``?`` placeholders; PostgreSQL's connection turns them into
its own (:mod:`.postgres`).
"""

from __future__ import annotations

import json
from abc import abstractmethod
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Any, Protocol

from .base import (
    CHAT_KEPT,
    Storage,
    StorageError,
    StoredChat,
    StoredDeal,
    StoredPlay,
    StoredSeat,
    StoredTable,
    StoredTournament,
    TournamentChanged,
)

_SEAT_COLUMNS = (
    "kind, level, name, token_hash, ready, seed, invite, open, sits_from, timeouts, profile, hints,"
    " member"
)


class Rows(Protocol):
    """What a statement gives back: its rows, and how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchone(self) -> Any: ...

    def __iter__(self) -> Iterator[Any]: ...


class Db(Protocol):
    """A connection that runs one statement with its values (``?`` placeholders)."""

    def execute(self, sql: str, parameters: Sequence[Any] = (), /) -> Any: ...


@dataclass(frozen=True, slots=True)
class Access:
    """What a part of a SQL backend (its club, its history) reads and writes through:
    the backend's transactions and reads, and its dialect's words for names."""

    tx: Callable[[], AbstractContextManager[Db]]
    """One write transaction (:meth:`SQLStorage._tx`)."""
    read: Callable[[], AbstractContextManager[Db]]
    """A connection to read from (:meth:`SQLStorage._read`)."""
    name_order: str = "name COLLATE NOCASE"
    """A name in the order people read (case aside; ASCII letters only)."""
    name_is: str = "name = ?"
    """The row whose name is the value, case aside (SQLite: the column's NOCASE)."""


class SQLStorage(Storage):
    """The tables' part of a SQL backend; see the module docstring."""

    _PLAY_IN_ONE_STATEMENT = False
    """A play is stored by one statement that checks and inserts (PostgreSQL: one round
    trip), else by a check and an insert (SQLite: no round trips; its INSERT ... SELECT
    of a table read in its own WHERE goes through a temporary table, a third slower)."""

    @abstractmethod
    def _tx(self, *, alone: bool = False) -> AbstractContextManager[Db]:
        """One write transaction (in a batch: a savepoint of it): kept when the block
        ends, rolled back when it raises; a write the schema refuses (stored twice, or
        for no such table) is a StorageError.

        ``alone``: the block is one statement that refuses by its answer, never by an
        error of the database (the busiest writes: a play, a deal, a seat). A backend
        may then leave the savepoint out in a batch (two round trips fewer to a
        PostgreSQL server); should the statement fail all the same, the whole batch
        is not kept."""

    @abstractmethod
    def _read(self) -> AbstractContextManager[Db]:
        """A connection to read from (in a batch: the batch's)."""

    def _fence(self, db: Db, table_id: str) -> None:
        """Before a write of ``table_id``: refuse it if another process owns the table now
        (:mod:`.leases`, PostgreSQL's several processes; here: one process owns all)."""

    def _holds(self, db: Db, table_id: str) -> bool:
        """Whether this process owns ``table_id`` now (:mod:`.leases`; here: it owns all),
        its lease held till the transaction's end: a write that may be passed over."""
        return True

    def _lease_new(self, db: Db, table_id: str) -> None:
        """A new table's lease, for the process that made it (:mod:`.leases`)."""

    def _lease_over(self, db: Db, table_id: str) -> None:
        """A table that ended lets its lease go (:mod:`.leases`)."""

    def create_table(self, table: StoredTable) -> None:
        if len(table.plays) != len(table.deals):
            raise StorageError("a table's plays come as one list per deal")
        with self._tx() as db:
            self._put_table(db, table)

    def _put_table(self, db: Db, table: StoredTable) -> None:
        """A new table's rows (and its lease, when in progress), in ``db``'s transaction."""
        if len(table.plays) != len(table.deals):
            raise StorageError("a table's plays come as one list per deal")
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
        if table.ended is None:
            self._lease_new(db, table.id)
        for n, s in enumerate(table.seats):
            db.execute(
                f"INSERT INTO seats (table_id, seat, {_SEAT_COLUMNS}) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (table.id, n, *_seat_values(s)),
            )
        for n, d in enumerate(table.deals, 1):
            _put_deal(db, table.id, n, d)
            for i, p in enumerate(table.plays[n - 1]):
                _put_play(db, table.id, n, i, p)
        for n, c in enumerate(table.chat):
            _put_chat(db, table.id, n, c)

    def load_tables(self) -> list[StoredTable]:
        return self._load("ended IS NULL AND removed = 0", ())

    def load_table(self, table_id: str) -> StoredTable | None:
        found = self._load("id = ? AND removed = 0", (table_id,))
        return found[0] if found else None

    def tables_in_progress(self) -> list[str]:
        with self._read() as db:
            rows = db.execute(
                "SELECT id FROM tables WHERE ended IS NULL AND removed = 0 ORDER BY created, id",
                (),
            )
            return [table_id for (table_id,) in rows]

    def load_some_tables(self, ids: Sequence[str]) -> list[StoredTable]:
        if not ids:
            return []
        with self._read() as db:
            # picked by their ids alone (a condition on ended made SQLite go through the
            # index of every table in progress for each batch), then kept if in progress
            marks = ", ".join("?" * len(ids))
            rows = db.execute(f"SELECT id, ended, removed FROM tables WHERE id IN ({marks})", ids)
            going = tuple(i for i, ended, removed in rows if ended is None and not removed)
            if not going:
                return []
            return _load(db, f"id IN ({', '.join('?' * len(going))})", going)

    def finished_tables(
        self, limit: int, after: str | None = None, *, newest: bool = False
    ) -> list[dict[str, Any]]:
        where, params = "ended IS NOT NULL AND removed = 0", ()
        with self._read() as db:
            if after is not None:
                row = db.execute(
                    f"SELECT created, id FROM tables WHERE id = ? AND {where}", (after,)
                ).fetchone()
                if row is None:
                    raise StorageError(f"there is no finished table {after!r} to go on from")
                where += f" AND (created, id) {'<' if newest else '>'} (?, ?)"
                params = tuple(row)
            order = "created DESC, id DESC" if newest else "created, id"
            rows = db.execute(
                f"SELECT summary FROM tables WHERE {where} ORDER BY {order} LIMIT ?",
                (*params, limit),
            )
            return [json.loads(summary) for (summary,) in rows]

    def _load(self, where: str, params: tuple[object, ...]) -> list[StoredTable]:
        """The tables that ``where`` picks, whole, oldest first (only theirs are read)."""
        with self._read() as db:
            return _load(db, where, params)

    def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
        with self._tx(alone=True) as db:
            self._fence(db, table_id)
            sets = ", ".join(f"{c.strip()} = ?" for c in _SEAT_COLUMNS.split(","))
            done = db.execute(
                f"UPDATE seats SET {sets} WHERE table_id = ? AND seat = ?",
                (*_seat_values(data), table_id, seat),
            )
            if done.rowcount != 1:
                raise StorageError(f"table {table_id!r} has no seat {seat}")

    def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
        with self._tx(alone=True) as db:
            self._fence(db, table_id)
            # one statement: stored only as the next round of a stored table
            done = db.execute(
                "INSERT INTO deals (table_id, number, hands, unused, at) "
                "SELECT ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?) "
                "AND (SELECT COUNT(*) FROM deals WHERE table_id = ?) + 1 = ?",
                (
                    table_id, number, json.dumps(deal.hands), json.dumps(deal.unused), deal.at,
                    table_id, table_id, number,
                ),
            )  # fmt: skip
            if done.rowcount == 1:
                return
            table, dealt = db.execute(
                "SELECT (SELECT COUNT(*) FROM tables WHERE id = ?), "
                "(SELECT COUNT(*) FROM deals WHERE table_id = ?)",
                (table_id, table_id),
            ).fetchone()
            if not table:
                raise StorageError(f"there is no table {table_id!r}")
            if number <= dealt:
                raise StorageError(f"round {number} of table {table_id!r} is dealt already")
            raise StorageError(f"round {number} of table {table_id!r} follows no round")

    def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        with self._tx(alone=True) as db:
            self._fence(db, table_id)
            # a play is the busiest write, stored only as the next play of a dealt round
            # (_PLAY_IN_ONE_STATEMENT says how). Plain ? placeholders: a numbered one (?1)
            # bound from a sequence warns on Python 3.12 before 3.12.4 (cpython#117995),
            # an error under the tests' warnings-as-errors
            if self._PLAY_IN_ONE_STATEMENT:
                done = db.execute(
                    "INSERT INTO plays (table_id, number, idx, seat, tile, end_, stand_in, at) "
                    "SELECT ?, ?, ?, ?, ?, ?, ?, ? "
                    "WHERE EXISTS (SELECT 1 FROM deals WHERE table_id = ? AND number = ?) "
                    "AND (SELECT COUNT(*) FROM plays WHERE table_id = ? AND number = ?) = ?",
                    (
                        table_id, number, index, play.seat, play.tile, play.end,
                        int(play.stand_in), play.at, table_id, number, table_id, number, index,
                    ),
                )  # fmt: skip
                if done.rowcount == 1:
                    return
            dealt, played = db.execute(
                "SELECT (SELECT COUNT(*) FROM deals WHERE table_id = ? AND number = ?), "
                "(SELECT COUNT(*) FROM plays WHERE table_id = ? AND number = ?)",
                (table_id, number, table_id, number),
            ).fetchone()
            if dealt and index == played and not self._PLAY_IN_ONE_STATEMENT:
                _put_play(db, table_id, number, index, play)
                return
            if not dealt:
                raise StorageError(f"round {number} of table {table_id!r} is not dealt")
            if index < played:
                raise StorageError(f"play {index} of round {number} is stored already")
            raise StorageError(f"play {index} of round {number} follows no play")

    def end_table(self, table_id: str, why: str, summary: dict[str, Any]) -> None:
        with self._tx(alone=True) as db:
            self._fence(db, table_id)
            done = db.execute(
                "UPDATE tables SET ended = ?, summary = ? WHERE id = ?",
                (why, json.dumps(summary), table_id),
            )
            _one(done, table_id)
            self._lease_over(db, table_id)

    def remove_table(self, table_id: str) -> None:
        with self._tx() as db:
            self._fence(db, table_id)
            self._lease_over(db, table_id)
            _one(db.execute("UPDATE tables SET removed = 1 WHERE id = ?", (table_id,)), table_id)

    def add_chat(self, table_id: str, message: StoredChat) -> None:
        with self._tx(alone=True) as db:
            self._fence(db, table_id)
            c = message
            done = db.execute(
                "INSERT INTO chat (table_id, n, seat, name, text, phrase, at) "
                "SELECT ?, (SELECT COALESCE(MAX(n) + 1, 0) FROM chat WHERE table_id = ?), "
                "CAST(? AS BIGINT), ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM tables WHERE id = ?)",
                (table_id, table_id, c.seat, c.name, c.text, c.phrase, c.at, table_id),
            )
            _one(done, table_id)
            db.execute(  # the table's last CHAT_KEPT are kept, no more
                "DELETE FROM chat WHERE table_id = ? AND n <= "
                "(SELECT MAX(n) FROM chat WHERE table_id = ?) - ?",
                (table_id, table_id, CHAT_KEPT),
            )

    def keep_summaries(self, summaries: Mapping[str, dict[str, Any]]) -> None:
        with self._tx() as db:
            for table_id, summary in summaries.items():
                if self._holds(db, table_id):
                    db.execute(
                        "UPDATE tables SET summary = ? WHERE id = ? AND ended IS NULL",
                        (json.dumps(summary), table_id),
                    )

    def summaries_in_progress(self) -> list[tuple[str, dict[str, Any] | None]]:
        with self._read() as db:
            rows = db.execute(
                "SELECT id, summary FROM tables WHERE ended IS NULL AND removed = 0 "
                "ORDER BY created, id"
            )
            return [(i, None if s is None else json.loads(s)) for i, s in rows]

    def save_tournament(
        self, tournament: StoredTournament, tables: Sequence[StoredTable] = ()
    ) -> int:
        t = tournament
        with self._tx() as db:
            if t.version == 0:  # a new one: kept unless its id is taken
                done = db.execute(
                    "INSERT INTO tournaments (id, created, doc, version) VALUES (?, ?, ?, 1) "
                    "ON CONFLICT (id) DO NOTHING",
                    (t.id, t.created, json.dumps(t.doc)),
                )
            else:  # its change: kept only over the version it was made from
                done = db.execute(
                    "UPDATE tournaments SET doc = ?, version = version + 1 "
                    "WHERE id = ? AND version = ?",
                    (json.dumps(t.doc), t.id, t.version),
                )
            if done.rowcount != 1:
                raise TournamentChanged(
                    f"tournament {t.id!r} was changed meanwhile (not at version {t.version})"
                )
            for table in tables:  # the round's tables, in the same transaction
                self._put_table(db, table)
        return t.version + 1

    def load_tournament(self, tournament_id: str) -> StoredTournament | None:
        with self._read() as db:
            row = db.execute(
                "SELECT id, created, doc, version FROM tournaments WHERE id = ?", (tournament_id,)
            ).fetchone()
        if row is None:
            return None
        i, c, d, v = row
        return StoredTournament(i, c, json.loads(d), int(v))

    def load_tournaments(self) -> list[StoredTournament]:
        with self._read() as db:
            rows = db.execute(
                "SELECT id, created, doc, version FROM tournaments ORDER BY created, id"
            )
            return [StoredTournament(i, c, json.loads(d), int(v)) for i, c, d, v in rows]


def _load(db: Db, where: str, params: tuple[object, ...]) -> list[StoredTable]:
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
        sits, timeouts, pid, hints, member = counts
        seat = StoredSeat(kind, level, name, token_hash, ready, seed, invite, bool(open_))
        seat.sits_from, seat.timeouts, seat.profile, seat.hints = sits, timeouts, pid, hints
        seat.member = member
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
        f"  FROM chat WHERE table_id IN ({picked})) AS kept WHERE back <= ? "
        "ORDER BY table_id, n",
        (*params, CHAT_KEPT),
    ):
        tables[tid].chat.append(StoredChat(seat, name, text, phrase, at))
    return list(tables.values())


def _one(done: Rows, table_id: str) -> None:
    if done.rowcount != 1:
        raise StorageError(f"there is no table {table_id!r}")


def _put_deal(db: Db, table_id: str, number: int, d: StoredDeal) -> None:
    db.execute(
        "INSERT INTO deals (table_id, number, hands, unused, at) VALUES (?, ?, ?, ?, ?)",
        (table_id, number, json.dumps(d.hands), json.dumps(d.unused), d.at),
    )


def _put_play(db: Db, table_id: str, number: int, index: int, p: StoredPlay) -> None:
    db.execute(
        "INSERT INTO plays (table_id, number, idx, seat, tile, end_, stand_in, at) "
        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        (table_id, number, index, p.seat, p.tile, p.end, int(p.stand_in), p.at),
    )


def _put_chat(db: Db, table_id: str, n: int, c: StoredChat) -> None:
    db.execute(
        "INSERT INTO chat (table_id, n, seat, name, text, phrase, at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        (table_id, n, c.seat, c.name, c.text, c.phrase, c.at),
    )


def _seat_values(
    s: StoredSeat,
) -> tuple[
    str, str | None, str, str | None, int, int, str | None, int, int, int, str | None, int,
    str | None,
]:  # fmt: skip
    return (
        s.kind, s.level, s.name, s.token_hash, s.ready, s.seed, s.invite, int(s.open),
        s.sits_from, s.timeouts, s.profile, s.hints, s.member,
    )  # fmt: skip
