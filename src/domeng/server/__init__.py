"""The table service: tables over HTTP and WebSockets, stored, resumable.

``create_app`` builds the ASGI application; ``domeng serve`` runs it. The
protocol is docs/protocol.md.
"""

from domeng.storage import SQLiteStorage, Storage

from .app import create_app
from .errors import TableError
from .hub import Hub
from .registry import Registry

__all__ = ["Hub", "Registry", "SQLiteStorage", "Storage", "TableError", "create_app"]
