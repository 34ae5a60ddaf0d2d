"""Tables kept in memory only: the storage for tests and throwaway services.

It keeps the same contract as :class:`~domeng.storage.sqlite.SQLiteStorage`
(tests/server/test_storage_contract.py runs against both), but nothing outlives
the object. What it is given and what it gives back are copies, so a caller that
changes an object afterwards changes nothing stored.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
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
    StoredTournament,
    TournamentChanged,
)
from .memory_club import MemoryClub
from .memory_history import MemoryHistory


class MemoryStorage(Storage):
    """Every table in a dict; see the module docstring."""

    def __init__(self) -> None:
        self._club, self._history = MemoryClub(self._check_open), MemoryHistory(self._check_open)
        self._tables: dict[str, StoredTable] = {}
        self._removed: set[str] = set()
        self._summaries: dict[str, dict[str, Any]] = {}
        self._closed = False
        self._tournaments: dict[str, StoredTournament] = {}
        self._listed: dict[str, dict[str, Any]] = {}
        """What the list shows of each table in progress (:meth:`keep_summaries`)."""

    def create_table(self, table: StoredTable) -> None:
        self._check_open()
        if table.id in self._tables:
            raise StorageError(f"table {table.id!r} is stored already")
        if len(table.plays) != len(table.deals):
            raise StorageError("a table's plays come as one list per deal")
        self._tables[table.id] = copy.deepcopy(table)

    def load_tables(self) -> list[StoredTable]:
        self._check_open()
        kept = [t for t in self._tables.values() if t.id not in self._removed and t.ended is None]
        tables = copy.deepcopy(sorted(kept, key=lambda t: (t.created, t.id)))
        for t in tables:
            t.chat = t.chat[-CHAT_KEPT:]
        return tables

    def tables_in_progress(self) -> list[str]:
        self._check_open()
        kept = [t for t in self._tables.values() if t.id not in self._removed and t.ended is None]
        return [t.id for t in sorted(kept, key=lambda t: (t.created, t.id))]

    def load_some_tables(self, ids: Sequence[str]) -> list[StoredTable]:
        self._check_open()
        picked = [self._tables[i] for i in dict.fromkeys(ids) if i in self._tables]
        tables = copy.deepcopy([t for t in picked if t.id not in self._removed and t.ended is None])
        for t in tables:
            t.chat = t.chat[-CHAT_KEPT:]
        return tables

    def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
        t = self._table(table_id)
        if not 0 <= seat < len(t.seats):
            raise StorageError(f"table {table_id!r} has no seat {seat}")
        t.seats[seat] = copy.copy(data)

    def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
        t = self._table(table_id)
        if number <= len(t.deals):
            raise StorageError(f"round {number} of table {table_id!r} is dealt already")
        if number != len(t.deals) + 1:
            raise StorageError(f"round {number} of table {table_id!r} follows no round")
        t.deals.append(copy.deepcopy(deal))
        t.plays.append([])

    def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
        t = self._table(table_id)
        if not 1 <= number <= len(t.deals):
            raise StorageError(f"round {number} of table {table_id!r} is not dealt")
        plays = t.plays[number - 1]
        if index < len(plays):
            raise StorageError(f"play {index} of round {number} is stored already")
        if index != len(plays):
            raise StorageError(f"play {index} of round {number} follows no play")
        plays.append(copy.copy(play))

    def load_table(self, table_id: str) -> StoredTable | None:
        self._check_open()
        t = self._tables.get(table_id)
        if t is None or table_id in self._removed:
            return None
        t = copy.deepcopy(t)
        t.chat = t.chat[-CHAT_KEPT:]
        return t

    def finished_tables(
        self, limit: int, after: str | None = None, *, newest: bool = False
    ) -> list[dict[str, Any]]:
        self._check_open()
        ended = sorted(
            (t for t in self._tables.values() if t.ended and t.id not in self._removed),
            key=lambda t: (t.created, t.id),
            reverse=newest,
        )
        ids = [t.id for t in ended]
        if after is not None and after not in ids:
            raise StorageError(f"there is no finished table {after!r} to go on from")
        start = ids.index(after) + 1 if after is not None else 0
        return [copy.deepcopy(self._summaries[t.id]) for t in ended[start : start + limit]]

    def end_table(self, table_id: str, why: str, summary: dict[str, Any]) -> None:
        self._table(table_id).ended = why
        self._summaries[table_id] = copy.deepcopy(summary)

    def remove_table(self, table_id: str) -> None:
        self._table(table_id)
        self._removed.add(table_id)

    def add_chat(self, table_id: str, message: StoredChat) -> None:
        t = self._table(table_id)
        t.chat = [*t.chat, copy.copy(message)][-CHAT_KEPT:]

    def keep_summaries(self, summaries: Mapping[str, dict[str, Any]]) -> None:
        self._check_open()
        for table_id, summary in summaries.items():
            t = self._tables.get(table_id)
            if t is not None and t.ended is None and table_id not in self._removed:
                self._listed[table_id] = copy.deepcopy(summary)

    def summaries_in_progress(self) -> list[tuple[str, dict[str, Any] | None]]:
        return [(i, copy.deepcopy(self._listed.get(i))) for i in self.tables_in_progress()]

    def save_tournament(
        self, tournament: StoredTournament, tables: Sequence[StoredTable] = ()
    ) -> int:
        self._check_open()
        kept = self._tournaments.get(tournament.id)
        if (kept.version if kept is not None else 0) != tournament.version:
            raise TournamentChanged(
                f"tournament {tournament.id!r} was changed meanwhile "
                f"(not at version {tournament.version})"
            )
        ids = [t.id for t in tables]
        if len(set(ids)) != len(ids) or any(i in self._tables for i in ids):
            raise StorageError("a table of the round is stored already")
        if any(len(t.plays) != len(t.deals) for t in tables):
            raise StorageError("a table's plays come as one list per deal")
        version = tournament.version + 1
        created = kept.created if kept is not None else tournament.created
        self._tournaments[tournament.id] = StoredTournament(
            tournament.id, created, copy.deepcopy(tournament.doc), version
        )
        for t in tables:
            self._tables[t.id] = copy.deepcopy(t)
        return version

    def load_tournament(self, tournament_id: str) -> StoredTournament | None:
        self._check_open()
        return copy.deepcopy(self._tournaments.get(tournament_id))

    def load_tournaments(self) -> list[StoredTournament]:
        self._check_open()
        kept = sorted(self._tournaments.values(), key=lambda t: (t.created, t.id))
        return copy.deepcopy(kept)

    def close(self) -> None:
        self._closed = True

    def _table(self, table_id: str) -> StoredTable:
        self._check_open()
        t = self._tables.get(table_id)
        if t is None:
            raise StorageError(f"there is no table {table_id!r}")
        return t

    def _check_open(self) -> None:
        if self._closed:
            raise StorageError("the storage is closed")
