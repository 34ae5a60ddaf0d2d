"""The `domeng.record/1` format as record.md states it: what the program writes, what it
accepts on input, and the `domeng replay --json` document."""

from __future__ import annotations

import copy
import json
import os
import random
from pathlib import Path
from typing import Any

import pytest

from domeng.engine import BlockPasses, End, Game, Opening, Variants, move, parse_tile
from domeng.engine.record import (
    FORMAT,
    RecordError,
    dumps_record,
    game_from_record,
    load_record,
    loads_record,
    record_of,
    replay_summary,
    save_record,
)
from domeng.engine.tiles import HIGH, LOW, mask_of

NAMES = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]

# The POLLO of examples/03-pollo.json: Daeng (seat 3) opens with 6-6.
HANDS = [
    "5-4 5-1 4-1 2-1 1-0",
    "6-4 6-3 6-0 5-2 2-2",
    "6-1 4-4 3-1 3-0 1-1",
    "6-6 6-5 6-2 4-0 0-0",
    "5-3 5-0 4-3 3-2 2-0",
]
UNUSED = "5-5 4-2 3-3"
# (tile, end) in order; None where only one end fits or both show the same number.
PLAYS: list[tuple[str, str | None]] = [
    ("6-6", None),
    ("6-0", None),
    ("3-0", None),
    ("6-5", None),
    ("5-0", None),
    ("1-0", None),
    ("6-3", None),
    ("6-1", "left"),
    ("6-2", None),
    ("2-0", None),
    ("6-4", None),
    ("4-4", None),
    ("4-0", "left"),
    ("0-0", None),
]


def _mask(text: str) -> int:
    return mask_of(parse_tile(t) for t in text.split())


def _pollo_game() -> Game:
    game = Game()
    game.start_round([_mask(h) for h in HANDS], _mask(UNUSED))
    for tile, end in PLAYS:
        t = parse_tile(tile)
        legal = [m for m in game.legal_moves() if m.tile == t]
        if end is not None:
            legal = [m for m in legal if m.end is End.parse(end)]
        assert len(legal) == 1
        game.play(legal[0])
    return game


def _minimal_doc() -> dict[str, Any]:
    """The same game written by hand: no variants, no players, no seats, few ends."""
    plays: list[dict[str, str]] = []
    for tile, end in PLAYS:
        play = {"tile": "-".join(reversed(tile.split("-")))}  # lower number first
        if end is not None:
            play["end"] = end
        plays.append(play)
    return {
        "format": FORMAT,
        "rounds": [{"hands": [h.split() for h in HANDS], "unused": UNUSED.split(), "plays": plays}],
    }


def _random_game(seed: int, rounds: int = 4, variants: Variants | None = None) -> Game:
    rng = random.Random(seed)
    game = Game(variants)
    for _ in range(rounds):
        game.deal(rng)
        while not game.round.finished:
            game.play(rng.choice(game.legal_moves()))
    return game


# -- writing ----------------------------------------------------------------------


def test_record_of_writes_every_field() -> None:
    doc = record_of(_pollo_game(), NAMES)
    assert list(doc) == ["format", "variants", "players", "rounds"]
    assert doc["format"] == "domeng.record/1"
    assert doc["variants"] == {"opening": "double", "block_passes": "penalized"}
    assert doc["players"] == NAMES
    rounds = doc["rounds"]
    assert isinstance(rounds, list) and len(rounds) == 1
    (rd,) = rounds
    assert list(rd) == ["hands", "unused", "plays"]
    assert [sorted(h) for h in rd["hands"]] == [sorted(h.split()) for h in HANDS]
    assert sorted(rd["unused"]) == sorted(UNUSED.split())
    plays = rd["plays"]
    assert plays[0] == {"seat": 3, "tile": "6-6"}  # no end on the first play
    assert all(list(p) == ["seat", "tile", "end"] for p in plays[1:])
    assert [p["tile"] for p in plays] == [t for t, _ in PLAYS]
    assert [p["seat"] for p in plays] == [3, 1, 2, 3, 4, 0, 1, 2, 3, 4, 1, 2, 3, 3]
    assert plays[7]["end"] == "left" and plays[12]["end"] == "left"
    assert plays[13]["end"] == "right"  # both ends showed 0: the end that counts is right


def test_tiles_are_written_higher_number_first() -> None:
    doc = record_of(_random_game(5), NAMES)
    text = json.dumps(doc)
    for name in json.loads(text)["rounds"][0]["hands"][0]:
        a, b = name.split("-")
        assert a >= b
    for rd in json.loads(text)["rounds"]:
        for tiles in [*rd["hands"], rd["unused"], [p["tile"] for p in rd["plays"]]]:
            for name in tiles:
                t = parse_tile(name)
                assert name == f"{HIGH[t]}-{LOW[t]}"


def test_record_of_needs_five_names() -> None:
    with pytest.raises(ValueError):
        record_of(_pollo_game(), NAMES[:4])


def test_dumps_record_is_the_document_as_readable_json() -> None:
    game = _random_game(11, rounds=3)
    text = dumps_record(game, NAMES)
    assert text.endswith("}\n")
    assert json.loads(text) == record_of(game, NAMES)
    # One play a line, one hand a line.
    assert text.count('{"seat"') == sum(len(r.plays) for r in game.rounds)
    assert '"hands": [\n' in text


def test_dumps_record_keeps_names_readable() -> None:
    names = ["Andi", "Bessé", "Cicci", "Daeng", 'E"mba']
    text = dumps_record(_pollo_game(), names)
    assert "Bessé" in text
    assert json.loads(text)["players"] == names


def test_an_empty_game_and_a_just_dealt_round() -> None:
    empty = Game()
    doc = json.loads(dumps_record(empty, NAMES))
    assert doc["rounds"] == []
    game, _ = game_from_record(doc)
    assert replay_summary(game) == {"rounds": [], "next_starter": None}
    dealt = Game()
    dealt.deal(random.Random(1))
    doc = json.loads(dumps_record(dealt, NAMES))
    assert doc["rounds"][0]["plays"] == []
    game, _ = game_from_record(doc)
    assert game.round.turn == dealt.round.turn and not game.round.finished


def test_save_record_is_atomic_and_replaces(tmp_path: Path) -> None:
    path = tmp_path / "games" / "one.json"  # the folder is created
    save_record(path, _pollo_game(), NAMES)
    first = path.read_text("utf-8")
    if os.name == "posix":
        assert path.stat().st_mode & 0o777 == 0o644  # readable like any file, not 0600
    game = _random_game(3, rounds=2)
    save_record(path, game, NAMES)
    assert path.read_text("utf-8") == dumps_record(game, NAMES) != first
    assert os.listdir(path.parent) == ["one.json"]  # no temporary file left behind
    loaded, players = load_record(path)
    assert players == NAMES
    assert [r.events for r in loaded.rounds] == [r.events for r in game.rounds]


def test_save_record_leaves_the_old_file_when_writing_fails(tmp_path: Path) -> None:
    path = tmp_path / "one.json"
    save_record(path, _pollo_game(), NAMES)
    before = path.read_text("utf-8")
    with pytest.raises(ValueError):
        save_record(path, _pollo_game(), NAMES[:2])
    assert path.read_text("utf-8") == before
    assert os.listdir(tmp_path) == ["one.json"]


# -- reading ----------------------------------------------------------------------


def test_optional_fields_and_defaults() -> None:
    game, players = game_from_record(_minimal_doc())
    assert players == ["Seat 0", "Seat 1", "Seat 2", "Seat 3", "Seat 4"]
    assert game.variants == Variants()
    assert [r.events for r in game.rounds] == [r.events for r in _pollo_game().rounds]


def test_end_is_optional_where_only_one_end_fits() -> None:
    doc = _minimal_doc()
    # Play 13, 4-0 on ends 4|0: fits both, so it needs its end; play 11, 6-4 on ends
    # 6|0, fits the left only: written "right" it would be wrong, omitted it goes left.
    assert doc["rounds"][0]["plays"][10] == {"tile": "4-6"}
    game, _ = game_from_record(doc)
    assert game.rounds[0].plays[10] == (1, move("6-4", End.LEFT))


def test_end_defaults_to_right_when_both_ends_show_the_same_number() -> None:
    game, _ = game_from_record(_minimal_doc())
    # Play 2 (6-0 on 6|6) and play 14 (0-0 on 0|0).
    assert game.rounds[0].plays[1] == (1, move("6-0", End.RIGHT))
    assert game.rounds[0].plays[13] == (3, move("0-0", End.RIGHT))
    assert game.rounds[0].line()[-1] == (0, 0)


def test_on_equal_ends_a_given_end_is_where_the_tile_goes() -> None:
    # 6-0 on 6|6: on the right the ends are 6 and 0, on the left 0 and 6. The
    # contract: "when given, the tile must fit that end", and later ends refer to
    # the line as it is, so the same game written on the left has every later
    # end mirrored.
    right = json.loads(dumps_record(_pollo_game(), NAMES))
    mirrored = json.loads(dumps_record(_pollo_game(), NAMES))
    plays = mirrored["rounds"][0]["plays"]
    assert plays[1]["tile"] == "6-0" and plays[1]["end"] == "right"
    for play in plays[1:]:
        play["end"] = {"left": "right", "right": "left"}[play["end"]]
    game, _ = game_from_record(mirrored)
    r, original = game.rounds[0], _pollo_game().rounds[0]
    assert r.line() == [tuple(reversed(t)) for t in reversed(original.line())]
    assert r.result == original.result
    assert (r.stones, r.table) == (original.stones, original.table)
    assert json.loads(dumps_record(game, NAMES)) == mirrored  # written as read

    # only play 2 on the left: play 3 no longer fits the end it names
    only = json.loads(json.dumps(right))
    only["rounds"][0]["plays"][1]["end"] = "left"
    with pytest.raises(RecordError, match="round 1, play 3"):
        game_from_record(only)


def test_end_is_ignored_for_the_first_tile() -> None:
    for end in ("left", "right", "middle", None, 7):
        doc = _minimal_doc()
        doc["rounds"][0]["plays"][0]["end"] = end
        game, _ = game_from_record(doc)
        assert game.rounds[0].events == _pollo_game().rounds[0].events


def test_given_seats_and_ends_are_checked_not_needed() -> None:
    doc = json.loads(dumps_record(_pollo_game(), NAMES))
    game, players = game_from_record(doc)
    assert players == NAMES
    assert game.rounds[0].events == _pollo_game().rounds[0].events


def test_a_bom_and_either_tile_order_are_accepted(tmp_path: Path) -> None:
    path = tmp_path / "bom.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(_minimal_doc()).encode())
    game, _ = load_record(path)
    assert game.round.finished
    game2, _ = loads_record(json.dumps(_minimal_doc()))
    assert game2.round.events == game.round.events


def test_unknown_top_level_keys_are_ignored() -> None:
    doc = _minimal_doc()
    doc["comment"] = "a POLLO"
    game, _ = game_from_record(doc)
    assert game.round.finished


def test_the_variants_are_read() -> None:
    doc = _minimal_doc()
    doc["variants"] = {"block_passes": "free"}
    game, _ = game_from_record(doc)
    assert game.variants == Variants(Opening.DOUBLE, BlockPasses.FREE)


def test_a_blocking_last_play_finishes_the_round() -> None:
    # examples/04: Besse's 6-5 blocks the line; no play follows and the round is over.
    path = Path(__file__).resolve().parents[2] / "examples" / "04-manguno.json"
    game, _ = load_record(path)
    assert game.round.finished and game.round.result is not None
    assert game.round.result.manguno == 1


def test_an_unfinished_last_round_stops_at_the_player_who_can_play() -> None:
    doc = _minimal_doc()
    # After play 1 (6-6), Emba and Andi cannot play: they pass, Besse is in turn.
    doc["rounds"][0]["plays"] = doc["rounds"][0]["plays"][:1]
    game, _ = game_from_record(doc)
    assert game.round.turn == 1 and not game.round.finished
    summary = replay_summary(game)
    (rd,) = summary["rounds"]  # type: ignore[misc]
    assert rd["finished"] is False
    assert rd["passes"] == [
        {"seat": 4, "passebunge": True, "stones": 2},
        {"seat": 0, "passebunge": True, "stones": 2},
    ]
    assert rd["stones"] == [2, 0, 0, 0, 2] and rd["table"] == 21
    assert summary["next_starter"] is None


# -- the replay --json document ---------------------------------------------------


def test_replay_summary_keys_and_values() -> None:
    summary = replay_summary(_pollo_game())
    assert list(summary) == ["rounds", "next_starter"]
    (rd,) = summary["rounds"]  # type: ignore[misc]
    assert list(rd) == [
        "number",
        "starter",
        "finished",
        "end",
        "first_cappu",
        "finish",
        "manguno",
        "mattikkeng",
        "winner",
        "cucuq",
        "passes",
        "stones",
        "table",
        "camat",
        "camat_elected",
        "camat_titles",
    ]
    assert rd["number"] == 1 and rd["starter"] == 3 and rd["finished"] is True
    assert (rd["end"], rd["first_cappu"], rd["finish"]) == ("cappu", 3, "pollo")
    assert (rd["manguno"], rd["mattikkeng"], rd["winner"], rd["cucuq"]) == (None, [], 3, 2)
    assert rd["stones"] == [4, 1, 6, 0, 3] and rd["table"] == 11
    assert (rd["camat"], rd["camat_elected"], rd["camat_titles"]) == (None, False, [0] * 5)
    assert len(rd["passes"]) == 7
    assert summary["next_starter"] == 3
    assert json.loads(json.dumps(summary)) == summary


def test_replay_summary_of_a_block() -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / "07-mattikkeng-two.json"
    game, _ = load_record(path)
    (rd,) = replay_summary(game)["rounds"]  # type: ignore[misc]
    assert (rd["end"], rd["finish"], rd["first_cappu"]) == ("block", None, None)
    assert (rd["manguno"], rd["mattikkeng"], rd["winner"], rd["cucuq"]) == (0, [2, 4], 2, None)


def test_replay_summary_after_a_camat_election_shows_the_reset() -> None:
    path = Path(__file__).resolve().parents[2] / "examples" / "10-camat.json"
    game, _ = load_record(path)
    second = replay_summary(game)["rounds"][1]  # type: ignore[index]
    assert second["camat_elected"] is True
    assert second["stones"] == [0, 0, 0, 0, 0] and second["table"] == 25
    assert second["camat"] == 4 and second["camat_titles"] == [0, 0, 0, 0, 1]


def test_the_record_is_not_changed_by_reading() -> None:
    doc = _minimal_doc()
    before = copy.deepcopy(doc)
    game_from_record(doc)
    assert doc == before
