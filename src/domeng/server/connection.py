"""One WebSocket at a table, as the hub sees it: its seat and its outbox."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import orjson

from .documents import Json

QUEUE_LIMIT = 512
"""Messages waiting for a slow connection before it is closed."""
QUEUE_BYTES = 2_000_000
"""Characters waiting for a slow connection before it is closed (whichever comes first)."""

WriteFrame = Callable[[bytes], bool]
"""Writes a framed WebSocket message straight to a socket that takes it at once;
answers False (and writes nothing) when it would have to wait (see ``protocols.py``)."""


def encode(message: Json) -> str:
    """A message as the JSON text sent: compact, with orjson (an update is the most
    of the service's work, and orjson encodes one about ten times as fast as the
    standard library). Seat numbers as keys become strings, as in JSON."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def frame(text: str) -> bytes:
    """``text`` as one unmasked, uncompressed WebSocket text frame (RFC 6455, 5.2): the
    bytes a service sends, the same for every connection (no extension is agreed)."""
    data = text.encode()
    n = len(data)
    if n < 126:
        head = bytes((0x81, n))
    elif n < 65_536:
        head = bytes((0x81, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((0x81, 127)) + n.to_bytes(8, "big")
    return head + data


class Connection:
    """One WebSocket at a table: its seat (None for a spectator) and its outbox.

    A message goes straight to the socket, framed, when nothing waits before it and the
    socket takes it at once (``write_frame``, given by the socket; a message sent to
    many connections is encoded and framed once, :meth:`send_text`). Otherwise it is
    queued without waiting and written in order by the socket's writer (which marks
    itself :attr:`busy` and calls :meth:`sent` for each); a connection that falls
    :data:`QUEUE_LIMIT` messages or :data:`QUEUE_BYTES` characters behind is closed.
    """

    def __init__(self, write_frame: WriteFrame | None = None) -> None:
        self.seat: int | None = None
        self.hello = False
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000
        """The WebSocket close code the writer closes with (1008 for one too far behind)."""
        self.queued = 0
        """Characters queued and not yet written."""
        self.busy = False
        """The writer holds a message it has not finished writing."""
        self.write_frame = write_frame

    def send(self, message: Json) -> None:
        self.send_text(encode(message))

    def send_text(self, text: str, framed: bytes | None = None) -> None:
        """Queue a message already encoded (:func:`encode`), and framed (:func:`frame`)
        when it goes to many connections."""
        if self.closed:
            return
        write = self.write_frame
        if write is not None and not self.busy and self.outbox.empty():  # noqa: SIM102
            if write(frame(text) if framed is None else framed):
                return  # written, in order: nothing was waiting before it
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
