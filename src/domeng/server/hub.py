"""The service's core under its first name: :class:`Hub` is the
:class:`~domeng.server.registry.Registry` (every table in play, by id), and a table's
changes are its own (:class:`~domeng.server.tables.Table`). Kept so that what imports
the hub by that name goes on working."""

from __future__ import annotations

from .registry import Created, Registry

Hub = Registry

__all__ = ["Created", "Hub"]
