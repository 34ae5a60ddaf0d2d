"""permessage-deflate: a long message for many connections is compressed once, each
message on its own (no context taken over), and read back whole by a client that
agreed to it; a client that did not gets every frame plain."""

from __future__ import annotations

import base64
import itertools
import json
import os
import socket
import time
import zlib
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

from websockets.extensions.permessage_deflate import PerMessageDeflate
from websockets.frames import Frame, Opcode

from domeng.server.frames import ALONE_FROM, SHARED_FROM, Framed, frame

from .conftest import client_frame

Json = dict[str, Any]


def _read_back(data: bytes) -> str:
    """A server's frame as a client that agreed to permessage-deflate reads it (the
    ``websockets`` library's own decoder), whether compressed or not."""
    n = data[1] & 0x7F
    start = 2 if n < 126 else 4 if n == 126 else 10
    assert data[0] & 0x8F == 0x81 and not data[1] & 0x80  # FIN, text, not masked
    got = Frame(Opcode.TEXT, data[start:], rsv1=bool(data[0] & 0x40))
    reader = PerMessageDeflate(True, False, 15, 15)  # the client's: no server context
    return bytes(reader.decode(got).data).decode()


def test_a_long_shared_message_is_compressed_and_reads_back_the_same() -> None:
    events = [
        {"kind": "played", "seat": n % 5, "text": f"Besse plays [6|{n % 7}]"} for n in range(400)
    ]
    text = json.dumps({"type": "update", "events": events})
    framed = Framed(text, shared=True)
    assert framed.deflated[0] == 0xC1  # compressed (RSV1)
    assert len(framed.deflated) * 5 < len(framed.plain)
    assert _read_back(framed.deflated) == text == _read_back(framed.plain)
    assert framed.plain[0] == 0x81 and framed.plain == frame(text)


def test_short_messages_and_ones_for_one_connection_stay_plain() -> None:
    short = "x" * (SHARED_FROM - 1)
    assert Framed(short, shared=True).deflated == frame(short)
    personal = "é" * (ALONE_FROM // 2)  # a few kilobytes, for one connection
    assert Framed(personal).deflated == frame(personal)
    long = "y" * ALONE_FROM
    assert Framed(long).deflated[0] == 0xC1 and _read_back(Framed(long).deflated) == long


def test_messages_compressed_on_their_own_read_back_in_any_order() -> None:
    # the same compressed bytes go to every connection, between plain frames and
    # frames compressed for that connection alone: each is read without the others
    texts = [json.dumps({"n": n, "pad": "abc" * (200 * n)}) for n in range(1, 6)]
    frames = [Framed(t, shared=n % 2 == 0) for n, t in enumerate(texts)]
    for f, t in zip(reversed(frames), reversed(texts), strict=True):
        assert _read_back(f.deflated) == t  # a reader of its own: no message before it


def _frames(s: socket.socket, buf: bytearray, until: float) -> Any:
    """The server's frames as (first byte, payload), read off a raw socket."""
    while time.monotonic() < until:
        while len(buf) >= 2:
            n = buf[1] & 0x7F
            start = 2 if n < 126 else 4 if n == 126 else 10
            if len(buf) < start:
                break
            if n == 126:
                n = int.from_bytes(buf[2:4], "big")
            elif n == 127:
                n = int.from_bytes(buf[2:10], "big")
            if len(buf) < start + n:
                break
            yield buf[0], bytes(buf[start : start + n])
            del buf[: start + n]
        s.settimeout(max(0.01, until - time.monotonic()))  # no read past the watch's end
        try:
            chunk = s.recv(1 << 16)
        except TimeoutError:
            return
        if not chunk:
            return
        buf += chunk


def _watch(
    service: Any,
    table_id: str,
    extensions: str | None,
    *,
    after_hello: Callable[[], None] | None = None,
    seconds: float = 3.0,
    enough: Callable[[list[tuple[int, bytes]]], bool] | None = None,
) -> tuple[str, list[tuple[int, bytes]]]:
    """Watch a table over a raw socket for a moment (another spectator watching too, so
    that the batches go to several connections): the handshake's answer and the data
    frames received. ``after_hello`` is called before it reads anything. The watch ends
    after ``seconds``, or as soon as the frames so far are ``enough`` (the table plays
    at full speed in the test's own process meanwhile: 3 s of it took 3 s of CPU)."""
    u = urlsplit(service.base)
    other = service.socket(table_id)
    other.hello()
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.settimeout(10)
    with s:
        s.connect((u.hostname or "127.0.0.1", u.port or 80))
        key = base64.b64encode(os.urandom(16)).decode()
        offer = f"Sec-WebSocket-Extensions: {extensions}\r\n" if extensions else ""
        s.sendall(
            (
                f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: {u.netloc}\r\nUpgrade: websocket\r\n"
                f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                f"Sec-WebSocket-Version: 13\r\n{offer}\r\n"
            ).encode()
        )
        buf = bytearray()
        while b"\r\n\r\n" not in buf:
            chunk = s.recv(4096)
            assert chunk, f"the service closed during the handshake: {bytes(buf)!r}"
            buf += chunk
        head, _, rest = bytes(buf).partition(b"\r\n\r\n")
        s.sendall(client_frame(json.dumps({"type": "hello"})))
        if after_hello is not None:
            after_hello()
        until = time.monotonic() + seconds
        got: list[tuple[int, bytes]] = []
        for b, p in _frames(s, bytearray(rest), until):
            if b & 0x0F == 1:
                got.append((b, p))
                if enough is not None and enough(got):
                    break
    other.close()
    return head.decode("latin-1"), got


def _read_all(got: list[tuple[int, bytes]]) -> list[Json]:
    """The messages of the frames, as a client that agreed reads them: each compressed
    one with a fresh reader (no context is kept), plain ones as they are."""
    messages = []
    for first, payload in got:
        if first & 0x40:
            assert not payload.endswith(b"\x00\x00\xff\xff")  # left off (RFC 7692, 7.2.1)
            payload = zlib.decompressobj(wbits=-15).decompress(payload + b"\x00\x00\xff\xff")
        messages.append(json.loads(payload))
    return messages


def _whole_and_in_order(messages: list[Json]) -> None:
    """Every batch holds the events after the last, in order: nothing lost."""
    updates = [m for m in messages if m["type"] == "update"]
    assert len(updates) >= 5
    indexes = [(e["round"], e["index"]) for m in updates for e in m["events"]]
    for a, b in itertools.pairwise(indexes):
        assert b == (a[0], a[1] + 1) or (b[0] > a[0] and b[1] == 0), (a, b)


def _enough(*, compressed: bool) -> Callable[[list[tuple[int, bytes]]], bool]:
    """When a watch has seen enough: five updates, and among them a compressed batch
    (``compressed``: to judge a client that agreed) or a batch long enough that it would
    have been compressed for a client that had (to judge one that did not)."""
    seen = {"updates": 0, "sign": 0}

    def enough(got: list[tuple[int, bytes]]) -> bool:
        first, payload = got[-1]
        seen["updates"] += _read_all([(first, payload)])[0]["type"] == "update"
        if first & 0x40 if compressed else len(payload) >= SHARED_FROM:
            seen["sign"] += 1
        return seen["updates"] >= 5 and seen["sign"] > 0

    return enough


def _fast_table(service: Any) -> Json:
    seats = [{"kind": "computer", "level": "random"}] * 5
    table: Json = service.new_table(seats, pace_ms=0, stand_in=None)
    return table


def test_a_crowd_that_agreed_gets_the_batches_compressed_and_whole(service: Any) -> None:
    t = _fast_table(service)
    head, got = _watch(
        service,
        t["id"],
        "permessage-deflate; client_max_window_bits",
        enough=_enough(compressed=True),
    )
    assert "server_no_context_takeover" in head.lower()
    assert "client_no_context_takeover" in head.lower()
    compressed = [first for first, _ in got if first & 0x40]
    assert compressed, "a table at full speed sends its watchers long batches"
    _whole_and_in_order(_read_all(got))


def test_a_client_that_did_not_agree_gets_every_frame_plain(service: Any) -> None:
    t = _fast_table(service)
    head, got = _watch(service, t["id"], None, enough=_enough(compressed=False))
    assert "permessage-deflate" not in head.lower()
    assert got and all(first == 0x81 for first, _ in got)
    _whole_and_in_order([json.loads(p) for _, p in got])


def test_a_client_that_asked_for_a_smaller_window_gets_every_frame_plain(service: Any) -> None:
    # the batches are compressed with a 2**15-byte window: read with a smaller one, they
    # would fail ("invalid distance too far back")
    t = _fast_table(service)
    offer = "permessage-deflate; server_max_window_bits=10"
    head, got = _watch(service, t["id"], offer, enough=_enough(compressed=False))
    assert "server_max_window_bits=10" in head.lower()
    assert got and all(first == 0x81 for first, _ in got)
    _whole_and_in_order([json.loads(p) for _, p in got])


def test_what_waits_for_a_slow_reader_is_written_whole_in_order(
    service: Any, monkeypatch: Any
) -> None:
    # the socket's buffer is full for a second (as when its client reads slowly): the
    # batches wait in its queue and its writer waits for the socket (send_frame), then
    # they come whole, compressed, and in order
    from domeng.server.protocols import AbortingWebSocket

    made: list[AbortingWebSocket] = []
    waited: list[bool] = []
    real_connect, real_send = AbortingWebSocket.handle_connect, AbortingWebSocket.send_frame

    def recorded(self: AbortingWebSocket, event: Any) -> None:
        real_connect(self, event)
        made.append(self)

    async def counted(self: AbortingWebSocket, framed: Framed) -> None:
        waited.append(self.deflate)
        await real_send(self, framed)

    monkeypatch.setattr(AbortingWebSocket, "handle_connect", recorded)
    monkeypatch.setattr(AbortingWebSocket, "send_frame", counted)

    def full_for_a_second() -> None:
        sock = made[-1]  # the raw socket's (the other spectator connected before it)
        sock.loop.call_soon_threadsafe(sock.pause_writing)
        time.sleep(1.0)
        sock.loop.call_soon_threadsafe(sock.resume_writing)

    t = _fast_table(service)
    offer = "permessage-deflate; client_max_window_bits"
    more = _enough(compressed=True)
    _, got = _watch(
        service, t["id"], offer, after_hello=full_for_a_second, seconds=4,
        enough=lambda got: more(got) and True in waited,
    )  # fmt: skip
    assert True in waited, "nothing waited for the socket"
    assert any(first & 0x40 for first, _ in got)
    _whole_and_in_order(_read_all(got))
