"""One process of several: its lease renewed, the tables of the dead taken over.

A service of several processes on one PostgreSQL database (docs/architecture.md,
"Several processes"; the database's side is :mod:`domeng.storage.leases`). Each
process runs one :class:`Leases`:

- at its start it joins (a new process id, its address for the others) and takes the
  tables nobody owns (at a cold start: all of them);
- every :data:`~domeng.storage.leases.RENEW` seconds a thread of its own renews its
  lease (one statement, on a connection of its own: no storage call, no batch, no
  request read from the database waits before it), while the event loop shows it is
  alive (it turned within the lease's seconds: a process whose loop hangs lets its
  tables go);
- as often, on the event loop, it drops the tables it finds taken over (it was stalled
  past its lease: their connections are closed, the browsers come back through a live
  process), and takes over the tables whose owner's lease ran out (:data:`LEASE`
  seconds after its last renewal): each is read from the database and rebuilt, and its
  computer players, clocks and stand-ins carry on here;
- a dedicated connection LISTENs on :data:`~domeng.storage.leases.CHANNEL`: a process
  that stops cleanly lets its tables go and says so, and the others look at once
  instead of at their next renewal; after the listening connection is lost and made
  again, the process looks too (what it may have missed is in the database);
- at its stop it lets its tables go.

A write of a table taken over meanwhile is refused by the database (fenced by its
epoch) and the table is dropped the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import threading
import time
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any, TypeVar

from domeng.storage import MemoryStorage, StorageWriter
from domeng.storage.leases import CHANNEL, EXTEND, LEASE, RENEW, Fenced, Leasing, Owner

if TYPE_CHECKING:
    import psycopg

log = logging.getLogger("domeng.server")

__all__ = ["LEASE", "RENEW", "Dropped", "Leases", "Owner"]

T = TypeVar("T")

RECONNECT = 1.0
"""Seconds between two tries to make the listening connection again."""


class Leases:
    """This process's part in a service of several; see the module docstring.

    ``adopt`` is called with the tables taken over (to read and set moving), ``drop``
    with each table lost."""

    def __init__(
        self,
        store: StorageWriter,
        address: str,
        *,
        adopt: Callable[[list[str]], Awaitable[None]],
        drop: Callable[[str], None],
    ) -> None:
        storage = store.storage
        if not isinstance(storage, Leasing):
            raise TypeError("several processes need a PostgreSQL database")
        self.storage: Leasing = storage
        self.store = store
        self.address = address
        self.process = secrets.token_hex(6)
        self._adopt = adopt
        self._drop = drop
        self._look = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._url: str = getattr(storage, "url", "")
        self._turned = time.monotonic()
        """When the event loop last showed it turns (read by the renewing thread)."""
        self._stop = threading.Event()
        self._renewing: threading.Thread | None = None

    async def start(self) -> list[str]:
        """Join, and take the tables nobody owns; answers them (for the caller to read)."""
        loop = asyncio.get_running_loop()

        def fenced(table_id: str) -> None:  # in the storage's thread
            with contextlib.suppress(RuntimeError):  # the loop is gone
                loop.call_soon_threadsafe(self._taken_over, table_id)

        self.storage.fenced = fenced
        await self.store.call(lambda s: s.join(self.process, self.address))
        taken = await self.store.call(lambda s: s.take_orphans())
        return [t for t, _ in taken]

    def run(self) -> None:
        """Begin renewing, looking and listening."""
        loop = asyncio.get_running_loop()
        self._tasks = [
            loop.create_task(self._keep()),
            loop.create_task(self._listen()),
            loop.create_task(self._turning()),
        ]
        self._renewing = threading.Thread(target=self._renew, name="domeng-lease", daemon=True)
        self._renewing.start()

    async def _turning(self) -> None:
        while True:
            self._turned = time.monotonic()
            await asyncio.sleep(RENEW / 2)

    def _renew(self) -> None:
        """In its own thread: the lease renewed every :data:`RENEW` seconds while the
        event loop turns, on a connection of its own (made again when lost)."""
        import psycopg

        conn: psycopg.Connection[Any] | None = None
        while not self._stop.wait(RENEW):
            if time.monotonic() - self._turned > LEASE:
                log.warning("the event loop has not turned for %.0f s: the lease is not renewed",
                            time.monotonic() - self._turned)  # fmt: skip
                continue
            try:
                if conn is None or conn.closed:
                    conn = psycopg.connect(self._url, autocommit=True, connect_timeout=5)
                conn.execute(EXTEND.replace("?", "%s"), (LEASE, self.process))
            except Exception as e:
                log.warning("could not renew the lease (%s); trying again", e)
                if conn is not None:
                    conn.close()
                conn = None
        if conn is not None:
            conn.close()

    async def owner(self, table_id: str) -> Owner | int | None:
        """Who owns ``table_id``: a live other process (:class:`Owner`), or this one,
        which takes it now if its owner's lease ran out (its epoch), or None (not in
        progress: anyone may read it)."""
        return await self.store.call(lambda s: s.take(table_id))

    async def _keep(self) -> None:
        while True:
            try:
                for table_id in await self.store.call(lambda s: s.lost()):
                    self._taken_over(table_id)
                taken = await self.store.call(lambda s: s.take_orphans())
                if taken:
                    log.warning("took over %d tables", len(taken))
                    await self._adopt([t for t, _ in taken])
            except asyncio.CancelledError:
                raise
            except Exception:
                log.exception("could not renew the lease or look for tables to take over")
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(RENEW):
                    await self._look.wait()
            self._look.clear()

    def _taken_over(self, table_id: str) -> None:
        """Another process owns ``table_id`` now: this one drops it, and says so. Learnt
        either way, whichever comes first after a stall: a write of the table refused
        (fenced), or the look at the leases (:meth:`_keep`); each forgets the table's
        epoch, so it is said once."""
        log.warning("table %s was taken over by another process", table_id)
        self._drop(table_id)

    async def _listen(self) -> None:
        import psycopg

        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self._url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    self._look.set()  # what was missed while not listening: look now
                    await self._heard(conn)
            except asyncio.CancelledError:
                raise
            except Exception as e:
                log.warning("the lease events' connection was lost (%s); making it again", e)
            await asyncio.sleep(RECONNECT)

    async def _heard(self, conn: psycopg.AsyncConnection[object]) -> None:
        async for note in conn.notifies():
            if not note.payload.endswith(self.process):  # another's: look now
                self._look.set()

    async def close(self) -> None:
        """Stop renewing; let this process's tables go, for the others to take at once."""
        self._stop.set()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(BaseException):
                await task
        if self._renewing is not None:
            await asyncio.to_thread(self._renewing.join, 10)
        try:
            await self.store.call(lambda s: s.let_go())
        except Exception:
            log.exception("could not let the tables go (the others take them once it runs out)")


class Dropped(StorageWriter):
    """The storage of a table this process dropped (another owns it now): whatever of the
    old table object is still on its way (a play awaiting its lock, a computer's move)
    writes nothing, ever, even once this process takes the table again."""

    def __init__(self, table_id: str) -> None:
        super().__init__(MemoryStorage())
        self.table_id = table_id

    async def _run(self, call: Callable[..., T], *args: object, quick: bool = False) -> T:
        raise Fenced(self.table_id)
