"""A message's WebSocket frames, made once for every connection it goes to.

The service frames its messages itself (RFC 6455, 5.2) and writes the frames straight
to each socket (``protocols.py``): an update to five hundred spectators is encoded
and framed once, not five hundred times.

A client that agrees to permessage-deflate (RFC 7692; browsers and the ``websockets``
library offer it) gets long messages for many connections compressed, once for them
all. The service agrees to it only with ``server_no_context_takeover``: each message
it sends is compressed on its own, so the same compressed bytes are right for every
such connection, and a message compressed for one connection or sent plain does not
upset the next. The batch a crowd of spectators gets from a table at full speed
(hundreds of events, about 90 KB) shrinks about ten times, and writing it to a
thousand sockets took 20 ms of the loop instead of 25-54 ms (``benchmarks/crowd.py``,
on a machine busy with other work). A message to one connection is sent plain unless
it is long (:data:`ALONE_FROM`): for a few kilobytes, compressing costs more than it
saves on a home network.
"""

from __future__ import annotations

import zlib

WINDOW_BITS = 15
"""The compression window (2**15 bytes). A client that asks for a smaller one gets
every message plain."""
LEVEL, MEMORY = 1, 5
"""zlib's fastest level, with a smaller hash table: a 100 KB batch in 0.2 ms, a 3 KB
update in 25 us (level 6 and zlib's usual memory took four times as long and gained a
twentieth)."""
SHARED_FROM = 512
"""Characters from which a message to several connections is compressed."""
ALONE_FROM = 16_384
"""Characters from which a message to one connection is compressed."""
_TEXT = 0x81  # FIN and the text opcode
_COMPRESSED = 0xC1  # FIN, RSV1 (permessage-deflate: compressed) and the text opcode
_TAIL = b"\x00\x00\xff\xff"  # what a sync flush ends with, left off (RFC 7692, 7.2.1)


def _framed(first: int, data: bytes) -> bytes:
    """One unmasked frame holding ``data`` (a server's frames are not masked)."""
    n = len(data)
    if n < 126:
        head = bytes((first, n))
    elif n < 65_536:
        head = bytes((first, 126)) + n.to_bytes(2, "big")
    else:
        head = bytes((first, 127)) + n.to_bytes(8, "big")
    return head + data


def frame(text: str) -> bytes:
    """``text`` as one unmasked, uncompressed WebSocket text frame."""
    return _framed(_TEXT, text.encode())


def deflated_frame(text: str) -> bytes:
    """``text`` as one unmasked text frame compressed on its own (permessage-deflate
    with no context taken over: it can be read whatever was sent before it)."""
    z = zlib.compressobj(LEVEL, zlib.DEFLATED, -WINDOW_BITS, MEMORY)
    data = z.compress(text.encode()) + z.flush(zlib.Z_SYNC_FLUSH)
    return _framed(_COMPRESSED, data[: -len(_TAIL)])


class Framed:
    """A message's JSON text, with its frames made when first asked for: plain, and
    compressed for the connections that agreed to it."""

    __slots__ = ("_deflated", "_plain", "shared", "text")

    def __init__(self, text: str, *, shared: bool = False) -> None:
        self.text = text
        self.shared = shared
        """It goes to several connections (compressed from :data:`SHARED_FROM`)."""
        self._plain: bytes | None = None
        self._deflated: bytes | None = None

    @property
    def plain(self) -> bytes:
        if self._plain is None:
            self._plain = frame(self.text)
        return self._plain

    @property
    def deflated(self) -> bytes:
        """The frame for a connection that agreed to permessage-deflate: compressed when
        the message is long enough to gain from it, else :attr:`plain`."""
        if self._deflated is None:
            long = len(self.text) >= (SHARED_FROM if self.shared else ALONE_FROM)
            self._deflated = deflated_frame(self.text) if long else self.plain
        return self._deflated
