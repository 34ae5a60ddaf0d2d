"""Refusals a mutation sample found unchecked: leaving a seat with another seat's token,
and ``ready`` once the table's end was reached (protocol.md)."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def test_leaving_a_seat_with_another_seats_token_is_refused_and_changes_nothing(
    service: Any,
) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
    t = service.new_table(seats + [{"kind": "computer", "level": level}] * 3, pace_ms=0)
    tid, ann, bo = t["id"], t["tokens"]["0"], t["tokens"]["1"]
    assert ann != bo
    before = service.http.get(f"/api/tables/{tid}").json()

    for seat, token in ((0, bo), (1, ann)):
        r = service.http.post(f"/api/tables/{tid}/seats/{seat}/leave", json={"token": token})
        assert r.status_code == 403, r.text
        assert r.json()["error"]["code"] == "bad_token"

    after = service.http.get(f"/api/tables/{tid}").json()
    for seat, name in ((0, "Ann"), (1, "Bo")):
        assert after["seats"][seat]["taken"] is True
        assert after["seats"][seat]["name"] == name
        assert after["seats"][seat] == before["seats"][seat]
    assert after["links"]["join"] == []
    # both tokens still sit their own seats
    for seat, token in ((0, ann), (1, bo)):
        sock = service.socket(tid)
        state = sock.hello(token)
        assert state["view"]["seat"] == seat
        assert sock.received[0] == {"type": "welcome", "table_id": tid, "seat": seat}
        sock.close()


def test_ready_after_the_game_is_over_answers_game_over(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
    t = service.new_table(seats, pace_ms=0, stand_in=None, end={"rounds": 1})
    sock = service.socket(t["id"])
    latest = sock.hello(t["tokens"]["0"])
    # play the one round to its end, as the person at seat 0
    while latest["view"]["summary"] is None:
        n = latest["state"]
        if latest["view"]["turn"] == 0:
            sock.send({"type": "play", **latest["view"]["legal_moves"][0], "state": n})
        latest = sock.until(lambda m, n=n: m["type"] == "update" and m["state"] > n)
    assert latest["table"]["status"] == "finished"
    before = service.http.get(f"/api/tables/{t['id']}").json()
    assert before["status"] == "finished"

    sock.send({"type": "ready", "id": "r1"})
    m = sock.until(lambda m: m["type"] in ("ok", "error"))
    assert m["type"] == "error", m
    assert m["code"] == "game_over", m
    assert m["reply_to"] == "r1"

    after = service.http.get(f"/api/tables/{t['id']}").json()
    assert after["status"] == "finished"
    assert after["state"] == before["state"] == latest["state"]
    assert after["round"] == 1
    assert after == before
    sock.close()
