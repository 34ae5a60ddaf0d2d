"""Three ``domeng serve`` processes on one PostgreSQL database behind the repository's
nginx configuration (deploy/nginx/), as docs/deploy.md tells a club to run them (issue
27, §3): a table is made through nginx, played and watched through it over the
WebSocket upgrade (nginx picks any process, with no stickiness; a process that does not
own the table relays to its owner); the owner is SIGKILLed mid-play, nginx passes it
by, the table moves to another process and plays on, and the stored record replays and
holds every acknowledged play. A tournament made and started through nginx is
answered alike by whichever process nginx picks.

Skipped with the reason without PostgreSQL, nginx or openssl (failing under ``CI``).
Loopback only; every wait has a deadline; everything started is stopped."""

from __future__ import annotations

import contextlib
import json
import signal
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
from tests.ports import free_port

from .secure_socket import Secure, open_secure
from .test_deploy_nginx import (
    MAIN,
    OPEN,
    PUBLIC,
    _listens,
    _program,
    certificate,
    refusing,
    rendered,
    started,
)
from .test_server_several import LEVEL, TIMEOUT, Process, Seat, holds, lease, processes


@dataclass
class ThroughNginx(Seat):
    """A person whose every connection goes through nginx's HTTPS port (``port``)."""

    def connect(self) -> Secure:
        # (OPEN: a loaded CI machine once took more than 5 s for one opening)
        return open_secure(self.port, f"/ws/tables/{self.table_id}", PUBLIC, OPEN)


@dataclass
class Front:
    https: int
    client: httpx.Client
    log: Path


def _owner_port(db: str, owner: str | None) -> int:
    """The port of the process ``owner`` (its address, as it told the database)."""
    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute("SELECT address FROM processes WHERE id = %s", (owner,)).fetchone()
    assert row is not None, owner
    return int(str(row[0]).rstrip("/").rsplit(":", 1)[1])


@contextlib.contextmanager
def _nginx(ports: list[int], d: Path) -> Iterator[Front]:
    """nginx with the repository's configuration before the processes on ``ports``."""
    nginx = _program("nginx", "/usr/sbin/nginx")
    cert, key = certificate(d)
    http, https = free_port(), free_port()
    (d / "domeng.conf").write_text(rendered(ports, http, https, cert, key))
    (d / "nginx.conf").write_text(MAIN.format(d=d))
    proxy = [nginx, "-p", str(d), "-c", str(d / "nginx.conf"), "-e", str(d / "error.log")]
    with started(proxy, d / "nginx.out") as server:
        deadline = time.monotonic() + 30
        while not _ready(https):
            assert server.poll() is None, (d / "nginx.out").read_text()
            assert time.monotonic() < deadline, "nginx did not listen"
            time.sleep(0.05)
        headers = {"Host": f"{PUBLIC}:{https}", "Origin": f"https://{PUBLIC}:{https}"}
        with httpx.Client(
            base_url=f"https://127.0.0.1:{https}", verify=False, headers=headers, timeout=TIMEOUT
        ) as client:
            yield Front(https, client, d / "error.log")


def _ready(port: int) -> bool:
    try:
        return _listens(port)
    except OSError:
        return False


def test_three_processes_behind_nginx_play_on_when_the_owner_is_killed(
    postgres_url: str, tmp_path: Path
) -> None:
    _program("nginx", "/usr/sbin/nginx")  # skipped (or failed under CI) before starting
    more = ("--allow-host", PUBLIC, "--trust-proxy", "127.0.0.1")
    with processes(postgres_url, 3, tmp_path, *more) as ps:
        by_port: dict[int, Process] = {p.port: p for p in ps}
        with _nginx([p.port for p in ps], tmp_path) as front:
            deadline = time.monotonic() + 90
            seats = [{"kind": "person", "name": "Ann"}]
            seats += [{"kind": "computer", "level": LEVEL}] * 4
            made = front.client.post(
                "/api/tables", json={"seats": seats, "pace_ms": 0, "stand_in": None}
            )
            assert made.status_code == 201, made.text
            table_id, token = made.json()["id"], made.json()["tokens"]["0"]
            ann = ThroughNginx(front.https, table_id, token)
            ann.open(deadline)
            assert ann.latest["view"]["seat"] == 0
            # nginx sends each connection to the next process (no stickiness): of three
            # spectators at least two reach a process that does not own the table, and each
            # is served at once (relayed to the owner), none told to come again
            for _ in range(3):
                with ThroughNginx(front.https, table_id, None).connect() as ws:
                    ws.send(json.dumps({"type": "hello"}))
                    said = [json.loads(ws.recv(timeout=TIMEOUT))["type"] for _ in range(2)]
                    assert said == ["welcome", "state"], said
            watcher = ThroughNginx(front.https, table_id, None)
            watcher.open(deadline)
            _a_tournament_through_any(front)
            ann.play(3, deadline)
            owner, epoch = lease(postgres_url, table_id)
            killed = by_port[_owner_port(postgres_url, owner)]
            view = ann.latest["view"]
            if view["turn"] == 0 and view["summary"] is None:  # SIGKILL mid-play
                assert ann.ws is not None
                move = view["legal_moves"][0]
                ann.ws.send(
                    json.dumps({"type": "play", "id": 999, **move, "state": ann.latest["state"]})
                )
            killed.kill(signal.SIGKILL)
            killed.proc.wait(TIMEOUT)
            with refusing(killed.port):  # nobody else listens where it did meanwhile
                people = (ann, watcher)
                _after_the_kill(postgres_url, front, people, table_id, (owner, epoch), deadline)


def _a_tournament_through_any(front: Front) -> None:
    """A tournament made and started through nginx: whichever process nginx hands each
    request to answers it the same (the tournament is read from the database)."""
    bots = [{"kind": "computer", "level": LEVEL}] * 5
    body = {"name": "Malam", "entrants": bots, "deals": 1, "table": {"pace_ms": 1000}}
    made = front.client.post("/api/tournaments", json=body)
    assert made.status_code == 201, made.text
    tid, token = made.json()["id"], made.json()["director_token"]
    started = front.client.post(f"/api/tournaments/{tid}/next", json={"token": token})
    assert started.status_code == 200, started.text
    rounds = started.json()["rounds"]
    for _ in range(3):  # nginx hands each to the next process
        got = front.client.get(f"/api/tournaments/{tid}")
        assert got.status_code == 200 and got.json()["rounds"] == rounds, got.text
    again = front.client.post(f"/api/tournaments/{tid}/next", json={"token": token})
    assert (again.status_code, again.json()["error"]["code"]) == (409, "round_in_play")


def _after_the_kill(
    db: str,
    front: Front,
    people: tuple[ThroughNginx, ThroughNginx],
    table_id: str,
    was: tuple[str | None, int],
    deadline: float,
) -> None:
    """Ann and the spectator play and watch on through nginx once the owner (``was``, its
    id and epoch) is dead, at another process; nothing Ann was told was stored is lost."""
    (ann, watcher), (owner, epoch) = people, was
    ann.play(3, deadline)  # through nginx, at another process
    new_owner, new_epoch = lease(db, table_id)
    assert new_owner != owner and new_epoch == epoch + 1
    watcher.open(deadline)  # the spectator comes back through nginx too
    assert watcher.latest["state"] >= ann.latest["state"] - 1
    record = front.client.get(f"/api/tables/{table_id}/record")
    assert record.status_code == 200 and record.json()["format"] == "domeng.record/1"
    assert len(ann.acked) >= 6
    holds(db, table_id, ann.acked)
    ann.close()
    watcher.close()
    assert "upstream" in front.log.read_text()  # nginx saw the dead process
