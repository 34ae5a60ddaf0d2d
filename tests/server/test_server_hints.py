"""Hints at the table: the setting's default, the coach's answer to the seat in turn, its
count in the seats, and the refusals (hints_off, not_seated, not_your_turn)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import time
from pathlib import Path
from typing import Any

import pytest

from domeng.bots.reasons import KEYS
from domeng.engine import Game
from domeng.server.hinting import hint_body
from domeng.server.players import BotRunner

from .test_protocol_schema import validator

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"

Json = dict[str, Any]


def _one_person(service: Any, **settings: Any) -> Json:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
    table: Json = service.new_table(seats, stand_in=None, **settings)
    return table


def _until_my_turn(sock: Any, latest: Json) -> Json:
    """Play the first legal move whenever seat 0 has only one, until it has a choice.

    A round can end before seat 0 has had a choice: then it says it is ready for the next."""
    while True:
        view = latest.get("view")
        if view is not None and view["summary"] is not None:
            sock.send({"type": "ready"})
        elif view is not None and view["turn"] == 0 and view["legal_moves"]:
            if len(view["legal_moves"]) > 1:
                return latest
            sock.send({"type": "play", **view["legal_moves"][0], "state": latest["state"]})
        latest = sock.until(lambda m: m["type"] in ("update", "state"))


def test_hints_are_on_for_one_person_against_computers_and_off_for_several(
    service: Any,
) -> None:
    assert _one_person(service)["hints"] is True
    assert _one_person(service, hints=False)["hints"] is False
    level = service.level()
    two = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Bo"}]
    friends = service.new_table(two + [{"kind": "computer", "level": level}] * 3)
    assert friends["hints"] is False
    assert all(s["hints"] == 0 for s in friends["seats"])
    again = service.new_table(two + [{"kind": "computer", "level": level}] * 3, hints=True)
    assert again["hints"] is True
    bad = service.http.post("/api/tables", json={"seats": two * 2 + two[:1], "hints": "yes"})
    assert bad.status_code == 422 and bad.json()["error"]["code"] == "bad_body"


def test_the_seat_in_turn_gets_a_hint_and_it_is_counted(service: Any) -> None:
    t = _one_person(service, pace_ms=0)
    sock = service.socket(t["id"])
    latest = _until_my_turn(sock, sock.hello(t["tokens"]["0"]))
    view = latest["view"]
    sock.send({"type": "hint", "id": "h1"})
    hint = sock.until(lambda m: m["type"] in ("hint", "error"), timeout=60)
    assert hint["type"] == "hint", hint
    assert hint["reply_to"] == "h1" and hint["seat"] == 0 and hint["state"] == latest["state"]
    legal = {(m["tile"], m["end"]) for m in view["legal_moves"]}
    assert {(m["tile"], m["end"]) for m in hint["moves"]} == legal
    assert hint["best"] == hint["moves"][0]
    assert [m["value"] for m in hint["moves"]] == sorted(
        (m["value"] for m in hint["moves"]), reverse=True
    )
    assert all(w["key"] in KEYS for w in hint["reasons"]) and hint["reasons"]
    assert len(hint["numbers"]) == 5 and all(len(row) == 7 for row in hint["numbers"])
    hand_numbers = {int(n) for tile in view["hand"] for n in tile.split("-")}
    assert [n for n in range(7) if hint["numbers"][0][n] == 1.0] == sorted(hand_numbers)
    assert hint["hints"] == 1
    assert hint["level"] == "expert:fast"  # the level the service was started with
    assert not list(validator("service_message").iter_errors(hint))
    seats = sock.until(lambda m: m["type"] == "seats")
    assert seats["table"]["seats"][0]["hints"] == 1
    assert service.http.get(f"/api/tables/{t['id']}").json()["seats"][0]["hints"] == 1
    # asked again for the same decision (a page reloaded): the same hint, counted once
    sock.send({"type": "hint", "id": "h2"})
    again = sock.until(lambda m: m["type"] in ("hint", "error"), timeout=60)
    assert again["reply_to"] == "h2" and again["state"] == hint["state"], again
    assert again["moves"] == hint["moves"] and again["hints"] == 1
    assert service.http.get(f"/api/tables/{t['id']}").json()["seats"][0]["hints"] == 1
    sock.close()


def test_hints_are_refused_off_turn_to_spectators_and_at_tables_without_them(
    service: Any,
) -> None:
    t = _one_person(service, pace_ms=60_000)  # the computers wait a minute before each move
    sock = service.socket(t["id"])
    latest = sock.hello(t["tokens"]["0"])
    # play the opening: a computer is in turn after it, for a minute (unless the four
    # others hold no tile that fits: seat 0 is in turn again, and plays again)
    while latest["view"]["turn"] == 0:
        view = latest["view"]
        sock.send({"type": "play", **view["legal_moves"][0], "state": latest["state"]})
        latest = sock.until(lambda m: m["type"] == "update")
    sock.send({"type": "hint", "id": 2})
    refused = sock.until(lambda m: m["type"] in ("hint", "error"))
    assert (refused["type"], refused["code"], refused["reply_to"]) == ("error", "not_your_turn", 2)
    watcher = service.socket(t["id"])
    watcher.hello()
    watcher.send({"type": "hint"})
    assert watcher.until(lambda m: m["type"] == "error")["code"] == "not_seated"
    watcher.close()
    sock.close()

    off = _one_person(service, pace_ms=0, hints=False)
    sock = service.socket(off["id"])
    sock.hello(off["tokens"]["0"])
    sock.send({"type": "hint"})
    assert sock.until(lambda m: m["type"] == "error")["code"] == "hints_off"
    sock.close()


def test_a_hint_is_worked_out_off_the_event_loop() -> None:
    # The coach thinks in the process pool: the loop goes on ticking meanwhile.
    game = Game()
    r = game.deal(random.Random(4))
    while len(r.legal_moves()) < 2:
        r.play(r.legal_moves()[0])
    assert r.turn is not None
    v = game.view(r.turn)

    async def run() -> tuple[Json, int]:
        runner = BotRunner(processes=1)
        ticks = 0
        done = False

        async def tick() -> None:
            nonlocal ticks
            while not done:
                ticks += 1
                await asyncio.sleep(0.01)

        ticker = asyncio.create_task(tick())
        try:
            start = time.perf_counter()
            body = await runner.think(hint_body, v)
            assert time.perf_counter() - start > 0
        finally:
            done = True
            await ticker
            runner.close()
        return body, ticks

    # in a thread of its own, as the players' test does: the suite may hold a loop here
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        body, ticks = pool.submit(asyncio.run, run()).result(timeout=120)
    assert body["best"] == body["moves"][0]
    assert ticks >= 5  # the loop ran while the coach thought (about half a second)
    assert {(m["tile"], m["end"]) for m in body["moves"]} == {
        (str(m).split()[0], m.end.word) for m in v.legal_moves
    }


def test_a_finished_round_is_reviewed(service: Any) -> None:
    t = _one_person(service, pace_ms=0, end={"rounds": 1})
    sock = service.socket(t["id"])
    latest = sock.hello(t["tokens"]["0"])
    while latest["table"]["status"] != "finished":
        view = latest.get("view")
        if latest["type"] != "seats" and view and view["turn"] == 0 and view["legal_moves"]:
            sock.send({"type": "play", **view["legal_moves"][-1], "state": latest["state"]})
        latest = sock.until(lambda m: m["type"] in ("update", "state", "seats"))
    sock.close()
    base = f"/api/tables/{t['id']}/review"
    for seat in (0, 3):
        r = service.http.get(base, params={"seat": seat, "round": 1}, timeout=120)
        assert r.status_code == 200, r.text
        doc = r.json()
        assert not list(validator("review").iter_errors(doc))
        assert doc["seat"] == seat and doc["round"] == 1 and len(doc["players"]) == 5
        assert doc["level"] == "expert:fast"  # the service's coach_level (conftest)
        record = service.http.get(f"/api/tables/{t['id']}/record").json()
        plays = record["rounds"][0]["plays"]
        for d in doc["decisions"]:
            assert (
                plays[d["index"]]["seat"] == seat
                and plays[d["index"]]["tile"] == d["played"]["tile"]
            )
            assert d["loss"] >= 0
    assert (
        service.http.get(base, params={"seat": 0, "round": 2}).json()["error"]["code"]
        == "bad_round"
    )
    assert (
        service.http.get(base, params={"seat": 9, "round": 1}).json()["error"]["code"]
        == "bad_query"
    )
    assert service.http.get(base).json()["error"]["code"] == "bad_query"
    sent = service.http.post(
        "/api/review",
        params={"seat": 0, "round": 1},
        content=b"{}",
        headers={"content-type": "application/json"},
    )
    assert sent.status_code == 422 and sent.json()["error"]["code"] == "bad_record"


def test_the_coach_judges_at_the_level_it_is_given(monkeypatch: Any) -> None:
    """A hint and a review are judged at the service's level (``--coach-level``), not
    only labelled with it."""
    import domeng.server.hinting as hinting
    import domeng.server.reviews as reviews

    game = Game()
    r = game.deal(random.Random(4))
    assert r.turn is not None
    judged: list[str] = []
    real_judge = hinting.judge_position

    def judge(v: Any, level: Any) -> Any:
        judged.append(level.name)
        return real_judge(v, level)

    monkeypatch.setattr(hinting, "judge_position", judge)
    assert hint_body(game.view(r.turn), "expert:fast")["level"] == "expert:fast"
    assert judged == ["expert:fast"]

    class Judged(Exception):
        pass

    def decisions(got: Any, seat: int, level: Any, **kw: Any) -> Any:
        judged.append(level.name)
        raise Judged

    monkeypatch.setattr(reviews, "decisions", decisions)
    record = (EXAMPLES / "02-ceki.json").read_bytes()
    with pytest.raises(Judged):
        reviews.review_text(record, 0, 1, "expert:strong")
    assert judged == ["expert:fast", "expert:strong"]
