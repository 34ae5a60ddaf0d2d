"""One WebSocket at a table, as the hub sees it: its seat and its outbox."""

from __future__ import annotations

import asyncio

import orjson

from .documents import Json

QUEUE_LIMIT = 512
"""Messages waiting for a slow connection before it is closed."""
QUEUE_BYTES = 2_000_000
"""Characters waiting for a slow connection before it is closed (whichever comes first)."""


def encode(message: Json) -> str:
    """A message as the JSON text sent: compact, with orjson (an update is the most
    of the service's work, and orjson encodes one about ten times as fast as the
    standard library). Seat numbers as keys become strings, as in JSON."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Connection:
    """One WebSocket at a table: its seat (None for a spectator) and its outbox.

    Messages are queued without waiting and written in order by the socket's
    writer (which calls :meth:`sent` for each); a connection that falls
    :data:`QUEUE_LIMIT` messages or :data:`QUEUE_BYTES` characters behind is closed.
    A message sent to many connections is encoded once (:meth:`send_text`).
    """

    def __init__(self) -> None:
        self.seat: int | None = None
        self.hello = False
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000
        """The WebSocket close code the writer closes with (1008 for one too far behind)."""
        self.queued = 0
        """Characters queued and not yet written."""

    def send(self, message: Json) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str) -> None:
        """Queue a message already encoded (:func:`encode`)."""
        if self.closed:
            return
        if self.outbox.qsize() >= QUEUE_LIMIT or self.queued + len(text) > QUEUE_BYTES:
            # It sends faster than it reads its answers: say why, then close.
            words = f"this connection fell {QUEUE_LIMIT} messages behind and is closed"
            error = {"type": "error", "code": "too_far_behind", "message": words}
            self._put(encode({**error, "reply_to": None}))
            self.close_code = 1008
            self.close()
            return
        self._put(text)

    def _put(self, text: str) -> None:
        self.queued += len(text)
        self.outbox.put_nowait(text)

    def sent(self, text: str) -> None:
        """The writer wrote ``text``."""
        self.queued -= len(text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)
