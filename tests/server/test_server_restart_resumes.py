"""A real `domeng serve` process killed with SIGKILL and started again resumes every table
(on SQLite and on PostgreSQL); one that is sent SIGTERM stops, whatever its clients do."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests import warm
from tests.ports import free_port
from websockets.sync.client import connect

Json = dict[str, Any]
TIMEOUT = 15.0
START = 90.0
"""Seconds a ``domeng serve`` has to start: it answers within a second or two on a quiet
machine, but at load 16 (a CI run beside other work) one import took 37 s; the wait ends
as soon as it answers."""


@contextlib.contextmanager
def serve(
    db: Path | str, port: int, data: Path | None = None
) -> Iterator[tuple[warm.Process, httpx.Client]]:
    """A real ``domeng serve`` on ``db`` (a SQLite file, or a PostgreSQL URL with the
    data folder ``data``), killed at the end if it still runs."""
    folder = data if data is not None else Path(db).parent
    env = dict(os.environ, DOMENG_DATA_DIR=str(folder))
    command = ["serve", "--no-browser", "--port", str(port), "--db", str(db)]
    proc = warm.start(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    client = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=TIMEOUT)
    try:
        deadline = time.monotonic() + START
        while True:
            try:
                if client.get("/api").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail("domeng serve did not start")
            time.sleep(0.05)
        yield proc, client
    finally:
        client.close()
        if proc.poll() is None:
            proc.kill()
        _, err = proc.communicate(timeout=TIMEOUT)
        assert b"Traceback" not in err, err.decode()


def hello(port: int, table_id: str, token: str | None) -> tuple[Any, list[Json]]:
    ws = connect(f"ws://127.0.0.1:{port}/ws/tables/{table_id}", open_timeout=TIMEOUT)
    ws.__enter__()
    ws.send(json.dumps({"type": "hello", "token": token} if token else {"type": "hello"}))
    got = []
    while not got or got[-1]["type"] != "state":
        got.append(json.loads(ws.recv(timeout=TIMEOUT)))
    return ws, got


def until(ws: Any, pred: Any) -> Json:
    deadline = time.monotonic() + TIMEOUT
    while True:
        m: Json = json.loads(ws.recv(timeout=max(0.01, deadline - time.monotonic())))
        if pred(m):
            return m


def is_prefix(before: Json, after: Json) -> bool:
    if len(after["rounds"]) < len(before["rounds"]):
        return False
    for b, a in zip(before["rounds"], after["rounds"], strict=False):
        if b["hands"] != a["hands"] or b["unused"] != a["unused"]:
            return False
        if a["plays"][: len(b["plays"])] != b["plays"]:
            return False
    return True


@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_a_killed_server_resumes_every_table_exactly(
    backend: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    db: Path | str = tmp_path / "tables.sqlite3"
    if backend == "postgres":  # a schema of its own (tests/server/postgres.py)
        db = request.getfixturevalue("postgres_url")
    port = free_port()
    with serve(db, port, tmp_path) as (proc, http):
        level = http.get("/api").json()["default_level"]
        seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
        person = http.post("/api/tables", json={"seats": seats, "pace_ms": 0, "stand_in": None})
        assert person.status_code == 201
        pt = person.json()
        token = pt["tokens"]["0"]
        robots = http.post(
            "/api/tables", json={"seats": [{"kind": "computer", "level": level}] * 5, "pace_ms": 20}
        ).json()
        # Ann plays once, then the table waits for her turn again (or for her ready, when
        # the round is over first: even before her hello, when she never held a tile that
        # fits, about one first round in 3,000)
        ws, got = hello(port, pt["id"], token)
        latest = got[-1]
        plays = 0
        while latest["view"]["summary"] is None and (plays < 1 or latest["view"]["turn"] != 0):
            view = latest["view"]
            if view["turn"] == 0:
                ws.send(
                    json.dumps({"type": "play", **view["legal_moves"][0], "state": latest["state"]})
                )
                plays += 1
            latest = until(ws, lambda m: m["type"] == "update")
        ws.close()
        watcher, _ = hello(port, robots["id"], None)
        until(watcher, lambda m: m["type"] == "update" and m["view"]["plays"])
        watcher.close()
        before = http.get(f"/api/tables/{pt['id']}/record").json()
        table_before = http.get(f"/api/tables/{pt['id']}").json()
        robots_before = http.get(f"/api/tables/{robots['id']}/record").json()
        assert robots_before["rounds"][0]["plays"]
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(TIMEOUT)

    with serve(db, port, tmp_path) as (proc, http):
        after = http.get(f"/api/tables/{pt['id']}/record").json()
        table_after = http.get(f"/api/tables/{pt['id']}").json()
        assert after == before
        for key in ("state", "turn", "round", "stones", "table", "status"):
            assert table_after[key] == table_before[key], key
        assert [s["name"] for s in table_after["seats"]] == [
            s["name"] for s in table_before["seats"]
        ]
        # the seat token is still good: Ann is back in her seat and may play on
        ws, got = hello(port, pt["id"], token)
        state = got[-1]
        assert state["view"]["seat"] == 0
        assert state["state"] == table_before["state"]
        for key in ("round", "turn", "hand", "hand_counts", "line", "plays", "stones", "lacking"):
            assert state["view"][key] == latest["view"][key], key
        if state["view"]["summary"] is None:
            move = state["view"]["legal_moves"][0]
            ws.send(json.dumps({"type": "play", **move, "state": state["state"]}))
            assert until(ws, lambda m: m["type"] in ("ok", "error"))["type"] == "ok"
        ws.close()
        # the computer players' table carries on from where it was
        robots_state = http.get(f"/api/tables/{robots['id']}").json()["state"]
        watcher, _ = hello(port, robots["id"], None)
        until(watcher, lambda m: m["type"] == "update" and m["state"] > robots_state)
        watcher.close()
        robots_after = http.get(f"/api/tables/{robots['id']}/record").json()
        assert is_prefix(robots_before, robots_after)


def test_a_client_that_stopped_reading_neither_runs_a_table_nor_holds_the_service(
    tmp_path: Path,
) -> None:
    # A spectator says hello, then never reads again: the table of computer players it
    # watched played tens of thousands of rounds for it, and SIGTERM hung.
    port = free_port()
    with serve(tmp_path / "tables.sqlite3", port) as (proc, http):
        seats = [{"kind": "computer", "level": "random"}] * 5
        table_id = http.post("/api/tables", json={"seats": seats, "pace_ms": 0}).json()["id"]
        deadline = time.monotonic() + TIMEOUT
        while http.get(f"/api/tables/{table_id}").json()["status"] != "between":
            assert time.monotonic() < deadline
            time.sleep(0.05)
        idle = socket.socket()
        idle.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        idle.connect(("127.0.0.1", port))
        key = "dGhlIHNhbXBsZSBub25jZQ=="
        idle.sendall(
            f"GET /ws/tables/{table_id} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        idle.recv(100)  # the start of the handshake's answer: the last read
        hello = json.dumps({"type": "hello"}).encode()
        mask = b"\x01\x02\x03\x04"
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(hello))
        idle.sendall(bytes([0x81, 0x80 | len(hello)]) + mask + masked)

        # its hello deals on, until the messages it does not read fill the buffers and
        # its queue: then it is closed, no longer watches, and the table waits
        def rounds() -> int:
            n: int = http.get(f"/api/tables/{table_id}").json()["round"]
            return n

        seen, deadline = -1, time.monotonic() + TIMEOUT
        while (now := rounds()) != seen:  # it stops in well under a second here
            assert time.monotonic() < deadline, "the table played on for a spectator"
            seen = now
            time.sleep(0.5)
        time.sleep(1.0)
        assert rounds() == seen
        start = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        proc.wait(TIMEOUT)
        assert time.monotonic() - start < 10
        idle.close()
