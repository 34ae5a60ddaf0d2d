"""Every invalid record of record.md: RecordError names the round, the play and the
reason, and `domeng replay` prints one line on stderr, nothing on stdout, exit 2."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from domeng.cli import main
from domeng.engine.record import RecordError, game_from_record, load_record, loads_record

# One round, a CEKI (examples/02-ceki.json): Besse opens with 6-6.
# Ends after each play: 1 6|6, 2 6|4, 3 6|5, 4 6|1, 5 6|0, 6 6|6, 7 6|3, 8 5|3,
# 9 2|3, 10 0|3, 11 0|5, 12 0|5, 13 0|5, 14 (last) 5|5.
BASE: dict[str, Any] = {
    "format": "domeng.record/1",
    "variants": {"opening": "double", "block_passes": "penalized"},
    "players": ["Andi", "Besse", "Cicci", "Daeng", "Emba"],
    "rounds": [
        {
            "hands": [
                ["5-3", "5-1", "4-4", "4-3", "2-2"],
                ["6-6", "6-3", "5-5", "5-0", "1-0"],
                ["6-5", "6-4", "6-2", "6-0", "1-1"],
                ["5-4", "5-2", "4-2", "3-2", "2-1"],
                ["4-1", "3-3", "3-0", "2-0", "0-0"],
            ],
            "unused": ["6-1", "4-0", "3-1"],
            "plays": [
                {"seat": 1, "tile": "6-6"},
                {"seat": 2, "tile": "6-4", "end": "right"},
                {"seat": 3, "tile": "5-4", "end": "right"},
                {"seat": 0, "tile": "5-1", "end": "right"},
                {"seat": 1, "tile": "1-0", "end": "right"},
                {"seat": 2, "tile": "6-0", "end": "right"},
                {"seat": 1, "tile": "6-3", "end": "right"},
                {"seat": 2, "tile": "6-5", "end": "left"},
                {"seat": 3, "tile": "5-2", "end": "left"},
                {"seat": 4, "tile": "2-0", "end": "left"},
                {"seat": 0, "tile": "5-3", "end": "right"},
                {"seat": 1, "tile": "5-5", "end": "right"},
                {"seat": 4, "tile": "0-0", "end": "left"},
                {"seat": 1, "tile": "5-0", "end": "left"},
            ],
        }
    ],
}


def _with_round_two(doc: dict[str, Any]) -> dict[str, Any]:
    """Add a second round with the same deal; Besse, the winner, opens with 6-3."""
    second = copy.deepcopy(doc["rounds"][0])
    second["plays"] = [{"seat": 1, "tile": "6-3"}]
    doc["rounds"].append(second)
    return doc


def _edit(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    doc = copy.deepcopy(BASE)
    change(doc)
    return doc


def _round(doc: dict[str, Any], n: int = 0) -> dict[str, Any]:
    r: dict[str, Any] = doc["rounds"][n]
    return r


def _play(doc: dict[str, Any], k: int, round_index: int = 0) -> dict[str, Any]:
    """Play ``k`` (1-based) of a round."""
    p: dict[str, Any] = doc["rounds"][round_index]["plays"][k - 1]
    return p


def _swap_tile_into_hand(doc: dict[str, Any]) -> None:
    _round(doc)["hands"][0][0] = "6-6"  # 6-6 now in Andi's hand and Besse's


def _drop_tile(doc: dict[str, Any]) -> None:
    del _round(doc)["hands"][4][0]  # 4-1 is nowhere


def _six_and_four(doc: dict[str, Any]) -> None:
    hands = _round(doc)["hands"]
    hands[0].append(hands[4].pop())  # Andi 6 tiles, Emba 4


def _unused_in_hand(doc: dict[str, Any]) -> None:
    rd = _round(doc)
    rd["hands"][0].append(rd["unused"].pop())  # Andi 6 tiles, 2 unused


def _unfinished_then_more(doc: dict[str, Any]) -> None:
    _round(doc)["plays"] = _round(doc)["plays"][:5]
    _with_round_two(doc)


def _round_two_misfit(doc: dict[str, Any]) -> None:
    _with_round_two(doc)
    # Round 2: Besse opened with 6-3 (ends 6|3); Cicci holds 6-5 6-4 6-2 6-0 1-1.
    _round(doc, 1)["plays"].append({"seat": 2, "tile": "1-1"})


# (name, change, round, play, words in the reason)
CASES: list[tuple[str, Callable[[dict[str, Any]], object], int | None, int | None, str]] = [
    ("not an object", lambda d: d.clear(), None, None, 'no "format"'),
    ("missing format", lambda d: d.pop("format"), None, None, 'no "format"'),
    (
        "wrong format",
        lambda d: d.update(format="domeng.record/2"),
        None,
        None,
        'format "domeng.record/2" is not "domeng.record/1"',
    ),
    (
        "bad variant value",
        lambda d: d.update(variants={"opening": "triple"}),
        None,
        None,
        "bad variants",
    ),
    (
        "unknown variant",
        lambda d: d.update(variants={"speed": "fast"}),
        None,
        None,
        "unknown variant 'speed'",
    ),
    ("variants not an object", lambda d: d.update(variants=[]), None, None, "bad variants"),
    (
        "four players",
        lambda d: d.update(players=["A", "B", "C", "D"]),
        None,
        None,
        "players must be a list of 5 names",
    ),
    (
        "a player is not a string",
        lambda d: d.update(players=["A", "B", "C", "D", 5]),
        None,
        None,
        "a player's name must be a non-empty string",
    ),
    ("no rounds", lambda d: d.pop("rounds"), None, None, 'no "rounds"'),
    ("rounds not a list", lambda d: d.update(rounds={}), None, None, "rounds must be a list"),
    ("round not an object", lambda d: d.update(rounds=[[]]), 1, None, "a round must be"),
    (
        "unknown key in a round",
        lambda d: _round(d).update(hand=[]),
        1,
        None,
        "unknown key 'hand'",
    ),
    ("round without hands", lambda d: _round(d).pop("hands"), 1, None, "has no 'hands'"),
    (
        "wrong number of hands",
        lambda d: _round(d)["hands"].pop(),
        1,
        None,
        "a deal has 5 hands, not 4",
    ),
    (
        "unknown tile in a hand",
        lambda d: _round(d)["hands"][2].__setitem__(0, "7-1"),
        1,
        None,
        'unknown tile "7-1"',
    ),
    (
        "a tile that is not a string",
        lambda d: _round(d)["unused"].__setitem__(0, 61),
        1,
        None,
        "a tile is written as a string",
    ),
    ("tile dealt twice", _swap_tile_into_hand, 1, None, "tile 6-6 is dealt twice"),
    ("tile missing", _drop_tile, 1, None, "tile 4-1 is missing from the deal"),
    ("hand of six", _six_and_four, 1, None, "seat 0 is dealt 6 tiles, not 5"),
    ("unused in a hand", _unused_in_hand, 1, None, "seat 0 is dealt 6 tiles, not 5"),
    (
        "play out of turn",
        lambda d: _play(d, 2).update(seat=3),
        1,
        2,
        "seat 3 plays out of turn: seat 2 is in turn",
    ),
    (
        "seat not a number",
        lambda d: _play(d, 2).update(seat=True),
        1,
        2,
        "seat must be 0 to 4",
    ),
    ("seat too high", lambda d: _play(d, 2).update(seat=5), 1, 2, "seat must be 0 to 4"),
    (
        "tile not in that hand",
        lambda d: _play(d, 2).update(tile="5-4"),
        1,
        2,
        "tile 5-4 is not in the hand of seat 2",
    ),
    (
        "tile played twice",
        lambda d: _play(d, 5).update(tile="6-6"),
        1,
        5,
        "tile 6-6 was already played by seat 1",
    ),
    (
        "tile that does not fit",
        lambda d: _play(d, 5).update(tile="5-5"),
        1,
        5,
        "tile 5-5 does not fit the ends 6 and 1",
    ),
    (
        "missing end",
        lambda d: _play(d, 14).pop("end"),
        1,
        14,
        "tile 5-0 fits both ends (0 and 5)",
    ),
    (
        "wrong end",
        lambda d: _play(d, 8).update(end="right"),
        1,
        8,
        "tile 6-5 does not fit the right end, which shows 3",
    ),
    (
        "bad end value",
        lambda d: _play(d, 8).update(end="middle"),
        1,
        8,
        'end must be "left" or "right"',
    ),
    (
        "wrong opening LEMPA",
        lambda d: _play(d, 1).update(tile="6-3"),
        1,
        1,
        "round 1 must open with 6-6, not 6-3",
    ),
    (
        "unknown tile in a play",
        lambda d: _play(d, 3).update(tile="6-7"),
        1,
        3,
        'unknown tile "6-7"',
    ),
    ("play without a tile", lambda d: _play(d, 3).pop("tile"), 1, 3, "has no 'tile'"),
    (
        "unknown key in a play",
        lambda d: _play(d, 3).update(ned="left"),
        1,
        3,
        "unknown key 'ned'",
    ),
    (
        "play not an object",
        lambda d: _round(d)["plays"].__setitem__(2, "5-4"),
        1,
        3,
        "a play must be an object",
    ),
    ("plays not a list", lambda d: _round(d).update(plays={}), 1, None, "plays must be a list"),
    (
        "play after the round's end",
        lambda d: _round(d)["plays"].append({"tile": "4-4"}),
        1,
        15,
        "a play after the round's end",
    ),
    ("unfinished round followed by another", _unfinished_then_more, 1, 6, "is unfinished"),
    (
        "error in the second round",
        _round_two_misfit,
        2,
        2,
        "tile 1-1 does not fit the ends 6 and 3",
    ),
]


def test_the_base_record_is_valid() -> None:
    game, players = game_from_record(copy.deepcopy(BASE))
    assert game.round.finished and players[1] == "Besse"
    game2, _ = game_from_record(_with_round_two(copy.deepcopy(BASE)))
    assert len(game2.rounds) == 2 and game2.round.ends == (6, 3)


@pytest.mark.parametrize(
    ("change", "round_", "play", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_record_error_names_round_play_and_reason(
    change: Callable[[dict[str, Any]], object], round_: int | None, play: int | None, words: str
) -> None:
    doc = _edit(change)
    with pytest.raises(RecordError) as info:
        game_from_record(doc)
    err = info.value
    assert (err.round, err.play) == (round_, play)
    assert words in err.reason
    where = "record" if round_ is None else f"round {round_}"
    if play is not None:
        where += f", play {play}"
    assert str(err) == f"{where}: {err.reason}"
    assert "\n" not in str(err)


def test_not_an_object_at_all() -> None:
    for doc in ([], "text", 3, None):
        with pytest.raises(RecordError, match="a record must be a JSON object"):
            game_from_record(doc)


def test_the_message_of_record_md() -> None:
    # record.md's own example: "round 2, play 7: tile 6-3 does not fit the ends 4 and 1"
    err = RecordError("tile 6-3 does not fit the ends 4 and 1", round=2, play=7)
    assert str(err) == "round 2, play 7: tile 6-3 does not fit the ends 4 and 1"
    assert isinstance(err, ValueError)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("{", "bad JSON"),
        ("", "bad JSON"),
        ('{"format": "domeng.record/1", "format": "x"}', "duplicate key 'format'"),
        ("[" * 100_000 + "]" * 100_000, "bad JSON"),
        ("[1, 2]", "a record must be a JSON object"),
        ("NaN", "a record must be a JSON object"),
    ],
)
def test_bad_json(text: str, words: str) -> None:
    with pytest.raises(RecordError) as info:
        loads_record(text)
    assert (info.value.round, info.value.play) == (None, None)
    assert words in info.value.reason


def test_unreadable_files(tmp_path: Path) -> None:
    with pytest.raises(RecordError, match="cannot read"):
        load_record(tmp_path / "missing.json")
    with pytest.raises(RecordError, match="it is a directory"):
        load_record(tmp_path)
    bad = tmp_path / "latin1.json"
    bad.write_bytes(b'{"format": "domeng.record/1", "players": ["\xe9"]}')
    with pytest.raises(RecordError, match="not UTF-8"):
        load_record(bad)


# -- through the command line ---------------------------------------------------


def _runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout, whatever the click version."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 always keeps them apart


def _replay(path: Path, *options: str) -> tuple[int, str, str]:
    result = _runner().invoke(main, ["replay", str(path), *options])
    return result.exit_code, result.stdout, result.stderr


def _assert_one_line_error(code: int, out: str, err: str, *words: str) -> None:
    assert code == 2
    assert out == ""
    assert err.endswith("\n") and err.count("\n") == 1, err
    assert "Traceback" not in err
    for w in words:
        assert w in err


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
@pytest.mark.parametrize(
    ("change", "round_", "play", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_replay_command_rejects_every_invalid_record(
    tmp_path: Path,
    change: Callable[[dict[str, Any]], object],
    round_: int | None,
    play: int | None,
    words: str,
    as_json: bool,
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_edit(change)), "utf-8")
    code, out, err = _replay(path, *(["--json"] if as_json else []))
    where = [] if round_ is None else [f"round {round_}"]
    if play is not None:
        where = [f"round {round_}, play {play}"]
    _assert_one_line_error(code, out, err, words, *where)


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b"{not json", "bad JSON"),
        (b"\xff\xfe\x00{", "not UTF-8"),
        (b"[]", "a record must be a JSON object"),
        (b"", "bad JSON"),
    ],
    ids=["bad json", "not utf-8", "list", "empty"],
)
def test_replay_command_rejects_bad_files(tmp_path: Path, content: bytes, words: str) -> None:
    path = tmp_path / "game.json"
    path.write_bytes(content)
    _assert_one_line_error(*_replay(path, "--json"), words)


def test_replay_command_missing_file_and_directory(tmp_path: Path) -> None:
    _assert_one_line_error(*_replay(tmp_path / "nope.json", "--json"), "cannot read")
    _assert_one_line_error(*_replay(tmp_path), "cannot read", "directory")
    odd = tmp_path / "two\nlines.json"
    _assert_one_line_error(*_replay(odd), "cannot read")
