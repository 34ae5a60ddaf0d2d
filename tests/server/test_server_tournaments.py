"""Club tournaments over HTTP (docs/protocol.md, "Tournaments"): made, started, watched,
a person's own table and token, a no-show replaced, late arrivals and withdrawals, the
results as CSV, and the refusals; a tournament outlives a killed service."""

from __future__ import annotations

import contextlib
import csv
import io
import signal
import sqlite3
import time
from pathlib import Path
from typing import Any

from tests.ports import free_port

from .test_server_restart_resumes import serve

Json = dict[str, Any]
BOT = {"kind": "computer", "level": "random"}


def _new(service: Any, **body: Any) -> Json:
    r = service.http.post("/api/tournaments", json={"name": "Club", **body})
    assert r.status_code == 201, r.text
    made: Json = r.json()
    return made


def _until(service: Any, tid: str, status: str, timeout: float = 30) -> Json:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        doc: Json = service.http.get(f"/api/tournaments/{tid}").json()
        if doc["status"] == status:
            return doc
        time.sleep(0.05)
    raise AssertionError(f"the tournament did not become {status}")


def _say(service: Any, tid: str, action: str, **body: Any) -> Any:
    return service.http.post(f"/api/tournaments/{tid}/{action}", json=body)


def test_six_computers_a_filled_table_late_arrival_and_withdrawal(service: Any) -> None:
    entrants = [{**BOT, "name": f"Bot {n}"} for n in range(6)]
    t = _new(service, entrants=entrants, format="games", rounds=2, deals=2, table={"pace_ms": 0})
    tid, token = t["id"], t["director_token"]
    assert t["status"] == "waiting" and t["rounds"] == [] and t["scale"] == "4, 3, 2, 1, 0"
    assert t["entrant_tokens"] == {}
    assert _say(service, tid, "next", token="wrong").json()["error"]["code"] == "not_director"
    r = _say(service, tid, "next", token=token)
    assert r.status_code == 200 and r.json()["status"] in ("playing", "between")
    tables = r.json()["rounds"][0]["tables"]
    assert [len(x["seats"]) for x in tables] == [5, 5]
    doc = _until(service, tid, "between")
    fills = [e for e in doc["entrants"] if e["fill"]]
    assert len(fills) == 4  # one entrant and four computers at the last table
    ranked = [s for s in doc["standings"] if s["ranked"]]
    assert {s["name"] for s in ranked} == {f"Bot {n}" for n in range(6)}
    assert all(s["place"] is None for s in doc["standings"] if not s["ranked"])
    # games format: table points 4..0 summed, ten a table
    assert sum(s["score"] for s in doc["standings"]) == 20
    for x in tables:  # each table's record, once the round is over
        record = service.http.get(f"/api/tables/{x['id']}/record").json()
        assert len(record["rounds"]) == 2 and "rounds" not in record["variants"]
    late = _say(service, tid, "entrants", token=token, add={**BOT, "name": "Late"})
    assert late.status_code == 201 and late.json()["added"]["name"] == "Late"
    key = next(e["key"] for e in doc["entrants"] if e["name"] == "Bot 0")
    assert _say(service, tid, "withdraw", token=token, entrant=key).status_code == 200
    second = _say(service, tid, "next", token=token).json()["rounds"][1]["tables"]
    names = [s["name"] for x in second for s in x["seats"]]
    assert "Late" in names and "Bot 0" not in names
    done = _until(service, tid, "finished")
    assert _say(service, tid, "next", token=token).json()["error"]["code"] == "tournament_over"
    got = service.http.get(f"/api/tournaments/{tid}/results.csv")
    assert got.headers["content-type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(got.text)))
    assert [r["name"] for r in rows] == [s["name"] for s in done["standings"]]


def test_a_person_sees_their_table_and_a_no_show_is_replaced(service: Any) -> None:
    t = _new(
        service,
        entrants=[{"kind": "person", "name": "Andi"}, *[BOT] * 4],
        rounds=1,
        deals=1,
        table={"pace_ms": 0},
    )
    tid, token = t["id"], t["director_token"]
    (key, mine), *_ = t["entrant_tokens"].items()
    before = service.http.post(f"/api/tournaments/{tid}/me", json={"token": mine}).json()
    assert before["table"] is None and before["entrant"]["name"] == "Andi"
    _say(service, tid, "next", token=token)
    me = service.http.post(f"/api/tournaments/{tid}/me", json={"token": mine}).json()
    table_id, seat = me["table"]["id"], me["table"]["seat"]
    ws = service.socket(table_id)  # the entrant's own token is their seat's
    state = ws.hello(mine)
    assert state["view"]["seat"] == seat and state["table"]["variants"]["rounds"] == "fresh"
    ws.close()
    links = service.http.get(f"/api/tables/{table_id}").json()["links"]
    assert links["tournament"] == f"/#/tournament/{tid}"  # the table page's way back
    refused = service.http.get(f"/api/tables/{table_id}/record")  # one table: no one to hide from
    assert refused.status_code == 200
    bad = service.http.post(f"/api/tournaments/{tid}/me", json={"token": "nobody"})
    assert bad.status_code == 403
    r = _say(service, tid, "replace", token=token, entrant=key, level="random")
    assert r.status_code == 200, r.text
    seats = service.http.get(f"/api/tables/{table_id}").json()["seats"]
    assert seats[seat]["kind"] == "computer"
    _until(service, tid, "finished")


def test_the_director_ends_a_tournament(service: Any) -> None:
    t = _new(service, entrants=[{"kind": "person", "name": "Besse"}, *[BOT] * 4], deals=3)
    tid, token = t["id"], t["director_token"]
    rnd = _say(service, tid, "next", token=token).json()["rounds"][0]
    assert _say(service, tid, "next", token=token).json()["error"]["code"] == "round_in_play"
    done = _say(service, tid, "end", token=token).json()
    assert done["status"] == "finished"
    assert [x["finished"] for x in done["rounds"][0]["tables"]] == [True]  # ended with it
    table = service.http.get(f"/api/tables/{rnd['tables'][0]['id']}").json()
    assert table["status"] == "finished"
    assert _say(service, tid, "end", token=token).json()["error"]["code"] == "tournament_over"


def test_refusals(service: Any) -> None:
    post = service.http.post
    cases = [
        ({"name": "x", "entrants": []}, "bad_entrants"),
        ({"name": "x", "entrants": [BOT], "format": "swiss"}, "bad_format"),
        ({"name": "x", "entrants": [{"kind": "computer", "level": "nobody"}]}, "bad_level"),
        ({"name": "x", "entrants": [BOT], "rounds": 0}, "bad_body"),
        ({"name": "", "entrants": [BOT]}, "bad_name"),
        ({"name": "x", "entrants": [{"kind": "person"}]}, "bad_entrant"),
    ]
    for body, code in cases:
        r = post("/api/tournaments", json=body)
        assert r.status_code == 422, (body, r.text)
        assert r.json()["error"]["code"] == code, (body, r.text)
    assert service.http.get("/api/tournaments/nope").json()["error"]["code"] == "unknown_tournament"
    t = _new(service, entrants=[BOT])
    r = post(f"/api/tournaments/{t['id']}/next", json={})
    assert r.json()["error"]["code"] == "missing_token"
    r = post(f"/api/tournaments/{t['id']}/replace", json={"token": t["director_token"]})
    assert r.json()["error"]["code"] == "bad_body"
    r = post(
        f"/api/tournaments/{t['id']}/withdraw", json={"token": t["director_token"], "entrant": "e9"}
    )
    assert r.json()["error"]["code"] == "unknown_entrant"


def test_the_answers_fit_the_protocol_schema(service: Any) -> None:
    from domeng.server.schema import adapter

    t = _new(service, entrants=[{"kind": "person", "name": "Cicci"}, BOT], deals=1)
    adapter("tournament").validate_python(t)
    tid, token = t["id"], t["director_token"]
    started = _say(service, tid, "next", token=token).json()
    adapter("tournament").validate_python(started)
    (mine,) = t["entrant_tokens"].values()
    me = service.http.post(f"/api/tournaments/{tid}/me", json={"token": mine}).json()
    adapter("entrant_view").validate_python(me)
    added = _say(service, tid, "entrants", token=token, add={"kind": "person", "name": "Late"})
    adapter("tournament").validate_python(added.json())
    adapter("tournament").validate_python(_say(service, tid, "end", token=token).json())


def test_a_tournament_outlives_a_killed_service_and_its_round_plays_on(tmp_path: Path) -> None:
    """A single ``domeng serve`` on SQLite, killed with SIGKILL in the middle of a round
    and started again: the tournament is there as it was, its round plays on to its end,
    and the next round is started and played."""
    db = tmp_path / "t.sqlite3"
    bots = [{**BOT, "name": f"Bot {n}"} for n in range(5)]
    body = {"name": "Malam", "entrants": bots, "rounds": 2, "deals": 2,
            "table": {"pace_ms": 100}}  # fmt: skip
    with serve(db, free_port()) as (proc, http):
        made = http.post("/api/tournaments", json=body).json()
        tid, token = made["id"], made["director_token"]
        started = http.post(f"/api/tournaments/{tid}/next", json={"token": token}).json()
        (table,) = started["rounds"][0]["tables"]
        deadline = time.monotonic() + 30
        while _plays(db, table["id"]) < 3:  # the round under way
            assert time.monotonic() < deadline, "the round did not begin"
            time.sleep(0.05)
        before = http.get(f"/api/tournaments/{tid}").json()
        proc.send_signal(signal.SIGKILL)
        proc.wait(30)
    assert before["status"] == "playing"
    with serve(db, free_port()) as (_, http):
        after = http.get(f"/api/tournaments/{tid}").json()
        assert (after["name"], after["rounds"]) == ("Malam", before["rounds"])
        service = _Service(http)
        _until(service, tid, "between")
        second = http.post(f"/api/tournaments/{tid}/next", json={"token": token})
        assert second.status_code == 200, second.text
        done = _until(service, tid, "finished")
        assert len(done["rounds"]) == 2 and len(done["standings"]) == 5
        assert sum(s["deals"] for s in done["standings"]) == 5 * 2 * 2


class _Service:
    def __init__(self, http: Any) -> None:
        self.http = http


def _plays(db: Path, table_id: str) -> int:
    with contextlib.closing(sqlite3.connect(db)) as conn:
        (n,) = conn.execute("SELECT COUNT(*) FROM plays WHERE table_id = ?", (table_id,)).fetchone()
    return int(n)
