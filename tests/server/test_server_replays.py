"""Replays, worked out in the replay worker: all of a game, or the one round asked for."""

from __future__ import annotations

import json
import random
import tempfile
import time
from pathlib import Path
from typing import Any

from domeng.engine import Game
from domeng.engine.record import record_of
from domeng.server.replays import INLINE_LIMIT

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def post_replay(service: Any, record: object, encoding: str = "gzip", **params: str) -> Any:
    return service.http.post(
        "/api/replay",
        content=json.dumps(record),
        params=params,
        headers={"content-type": "application/json", "accept-encoding": encoding},
    )


def test_one_round_of_a_replay_is_that_round_of_the_whole(service: Any) -> None:
    record = json.loads((EXAMPLES / "10-camat.json").read_text())
    whole = post_replay(service, record)
    assert whole.status_code == 200, whole.text
    doc = whole.json()
    assert doc["round_count"] == len(doc["rounds"]) == len(record["rounds"])
    for number in range(1, doc["round_count"] + 1):
        one = post_replay(service, record, round=str(number)).json()
        assert one["round_count"] == doc["round_count"]
        assert one["rounds"] == [doc["rounds"][number - 1]]  # the stones it starts from too


def test_a_round_the_game_lacks_or_a_broken_record_is_refused(service: Any) -> None:
    record = json.loads((EXAMPLES / "02-ceki.json").read_text())
    r = post_replay(service, record, round="9")
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_round"
    r = post_replay(service, record, round="x")
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_query"
    record["rounds"][0]["plays"][0]["tile"] = "9-9"
    r = post_replay(service, record)
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_record"
    assert "round 1" in r.json()["error"]["message"]
    r = service.http.post(
        "/api/replay", content="{nope", headers={"content-type": "application/json"}
    )
    assert r.status_code == 400 and r.json()["error"]["code"] == "bad_json"


def test_a_tables_replay_is_of_its_finished_rounds(service: Any) -> None:
    seats = [{"kind": "computer", "level": "random"}] * 5
    t = service.new_table(seats, pace_ms=0, end={"rounds": 2})
    watcher = service.socket(t["id"])
    watcher.hello()
    watcher.until(lambda m: m["type"] in ("update", "seats") and m["table"]["status"] == "finished")
    watcher.close()
    whole = service.http.get(f"/api/tables/{t['id']}/replay").json()
    assert whole["round_count"] == 2 and all(r["finished"] for r in whole["rounds"])
    second = service.http.get(f"/api/tables/{t['id']}/replay", params={"round": "2"}).json()
    assert second["rounds"] == [whole["rounds"][1]]


def long_record(rounds: int) -> dict[str, Any]:
    rng = random.Random(7)
    game = Game()
    for _ in range(rounds):
        r = game.deal(rng)
        while not r.finished:
            r.play(rng.choice(r.legal_moves()))
    return record_of(game, ["A", "B", "C", "D", "E"])


def test_a_long_replay_comes_from_the_workers_file_whole_and_the_file_is_removed(
    service: Any,
) -> None:
    record = long_record(120)
    whole = post_replay(service, record, "identity")  # its length told (gzip's is not)
    assert whole.status_code == 200
    assert len(whole.content) > INLINE_LIMIT  # too long for the pipe: sent from a file,
    assert "etag" in whole.headers  # which a file's answer has (an answer of bytes has not)
    assert int(whole.headers["content-length"]) == len(whole.content)
    doc = whole.json()
    assert doc["round_count"] == len(doc["rounds"]) == 120
    last = post_replay(service, record, round="120")  # one round: short, sent as it is
    assert "etag" not in last.headers and last.json()["rounds"] == [doc["rounds"][-1]]
    left = Path(tempfile.gettempdir()).glob("domeng-replays-*/replay-*.json")
    deadline = time.monotonic() + 5
    while (files := list(left)) and time.monotonic() < deadline:
        time.sleep(0.05)
        left = Path(tempfile.gettempdir()).glob("domeng-replays-*/replay-*.json")
    assert files == []  # removed once sent


def test_a_record_with_a_key_written_twice_is_refused_as_domeng_replay_refuses_it(
    service: Any,
) -> None:
    """The service reads a posted record with the engine's loader: a key written twice
    (which record.md says a record never has) is refused, for a replay and a review."""
    text = (EXAMPLES / "02-ceki.json").read_text()
    twice = text.replace('"format":', '"format": "domeng.record/0", "format":', 1)
    assert twice != text
    headers = {"content-type": "application/json"}
    for path in ("/api/replay", "/api/review?seat=0&round=1"):
        r = service.http.post(path, content=twice, headers=headers)
        assert r.status_code == 400, r.text
        error = r.json()["error"]
        assert error["code"] == "bad_json" and "duplicate key 'format'" in error["message"]
    for path in ("/api/replay", "/api/review?seat=0&round=1"):  # the same text once: fine
        # (a review is the coach's work: seconds on a busy machine)
        answer = service.http.post(path, content=text, headers=headers, timeout=120)
        assert answer.status_code == 200


def test_each_step_of_a_replay_says_what_every_seat_showed_it_lacks() -> None:
    """A replay's step shows, as the live table's view did, the numbers each seat showed
    it lacks by passing ("lacks 1"): the replay from a seat was missing them (a tester's
    find). Checked against the engine's own view at every step of 30 random rounds."""
    from domeng.engine import view
    from domeng.server.wire import lacking_json, replay_rounds

    rng = random.Random(11)
    game = Game()
    for _ in range(30):
        r = game.deal(rng)
        while not r.finished:
            r.play(rng.choice(r.legal_moves()))
    doc = replay_rounds(game.variants, game.rounds, list("ABCDE"), round_count=30)
    again = Game(game.variants)
    shown = 0
    for r, d in zip(game.rounds, doc["rounds"], strict=True):
        g = again.start_round(list(r.dealt), r.unused)
        assert d["steps"][0]["lacking"] == [[]] * 5
        for (_, m), step in zip(r.plays, d["steps"][1:], strict=True):
            g.play(m)
            assert step["lacking"] == lacking_json(view(g, 0).lacking)
            shown += sum(map(len, step["lacking"]))
    assert shown > 0  # some seat passed in these rounds
