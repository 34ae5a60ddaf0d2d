"""One WebSocket at a table, as the table sees it: its seat and its outbox."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Protocol

import orjson

from .documents import Error, ServiceMessage
from .frames import Framed

if TYPE_CHECKING:
    from .limits import Place

QUEUE_LIMIT = 512
"""Messages waiting for a slow connection before it is closed."""
QUEUE_BYTES = 2_000_000
"""Characters waiting for a slow connection before it is closed (whichever comes first)."""


class FrameSink(Protocol):
    """A socket that takes frames (``protocols.AbortingWebSocket``)."""

    def write_frame(self, framed: Framed) -> bool:
        """Write the message's frame at once if the socket takes it without waiting; else
        write nothing and answer False."""
        ...

    async def send_frame(self, framed: Framed) -> None:
        """Write the message's frame once the socket can take it."""
        ...


def encode(message: ServiceMessage) -> str:
    """A message as the JSON text sent: compact, with orjson (an update is the most
    of the service's work, and orjson encodes one about ten times as fast as the
    standard library). Seat numbers as keys become strings, as in JSON."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


class Connection:
    """One WebSocket at a table: its seat (None for a spectator) and its outbox.

    A message goes straight to the socket, framed, when nothing waits before it and the
    socket takes it at once (the ``sink``, given by the socket; a message sent to many
    connections is encoded and framed once, :meth:`send_framed`). Otherwise it is
    queued without waiting and written in order by the socket's writer (which marks
    itself :attr:`busy` and calls :meth:`sent` for each); a connection that falls
    :data:`QUEUE_LIMIT` messages or :data:`QUEUE_BYTES` characters behind is closed.
    """

    def __init__(self, sink: FrameSink | None = None, *, address: str = "") -> None:
        self.address = address
        """The client's address (the fair shares of work under way are counted by it)."""
        self.seat: int | None = None
        self.hello = False
        self.outbox: asyncio.Queue[Framed | None] = asyncio.Queue()
        self.closed = False
        self.close_code = 1000
        """The WebSocket close code the writer closes with (1008 for one too far behind)."""
        self.queued = 0
        """Characters queued and not yet written."""
        self.busy = False
        """The writer holds a message it has not finished writing."""
        self.sink = sink
        self.place: Place | None = None
        """Its place among the service's WebSockets (limits.Connections), once counted."""
        self.member: str | None = None
        """In a club: the signed-in member this connection is (club/gate.py)."""

    def send(self, message: ServiceMessage) -> None:
        self.send_framed(Framed(encode(message)))

    def send_framed(self, framed: Framed) -> None:
        """Send a message already encoded (:func:`encode`): one :class:`Framed` for every
        connection it goes to, framed once for them all."""
        if self.closed:
            return
        sink = self.sink
        if sink is not None and not self.busy and self.outbox.empty():  # noqa: SIM102
            if sink.write_frame(framed):
                return  # written, in order: nothing was waiting before it
        if self.outbox.qsize() >= QUEUE_LIMIT or self.queued + len(framed.text) > QUEUE_BYTES:
            # It sends faster than it reads its answers: say why, then close.
            words = f"this connection fell {QUEUE_LIMIT} messages behind and is closed"
            error: Error = {
                "type": "error",
                "code": "too_far_behind",
                "message": words,
                "reply_to": None,
            }
            self._put(Framed(encode(error)))
            self.close_code = 1008
            self.close()
            return
        self._put(framed)

    def _put(self, framed: Framed) -> None:
        self.queued += len(framed.text)
        self.outbox.put_nowait(framed)

    def sent(self, framed: Framed) -> None:
        """The writer wrote ``framed``."""
        self.queued -= len(framed.text)

    def close(self) -> None:
        if not self.closed:
            self.closed = True
            self.outbox.put_nowait(None)
