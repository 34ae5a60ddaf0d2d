"""Which storage ``--db`` names: a PostgreSQL database's URL, or a SQLite file.

PostgreSQL's driver is imported only for a URL: a home player's service, on its
SQLite file, never loads it.
"""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from .base import Storage
from .sqlite import SQLiteStorage

SCHEMES = ("postgresql://", "postgres://")
"""How a PostgreSQL database's URL begins (libpq's two names)."""


def is_postgres(where: str | Path) -> bool:
    """Whether ``where`` names a PostgreSQL database (else it is a SQLite file)."""
    return isinstance(where, str) and where.startswith(SCHEMES)


def open_storage(where: str | Path, *, service: bool = False) -> Storage:
    """The storage ``where`` names, its schema brought up to date. ``service``: opened
    by ``domeng serve``, the one service of that database (a second one is refused)."""
    if is_postgres(where):
        from .postgres import PostgresStorage

        return PostgresStorage(str(where), service=service, shown=shown(where))
    return SQLiteStorage(where, service=service)


def shown(where: str | Path) -> str:
    """``where`` as it may be printed: a URL without its password."""
    if not is_postgres(where):
        return str(where)
    parts = urlsplit(str(where))
    if parts.password is None:
        return str(where)
    user = parts.username or ""
    host = parts.netloc.rpartition("@")[2]
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))
