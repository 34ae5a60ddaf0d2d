"""Reconnecting, a stand-in for an absent person, taking a seat back, ready for the next round."""

from __future__ import annotations

from typing import Any

Json = dict[str, Any]


def play_until(sock: Any, latest: Json, seat: int, done: Any) -> Json:
    """Play the last legal move whenever ``seat`` is in turn until ``done(message)``.

    A round can end first (``seat`` holds no tile that fits again: for seat 0 of a new
    table, waiting for its second turn, about one first round in 2,000): then it says it
    is ready for the next, once."""
    ready_for = 0
    while True:
        view = latest.get("view")
        if done(latest):
            return latest
        if view is not None and view["summary"] is not None:
            if ready_for < view["round"]:
                sock.send({"type": "ready"})
                ready_for = view["round"]
        elif view is not None and view["turn"] == seat and view["legal_moves"]:
            sock.send({"type": "play", **view["legal_moves"][-1], "state": latest["state"]})
        latest = sock.until(lambda m: m["type"] in ("update", "seats", "state"))
        if latest["type"] == "seats":
            latest = {**latest, "view": view}


def test_reconnecting_with_the_token_puts_the_person_back_in_the_seat(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
    t = service.new_table(seats, pace_ms=0, stand_in=None)
    token = t["tokens"]["0"]
    first = service.socket(t["id"])
    state = first.hello(token)
    state = play_until(
        first,
        state,
        0,
        lambda m: m.get("view") and m["view"]["turn"] == 0 and m["view"]["plays"],
    )
    first.close()
    second = service.socket(t["id"])
    again = second.hello(token)
    assert again["view"]["seat"] == 0
    assert again["state"] == state["state"]
    assert again["view"]["hand"] == state["view"]["hand"]
    assert again["view"]["turn"] == 0
    assert again["view"]["plays"] == state["view"]["plays"]
    texts = [e["text"] for e in again["view"]["events"]]
    recent = state.get("events", state["view"].get("events"))
    assert texts[-len(recent) :] == [e["text"] for e in recent]
    assert again["table"]["seats"][0]["connected"]
    move = again["view"]["legal_moves"][0]
    second.send({"type": "play", **move, "state": again["state"]})
    assert second.until(lambda m: m["type"] in ("ok", "error"))["type"] == "ok"
    second.close()


def _ann_played(m: Json) -> bool:
    """An update that tells of a play of seat 0's."""
    events = m["events"] if m["type"] == "update" else []
    return any(e["kind"] == "played" and e["seat"] == 0 for e in events)


def test_an_absent_person_is_replaced_by_a_computer_and_takes_the_seat_back(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
    for _ in range(5):
        t = service.new_table(seats, pace_ms=0, stand_in=level, replace_after_ms=50)
        watcher = service.socket(t["id"])
        # Ann never connects: after 50 ms her stand-in plays her turns
        m = watcher.hello()
        while not _ann_played(m) and m["table"]["status"] != "between":
            m = watcher.until(lambda m: m["type"] == "update")
        if _ann_played(m):
            break
        # the round ended with no turn of Ann's (she never held a tile that fits: about
        # one first round in 3,000), and with no person at the table it waits for her to
        # come back: a new table
        watcher.close()
    assert m["table"]["seats"][0]["stand_in"]
    # she comes back with her token: the seat is hers again
    player = service.socket(t["id"])
    state = player.hello(t["tokens"]["0"])
    assert state["view"]["seat"] == 0
    assert not state["table"]["seats"][0]["stand_in"]
    # she leaves for good: the seat opens, the stand-in plays; someone takes it back
    r = service.http.post(f"/api/tables/{t['id']}/seats/0/leave", json={"token": t["tokens"]["0"]})
    assert r.status_code == 200
    assert player.until(lambda m: m["type"] == "left")["seat"] == 0
    table = service.http.get(f"/api/tables/{t['id']}").json()
    assert not table["seats"][0]["taken"]
    assert table["seats"][0]["stand_in"]
    # a seat taken at creation is nobody else's to take: it waits for a new invitation,
    # which the host shares
    assert table["links"]["join"] == []
    assert table["seats"][0]["invited"]
    r = service.http.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Ann"})
    assert r.status_code == 403
    assert r.json()["error"]["code"] == "bad_invite"
    host = {"token": t["host_token"], "action": "invites"}
    link = service.http.post(f"/api/tables/{t['id']}/host", json=host).json()["invites"]["0"]
    code = link.split("invite=")[1]
    r = service.http.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Ann", "invite": code})
    assert r.status_code == 201
    back = service.socket(t["id"])
    state = back.hello(r.json()["token"])
    assert state["table"]["seats"][0]["name"] == "Ann"
    # in a round being played she watches (no hand) and sits from the next round
    if state["table"]["status"] == "playing":
        assert state["view"]["seat"] is None
        assert state["view"]["hand"] is None
        assert state["table"]["seats"][0]["waiting"]
    else:
        assert state["view"]["seat"] == 0
    for s in (watcher, player, back):
        s.close()


def test_the_next_round_starts_when_the_people_are_ready(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
    seats += [{"kind": "computer", "level": level}] * 3
    t = service.new_table(seats, pace_ms=0, stand_in=None)
    ann, bo = service.socket(t["id"]), service.socket(t["id"])
    a_state, b_state = ann.hello(t["tokens"]["0"]), bo.hello(t["tokens"]["1"])
    # The computer players may still be playing when the two say hello: the loop
    # below waits for each state in turn, so the two need not have seen the same one.
    latest = a_state
    while latest["view"]["summary"] is None:
        n, turn = latest["state"], latest["view"]["turn"]
        if turn in (0, 1):
            own = latest
            if turn == 1 and b_state["state"] != n:
                own = bo.until(lambda m, n=n: m.get("state") == n and m.get("view") is not None)
            elif turn == 1:
                own = b_state
            sock = ann if turn == 0 else bo
            sock.send({"type": "play", **own["view"]["legal_moves"][-1], "state": n})
        latest = ann.until(lambda m, n=n: m["type"] == "update" and m["state"] > n)
    assert latest["table"]["status"] == "between"
    ann.send({"type": "ready", "id": 1})
    seats_msg = bo.until(lambda m: m["type"] == "seats" and m["table"]["seats"][0]["ready"])
    assert seats_msg["table"]["status"] == "between"
    assert not seats_msg["table"]["seats"][1]["ready"]
    bo.send({"type": "ready"})
    new = ann.until(lambda m: m["type"] == "update" and m["table"]["round"] == 2)
    assert new["view"]["round"] == 2
    assert new["view"]["summary"] is None
    assert len(new["view"]["hand"]) == 5
    ann.close()
    bo.close()


def test_a_table_nobody_is_at_waits_after_the_round(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
    t = service.new_table(seats, pace_ms=0, stand_in=level, replace_after_ms=0)
    watcher = service.socket(t["id"])
    first = watcher.hello()
    # Ann never comes: her stand-in plays the round out, then the table waits for her
    if first["table"]["status"] != "between":
        watcher.until(lambda m: m.get("table", {}).get("status") == "between")
    try:
        m = watcher.recv(timeout=0.3)
        assert m["table"]["round"] == 1, m
    except TimeoutError:
        pass
    table = service.http.get(f"/api/tables/{t['id']}").json()
    assert table["status"] == "between"
    assert table["seats"][0]["stand_in"]
    # she comes back: the next round waits for her ready, then starts
    ann = service.socket(t["id"])
    state = ann.hello(t["tokens"]["0"])
    assert state["table"]["status"] == "between"
    assert state["table"]["seats"][0]["ready"] is False
    ann.send({"type": "ready"})
    new = ann.until(lambda m: m["type"] == "update" and m["table"]["round"] == 2)
    assert len(new["view"]["hand"]) == 5
    ann.close()
    watcher.close()
