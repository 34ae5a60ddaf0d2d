"""A long answer sent from a file, a piece at a time, with write deadlines.

A whole game's replay is tens of megabytes, written by the worker to a temporary file
(:mod:`.replays`). A client that asks for it and never reads it held that file and
its connection for as long as it liked: ten such requests held 394 MB of temporary
files for minutes. :class:`StreamedFile` sends the file in pieces; each piece must be
taken by the client within :data:`WRITE_IDLE` seconds, and the whole within
:data:`WRITE_TOTAL`, or the service gives the client up (its connection is reset:
:meth:`~domeng.server.protocols.DeadlineHTTP.give_up`). However the answer ends, the
file is removed and ``done`` is called (the work under way is counted as over).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.responses import Response
from starlette.types import Receive, Scope, Send

from .protocols import GIVE_UP

WRITE_IDLE = 20.0
"""Seconds a client may leave a piece of the answer unread."""
WRITE_TOTAL = 300.0
"""Seconds the whole answer may take."""
PIECE = 1 << 16
"""Bytes sent at a time."""


class StreamedFile(Response):
    """The file at ``path``, sent with write deadlines, then removed; ``done()`` after."""

    def __init__(
        self,
        path: Path,
        *,
        media_type: str,
        done: Callable[[], None] = lambda: None,
        idle: float | None = None,
        total: float | None = None,
    ) -> None:
        super().__init__(media_type=media_type)
        self.path = path
        self.done = done
        self.idle = WRITE_IDLE if idle is None else idle
        self.total = WRITE_TOTAL if total is None else total

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            with self.path.open("rb") as f:
                stat = os.fstat(f.fileno())
                self.headers["content-length"] = str(stat.st_size)
                tag = hashlib.md5(f"{stat.st_mtime}-{stat.st_size}".encode(), usedforsecurity=False)
                self.headers["etag"] = f'"{tag.hexdigest()}"'  # as a file's answer has
                try:
                    async with asyncio.timeout(self.total):
                        await self._send(f, send)
                except TimeoutError:  # a client that does not read: given up
                    give_up: Any = scope.get("extensions", {}).get(GIVE_UP, {}).get("give_up")
                    if give_up is not None:
                        give_up()
        finally:
            with contextlib.suppress(OSError):
                self.path.unlink()
            self.done()

    async def _send(self, f: Any, send: Send) -> None:
        async with asyncio.timeout(self.idle):
            await send({"type": "http.response.start", "status": 200, "headers": self.raw_headers})
        while piece := f.read(PIECE):
            async with asyncio.timeout(self.idle):
                await send({"type": "http.response.body", "body": piece, "more_body": True})
        async with asyncio.timeout(self.idle):
            await send({"type": "http.response.body", "body": b"", "more_body": False})
