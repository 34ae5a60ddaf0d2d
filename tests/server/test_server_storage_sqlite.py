"""The SQLite storage keeps tables, seats, deals and plays, and gives them back in order."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest

from domeng.engine import Game, tile_name
from domeng.engine.tiles import names
from domeng.server.storage import SQLiteStorage, StoredDeal, StoredPlay, StoredSeat, StoredTable
from domeng.server.tables import Settings, rebuild


def seats() -> list[StoredSeat]:
    return [StoredSeat("person", None, "Ann", "abc", 0, 1)] + [
        StoredSeat("computer", "random", f"C{n}", None, 0, n) for n in range(1, 5)
    ]


def test_tables_come_back_as_stored_after_reopening(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "t.sqlite3"
    s = SQLiteStorage(db)
    s.create_table(StoredTable("t1", 1.0, Settings(pace_ms=5).json(), seats()))
    s.create_table(StoredTable("t2", 2.0, Settings().json(), seats()))
    s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
    s.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
    s.add_play("t1", 1, 1, StoredPlay(1, "6-3", "left"))
    s.save_seat("t1", 0, StoredSeat("person", None, "Bo", None, 1, 7))
    s.close()

    again = SQLiteStorage(db)
    t1, t2 = again.load_tables()
    assert t1.id == "t1"
    assert t2.id == "t2"
    assert t1.settings["pace_ms"] == 5
    assert t1.seats[0] == StoredSeat("person", None, "Bo", None, 1, 7)
    assert t1.seats[1:] == seats()[1:]
    assert t1.deals == [StoredDeal([["6-6"]], ["0-0"])]
    assert t1.plays == [[StoredPlay(0, "6-6", "right"), StoredPlay(1, "6-3", "left")]]
    assert t2.deals == []
    again.close()


def test_a_stored_game_replays_into_the_same_game(tmp_path: Path) -> None:
    game = Game()
    rng = random.Random(3)
    stored = StoredTable("g", 0.0, Settings().json(), seats())
    for _ in range(3):
        r = game.deal(rng)
        stored.deals.append(StoredDeal([names(h) for h in r.dealt], names(r.unused)))
        stored.plays.append([])
        while not r.finished:
            m = rng.choice(r.legal_moves())
            seat = r.turn
            assert seat is not None
            r.play(m)
            played = r.plays[-1][1]
            stored.plays[-1].append(StoredPlay(seat, tile_name(played.tile), played.end.word))
    s = SQLiteStorage(tmp_path / "g.sqlite3")
    s.create_table(stored)
    (loaded,) = s.load_tables()
    s.close()
    again = rebuild(loaded)
    assert [r.events for r in again.rounds] == [r.events for r in game.rounds]
    assert again.stones == game.stones


def test_one_file_serves_one_service_at_a_time(tmp_path: Path) -> None:
    first = SQLiteStorage(tmp_path / "one.sqlite3")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        SQLiteStorage(tmp_path / "one.sqlite3")
    first.close()
    SQLiteStorage(tmp_path / "one.sqlite3").close()
