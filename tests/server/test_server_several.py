"""Several real ``domeng serve`` processes on one PostgreSQL database are one service
(issue 27; docs/architecture.md, "Several processes"): a table made through one is
played through another and watched through a third (their requests relayed to its
owner); an owner killed with SIGKILL, stalled with SIGSTOP past its lease, or cut from
the database loses nothing acknowledged, and its tables play on; simultaneous seat
takings through different processes have one winner each. A club tournament is
answered by every process, started once however many processes are told at once,
and its round plays on when the owner of its tables dies.

Each test starts its processes on 127.0.0.1 and stops them; skipped without PostgreSQL
(failed under CI: tests/server/postgres.py)."""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import signal
import time
from collections import Counter
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from threading import Barrier
from typing import Any

import httpx
import psycopg
import pytest
from tests import warm
from tests.ports import free_port
from websockets.exceptions import ConnectionClosed, InvalidHandshake
from websockets.sync.client import connect

from domeng.server.rebuild import rebuild
from domeng.storage.postgres import PostgresStorage

from .secure_socket import Talk
from .test_tournament_duplicate import duplicate_scores

Json = dict[str, Any]
TIMEOUT = 20.0
START = 90.0
"""Seconds the processes have to start (together, on a busy machine)."""
LEVEL = "random"  # the quickest computer player: the tests wait for the people


@dataclass
class Process:
    port: int
    proc: warm.Process
    http: httpx.Client
    log: Path

    def kill(self, sig: signal.Signals) -> None:
        os.kill(self.proc.pid, sig)


@contextlib.contextmanager
def processes(db: str, n: int, folder: Path, *more: str) -> Iterator[list[Process]]:
    """``n`` processes of one service on the database ``db``, started together (with the
    options ``more``)."""
    started: list[Process] = []
    env = dict(os.environ, DOMENG_DATA_DIR=str(folder))
    try:
        for i in range(n):
            port, log = free_port(), folder / f"serve-{i}.log"
            command = ["serve", "--no-browser", "--port", str(port), "--db", db, *more]
            with log.open("wb") as out:
                proc = warm.start(command, env=env, stdout=out, stderr=out)
            http = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=TIMEOUT)
            started.append(Process(port, proc, http, log))
        deadline = time.monotonic() + START
        for p in started:
            while True:
                with contextlib.suppress(httpx.TransportError):
                    if p.http.get("/api").status_code == 200:
                        break
                if p.proc.poll() is not None or time.monotonic() > deadline:
                    pytest.fail(f"domeng serve did not start: {p.log.read_text()}")
                time.sleep(0.05)
        yield started
    finally:
        for p in started:
            p.http.close()
            if p.proc.poll() is None:
                with contextlib.suppress(ProcessLookupError):
                    p.kill(signal.SIGCONT)
                    p.proc.kill()
            p.proc.wait(TIMEOUT)


def lease(db: str, table_id: str) -> tuple[str | None, int]:
    """The table's owner process and epoch, as the database holds them."""
    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute(
            "SELECT owner, epoch FROM leases WHERE table_id = %s", (table_id,)
        ).fetchone()
    assert row is not None
    return row[0], int(row[1])


def table_of_ann(p: Process, pace_ms: int = 0) -> tuple[str, str]:
    """A table of Ann and four computers made through ``p``: its id and Ann's token."""
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": LEVEL}] * 4
    body = {"seats": seats, "pace_ms": pace_ms, "stand_in": None, "turn_seconds": None}
    made = p.http.post("/api/tables", json=body)
    assert made.status_code == 201, made.text
    return made.json()["id"], made.json()["tokens"]["0"]


@dataclass
class Seat:
    """A person at a table through one process: what they were told, what was acked."""

    port: int
    table_id: str
    token: str | None
    ws: Talk | None = None
    latest: Json = field(default_factory=dict)
    acked: list[tuple[int, str]] = field(default_factory=list)
    """(round, tile) of every play the service answered ok."""
    ids: Iterator[int] = field(default_factory=itertools.count)

    def open(self, deadline: float) -> None:
        """Connect and say hello, again and again until the table answers (a table
        moving between processes closes the socket: the browser connects again)."""
        while True:
            # (through a proxy, a process that died answers 502 until the proxy passes it by)
            with contextlib.suppress(ConnectionClosed, InvalidHandshake, OSError, TimeoutError):
                self.ws = self.connect()
                self.ws.__enter__()
                hello = {"type": "hello", "token": self.token} if self.token else {"type": "hello"}
                self.ws.send(json.dumps(hello))
                while True:
                    m = json.loads(self.ws.recv(timeout=5))
                    if m["type"] == "state":
                        self.latest = m
                        return
                    assert m["type"] != "error" or m["code"] in ("busy",), m
            assert time.monotonic() < deadline, "the table never answered again"
            time.sleep(0.1)

    def connect(self) -> Talk:
        """A WebSocket to the table, straight to the process on ``port``. No keepalive
        pings (as every test's client): a ping in flight when a test kills the process
        was logged as an error ("keepalive ping failed"), which fails the test."""
        url = f"ws://127.0.0.1:{self.port}/ws/tables/{self.table_id}"
        return connect(url, open_timeout=5, ping_interval=None)

    def recv(self, timeout: float = 5) -> Json:
        assert self.ws is not None
        m: Json = json.loads(self.ws.recv(timeout=timeout))
        if m["type"] in ("update", "state"):
            self.latest = m
        return m

    def play(self, count: int, deadline: float) -> None:
        """Play ``count`` moves (acknowledged), reconnecting whenever the socket goes."""
        goal = len(self.acked) + count
        while len(self.acked) < goal:
            assert time.monotonic() < deadline, "could not play"
            try:
                self._step()
            except (ConnectionClosed, TimeoutError):
                self.open(deadline)

    def _step(self) -> None:
        assert self.ws is not None
        view = self.latest.get("view") or {}
        if view.get("summary") is not None:  # the round is over: ready for the next
            self.ws.send(json.dumps({"type": "ready"}))
            self.recv()
            return
        if view.get("turn") != view.get("seat") or not view.get("legal_moves"):
            self.recv()
            return
        move, n = view["legal_moves"][0], next(self.ids)
        self.ws.send(json.dumps({"type": "play", "id": n, **move, "state": self.latest["state"]}))
        while True:
            m = self.recv()
            if m["type"] == "ok" and m["reply_to"] == n:
                self.acked.append((view["round"], move["tile"]))
                return
            if m["type"] == "error" and m.get("reply_to") == n:
                self.ws.send(json.dumps({"type": "sync"}))
                return

    def close(self) -> None:
        if self.ws is not None:
            self.ws.close()


def holds(db: str, table_id: str, acked: list[tuple[int, str]], seat: int = 0) -> None:
    """The table as stored replays (no stray write broke it), and holds every
    acknowledged play of ``seat`` in its round (a record shown over HTTP leaves out
    the round being played)."""
    storage = PostgresStorage(db)
    try:
        stored = storage.load_table(table_id)
    finally:
        storage.close()
    assert stored is not None
    rebuild(stored)
    played = {(n, p.tile) for n, r in enumerate(stored.plays, 1) for p in r if p.seat == seat}
    missing = [a for a in acked if a not in played]
    assert not missing, f"acknowledged plays missing from the record: {missing}"


def test_made_through_one_played_through_another_watched_through_a_third_and_killed(
    postgres_url: str, tmp_path: Path
) -> None:
    with processes(postgres_url, 3, tmp_path) as (a, b, c):
        deadline = time.monotonic() + 60
        table_id, token = table_of_ann(a)
        owner, epoch = lease(postgres_url, table_id)
        ann = Seat(b.port, table_id, token)  # relayed by b to a
        ann.open(deadline)
        assert ann.latest["view"]["seat"] == 0
        watcher = Seat(c.port, table_id, None)  # relayed by c to a
        watcher.open(deadline)
        ann.play(3, deadline)
        state = ann.latest["state"]
        while watcher.latest["state"] < state:  # the spectator through c saw them
            watcher.recv()
        # the list through c shows the table as its owner a knows it (from the summary a
        # keeps in the database), Ann connected, within a second
        while not _listed(c, table_id)["seats"][0]["connected"]:
            assert time.monotonic() < deadline, "the list never showed Ann connected"
            time.sleep(0.1)
        # SIGKILL the owner in the middle of a play
        view = ann.latest["view"]
        if view["turn"] == 0 and view["summary"] is None:
            move = view["legal_moves"][0]
            assert ann.ws is not None
            ann.ws.send(json.dumps({"type": "play", "id": 999, **move, "state": state}))
        a.kill(signal.SIGKILL)
        killed = time.monotonic()
        a.proc.wait(TIMEOUT)
        ann.play(3, deadline)  # moved, and playing on through b
        print(f"\nSIGKILL to playing again: {time.monotonic() - killed:.2f} s")
        new_owner, new_epoch = lease(postgres_url, table_id)
        assert new_owner != owner and new_epoch == epoch + 1
        watcher.open(deadline)  # and the spectator through c again
        assert watcher.latest["state"] >= ann.latest["state"] - 1
        assert c.http.get(f"/api/tables/{table_id}/record").status_code == 200
        holds(postgres_url, table_id, ann.acked)
        assert b.http.get(f"/api/tables/{table_id}").json()["seats"][0]["name"] == "Ann"
        listed = {t["id"] for t in c.http.get("/api/tables").json()["tables"]}
        assert table_id in listed  # every process lists every table
        ann.close()
        watcher.close()


def test_an_owner_stalled_past_its_lease_writes_nothing_and_its_clients_are_moved(
    postgres_url: str, tmp_path: Path
) -> None:
    with processes(postgres_url, 2, tmp_path) as (a, b):
        deadline = time.monotonic() + 60
        table_id, token = table_of_ann(a)
        robots = a.http.post(
            "/api/tables", json={"seats": [{"kind": "computer", "level": LEVEL}] * 5,
                                 "pace_ms": 50},
        ).json()["id"]  # fmt: skip
        ann = Seat(a.port, table_id, token)  # at the owner itself
        ann.open(deadline)
        ann.play(2, deadline)
        watcher = Seat(a.port, robots, None)  # its computers play while watched
        watcher.open(deadline)
        first = watcher.latest["state"]
        a.kill(signal.SIGSTOP)
        try:
            while lease(postgres_url, robots)[1] == 1 or lease(postgres_url, table_id)[1] == 1:
                assert time.monotonic() < deadline, "b did not take the tables over"
                time.sleep(0.2)
            elsewhere = Seat(b.port, table_id, token)  # Ann comes back through b
            elsewhere.acked = ann.acked
            elsewhere.open(deadline)
            elsewhere.play(2, deadline)
            watched = Seat(b.port, robots, None)
            watched.open(deadline)
            while watched.latest["state"] <= first + 1:
                watched.recv()
        finally:
            a.kill(signal.SIGCONT)
        # a learns it lost them: its clients' sockets are closed, to come back through
        # a live process (here a itself, which relays them to b)
        for s in (ann, watcher):
            assert s.ws is not None
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    s.ws.recv(timeout=TIMEOUT)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
        ann.open(deadline)
        assert ann.latest["state"] >= elsewhere.latest["state"]  # from b, moving on
        time.sleep(1.0)  # a's timers have fired by now: a write of its would be fenced
        assert lease(postgres_url, robots)[0] == lease(postgres_url, table_id)[0] != None  # noqa: E711
        holds(postgres_url, robots, [])
        holds(postgres_url, table_id, elsewhere.acked)
        assert b"was taken over by another process" in a.log.read_bytes()
        for s in (ann, elsewhere, watched):
            s.close()


def test_an_owner_cut_from_the_database_mid_move_loses_nothing_acknowledged(
    postgres_database: Callable[[], str], tmp_path: Path
) -> None:
    # a database of its own: every connection to it is cut below, and a schema's
    # database is shared with the tests other workers run meanwhile
    postgres_url = postgres_database()
    with processes(postgres_url, 2, tmp_path) as (a, b):
        deadline = time.monotonic() + 60
        table_id, token = table_of_ann(a)
        ann = Seat(b.port, table_id, token)  # relayed to the owner
        ann.open(deadline)
        ann.play(2, deadline)
        view = ann.latest["view"]
        if view["turn"] == 0 and view["summary"] is None:  # a move on its way...
            assert ann.ws is not None
            move = view["legal_moves"][0]
            ann.ws.send(json.dumps({"type": "play", "id": 999, **move,
                                    "state": ann.latest["state"]}))  # fmt: skip
        with psycopg.connect(postgres_url, autocommit=True) as conn:  # ...and every
            conn.execute(  # process's connections cut
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                "WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )
        ann.play(3, deadline)  # the table plays on (at a, or at b)
        holds(postgres_url, table_id, ann.acked)
        ann.close()


def test_simultaneous_seat_takings_and_ends_through_different_processes_have_one_winner(
    postgres_url: str, tmp_path: Path
) -> None:
    with processes(postgres_url, 3, tmp_path) as everyone:
        seats = [{"kind": "person", "open": True}] * 5
        made = everyone[0].http.post("/api/tables", json={"seats": seats})
        assert made.status_code == 201, made.text
        table_id = made.json()["id"]

        def take(attempt: tuple[int, int]) -> tuple[int, int, Json]:
            seat, n = attempt
            p = everyone[n % 3]
            r = p.http.post(f"/api/tables/{table_id}/seats/{seat}", json={"name": f"P{n}.{seat}"})
            return seat, r.status_code, r.json()

        attempts = [(seat, n) for n in range(3) for seat in range(5)]
        with ThreadPoolExecutor(len(attempts)) as pool:
            answers = list(pool.map(take, attempts))
        for seat in range(5):
            mine = [(status, doc) for s, status, doc in answers if s == seat]
            won = [doc for status, doc in mine if status == 201]
            lost = [(status, doc["error"]["code"]) for status, doc in mine if status != 201]
            assert len(won) == 1, mine
            assert lost == [(409, "seat_taken")] * 2, mine
        table = everyone[2].http.get(f"/api/tables/{table_id}").json()
        assert all(s["name"].startswith("P") for s in table["seats"])
        # the host ends the game through every process at once: one end, the others
        # refused as the game is over
        host = {"token": made.json()["host_token"], "action": "end"}

        def end(n: int) -> tuple[int, Json]:
            r = everyone[n % 3].http.post(f"/api/tables/{table_id}/host", json=host)
            return r.status_code, r.json()

        with ThreadPoolExecutor(6) as pool:
            ended = list(pool.map(end, range(6)))
        assert sorted(status for status, _ in ended) == [200] + [409] * 5, ended
        refused = [doc["error"]["code"] for status, doc in ended if status == 409]
        assert refused == ["game_over"] * 5
        assert everyone[1].http.get(f"/api/tables/{table_id}").json()["status"] == "finished"


def _listed(p: Process, table_id: str) -> Json:
    """The table as ``GET /api/tables`` through ``p`` shows it."""
    tables = p.http.get("/api/tables").json()["tables"]
    (doc,) = [t for t in tables if t["id"] == table_id]
    found: Json = doc
    return found


def _tournament(p: Process, tid: str) -> Json:
    got = p.http.get(f"/api/tournaments/{tid}")
    assert got.status_code == 200, got.text
    doc: Json = got.json()
    return doc


def _until_status(p: Process, tid: str, status: str, deadline: float) -> Json:
    while True:
        doc = _tournament(p, tid)
        if doc["status"] == status:
            return doc
        assert time.monotonic() < deadline, f"the tournament did not become {status}: {doc}"
        time.sleep(0.2)


def _next_at_once(ps: list[Process], tid: str, token: str) -> tuple[Process, Json]:
    """``next`` through every process of ``ps`` at the same moment: exactly one starts the
    round, each other is refused as the round is in play. Answers the one that won."""
    ready = Barrier(len(ps))

    def say(p: Process) -> tuple[int, Json]:
        ready.wait(timeout=TIMEOUT)
        r = p.http.post(f"/api/tournaments/{tid}/next", json={"token": token})
        return r.status_code, r.json()

    with ThreadPoolExecutor(len(ps)) as pool:
        answers = list(pool.map(say, ps))
    won = [n for n, (status, _) in enumerate(answers) if status == 200]
    assert len(won) == 1, answers
    for n, (status, doc) in enumerate(answers):
        if n != won[0]:
            assert (status, doc["error"]["code"]) == (409, "round_in_play"), answers
    return ps[won[0]], answers[won[0]][1]


def _tables(db: str) -> set[str]:
    """Every table the database holds."""
    with psycopg.connect(db, autocommit=True) as conn:
        return {str(i) for (i,) in conn.execute("SELECT id FROM tables")}


def _plays(db: str, table_ids: list[str]) -> int:
    with psycopg.connect(db, autocommit=True) as conn:
        row = conn.execute(
            "SELECT COUNT(*) FROM plays WHERE table_id = ANY(%s)", (table_ids,)
        ).fetchone()
    assert row is not None
    return int(row[0])


def test_a_tournament_through_three_processes_one_killed_mid_round(
    postgres_url: str, tmp_path: Path
) -> None:
    """Made through one process, started through the others at once (one round, one
    refusal), its status the same through each; a no-show replaced through a process
    that does not own the table (sent to the owner); the owner of the round's tables
    SIGKILLed mid-round: they are taken over and the round ends; the second round
    started through the two left at once; the standings are the scores worked out from
    the tables' records."""
    with processes(postgres_url, 3, tmp_path) as (a, b, c):
        deadline = time.monotonic() + 150
        entrants = [{"kind": "person", "name": "Andi"}]
        entrants += [{"kind": "computer", "level": LEVEL, "name": f"Bot {n}"} for n in range(9)]
        body = {"name": "Malam", "entrants": entrants, "rounds": 2, "deals": 2, "seed": 5,
                "table": {"pace_ms": 150, "stand_in": LEVEL}}  # fmt: skip
        made = a.http.post("/api/tournaments", json=body)
        assert made.status_code == 201, made.text
        tid, token = made.json()["id"], made.json()["director_token"]
        assert _tournament(c, tid)["status"] == "waiting"  # any process answers
        owner, started = _next_at_once([b, c], tid, token)
        ids = [x["id"] for x in started["rounds"][0]["tables"]]
        assert len(ids) == 2 and _tables(postgres_url) == set(ids)  # none of the refused
        for p in (a, b, c):  # the same round through each
            doc = _tournament(p, tid)
            assert doc["status"] == "playing"
            assert [x["id"] for x in doc["rounds"][0]["tables"]] == ids
        others = [p for p in (a, b, c) if p is not owner]
        # Andi does not come: replaced through a process that does not own his table
        andi = made.json()["entrant_tokens"]["e1"]
        mine = others[0].http.post(f"/api/tournaments/{tid}/me", json={"token": andi}).json()
        replaced = others[0].http.post(
            f"/api/tournaments/{tid}/replace", json={"token": token, "entrant": "e1"}
        )
        assert replaced.status_code == 200, replaced.text
        seat = others[1].http.get(f"/api/tables/{mine['table']['id']}").json()["seats"]
        assert seat[mine["table"]["seat"]]["kind"] == "computer"
        while _plays(postgres_url, ids) < 4:  # the round under way...
            assert time.monotonic() < deadline, "the round did not begin"
            time.sleep(0.1)
        assert _tournament(others[1], tid)["status"] == "playing"
        owner.kill(signal.SIGKILL)  # ...when its tables' owner dies
        owner.proc.wait(TIMEOUT)
        between = _until_status(others[1], tid, "between", deadline)  # taken over, played on
        assert all(x["finished"] for x in between["rounds"][0]["tables"])
        assert _tournament(others[0], tid) == between
        _, second = _next_at_once(others, tid, token)
        assert [len(r["tables"]) for r in second["rounds"]] == [2, 2]
        assert _tables(postgres_url) == {x["id"] for r in second["rounds"] for x in r["tables"]}
        done = _until_status(others[0], tid, "finished", deadline)
        assert _tournament(others[1], tid)["standings"] == done["standings"]
        # the standings are the scores worked out from the records alone
        records = [
            [others[1].http.get(f"/api/tables/{x['id']}/record").json() for x in r["tables"]]
            for r in done["rounds"]
        ]
        seated = {
            (r["number"], x["number"]): [s["key"] for s in x["seats"]]
            for r in done["rounds"]
            for x in r["tables"]
        }
        score, won = duplicate_scores(records, seated)
        lines = {s["key"]: s for s in done["standings"]}
        assert set(lines) == set(score)
        for key, line in lines.items():
            assert line["score"] == pytest.approx(score[key], abs=0.006), key
            assert line["won"] == won[key]
        assert len([s for s in done["standings"] if s["ranked"]]) == 10  # best first:
        values = [s["score"] for s in done["standings"] if s["ranked"]]
        assert values == sorted(values, reverse=True)


def test_a_tournament_ended_through_a_process_that_owns_none_of_its_tables(
    postgres_url: str, tmp_path: Path
) -> None:
    with processes(postgres_url, 2, tmp_path) as (a, b):
        bots = [{"kind": "computer", "level": LEVEL}] * 5
        body = {"name": "x", "entrants": bots, "deals": 3, "table": {"pace_ms": 2000}}
        made = a.http.post("/api/tournaments", json=body).json()
        tid, token = made["id"], made["director_token"]
        started = a.http.post(f"/api/tournaments/{tid}/next", json={"token": token}).json()
        (table,) = started["rounds"][0]["tables"]
        ended = b.http.post(f"/api/tournaments/{tid}/end", json={"token": token})
        assert ended.status_code == 200, ended.text
        assert ended.json()["status"] == "finished"
        for p in (a, b):  # a, the owner, ended it at b's word
            assert p.http.get(f"/api/tables/{table['id']}").json()["status"] == "finished"
        again = a.http.post(f"/api/tournaments/{tid}/end", json={"token": token})
        assert (again.status_code, again.json()["error"]["code"]) == (409, "tournament_over")


def test_the_tables_of_a_killed_process_are_shared_by_the_others(
    postgres_url: str, tmp_path: Path
) -> None:
    """One of three processes, owning twelve tables, is SIGKILLed: each of the other two
    takes six (before, the first to look took all twelve)."""
    with processes(postgres_url, 3, tmp_path) as (a, b, c):
        deadline = time.monotonic() + 60
        body = {"seats": [{"kind": "computer", "level": LEVEL}] * 5, "pace_ms": 3000}
        for _ in range(12):  # slow: none is over before the end of the test
            assert a.http.post("/api/tables", json=body).status_code == 201
        a.kill(signal.SIGKILL)
        a.proc.wait(TIMEOUT)
        alive = {f"http://127.0.0.1:{p.port}" for p in (b, c)}
        while True:
            with psycopg.connect(postgres_url, autocommit=True) as conn:
                owners = [
                    str(address).rstrip("/")
                    for (address,) in conn.execute(
                        "SELECT p.address FROM leases l JOIN processes p ON p.id = l.owner"
                    )
                ]
            if len(owners) == 12 and set(owners) <= alive:
                break
            assert time.monotonic() < deadline, f"not taken over: {owners}"
            time.sleep(0.2)
        assert sorted(Counter(owners).values()) == [6, 6]
        for p in (b, c):  # each says so, once its leases are stored (a moment later)
            while b"took over 6 tables" not in p.log.read_bytes():
                assert time.monotonic() < deadline, p.log.read_text()
                time.sleep(0.1)
