"""The list of tables in progress when the service is several processes.

``GET /api/tables`` lists every table in progress, the others' processes' too
(:mod:`.leases`). Rebuilding each of those from its record at every request (as the
list did at first) cost five queries and a replay per table, and still showed them
wrong: nobody connected, no turn clock (those live at the owner only). Instead each
process keeps, in the database, what the list shows of each table it owns (its
``public_json``, in the ``summary`` column that a finished table's summary uses too),
written every :data:`EVERY` seconds for the tables that changed since (one
transaction for all of them, each write fenced by the table's lease), and the list
reads the others' from there with one query (:meth:`Listing.tables`). A table whose
summary is not kept yet (made or taken over in the last second) is rebuilt as before.
What the list shows of another process's table is thus at most :data:`EVERY` seconds
old (its clock's ``deadline`` is a time of day, right whatever the age; ``left_ms``
is as old as the summary).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, cast

from domeng.storage import StorageWriter

from .documents import TableDoc
from .tables import Table

log = logging.getLogger("domeng.server")

EVERY = 1.0
"""Seconds between two writes of the summaries of the tables that changed."""


class Listed(NamedTuple):
    """A table in the list: what it is sorted and picked by, and what is shown of it
    (worked out only for the tables of the page shown)."""

    id: str
    created: float
    status: str
    shown: Callable[[], TableDoc]

    @classmethod
    def of(cls, t: Table) -> Listed:
        return cls(t.id, t.created, t.status, t.public_json)

    @classmethod
    def kept(cls, doc: TableDoc) -> Listed:
        return cls(doc["id"], doc["created"], doc["status"], lambda: doc)


class Listing:
    """This process's part of the list of tables of a service of several: the summaries
    of its own tables kept, the others' read (see the module docstring).

    ``mine`` answers this process's tables in memory; ``rebuild`` reads and rebuilds
    tables that have no summary kept yet."""

    def __init__(
        self,
        store: StorageWriter,
        mine: Callable[[], dict[str, Table]],
        rebuild: Callable[[list[str]], Awaitable[list[Table]]],
    ) -> None:
        self.store = store
        self._mine = mine
        self._rebuild = rebuild
        self._changed: set[str] = set()
        self._task: asyncio.Task[None] | None = None

    def changed(self, table_id: str) -> None:
        """A table of this process changed (``Table.broadcast``): its summary is kept
        again at the next write."""
        self._changed.add(table_id)

    def run(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._keep())

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _keep(self) -> None:
        while True:
            await asyncio.sleep(EVERY)
            try:
                await self.write()
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not keep the summaries of the tables for the list")

    async def write(self) -> None:
        """Keep the summaries of this process's tables in progress that changed."""
        changed, self._changed = self._changed, set()
        tables = self._mine()
        docs: dict[str, dict[str, Any]] = {}
        for table_id in changed:
            t = tables.get(table_id)
            if t is not None and not t.finished:
                docs[table_id] = cast(dict[str, Any], t.public_json())
        if docs:
            try:
                await self.store.call(lambda s: s.keep_summaries(docs))
            except BaseException:
                self._changed |= changed  # kept at the next write
                raise

    async def tables(self) -> list[Listed]:
        """Every table in progress, oldest first: this process's as they are now, the
        others' as their summaries were kept (rebuilt when none is kept yet)."""
        mine = self._mine()
        shown = [Listed.of(t) for t in mine.values()]
        kept = await self.store.call(lambda s: s.summaries_in_progress())
        missing: list[str] = []
        for table_id, summary in kept:
            if table_id in mine:
                continue
            if summary is None:
                missing.append(table_id)
            else:
                shown.append(Listed.kept(cast(TableDoc, summary)))
        shown += [Listed.of(t) for t in await self._rebuild(missing)]
        return sorted(shown, key=lambda x: (x.created, x.id))
