"""A table of five computer players plays on while watched; its record replays cleanly."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from domeng.engine.record import game_from_record, replay_summary

Json = dict[str, Any]


def test_a_table_of_computer_players_plays_and_its_record_replays(
    service: Any, tmp_path: Path
) -> None:
    level = service.level()
    t = service.new_table(
        [{"kind": "computer", "level": level}] * 5,
        variants={"opening": "free", "block_passes": "free"},
        pace_ms=0,
        end={"rounds": 3},
    )
    assert t["status"] == "playing"
    assert t["variants"] == {"opening": "free", "block_passes": "free"}
    watcher = service.socket(t["id"])
    first = watcher.hello()
    if first["table"]["status"] != "finished":
        watcher.until(lambda m: m.get("table", {}).get("status") == "finished")
    watcher.close()

    listed = service.http.get("/api/tables", params={"status": "finished"}).json()["tables"]
    assert t["id"] in [x["id"] for x in listed]
    table = service.http.get(f"/api/tables/{t['id']}").json()
    assert table["round"] == 3

    download = service.http.get(f"/api/tables/{t['id']}/record", params={"download": 1})
    assert "attachment" in download.headers["content-disposition"]
    record = download.json()
    assert record["format"] == "domeng.record/1"
    assert len(record["rounds"]) == 3
    game, players = game_from_record(record)
    assert players == [s["name"] for s in table["seats"]]
    assert all(r.finished for r in game.rounds)
    assert game.stones == table["stones"]
    assert game.table == table["table"]

    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    done = subprocess.run(
        [sys.executable, "-m", "domeng", "replay", str(path), "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == replay_summary(game)

    # watched again step by step, through the service
    replay = service.http.get(f"/api/tables/{t['id']}/replay").json()
    assert [len(r["steps"]) for r in replay["rounds"]] == [
        len(r["plays"]) + 1 for r in record["rounds"]
    ]
    assert replay["rounds"][0]["steps"][-1]["hands"] == replay["rounds"][0]["summary"]["hands"]
    again = service.http.post("/api/replay", json=record)
    assert again.status_code == 200
    assert again.json() == replay
    broken = dict(record, rounds=[{"hands": [], "unused": [], "plays": []}])
    bad = service.http.post("/api/replay", json=broken)
    assert bad.status_code == 422
    assert bad.json()["error"]["code"] == "bad_record"


def test_the_round_being_played_at_a_persons_table_is_in_no_record_or_replay(
    service: Any,
) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": level}] * 4
    t = service.new_table(seats, pace_ms=0, stand_in=None)
    assert service.http.get(f"/api/tables/{t['id']}").json()["status"] == "playing"
    # the deal would show every hand: it stays out until the round is over
    replay = service.http.get(f"/api/tables/{t['id']}/replay").json()
    assert replay["rounds"] == []
    record = service.http.get(f"/api/tables/{t['id']}/record").json()
    assert record["rounds"] == []
    assert record["players"][0] == "Ann"


def test_a_table_of_computer_players_deals_on_only_while_someone_watches(service: Any) -> None:
    # with no end and no pace it would otherwise play thousands of rounds a minute,
    # filling the disk, for nobody
    level = service.level()
    t = service.new_table([{"kind": "computer", "level": level}] * 5, pace_ms=0)
    deadline = time.monotonic() + 30
    while service.http.get(f"/api/tables/{t['id']}").json()["status"] != "between":
        assert time.monotonic() < deadline, "the first round did not end"
        time.sleep(0.05)
    time.sleep(0.5)
    table = service.http.get(f"/api/tables/{t['id']}").json()
    assert (table["status"], table["round"]) == ("between", 1)

    watcher = service.socket(t["id"])
    watcher.hello()
    watcher.until(lambda m: m["type"] == "update" and m["view"]["round"] >= 3)
    watcher.close()
    time.sleep(0.5)  # the service notices the watcher is gone, finishes its round and waits
    paused = service.http.get(f"/api/tables/{t['id']}").json()
    time.sleep(0.5)
    again = service.http.get(f"/api/tables/{t['id']}").json()
    assert paused["status"] == again["status"] == "between"
    assert paused["round"] == again["round"] >= 3
