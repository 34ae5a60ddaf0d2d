"""The table service: tables over HTTP and WebSockets, stored, resumable.

``create_app`` builds the ASGI application; ``domeng serve`` runs it. The
protocol is docs/protocol.md.

The names below are imported when first asked for (:func:`__getattr__`), not with
the package: a worker process imports only the modules of its work
(:data:`.workers.PRELOAD`), not the whole service (0.6 s of CPU for each service's
forkserver here, before).
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from domeng.storage import SQLiteStorage, Storage

    from .app import create_app
    from .errors import TableError
    from .hub import Hub
    from .registry import Registry

__all__ = ["Hub", "Registry", "SQLiteStorage", "Storage", "TableError", "create_app"]

_WHERE = {
    "Hub": ".hub",
    "Registry": ".registry",
    "SQLiteStorage": "domeng.storage",
    "Storage": "domeng.storage",
    "TableError": ".errors",
    "create_app": ".app",
}


def __getattr__(name: str) -> object:
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(where, __name__), name)
    globals()[name] = value  # found at once the next time
    return value
