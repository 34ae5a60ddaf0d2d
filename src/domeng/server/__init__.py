"""The table service: tables over HTTP and WebSockets, stored, resumable.

``create_app`` builds the ASGI application; ``domeng serve`` runs it. The
protocol is docs/protocol.md.
"""

from .app import create_app
from .hub import Hub
from .storage import SQLiteStorage, Storage
from .tables import TableError

__all__ = ["Hub", "SQLiteStorage", "Storage", "TableError", "create_app"]
