"""One WebSocket at a table, as the hub sees it: its seat and its outbox."""

from __future__ import annotations

import asyncio
import json

from .documents import Json

QUEUE_LIMIT = 512
"""Messages waiting for a slow connection before it is closed."""


class Connection:
    """One WebSocket at a table: its seat (None for a spectator) and its outbox.

    Messages are queued without waiting and written in order by the socket's
    writer; a connection that falls ``QUEUE_LIMIT`` messages behind is closed.
    """

    def __init__(self) -> None:
        self.seat: int | None = None
        self.hello = False
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000
        """The WebSocket close code the writer closes with (1008 for one too far behind)."""

    def send(self, message: Json) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= QUEUE_LIMIT:
            # It sends faster than it reads its answers: say why, then close.
            text = f"this connection fell {QUEUE_LIMIT} messages behind and is closed"
            self._put(
                {"type": "error", "code": "too_far_behind", "message": text, "reply_to": None}
            )
            self.close_code = 1008
            self.close()
            return
        self._put(message)

    def _put(self, message: Json) -> None:
        self.outbox.put_nowait(json.dumps(message, separators=(",", ":"), allow_nan=False))

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)
