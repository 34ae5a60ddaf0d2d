"""The table service: tables over HTTP and WebSockets, stored, resumable.

``create_app`` builds the ASGI application; ``domeng serve`` runs it. The
protocol is docs/protocol.md.
"""

from .app import create_app
from .storage import SQLiteStorage, Storage
from .tables import Hub, TableError

__all__ = ["Hub", "SQLiteStorage", "Storage", "TableError", "create_app"]
