"""``GET /api/health``: is this process fit to serve, for a reverse proxy and a monitor.

It answers ``200`` with a small JSON document when the database answers a probe (one
read of one row, made in the storage's thread in order with every other call, so a
storage that is stuck behind its queue is seen too) within :data:`PROBE_TIMEOUT`
seconds, and ``503`` with the same document (``"ok": false``) when it does not: a
failing connection, a server that is down, a probe that takes too long. While one
probe is still out, the next request does not send another (the queue of a storage
that hangs would grow with every check): it answers ``503`` at once.

The document holds figures only, never a name or an id: whether the database answered
and how fast, the tables in play in this process, its WebSockets, how long the process
has run, its processor time and its largest memory.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from typing import TYPE_CHECKING, TypedDict

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from domeng import __version__

if TYPE_CHECKING:
    from domeng.storage import Storage

    from .registry import Registry

PROBE_TIMEOUT = 3.0
"""Seconds the database has to answer the probe before the process is called unfit."""


class HealthTablesDoc(TypedDict):
    in_play: int
    """Games in progress held by this process."""
    in_memory: int
    """Every table in its memory (also the finished ones someone is at)."""


class HealthConnectionsDoc(TypedDict):
    open: int
    """WebSockets open on this process."""
    watching: int
    """Of them, the spectators'."""


class HealthProcessDoc(TypedDict):
    pid: int
    uptime_seconds: float
    cpu_seconds: float
    """Processor time used since the process started (all its threads)."""
    max_memory_mb: float | None
    """The largest resident memory the process has had (None where the system does
    not tell)."""


class HealthDoc(TypedDict):
    """``GET /api/health``'s answer (200 and 503 alike)."""

    ok: bool
    version: str
    database: bool
    """The database answered the probe in time."""
    database_ms: float | None
    """How long the probe took (None: it did not answer)."""
    tables: HealthTablesDoc
    connections: HealthConnectionsDoc
    process: HealthProcessDoc


def probe(storage: Storage) -> None:
    """One read of the database (a table that cannot exist): it raises if the database
    cannot be reached."""
    storage.load_table("")


def max_memory_mb() -> float | None:
    """The process's largest resident memory so far, in MiB (None: not known here)."""
    try:
        import resource
    except ImportError:  # Windows
        return None
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    # Linux counts kibibytes, macOS bytes
    return round(peak / (1024 * 1024 if sys.platform == "darwin" else 1024), 1)


class Health:
    """The probe and the figures of one process (``app.state.health``)."""

    def __init__(self, hub: Registry) -> None:
        self.hub = hub
        self.started = hub.clock.now()
        self._out: asyncio.Future[None] | None = None
        """The probe still out, if any."""

    async def reach(self) -> float | None:
        """Milliseconds the database took to answer the probe; None if it did not answer
        (an error, :data:`PROBE_TIMEOUT` passed, or the last probe is still out)."""
        if self._out is not None and not self._out.done():
            return None
        began = time.perf_counter()
        out = asyncio.ensure_future(self.hub.store.call(probe))
        self._out = out
        try:
            await asyncio.wait_for(asyncio.shield(out), PROBE_TIMEOUT)
        except Exception:  # TimeoutError too (the probe stays out: see the docstring)
            return None
        return round((time.perf_counter() - began) * 1000, 1)

    async def doc(self) -> HealthDoc:
        took = await self.reach()
        hub = self.hub
        in_play = sum(1 for t in hub.tables.values() if not t.finished)
        return {
            "ok": took is not None,
            "version": __version__,
            "database": took is not None,
            "database_ms": took,
            "tables": {"in_play": in_play, "in_memory": len(hub.tables)},
            "connections": {
                "open": hub.connections.total,
                "watching": hub.connections.spectators,
            },
            "process": {
                "pid": os.getpid(),
                "uptime_seconds": round(hub.clock.now() - self.started, 1),
                "cpu_seconds": round(time.process_time(), 2),
                "max_memory_mb": max_memory_mb(),
            },
        }


async def health(request: Request) -> Response:
    """``GET /api/health``: 200 when this process is fit to serve, else 503."""
    doc = await request.app.state.health.doc()
    return JSONResponse(
        doc, status_code=200 if doc["ok"] else 503, headers={"Cache-Control": "no-store"}
    )
