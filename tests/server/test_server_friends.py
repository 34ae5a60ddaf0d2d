"""Playing with friends over the protocol: invitations, the host's say, a seat that
changes hands in a round, the end of a game, talk at the table, lists in pages."""

from __future__ import annotations

from typing import Any

import pytest

Json = dict[str, Any]


def friends_table(service: Any, **settings: Any) -> Json:
    """Ann (this screen) at seat 0, two invited friends at 1 and 2, two computers."""
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person"}, {"kind": "person"}]
    seats += [{"kind": "computer", "level": level}] * 2
    settings.setdefault("pace_ms", 0)
    return service.new_table(seats, **settings)


def code_of(link: str) -> str:
    return link.split("invite=")[1]


def host(service: Any, t: Json, action: str, **body: Any) -> Any:
    token = body.pop("token", t["host_token"])
    return service.http.post(
        f"/api/tables/{t['id']}/host", json={"token": token, "action": action, **body}
    )


def sit(service: Any, t: Json, seat: int, name: str, invite: str | None = None) -> Any:
    body = {"name": name} if invite is None else {"name": name, "invite": invite}
    return service.http.post(f"/api/tables/{t['id']}/seats/{seat}", json=body)


def test_an_invited_seat_is_taken_only_with_its_code(service: Any) -> None:
    t = friends_table(service)
    assert set(t["invites"]) == {"1", "2"}
    assert t["host"] == 0 and t["host_token"]
    assert t["links"]["join"] == []  # nobody else sees them
    listed = next(x for x in service.http.get("/api/tables").json()["tables"] if x["id"] == t["id"])
    assert [s["invited"] for s in listed["seats"]] == [False, True, True, False, False]
    assert "invites" not in listed and "host_token" not in listed
    for code in (None, "guess", code_of(t["invites"]["2"])):  # none, wrong, another seat's
        r = sit(service, t, 1, "Eve", code)
        assert r.status_code == 403, r.text
        assert r.json()["error"]["code"] == "bad_invite"
    r = sit(service, t, 1, "Bo", code_of(t["invites"]["1"]))
    assert r.status_code == 201
    assert r.json()["table"]["seats"][1]["name"] == "Bo"
    # the code is spent with the seat; the host still sees seat 2's link
    assert (
        sit(service, t, 1, "Eve", code_of(t["invites"]["1"])).json()["error"]["code"]
        == "seat_taken"
    )
    r = host(service, t, "invites")
    assert r.status_code == 200
    assert r.json()["invites"] == {"2": t["invites"]["2"]}


def test_an_open_seat_is_anyones_and_listed_as_such(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "open": True}]
    t = service.new_table(seats + [{"kind": "computer", "level": level}] * 3, pace_ms=0)
    assert t["invites"] == {}
    assert t["links"]["join"] == [f"/?table={t['id']}&seat=1"]
    assert t["seats"][1]["open"] and not t["seats"][1]["invited"]
    assert sit(service, t, 1, "Bo").status_code == 201


def test_only_the_host_has_a_say(service: Any) -> None:
    t = friends_table(service)
    for token in ("guess", t["tokens"]["0"]):  # a seat's token is not the host's
        r = host(service, t, "end", token=token)
        assert r.status_code == 403
        assert r.json()["error"]["code"] == "not_host"
    r = service.http.post(f"/api/tables/{t['id']}/host", json={"action": "end"})
    assert r.status_code == 401
    assert r.json()["error"]["code"] == "missing_token"
    for body, code in (
        ({"action": "dance"}, "bad_body"),
        ({"action": "replace"}, "bad_body"),
        ({"action": "replace", "seat": 3}, "computer_seat"),
        ({"action": "invite", "seat": 1}, "person_seat"),
        ({"action": "replace", "seat": 9}, "unknown_seat"),
        ({"action": "replace", "seat": 1, "level": "grandmaster"}, "bad_level"),
        ({"action": "remove"}, "not_finished"),
    ):
        r = service.http.post(
            f"/api/tables/{t['id']}/host", json={"token": t["host_token"], **body}
        )
        assert r.status_code in (404, 409, 422), (body, r.text)
        assert r.json()["error"]["code"] == code, body
    assert service.http.get(f"/api/tables/{t['id']}").json()["status"] == "waiting"


def test_the_host_replaces_a_friend_who_never_came_and_the_game_starts(service: Any) -> None:
    t = friends_table(service)
    assert sit(service, t, 1, "Bo", code_of(t["invites"]["1"])).status_code == 201
    r = host(service, t, "replace", seat=2, level="random")
    assert r.status_code == 200, r.text
    table = r.json()["table"]
    assert table["seats"][2]["kind"] == "computer"
    assert table["seats"][2]["level"] == "random"
    assert table["status"] == "playing"  # every person's seat is taken now
    assert host(service, t, "invites").json()["invites"] == {}


def watch_hands(sock: Any, seat: int) -> list[Json]:
    """Every view this connection got that showed ``seat``'s hand while a round was played."""
    return [
        m["view"]
        for m in sock.received
        if m["type"] in ("state", "update")
        and m["view"] is not None
        and m["view"]["summary"] is None
        and m["view"]["seat"] == seat
    ]


def test_every_way_a_seat_changes_hands_in_a_round_hides_its_tiles_until_the_next(
    service: Any,
) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
    seats += [{"kind": "computer", "level": level}] * 3
    t = service.new_table(seats, pace_ms=300, stand_in=level)
    ann = service.socket(t["id"])
    ann.hello(t["tokens"]["0"])
    # 1. Bo leaves mid-round; the host invites Cy to his seat; Cy takes it mid-round
    r = service.http.post(f"/api/tables/{t['id']}/seats/1/leave", json={"token": t["tokens"]["1"]})
    assert r.status_code == 200
    link = host(service, t, "invites").json()["invites"]["1"]
    cy_token = sit(service, t, 1, "Cy", code_of(link)).json()["token"]
    cy = service.socket(t["id"])
    first = cy.hello(cy_token)
    number = first["table"]["round"]
    assert first["table"]["seats"][1]["waiting"]
    assert first["view"]["seat"] is None and first["view"]["hand"] is None
    # 2. the host hands Ann's seat to a computer: her connection is a spectator's now
    assert host(service, t, "replace", seat=0, level=level).status_code == 200
    assert ann.until(lambda m: m["type"] == "left")["seat"] == 0
    ann.received.clear()  # she saw her own hand until then, as she should
    # 3. ... and opens a computer's seat to Di, who takes it mid-round
    link = host(service, t, "invite", seat=4).json()["invites"]["4"]
    di = service.socket(t["id"])
    di.hello(sit(service, t, 4, "Di", code_of(link)).json()["token"])
    cy.send({"type": "play", "tile": "6-6", "state": first["state"], "id": "x"})
    refusal = cy.until(lambda m: m.get("reply_to") == "x")
    assert refusal["code"] in ("not_your_turn", "stale_state")
    # nobody saw a hand of the round being played; once it is over they say they are
    # ready, and from the next round they play
    for sock in (cy, di):
        sock.until(
            lambda m: m["type"] in ("update", "seats") and m["table"]["status"] == "between",
            timeout=60,
        )
        sock.send({"type": "ready"})
    nxt = cy.until(lambda m: m["type"] == "update" and m["view"]["round"] > number, timeout=60)
    assert nxt["view"]["seat"] == 1 and len(nxt["view"]["hand"]) == 5
    assert not nxt["table"]["seats"][1]["waiting"]
    di_next = di.until(lambda m: m["type"] == "update" and m["view"]["round"] > number, timeout=60)
    assert di_next["view"]["seat"] == 4
    for sock, seat in ((cy, 1), (di, 4), (ann, 0)):
        assert all(v["round"] > number for v in watch_hands(sock, seat)), seat
    for sock in (ann, cy, di):
        sock.close()


def test_the_host_ends_the_game_and_the_standings_are_final(service: Any) -> None:
    t = friends_table(service, end={"titles": 3})
    for seat in (1, 2):
        sit(service, t, seat, f"P{seat}", code_of(t["invites"][str(seat)]))
    sock = service.socket(t["id"])
    sock.hello(t["tokens"]["0"])
    r = host(service, t, "end")
    assert r.status_code == 200
    table = r.json()["table"]
    assert table["status"] == "finished" and table["ended"] == "host"
    standings = table["standings"]
    assert sorted(s["seat"] for s in standings) == [0, 1, 2, 3, 4]
    assert [s["rank"] for s in standings] == sorted(s["rank"] for s in standings)
    assert set(standings[0]) == {
        "seat", "rank", "titles", "stones", "received", "rounds_won", "ceki", "pollo",
        "manguno", "mattikkeng",
    }  # fmt: skip
    assert sock.until(lambda m: m["type"] == "seats" and m["table"]["status"] == "finished")
    sock.send({"type": "ready", "id": 1})
    assert sock.until(lambda m: m.get("reply_to") == 1)["code"] == "game_over"
    assert host(service, t, "end").json()["error"]["code"] == "game_over"
    assert sit(service, t, 1, "Eve").status_code == 409
    # then it can be removed: it leaves the list and the service
    assert host(service, t, "remove").status_code == 200
    assert service.http.get(f"/api/tables/{t['id']}").status_code == 404
    assert t["id"] not in [
        x["id"] for x in service.http.get("/api/tables?limit=500").json()["tables"]
    ]
    sock.close()


def test_play_again_gives_each_connected_person_the_same_seat_at_a_new_table(service: Any) -> None:
    t = friends_table(service, end={"rounds": 1}, turn_seconds=30)
    bo_token = sit(service, t, 1, "Bo", code_of(t["invites"]["1"])).json()["token"]
    ann, bo = service.socket(t["id"]), service.socket(t["id"])
    ann.hello(t["tokens"]["0"])
    bo.hello(bo_token)
    r = host(service, t, "again")
    assert r.status_code == 200, r.text
    new = r.json()
    assert new["id"] != t["id"] and new["host_token"]
    assert new["tokens"] == {}  # the host is not given the friends' tokens
    assert new["turn_seconds"] == 30 and new["end"] == {"rounds": 1}
    assert [s["kind"] for s in new["seats"]] == [s["kind"] for s in t["seats"]]
    assert set(new["invites"]) == {"2"}  # the friend who never came is invited anew
    for sock, seat, name in ((ann, 0, "Ann"), (bo, 1, "Bo")):
        m = sock.until(lambda m: m["type"] == "again")
        assert m["table_id"] == new["id"] and m["seat"] == seat
        again = service.socket(new["id"])
        state = again.hello(m["token"])
        assert state["table"]["seats"][seat]["name"] == name
        again.close()
        sock.close()


def test_talk_at_the_table(service: Any) -> None:
    t = friends_table(service)
    ann = service.socket(t["id"])
    ann.hello(t["tokens"]["0"])
    watcher = service.socket(t["id"])
    watcher.hello()
    ann.send({"type": "chat", "text": "  <b>Selamat</b> malam!  "})
    heard = watcher.until(lambda m: m["type"] == "chat")
    assert heard["seat"] == 0 and heard["name"] == "Ann"
    assert heard["text"] == "<b>Selamat</b> malam!"  # kept as text; the page shows it as text
    ann.send({"type": "chat", "phrase": "good_game"})
    assert watcher.until(lambda m: m["type"] == "chat")["phrase"] == "good_game"

    def refused(sock: Any, message: Json, code: str) -> None:
        sock.send({**message, "id": code})
        m = sock.until(lambda m: m.get("reply_to") == code)
        assert m["type"] == "error" and m["code"] == code, m

    refused(ann, {"type": "chat", "text": "x" * 201}, "too_long")
    for bad in (
        {"text": ""},
        {"text": "   "},
        {"text": 5},
        {"phrase": "dance"},
        {},
        {"text": "a", "phrase": "pass"},
    ):
        ann.send({"type": "chat", **bad, "id": "b"})
        m = ann.until(lambda m: m.get("reply_to") == "b")
        assert m["code"] == "bad_field", (bad, m)
    refused(watcher, {"type": "chat", "text": "hi"}, "not_seated")
    # at most 5 in 10 seconds (two were said, and refusals count as said? no: 3 more pass)
    for n in range(3):
        ann.send({"type": "chat", "text": f"m{n}", "id": f"m{n}"})
    refused(ann, {"type": "chat", "text": "one too many"}, "rate_limited")
    # a newcomer gets what was said with the state
    late = service.socket(t["id"])
    state = late.hello()
    assert [c.get("text", c.get("phrase")) for c in state["chat"]] == [
        "<b>Selamat</b> malam!", "good_game", "m0", "m1", "m2"
    ]  # fmt: skip
    for sock in (ann, watcher, late):
        sock.close()


def test_spectators_talk_where_the_table_allows_it(service: Any) -> None:
    t = friends_table(service, spectator_chat=True)
    watcher = service.socket(t["id"])
    watcher.hello()
    watcher.send({"type": "chat", "phrase": "hello"})
    m = watcher.until(lambda m: m["type"] == "chat")
    assert m["seat"] is None and m["name"] == "Spectator"


def test_the_list_of_tables_comes_in_pages(service: Any) -> None:
    for _ in range(3):
        friends_table(service)
    whole = service.http.get("/api/tables?limit=500").json()
    ids = [x["id"] for x in whole["tables"]]
    assert whole["next"] is None and len(ids) >= 3
    got, cursor = [], None
    while True:
        params = {"limit": "2"} | ({"cursor": cursor} if cursor else {})
        page = service.http.get("/api/tables", params=params).json()
        assert len(page["tables"]) <= 2
        got += [x["id"] for x in page["tables"]]
        cursor = page["next"]
        if cursor is None:
            break
    assert got == ids
    newest = service.http.get("/api/tables", params={"limit": "500", "order": "newest"}).json()
    assert [x["id"] for x in newest["tables"]] == ids[::-1]
    assert service.http.get("/api/tables?order=sideways").status_code == 400
    for query, code in (
        ("limit=0", "bad_query"),
        ("limit=x", "bad_query"),
        ("cursor=nope", "bad_cursor"),
    ):
        r = service.http.get(f"/api/tables?{query}")
        assert r.status_code == 400 and r.json()["error"]["code"] == code


@pytest.mark.parametrize("data", ["", "x" * 501])
def test_a_qr_code_needs_a_short_text(service: Any, data: str) -> None:
    r = service.http.get("/api/qr.svg", params={"data": data})
    assert r.status_code == 400


def test_a_qr_code_is_an_svg(service: Any) -> None:
    r = service.http.get("/api/qr.svg", params={"data": "http://192.168.1.20:8080/?table=x"})
    assert r.status_code == 200
    assert r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith('<svg xmlns="http://www.w3.org/2000/svg"') and "path" in r.text


def test_the_share_of_talk_is_a_seats_whatever_its_connections() -> None:
    """Five messages in ten seconds from a seat, however many connections it opens
    (each connection had its own share before); a spectator's share is per address."""
    import asyncio as _asyncio

    from domeng.server.bodies import NewTable
    from domeng.server.chat import RATE
    from domeng.server.clock import FakeClock
    from domeng.server.hub import Hub
    from domeng.server.messages import Chat as ChatMessage
    from domeng.server.tables import Connection, TableError
    from domeng.storage import MemoryStorage

    from .conftest import run_apart
    from .test_server_clock import InlineRunner

    async def main() -> None:
        clock = FakeClock()
        hub = Hub(MemoryStorage(), InlineRunner(), clock)
        seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": "random"}] * 4
        body = {"seats": seats, "pace_ms": 60_000, "spectator_chat": True}
        created = await hub.create_table(NewTable.model_validate(body))
        t, token = created.table, created.tokens[0]
        count, seconds = RATE
        ann = [Connection(address="10.0.0.1") for _ in range(count + 1)]
        for c in ann:
            hub.hello(t, c, token)
        said = ChatMessage.model_validate({"type": "chat", "text": "hi"})
        for c in ann[:count]:  # one message from each connection: the seat's five
            await hub.say(t, c, said)
        try:
            await hub.say(t, ann[count], said)
            raise AssertionError("a sixth message from the seat was let through")
        except TableError as e:
            assert e.code == "rate_limited"
        watchers = [Connection(address="10.0.0.2") for _ in range(count + 1)]
        for c in watchers:
            hub.hello(t, c, None)
        for c in watchers[:count]:
            await hub.say(t, c, said)
        try:
            await hub.say(t, watchers[count], said)
            raise AssertionError("a sixth message from the spectators' address went through")
        except TableError as e:
            assert e.code == "rate_limited"
        other = Connection(address="10.0.0.3")  # another spectator: a share of its own
        hub.hello(t, other, None)
        await hub.say(t, other, said)
        clock.advance(seconds)  # ten seconds later the seat may talk again
        await hub.say(t, ann[count], said)
        await _asyncio.sleep(0)
        await hub.close()

    run_apart(main)
