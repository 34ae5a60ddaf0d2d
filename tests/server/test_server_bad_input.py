"""Every bad input gets a clear error to its sender alone; nothing changes; the socket lives on."""

from __future__ import annotations

from typing import Any

import pytest

Json = dict[str, Any]


def person_table(service: Any, **settings: Any) -> tuple[Json, str]:
    """Seat 0 a person (Ann, already seated), the rest computer players, no pace."""
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
    settings.setdefault("pace_ms", 0)
    settings.setdefault("stand_in", None)
    t = service.new_table(seats, **settings)
    return t, t["tokens"]["0"]


def my_turn(sock: Any, state: Json, seat: int = 0) -> Json:
    """Wait (from the ``state`` message) until ``seat`` is in turn; answers the latest view.

    A round can end before ``seat`` has had a turn (it never held a tile that fits: about
    one first round in 3,000); then it says it is ready for the next."""
    m = state
    while True:
        view = m["view"]
        if view is not None and view["summary"] is not None:
            sock.send({"type": "ready"})
        elif view is not None and view["turn"] == seat:
            return m
        m = sock.until(lambda m: m["type"] == "update")


# -- HTTP ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "status", "words"),
    [
        ("{not json", 400, "not valid JSON"),
        ("[1, 2]", 422, "JSON object"),
        ('{"seats": []}', 422, "exactly 5"),
        ('{"variants": {}}', 422, "exactly 5"),
        ('{"seats": [1, 2, 3, 4, 5]}', 422, "seat 0 must be an object"),
        ('{"seats": [{"kind": "robot"}, {}, {}, {}, {}]}', 422, "kind must be"),
        (
            '{"seats": [{"kind": "computer", "level": "grandmaster"}, {"kind": "person"},'
            '{"kind": "person"}, {"kind": "person"}, {"kind": "person"}]}',
            422,
            "unknown computer player",
        ),
        (
            '{"seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "person"},'
            '{"kind": "person"}, {"kind": "person"}], "variants": {"opening": "triple"}}',
            422,
            "opening",
        ),
        (
            '{"seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "person"},'
            '{"kind": "person"}, {"kind": "person"}], "pace_ms": -5}',
            422,
            "pace_ms",
        ),
        (
            '{"seats": [{"kind": "person"}, {"kind": "person"}, {"kind": "person"},'
            '{"kind": "person"}, {"kind": "person"}], "colour": "red"}',
            422,
            "unknown field",
        ),
        ("x" * 20_000, 413, "longer than"),
        ("[" * 5000 + "]" * 5000, 400, "not valid JSON"),
    ],
)
def test_a_bad_table_body_is_refused_with_a_clear_message(
    service: Any, body: str, status: int, words: str
) -> None:
    before = len(service.http.get("/api/tables").json()["tables"])
    r = service.http.post("/api/tables", content=body, headers={"content-type": "application/json"})
    assert r.status_code == status, r.text
    assert words in r.json()["error"]["message"]
    assert len(service.http.get("/api/tables").json()["tables"]) == before


def test_unknown_tables_and_seats_answer_404(service: Any) -> None:
    http = service.http
    for path in ("/api/tables/nope", "/api/tables/nope/record", "/api/tables/nope/view"):
        r = http.get(path)
        assert r.status_code == 404
        assert r.json()["error"]["code"] == "unknown_table"
    assert http.post("/api/tables/nope/seats/1", json={"name": "Bo"}).status_code == 404
    t, _ = person_table(service)
    for seat in ("7", "-1", "x", "²", "١"):
        r = http.post(f"/api/tables/{t['id']}/seats/{seat}", json={"name": "Bo"})
        assert r.status_code == 404
        assert r.json()["error"]["code"] == "unknown_seat"


def test_a_taken_seat_a_computer_seat_and_a_wrong_token_are_refused(service: Any) -> None:
    http = service.http
    level = service.level()
    t = service.new_table(
        [{"kind": "person", "open": True}, {"kind": "person", "open": True}]
        + [{"kind": "computer", "level": level}] * 3,
        pace_ms=0,
    )
    tid = t["id"]
    r = http.post(f"/api/tables/{tid}/seats/0", json={"name": "Ann"})
    assert r.status_code == 201
    token = r.json()["token"]
    r = http.post(f"/api/tables/{tid}/seats/0", json={"name": "Bo"})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "seat_taken"
    r = http.post(f"/api/tables/{tid}/seats/3", json={"name": "Bo"})
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "computer_seat"
    r = http.post(f"/api/tables/{tid}/seats/1", json={})
    assert r.status_code == 422
    for name in ("", "\n", "x" * 41):
        r = http.post(f"/api/tables/{tid}/seats/1", json={"name": name})
        assert r.status_code == 422
        assert r.json()["error"]["code"] == "bad_name"
    r = http.post(
        f"/api/tables/{tid}/seats/1",
        content='{"name": "\\ud800"}',
        headers={"content-type": "application/json"},
    )
    assert r.status_code == 422
    r = http.post(f"/api/tables/{tid}/seats/0/leave", json={"token": "guess"})
    assert r.status_code == 403
    r = http.post(f"/api/tables/{tid}/seats/0/leave", json={})
    assert r.status_code == 401
    table = http.get(f"/api/tables/{tid}").json()
    assert table["seats"][0]["name"] == "Ann"
    assert table["seats"][0]["taken"]
    assert http.post(f"/api/tables/{tid}/seats/0/leave", json={"token": token}).status_code == 200
    assert not http.get(f"/api/tables/{tid}").json()["seats"][0]["taken"]


def test_an_unknown_route_answers_json_404(service: Any) -> None:
    r = service.http.get("/api/no/such/thing")
    assert r.status_code == 404
    assert r.json()["error"]["code"] == "not_found"


def test_a_post_that_is_not_sent_as_json_is_refused_and_creates_nothing(service: Any) -> None:
    # a web page of another site can send text/plain without asking the service first
    # (the ids only: a table of an earlier test on this service may still be moving)
    before = {x["id"] for x in service.http.get("/api/tables").json()["tables"]}
    body = '{"seats": [{"kind": "computer", "level": "random"}, {"kind": "person", "open": true},'
    body += ' {"kind": "person", "open": true}, {"kind": "person", "open": true},'
    body += ' {"kind": "person", "open": true}]}'
    for kind in ("text/plain", "application/x-www-form-urlencoded", None):
        headers = {"content-type": kind} if kind else {}
        r = service.http.post("/api/tables", content=body, headers=headers)
        assert r.status_code == 415, r.text
        assert r.json()["error"]["code"] == "bad_content_type"
    t, _ = person_table(service)
    r = service.http.post(
        f"/api/tables/{t['id']}/seats/1", content='{"name": "Eve"}', headers={"content-type": ""}
    )
    assert r.status_code == 415
    after = {x["id"] for x in service.http.get("/api/tables").json()["tables"]}
    assert after - before == {t["id"]}  # the person's table, and none of the refused
    assert service.http.get(f"/api/tables/{t['id']}").json()["seats"][1]["name"] != "Eve"
    ok = service.http.post(
        "/api/tables", content=body, headers={"content-type": "application/json; charset=utf-8"}
    )
    assert ok.status_code == 201


def test_the_small_refusals_say_what_is_wrong(service: Any) -> None:
    r = service.http.get("/api/tables", params={"status": "bogus"})
    assert r.status_code == 400
    assert r.json()["error"]["code"] == "bad_status"
    r = service.http.delete("/api/tables")
    assert r.status_code == 405
    assert set(r.headers["allow"].replace(" ", "").split(",")) == {"GET", "HEAD", "POST"}
    assert service.http.get("/api/tables", params={"status": ""}).status_code == 200
    # an unknown table is named before its seat is read
    r = service.http.post("/api/tables/nope/seats/abc", json={"name": "Eve"})
    assert r.json()["error"]["code"] == "unknown_table"
    seats = [{"kind": "person", "open": True}] * 2 + [{"kind": "computer", "level": "random"}] * 3
    t = service.new_table(seats)
    r = service.http.post(f"/api/tables/{t['id']}/seats/1", json={"name": "Eve", "colour": "red"})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "bad_body"
    assert service.http.get(f"/api/tables/{t['id']}").json()["seats"][1]["taken"] is False
    # nothing dealt yet: nothing to be ready for
    token = service.http.post(f"/api/tables/{t['id']}/seats/0", json={"name": "Ann"}).json()
    sock = service.socket(t["id"])
    sock.hello(token["token"])
    sock.send({"type": "ready", "id": 1})
    refusal = sock.until(lambda m: m.get("reply_to") == 1)
    assert refusal["code"] == "no_round"
    sock.close()


def test_a_record_is_sent_as_a_file_only_when_asked(service: Any) -> None:
    t = service.new_table([{"kind": "computer", "level": "random"}] * 5, pace_ms=0)
    for value, attached in (("1", True), ("true", True), ("0", False), ("", False)):
        r = service.http.get(f"/api/tables/{t['id']}/record", params={"download": value})
        assert ("attachment" in r.headers.get("content-disposition", "")) is attached, value


# -- WebSocket ----------------------------------------------------------------------------


def test_a_websocket_to_an_unknown_table_gets_an_error(service: Any) -> None:
    sock = service.socket("no-such-table")
    m = sock.recv()
    assert m["type"] == "error"
    assert m["code"] == "unknown_table"
    sock.close()


def test_every_bad_message_gets_its_error_and_changes_nothing(service: Any) -> None:
    t, token = person_table(service)
    sock = service.socket(t["id"])

    def refused(message: Json | str, code: str) -> Json:
        sock.send(message)
        m = sock.until(lambda m: m["type"] in ("error", "ok"))
        assert m["type"] == "error", m
        assert m["code"] == code, m
        assert m["message"]
        return m

    refused({"type": "play", "tile": "6-6", "state": 1}, "hello_first")
    refused({"type": "hello", "token": "not-a-token"}, "bad_token")
    refused({"type": "hello", "token": 42}, "bad_field")
    refused('{"type": "hello", "token": "\\ud800"}', "bad_token")
    state = sock.hello(token)
    # the table waits for seat 0 (no stand-in): from its turn on, nothing moves but us
    view = my_turn(sock, state)
    refused({"type": "hello", "token": token}, "already_hello")
    refused("{this is not json", "bad_json")
    refused("[1, 2, 3]", "bad_message")
    refused("[" * 2000 + "]" * 2000, "bad_json")
    refused({"no": "type"}, "missing_field")
    refused({"type": "dance"}, "unknown_type")
    refused({"type": "play", "tile": "6-6", "state": 0, "pad": "x" * 5000}, "too_large")
    sock.ws.send(b"\x00\x01")
    m = sock.until(lambda m: m["type"] == "error")
    assert m["code"] == "binary"
    refused({"type": "ready"}, "round_not_over")

    n, v = view["state"], view["view"]
    hand = v["hand"]
    legal = {(m["tile"], m["end"]) for m in v["legal_moves"]}
    refused({"type": "play", "state": n}, "missing_field")
    refused({"type": "play", "tile": hand[0]}, "missing_field")
    refused({"type": "play", "tile": "7-7", "state": n}, "bad_tile")
    refused({"type": "play", "tile": 66, "state": n}, "bad_tile")
    refused({"type": "play", "tile": hand[0], "end": "middle", "state": n}, "bad_end")
    refused({"type": "play", "tile": hand[0], "state": "latest"}, "bad_field")
    refused({"type": "play", "tile": hand[0], "state": n - 1}, "stale_state")
    refused({"type": "play", "tile": hand[0], "state": n + 5}, "stale_state")
    # a tile not in the hand, and (when there is one) a tile of the hand that does not fit
    unplayed = set(hand) | {m["tile"] for m in v["plays"]}
    foreign = next(f"{a}-{b}" for a in range(7) for b in range(a + 1) if f"{a}-{b}" not in unplayed)
    refused({"type": "play", "tile": foreign, "state": n, "id": 9}, "illegal")
    misfits = [h for h in hand if all(h != tile for tile, _ in legal)]
    if misfits:
        refused({"type": "play", "tile": misfits[0], "state": n}, "illegal")
    for tile, end in legal:
        other = "left" if end == "right" else "right"
        if (tile, other) not in legal and v["ends"] and v["ends"][0] != v["ends"][1]:
            refused({"type": "play", "tile": tile, "end": other, "state": n}, "illegal")
            break

    # nothing changed, and the connection still plays
    now = service.http.get(f"/api/tables/{t['id']}").json()
    assert now["state"] == n
    assert now["turn"] == 0
    tile, end = sorted(legal)[0]
    sock.send({"type": "play", "tile": tile, "end": end, "state": n, "id": "p1"})
    ok = sock.until(lambda m: m["type"] in ("ok", "error"))
    assert ok == {"type": "ok", "reply_to": "p1", "state": n + 1}
    sock.close()


def test_plays_out_of_turn_and_by_spectators_are_refused(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
    t = service.new_table(seats + [{"kind": "computer", "level": level}] * 3, pace_ms=0)
    first, second = service.socket(t["id"]), service.socket(t["id"])
    states = [first.hello(t["tokens"]["0"]), second.hello(t["tokens"]["1"])]
    watcher = service.socket(t["id"])
    seen = watcher.hello()
    assert seen["view"]["seat"] is None
    assert seen["view"]["hand"] is None
    assert seen["view"]["legal_moves"] == []
    watcher.send({"type": "play", "tile": "6-6", "state": seen["state"]})
    m = watcher.until(lambda m: m["type"] == "error")
    assert m["code"] == "not_seated"
    watcher.send({"type": "ready"})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "not_seated"

    # the table waits for a person in turn (seat 0 or 1); the other one tries to play
    current = states[1] if states[1]["state"] >= states[0]["state"] else states[0]
    turn = current["view"]["turn"]
    sockets = [first, second]
    ready_for = 0  # a round over before either was in turn: both say they are ready
    while turn not in (0, 1):
        if current["view"]["summary"] is not None and ready_for < current["view"]["round"]:
            for sock in sockets:
                sock.send({"type": "ready"})
            ready_for = current["view"]["round"]
        current = first.until(lambda m: m["type"] == "update")
        turn = current["view"]["turn"]
    other = sockets[1 - turn]
    other_state = service.http.get(f"/api/tables/{t['id']}").json()["state"]
    other.send({"type": "play", "tile": "6-6", "state": other_state})
    m = other.until(lambda m: m["type"] == "error")
    assert m["code"] == "not_your_turn"
    assert service.http.get(f"/api/tables/{t['id']}").json()["state"] == other_state
    other.send({"type": "ping", "id": 3})
    assert other.until(lambda m: m["type"] == "pong")["reply_to"] == 3
    for s in (first, second, watcher):
        s.close()
