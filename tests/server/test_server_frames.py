"""A message goes straight to the socket, framed, when nothing waits before it; else
it waits in the outbox, and nothing overtakes it. A message for many connections is
encoded and framed once."""

from __future__ import annotations

import json
from pathlib import Path

from websockets.frames import Frame, Opcode

from domeng.server.clock import FakeClock
from domeng.server.connection import Connection
from domeng.server.fanout import Fanout
from domeng.server.frames import Framed, frame

from .conftest import drain, run_apart
from .test_server_watching import computer_table


class Socket:
    """A socket that takes frames while ``open`` and keeps what it took: plain ones, or
    the compressed ones when its client agreed to compression (``deflate``)."""

    def __init__(self, *, deflate: bool = False) -> None:
        self.open = True
        self.deflate = deflate
        self.frames: list[bytes] = []

    def write_frame(self, framed: Framed) -> bool:
        if self.open:
            self.frames.append(framed.deflated if self.deflate else framed.plain)
        return self.open

    async def send_frame(self, framed: Framed) -> None:
        raise AssertionError("not used here: the outbox is drained by the test")

    def texts(self) -> list[str]:
        return [payload(f).decode() for f in self.frames]


def payload(data: bytes) -> bytes:
    """A whole unmasked text frame's payload."""
    n = data[1] & 0x7F
    start = 2 if n < 126 else 4 if n == 126 else 10
    assert data[0] == 0x81 and not data[1] & 0x80  # FIN, text, not masked
    return data[start:]


def test_frames_are_what_the_websocket_library_would_send() -> None:
    for size in (0, 1, 125, 126, 65_535, 65_536, 70_001):
        text = "é" * (size // 2) + "a" * (size % 2)
        assert frame(text) == Frame(Opcode.TEXT, text.encode()).serialize(mask=False)


def test_an_idle_connection_writes_straight_to_its_socket_in_order() -> None:
    sock = Socket()
    c = Connection(sock)
    for n in range(3):
        c.send({"n": n})
    assert [json.loads(t)["n"] for t in sock.texts()] == [0, 1, 2]
    assert drain(c) == [] and c.queued == 0


def test_once_a_message_waits_the_next_ones_wait_behind_it() -> None:
    sock = Socket()
    c = Connection(sock)
    c.send({"n": 0})
    sock.open = False  # the socket's buffer is full: it would have to wait
    c.send({"n": 1})
    sock.open = True
    c.send({"n": 2})  # the socket would take it, but 1 is still waiting
    assert [json.loads(t)["n"] for t in sock.texts()] == [0]
    assert [m["n"] for m in drain(c)] == [1, 2]
    c.send({"n": 3})  # the outbox is empty again
    assert [json.loads(t)["n"] for t in sock.texts()] == [0, 3]


def test_while_the_writer_holds_a_message_nothing_overtakes_it() -> None:
    sock = Socket()
    c = Connection(sock)
    c.busy = True
    c.send({"n": 0})
    assert sock.frames == [] and [m["n"] for m in drain(c)] == [0]


def test_a_closed_connection_writes_nothing() -> None:
    sock = Socket()
    c = Connection(sock)
    c.close()
    c.send({"n": 0})
    assert sock.frames == []


def test_the_spectators_batch_is_framed_once_for_them_all() -> None:
    socks = [Socket() for _ in range(4)]
    crowd = [Connection(s) for s in socks]
    message = {"type": "update", "state": 1, "events": ["a"], "table": {}, "view": {}}
    Fanout(FakeClock()).update("t", crowd, message)
    sent = [s.frames[0] for s in socks]
    assert all(f is sent[0] for f in sent)  # the same bytes, not equal copies
    assert json.loads(socks[3].texts()[0])["events"] == ["a"]


COMPRESSED, PLAIN = 0xC1, 0x81  # a frame's first byte


def test_a_batch_for_several_spectators_is_compressed_and_for_one_is_not() -> None:
    # 2,000 characters: past the mark for several connections, short of one's alone
    message = {"type": "update", "state": 1, "events": ["e" * 2_000], "table": {}, "view": {}}
    for crowd, first in ((2, COMPRESSED), (1, PLAIN)):
        socks = [Socket(deflate=True) for _ in range(crowd)]
        Fanout(FakeClock()).update("t", [Connection(s) for s in socks], message)
        assert [s.frames[0][0] for s in socks] == [first] * crowd


def test_the_seats_message_is_compressed_when_two_connections_share_it(tmp_path: Path) -> None:
    async def main(watchers: int) -> list[int]:
        hub, t = await computer_table(tmp_path / str(watchers), pace_ms=60_000)
        socks = [Socket(deflate=True) for _ in range(watchers)]
        for s in socks:
            hub.hello(t, Connection(s), None)
        for s in socks:
            s.frames.clear()
        hub.broadcast(t, events=[], kind="seats")  # the table (over 2,000 characters)
        await hub.close()
        return [s.frames[-1][0] for s in socks]

    assert run_apart(lambda: main(2)) == [COMPRESSED, COMPRESSED]
    assert run_apart(lambda: main(1)) == [PLAIN]
