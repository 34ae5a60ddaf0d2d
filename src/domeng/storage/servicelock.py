"""One service per SQLite file: a lock file beside it, held while the service runs.

``domeng stats`` and ``domeng play --player`` open the file the service uses and read
and write it alongside the service (SQLite's write-ahead log lets readers and one
writer at a time share a file, each write waiting its turn). A second ``domeng serve``
on the same file would play the same tables twice, so the service alone takes this
lock: ``<file>.service.lock``, locked with the system's own file lock (``flock``;
``msvcrt.locking`` on Windows, through :mod:`filelock`), which the system lets go when the
process ends, even by SIGKILL, so a dead service never keeps the next one out.

Why a lock file and not SQLite's own locking: SQLite's only lock that keeps a second
service out (``locking_mode=EXCLUSIVE``) keeps every other reader and writer out too,
which is what made ``domeng stats`` refuse while the service ran; SQLite has no lock
that a program may take for a purpose of its own.
"""

from __future__ import annotations

from pathlib import Path

import filelock


class DatabaseServed(Exception):
    """Another service uses the database (a SQLite file, or a PostgreSQL database:
    :mod:`.postgres`); nothing was opened."""

    def __init__(self, path: Path | str) -> None:
        super().__init__(f"another domeng serve is using the database {path}")
        self.path = path


class ServiceLock:
    """The lock of the service on the SQLite file ``path``, taken at once or refused
    (:class:`DatabaseServed`); :meth:`release` lets it go."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._lock = filelock.FileLock(lock_path(path), timeout=0)
        try:
            self._lock.acquire()
        except filelock.Timeout:
            raise DatabaseServed(path) from None

    def release(self) -> None:
        self._lock.release()


def lock_path(path: Path) -> Path:
    """The lock file of the SQLite file ``path``."""
    return path.with_name(path.name + ".service.lock")
