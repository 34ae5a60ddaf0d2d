"""`domeng play --player NAME` and `domeng stats`: a terminal game counts for a profile in
the database the service shares, at once while the service runs on it, and later when
an older service held it alone while the game was played; the stats are the service's
documents."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from jsonschema import Draft202012Validator

from domeng.cli import main
from domeng.engine.record import load_recorded_game
from domeng.history.figures import round_figures
from domeng.i18n import LANGUAGES, words
from domeng.server.schema import protocol_schema
from domeng.storage import SQLiteStorage

CYCLE = "1\n2\n3\n4\n5\nl\n"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DOMENG_DATA_DIR", str(tmp_path))
    return tmp_path


def run(*args: str, input: str = "") -> Result:
    return CliRunner().invoke(main, list(args), input=input)


def fits(doc: object, kind: str) -> bool:
    """``doc`` is a document of the service's kind (its protocol's JSON Schema)."""
    schema = {**protocol_schema(), "anyOf": [{"$ref": f"#/$defs/{kind}"}]}
    return Draft202012Validator(schema).is_valid(doc)


def test_a_terminal_game_counts_for_the_player_and_stats_shows_it(data_dir: Path) -> None:
    played = run("play", "--player", "Andi", "--seed", "3", "--until", "rounds=2", "--pause",
                 "0", input=CYCLE * 200)  # fmt: skip
    assert played.exit_code == 0, played.output
    assert "Playing as Andi" in played.output and "Counted for Andi" in played.output
    (record,) = (data_dir / "games").glob("*.json")
    got = load_recorded_game(record)
    assert got.players[0] == "Andi"
    doc = json.loads(run("stats", "andi", "--json").output)
    f = doc["figures"]
    assert (f["games"], f["rounds"]) == (1, 2)
    assert f["received"] == sum(round_figures(r)[0].received for r in got.game.rounds)
    assert f["rounds_won"] == sum(round_figures(r)[0].won for r in got.game.rounds)
    assert doc["recent"][0]["source"] == "terminal"
    assert doc["recent"][0]["record"] == f"/api/games/terminal-{record.stem}/record"
    assert [h["opponent"]["id"] for h in doc["head_to_head"]] == ["basic"]
    assert fits(doc, "player_page")
    assert fits(json.loads(run("stats", "--json").output), "leaderboard")
    text = run("stats", "Andi")
    assert text.exit_code == 0 and "Head to head" in text.output and "MATTIKKENG" in text.output
    board = run("stats")
    assert board.exit_code == 0 and "5 games" in board.output
    missing = run("stats", "Nobody")
    assert missing.exit_code == 1 and "no player called 'Nobody'" in missing.output


def test_a_game_played_while_the_service_runs_counts_at_once_and_stats_reads_it(
    data_dir: Path,
) -> None:
    service = SQLiteStorage(data_dir / "domeng.sqlite3", service=True)  # as domeng serve has it
    try:
        played = run("play", "--player", "Besse", "--seed", "5", "--until", "rounds=1",
                     "--pause", "0", input=CYCLE * 100)  # fmt: skip
        assert played.exit_code == 0, played.output
        assert "Counted for Besse" in played.output
        assert not list((data_dir / "pending").glob("*.json"))
        doc = json.loads(run("stats", "Besse", "--json").output)  # while the service runs
        assert doc["figures"]["rounds"] == 1
        seen = service.profile(name="besse")  # and the service sees it at once
        assert seen is not None and seen.figures.rounds == 1
    finally:
        service.close()


def test_a_game_played_while_an_older_service_holds_the_database_counts_later(
    data_dir: Path,
) -> None:
    SQLiteStorage(data_dir / "domeng.sqlite3").close()
    held = sqlite3.connect(data_dir / "domeng.sqlite3", isolation_level=None)
    held.execute("PRAGMA locking_mode=EXCLUSIVE")  # as an older domeng serve held it alone
    held.execute("BEGIN IMMEDIATE")
    held.execute("COMMIT")
    try:
        played = run("play", "--player", "Besse", "--seed", "5", "--until", "rounds=1",
                     "--pause", "0", input=CYCLE * 100)  # fmt: skip
        assert played.exit_code == 0, played.output
        assert "has the database open" in played.output
        assert len(list((data_dir / "pending").glob("terminal-*.json"))) == 1
        assert run("stats").exit_code == 1  # it says why
    finally:
        held.close()
    doc = json.loads(run("stats", "Besse", "--json").output)  # the note is recorded now
    assert doc["figures"]["rounds"] == 1
    assert not list((data_dir / "pending").glob("*.json"))


def test_a_computer_level_is_found_by_the_name_the_board_gives_it(data_dir: Path) -> None:
    run("play", "--player", "Andi", "--seed", "1", input="q\n")  # the levels' profiles
    board = run("stats")
    assert "Club player" in board.output
    assert "calibrated to: a new player" in board.output  # why they are on it
    for name in ("Club player", "club  PLAYER", "Pemain klub", "expert:fast"):
        page = run("stats", name, "--json")
        assert page.exit_code == 0, (name, page.output)
        assert json.loads(page.output)["profile"]["id"] == "expert:fast", name
    assert run("stats", "Club").exit_code != 0  # not a name: refused as before


def test_a_computer_levels_name_is_not_a_player(data_dir: Path) -> None:
    r = run("play", "--player", "expert", "--seed", "1", input="q\n")
    assert r.exit_code == 2 and "computer player's profile" in r.output
    # refused before the game is announced or a file named for it
    assert "Domeng:" not in r.output and "saved as it goes" not in r.output
    assert not list((data_dir / "games").glob("*.json"))


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_head_to_head_names_a_computer_opponent_by_the_ladder(code: str) -> None:
    """The head-to-head table named a computer opponent by its technical name
    (``expert:fast``), where the rest of the terminal says the ladder's ("Club player"):
    every computer opponent is named as the ladder names it, in the player's language."""
    kinds = ("random", "expert:fast")
    for seed, kind in enumerate(kinds):
        played = run("play", "--player", "Andi", "--seed", str(seed), "--opponents", kind,
                     "--until", "rounds=1", "--pause", "0", input=CYCLE * 100)  # fmt: skip
        assert played.exit_code == 0, played.output
    doc = json.loads(run("stats", "Andi", "--json").output)
    assert sorted(h["opponent"]["id"] for h in doc["head_to_head"]) == sorted(kinds)
    page = run("--lang", code, "stats", "Andi")
    assert page.exit_code == 0, page.output
    heads = page.output[page.output.index(words(code)("stats.heads")) :]
    for kind in kinds:
        assert words(code)(f"ladder.{kind}") in heads, (kind, heads)
        assert kind not in heads.replace("│", " ").split(), (kind, heads)
