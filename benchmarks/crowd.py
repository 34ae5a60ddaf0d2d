"""One table of computer players at pace 0, watched by many spectators: how fast it plays.

Starts `domeng serve` (a real process, loopback only), opens ``--spectators``
WebSocket connections that watch one table of five computer players at pace 0, and
counts the table's moves a second over ``--seconds``; then the same with a single
spectator. It also prints the messages a second the service sent to all the
spectators. It stops by itself.

The spectators agree to permessage-deflate, as browsers do. By default each reads
its socket as fast as it can and counts the frames without opening them: the
script shares the computer with the service it measures, and a thousand clients
decompressing and decoding every batch (90 KB each, ten times a second) took more
CPU than the service itself and held it back. ``--decode`` reads every message
through the ``websockets`` library instead, decompressed and decoded.

    .venv/bin/python benchmarks/crowd.py --spectators 500

Target (issue 13): at least 1,000 moves a second with 500 spectators, and with
1,000 no worse than half the speed with one.
"""

from __future__ import annotations

import argparse
import asyncio
import base64
import contextlib
import os
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import uvloop
from websockets.asyncio.client import connect


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


class Watcher(asyncio.Protocol):
    """A spectator on a raw socket: says hello, answers pings, counts the text frames
    the service sends (compressed or not) and drops them unread."""

    def __init__(self, host: str, path: str) -> None:
        self.request = (
            f"GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\n"
            "Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            f"Sec-WebSocket-Key: {base64.b64encode(os.urandom(16)).decode()}\r\n"
            "Sec-WebSocket-Extensions: permessage-deflate; client_max_window_bits\r\n\r\n"
        ).encode()
        self.transport: asyncio.Transport | None = None
        self.head = b""  # the handshake's answer, until it is whole
        self.buf = bytearray()
        self.skip = 0  # bytes of a payload still to drop
        self.messages = 0

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]  # uvloop's, not a subclass
        transport.write(self.request)

    def data_received(self, data: bytes) -> None:
        if self.head is not None:
            self.head += data
            if b"\r\n\r\n" not in self.head:
                return
            head, _, data = self.head.partition(b"\r\n\r\n")
            assert head.startswith(b"HTTP/1.1 101"), head
            self.head = None  # type: ignore[assignment]
            self._send(0x1, b'{"type": "hello"}')
        if self.skip >= len(data):
            self.skip -= len(data)
            return
        self.buf += data[self.skip :]
        self.skip = 0
        while len(self.buf) >= 2:
            first, n = self.buf[0], self.buf[1] & 0x7F
            start = 2 if n < 126 else 4 if n == 126 else 10
            if len(self.buf) < start:
                return
            if n >= 126:
                n = int.from_bytes(self.buf[2:start], "big")
            if first & 0x0F == 0x9:  # a ping: wait for it whole, and answer it
                if len(self.buf) < start + n:
                    return
                self._send(0xA, bytes(self.buf[start : start + n]))
            elif first & 0x0F == 0x1:
                self.messages += 1
            if len(self.buf) < start + n:
                self.skip = start + n - len(self.buf)
                self.buf.clear()
                return
            del self.buf[: start + n]

    def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        assert self.transport is not None and len(payload) < 126
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self.transport.write(bytes((0x80 | opcode, 0x80 | len(payload))) + mask + masked)


async def watch_raw(url: str, stop_at: float, counts: list[int]) -> None:
    u = urlsplit(url)
    loop = asyncio.get_running_loop()
    host, port = u.hostname or "127.0.0.1", u.port or 80
    transport, watcher = await loop.create_connection(lambda: Watcher(u.netloc, u.path), host, port)
    await asyncio.sleep(max(0.0, stop_at - time.monotonic()))
    transport.abort()
    counts.append(watcher.messages)


async def watch(url: str, stop_at: float, counts: list[int]) -> None:
    async with connect(url, max_size=None, open_timeout=60) as ws:
        await ws.send('{"type": "hello"}')
        n = 0
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(stop_at - time.monotonic()):  # one timer, not one a message
                while True:
                    await ws.recv()
                    n += 1
        counts.append(n)


Watch = Callable[[str, float, list[int]], Awaitable[None]]


async def one_run(
    base: str, spectators: int, seconds: float, watch: Watch
) -> tuple[float, float, float]:
    seats = [{"kind": "computer", "level": "random"}] * 5
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        t = (await http.post("/api/tables", json={"seats": seats, "pace_ms": 0})).json()
        url = base.replace("http://", "ws://") + f"/ws/tables/{t['id']}"
        counts: list[int] = []
        # the first seconds: connecting; the spectators stay a second after the readings
        stop_at = time.monotonic() + 5 + seconds + 1
        tasks = [asyncio.create_task(watch(url, stop_at, counts)) for _ in range(spectators)]
        # the table's pace is read in a thread of its own, on time even when this
        # script's loop is slow with its spectators' messages
        speed = asyncio.create_task(asyncio.to_thread(moves_a_second, base, t["id"], seconds))
        own = time.process_time()
        await asyncio.gather(*tasks)
        own = time.process_time() - own
        return await speed, sum(counts) / (seconds + 6), own / (seconds + 6)


def moves_a_second(base: str, table_id: str, seconds: float) -> float:
    """The table's moves a second over ``seconds``, after 5 s of connecting."""
    time.sleep(5)
    with httpx.Client(base_url=base, timeout=60) as http:
        first = http.get(f"/api/tables/{table_id}").json()
        began = time.monotonic()
        time.sleep(seconds)
        last = http.get(f"/api/tables/{table_id}").json()
        took = time.monotonic() - began
    return ((last["state"] - last["round"]) - (first["state"] - first["round"])) / took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--spectators", type=int, default=500)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument(
        "--decode", action="store_true", help="decompress and decode every message (websockets)"
    )
    args = parser.parse_args()
    if not 0 < args.spectators <= 2000 or not 0 < args.seconds <= 120:
        raise SystemExit("keep it bounded: 1-2000 spectators, up to 120 seconds")
    reader = watch if args.decode else watch_raw
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="domeng-crowd-"))
    env = dict(os.environ, DOMENG_DATA_DIR=str(folder))
    command = [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", str(port)]
    command += ["--spectators-per-address", str(args.spectators)]  # all from this computer
    proc = subprocess.Popen([*command, "--db", str(folder / "t.sqlite3")], env=env)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(400):
            try:
                if httpx.get(f"{base}/api", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                time.sleep(0.05)
        alone, _, _ = uvloop.run(one_run(base, 1, args.seconds, reader))
        crowd, sent, own = uvloop.run(one_run(base, args.spectators, args.seconds, reader))
    finally:
        proc.terminate()
        proc.wait(30)
    print(f"one spectator: {alone:.0f} moves a second")
    print(f"{args.spectators} spectators: {crowd:.0f} moves a second ({crowd / alone:.0%})")
    print(f"messages a second to the spectators: {sent:.0f}")
    print(f"this script's CPU (the spectators reading): {own:.0%} of a core")


if __name__ == "__main__":
    main()
