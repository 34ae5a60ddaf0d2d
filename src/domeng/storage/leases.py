"""Leases: which process of a service owns each table in play (PostgreSQL only).

Several ``domeng serve`` processes on one PostgreSQL database are one service; each
table in progress is owned by one of them at a time, the only one that writes it
(docs/architecture.md, "Several processes"). What the database keeps (schema step 9):

- ``processes``: one row per process, its id (new at every start), the address the
  others reach it at, and when its lease runs out (``expires``, the database's clock in
  Unix seconds: the processes' own clocks are never compared). The process renews it
  every :data:`RENEW` seconds, by one statement of one row however many tables it
  has: a table's lease is its owner's (:data:`LEASE` seconds).
- ``leases``: one row per table in progress: its ``owner`` (a process's id, or NULL
  when let go) and its ``epoch``, which grows by one at every takeover.

**Fencing.** Every write of a table (a play, a deal, a seat, a line of chat, its end)
first reads the table's lease row ``FOR SHARE`` and goes on only if the epoch is the
one this process took (:meth:`Leasing._fence`); else it changes nothing, raises
:class:`Fenced`, and tells the process to drop the table (:attr:`Leasing.fenced`). The
share lock is held to the write's commit, and a takeover is an ``UPDATE`` of that row:
a write either commits before the takeover is made (so the new owner reads it), or
waits for it and is refused. A write in a batch fences each table once.

A table that ends has its lease row deleted (in the same transaction): a finished
table is only read, by whichever process is asked. SQLite keeps one service per file
(:mod:`.servicelock`): it has no leases, and both tables stay empty.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from .base import StorageError
from .sql import Db, SQLStorage

LEASE = 3.0
"""Seconds a process's lease lasts from its last renewal."""
RENEW = 1.0
"""Seconds between two renewals (a lease outlives two renewals missed)."""
TAKE_BATCH = 500
"""Tables one process takes over from the dead in one go (the rest at its next look)."""
LOOKS_BEFORE_ALL = 2
"""Looks in a row a table is seen unowned by a process before it takes it whatever its
share (:meth:`Leasing.take_orphans`)."""

CHANNEL = "domeng_leases"
"""The LISTEN/NOTIFY channel of the lease events: ``let_go <process>`` when a process
stops and lets its tables go, ``taken <table> <epoch>`` when one is taken over."""

_NOW = "EXTRACT(EPOCH FROM now())"

EXTEND = f"UPDATE processes SET expires = {_NOW} + ? WHERE id = ?"
"""A process's renewal: one statement of one row, whatever its tables (values: the
lease's seconds, the process's id). The service makes it on a connection of its own
(:mod:`domeng.server.leases`), so that no storage call waits before it."""


class Fenced(StorageError):
    """A write of a table this process no longer owns (another took it over, with a
    newer epoch): nothing was written; the process drops the table."""

    def __init__(self, table_id: str) -> None:
        super().__init__(f"table {table_id!r} is owned by another process now")
        self.table_id = table_id


@dataclass(frozen=True, slots=True)
class Owner:
    """Who owns a table in progress: a live process, and where the others reach it."""

    process: str
    address: str


def _nothing(table_id: str) -> None:
    """No process listens for the tables it loses."""


class Leasing(SQLStorage):
    """A SQL storage whose tables are leased (PostgreSQL's): its writes of a table
    fenced (:meth:`SQLStorage._fence` and the hooks beside it); see the module docstring.

    :attr:`process` is None until :meth:`join`: a storage that does not take part
    (a test's, a tool's) writes unfenced. Its calls run in the storage's thread, like
    every other (:class:`~domeng.storage.writer.StorageWriter`)."""

    process: str | None = None
    epochs: dict[str, int]
    """The tables this process owns, with the epoch it took each at."""
    fenced: Callable[[str], None]
    """Called (in the storage's thread) with a table a write found taken over."""

    def _init_leases(self) -> None:
        self.epochs = {}
        self._orphans_seen: dict[str, int] = {}
        """The tables left unowned at this process's last look, with how many looks in a
        row they were (:meth:`take_orphans`)."""
        self.fenced = _nothing
        self._fenced_in_batch: set[str] = set()

    # -- fencing (every write of a table) ---------------------------------------------

    def _fence(self, db: Db, table_id: str) -> None:
        """Refuse (:class:`Fenced`) a write of ``table_id`` unless this process holds its
        lease at the epoch it took; a table without a lease (finished) is anyone's."""
        if self.process is None or table_id in self._fenced_in_batch:
            return
        row = db.execute(
            "SELECT owner, epoch FROM leases WHERE table_id = ? FOR SHARE", (table_id,)
        ).fetchone()
        if row is not None and (row[0] != self.process or row[1] != self.epochs.get(table_id)):
            self.epochs.pop(table_id, None)
            self.fenced(table_id)
            raise Fenced(table_id)
        if self._in_batch():
            self._fenced_in_batch.add(table_id)

    def _holds(self, db: Db, table_id: str) -> bool:
        if self.process is None:
            return True
        row = db.execute(
            "SELECT owner, epoch FROM leases WHERE table_id = ? FOR SHARE", (table_id,)
        ).fetchone()
        return row is not None and row[0] == self.process and row[1] == self.epochs.get(table_id)

    def _in_batch(self) -> bool:
        return False

    def _batch_over(self) -> None:
        self._fenced_in_batch.clear()

    def _lease_new(self, db: Db, table_id: str) -> None:
        """A new table, made by this process: its lease, epoch 1."""
        if self.process is None:
            return
        db.execute(
            "INSERT INTO leases (table_id, owner, epoch) VALUES (?, ?, 1)", (table_id, self.process)
        )
        self.epochs[table_id] = 1

    def _lease_over(self, db: Db, table_id: str) -> None:
        """The table ended (its write fenced already): its lease goes."""
        if self.process is None:
            return
        db.execute("DELETE FROM leases WHERE table_id = ?", (table_id,))
        self.epochs.pop(table_id, None)

    # -- the process's lease ----------------------------------------------------------

    def join(self, process: str, address: str) -> None:
        """This storage's process takes part in the leases, as ``process`` (a new id),
        reached at ``address``; its lease starts now."""
        with self._tx() as db:
            db.execute(
                f"INSERT INTO processes (id, address, expires) VALUES (?, ?, {_NOW} + ?)",
                (process, address, LEASE),
            )
            # an earlier process at this address is gone (two cannot listen at one
            # address): its lease is over now, and its tables are taken at once
            db.execute(
                f"UPDATE processes SET expires = {_NOW} - 1 WHERE address = ? AND id <> ?",
                (address, process),
            )
        self.process = process

    def renew(self) -> list[str]:
        """Renew this process's lease (:data:`EXTEND`), and answer :meth:`lost`."""
        if self.process is None:
            return []
        with self._tx() as db:
            db.execute(EXTEND, (LEASE, self.process))
        return self.lost()

    def lost(self) -> list[str]:
        """The tables this process believed it owned and owns no more (taken over while
        it was stalled): it drops them."""
        me = self.process
        if me is None:
            return []
        with self._read() as db:
            held = {t: e for t, e in db.execute(
                "SELECT table_id, epoch FROM leases WHERE owner = ?", (me,)
            )}  # fmt: skip
        lost = [t for t, e in list(self.epochs.items()) if held.get(t) != e]
        for t in lost:
            self.epochs.pop(t, None)
        return lost

    def take_orphans(self, limit: int = TAKE_BATCH) -> list[tuple[str, int]]:
        """Take over tables in progress whose owner's lease ran out (or that have none):
        each one's epoch grows by one; answers them with their new epochs, for the
        process to read and rebuild.

        **Its share, not all of them.** Each live process looks on its own, once a
        second: the first to look after a process died took all its tables, and one
        survivor of three then had twice the tables of the other. A process takes no
        more than brings it to an even share of every table in progress
        among the live processes (rounded up): the others take the rest at their own
        looks (at once: a takeover is told on :data:`CHANNEL`), a second later at most.
        A table left unowned at :data:`LOOKS_BEFORE_ALL` looks in a row is taken
        whatever the share (a live process that does not take its share)."""
        me = self.process
        if me is None:
            return []
        orphaned = (
            "FROM leases l LEFT JOIN processes p ON p.id = l.owner "
            f"WHERE (p.id IS NULL OR p.expires < {_NOW}) AND l.owner IS DISTINCT FROM ?"
        )
        with self._tx() as db:
            db.execute(  # tables in progress made before leases: a lease nobody holds
                "INSERT INTO leases (table_id, owner, epoch) "
                "SELECT id, NULL, 0 FROM tables t WHERE ended IS NULL AND removed = 0 "
                "AND NOT EXISTS (SELECT 1 FROM leases l WHERE l.table_id = t.id) "
                "ON CONFLICT DO NOTHING"
            )
            live, total, mine = db.execute(
                f"SELECT (SELECT COUNT(*) FROM processes WHERE expires >= {_NOW}), "
                "(SELECT COUNT(*) FROM leases), (SELECT COUNT(*) FROM leases WHERE owner = ?)",
                (me,),
            ).fetchone()
            share = max(0, -(-int(total) // max(int(live), 1)) - int(mine))
            waited = sorted(t for t, n in self._orphans_seen.items() if n >= LOOKS_BEFORE_ALL)
            taken = [
                (str(t), int(e))
                for t, e in db.execute(
                    "UPDATE leases SET owner = ?, epoch = epoch + 1 WHERE table_id IN ("
                    f"  SELECT l.table_id {orphaned} "
                    "  ORDER BY l.table_id = ANY(?) DESC, l.table_id LIMIT ? "
                    "  FOR UPDATE OF l SKIP LOCKED"
                    ") RETURNING table_id, epoch",
                    (me, me, waited, min(limit, max(share, len(waited)))),
                )
            ]
            seen = self._orphans_seen
            self._orphans_seen = {
                str(t): seen.get(str(t), 0) + 1
                for (t,) in db.execute(f"SELECT l.table_id {orphaned}", (me,))
            }
            for t, e in taken:
                self.epochs[t] = e
            if taken:
                db.execute(f"SELECT pg_notify('{CHANNEL}', ?)", (f"taken {len(taken)} {me}",))
        return taken

    def take(self, table_id: str) -> Owner | int | None:
        """``table_id``'s owner, when a live process other than this one holds it; else
        this process takes it (answers its new epoch); None when it has no lease (not
        in progress). The lease row is read without a lock (a relayed request asks this
        for every connection), and taken by comparing its epoch, so two processes
        taking it at once cannot both have it."""
        me = self.process
        if me is None:
            return None
        while True:
            with self._tx() as db:
                row = db.execute(
                    f"SELECT l.owner, l.epoch, p.address, p.expires >= {_NOW} "
                    "FROM leases l LEFT JOIN processes p ON p.id = l.owner "
                    "WHERE l.table_id = ?",
                    (table_id,),
                ).fetchone()
                if row is None:
                    return None
                owner, epoch, address, alive = row
                if owner == me and self.epochs.get(table_id) == epoch:
                    return int(epoch)
                if owner is not None and owner != me and alive:
                    return Owner(str(owner), str(address))
                taken = db.execute(
                    "UPDATE leases SET owner = ?, epoch = epoch + 1 "
                    "WHERE table_id = ? AND epoch = ? RETURNING epoch",
                    (me, table_id, epoch),
                ).fetchone()
                if taken is not None:
                    self.epochs[table_id] = int(taken[0])
                    return int(taken[0])
            # another took it meanwhile: read again who

    def owner(self, table_id: str) -> Owner | None:
        """The live process, other than this one, that owns ``table_id`` (None: none)."""
        me = self.process
        if me is None:
            return None
        with self._read() as db:
            row = db.execute(
                "SELECT l.owner, p.address FROM leases l JOIN processes p ON p.id = l.owner "
                f"WHERE l.table_id = ? AND p.expires >= {_NOW} AND l.owner <> ?",
                (table_id, me),
            ).fetchone()
        return None if row is None else Owner(str(row[0]), str(row[1]))

    def let_go(self) -> None:
        """This process stops: its tables' leases are let go and the others told
        (they take them at once), its own lease forgotten."""
        me = self.process
        if me is None:
            return
        with self._tx() as db:
            db.execute("UPDATE leases SET owner = NULL WHERE owner = ?", (me,))
            db.execute("DELETE FROM processes WHERE id = ?", (me,))
            db.execute(f"SELECT pg_notify('{CHANNEL}', ?)", (f"let_go {me}",))
        self.epochs.clear()
        self.process = None
