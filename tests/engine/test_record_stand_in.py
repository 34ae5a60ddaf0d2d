"""record.md: a play may carry ``"stand_in": true`` (a computer played it for a person).
It changes nothing in the rules; the record layer carries the marks beside the game
(``RecordedGame.stand_ins``), writes them back, and refuses any value but true or false."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domeng.engine import Game
from domeng.engine.record import (
    RecordError,
    dumps_record,
    game_from_record,
    load_record,
    load_recorded_game,
    loads_record,
    loads_recorded_game,
    record_of,
    recorded_game,
    replay_summary,
    save_record,
)

from .test_record_errors import BASE, _assert_one_line_error, _replay

NAMES = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]


def _marked(*marks: tuple[int, object]) -> dict[str, Any]:
    """BASE with ``stand_in`` set on plays (1-based) of its round."""
    doc = copy.deepcopy(BASE)
    for k, value in marks:
        doc["rounds"][0]["plays"][k - 1]["stand_in"] = value
    return doc


def _random_game(seed: int, rounds: int, cut: int | None = None) -> Game:
    """Random legal play; with ``cut`` the last round stops after that many plays."""
    rng = random.Random(seed)
    game = Game()
    for n in range(rounds):
        game.deal(rng)
        while not game.round.finished:
            if n == rounds - 1 and len(game.round.plays) == cut:
                break
            game.play(rng.choice(game.legal_moves()))
    return game


# -- reading ------------------------------------------------------------------------


def test_a_record_with_stand_in_plays_is_valid_and_says_which() -> None:
    # Cicci's plays 2, 6 and 8 were a computer's; Andi's play 4 says false: his own.
    doc = _marked((2, True), (6, True), (8, True), (4, False))
    recorded = recorded_game(doc)
    assert recorded.stand_ins == (frozenset({1, 5, 7}),)  # indices in Round.plays
    assert recorded.players == NAMES
    assert recorded.is_stand_in(0, 1) and not recorded.is_stand_in(0, 3)
    assert not recorded.is_stand_in(0, 0)
    # The marks change nothing in the game.
    plain, _ = game_from_record(copy.deepcopy(BASE))
    assert recorded.game.rounds[0].events == plain.rounds[0].events
    assert replay_summary(recorded.game) == replay_summary(plain)


def test_the_two_value_readers_accept_marks_and_keep_their_answer() -> None:
    doc = _marked((2, True))
    game, players = game_from_record(doc)
    assert players == NAMES and game.round.finished
    game2, players2 = loads_record(json.dumps(doc))
    assert players2 == NAMES and game2.rounds[0].plays == game.rounds[0].plays


def test_a_record_without_marks_has_none() -> None:
    recorded = recorded_game(copy.deepcopy(BASE))
    assert recorded.stand_ins == (frozenset(),)
    assert recorded_game({"format": "domeng.record/1", "rounds": []}).stand_ins == ()


@pytest.mark.parametrize(
    ("value", "shown"),
    [(1, "1"), (0, "0"), ("yes", '"yes"'), ("true", '"true"'), (None, "null"), ([], "[]")],
    ids=["1", "0", "yes", "the string true", "null", "a list"],
)
@pytest.mark.parametrize("play", [1, 8])
def test_any_other_value_is_refused_naming_round_and_play(
    value: object, shown: str, play: int
) -> None:
    with pytest.raises(RecordError) as info:
        recorded_game(_marked((play, value)))
    err = info.value
    assert (err.round, err.play) == (1, play)
    assert err.reason == f"stand_in must be true or false, not {shown}"
    assert str(err) == f"round 1, play {play}: stand_in must be true or false, not {shown}"
    with pytest.raises(RecordError, match=f"round 1, play {play}: stand_in"):
        game_from_record(_marked((play, value)))  # the old reader checks it too


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
def test_replay_refuses_a_bad_stand_in_in_one_line(tmp_path: Path, as_json: bool) -> None:
    doc = _with_round_two(_marked())
    doc["rounds"][1]["plays"][0]["stand_in"] = "yes"
    path = tmp_path / "game.json"
    path.write_text(json.dumps(doc), "utf-8")
    code, out, err = _replay(path, *(["--json"] if as_json else []))
    _assert_one_line_error(
        code, out, err, 'domeng replay: round 2, play 1: stand_in must be true or false, not "yes"'
    )


def _with_round_two(doc: dict[str, Any]) -> dict[str, Any]:
    second = copy.deepcopy(doc["rounds"][0])
    second["plays"] = [{"seat": 1, "tile": "6-3"}]  # Besse, the winner, opens
    doc["rounds"].append(second)
    return doc


def test_other_unknown_keys_in_a_play_are_still_refused() -> None:
    doc = _marked((3, True))
    doc["rounds"][0]["plays"][2]["standin"] = True
    with pytest.raises(RecordError, match="round 1, play 3: unknown key 'standin' in a play"):
        recorded_game(doc)


# -- writing ------------------------------------------------------------------------


def test_record_of_writes_true_for_the_marked_plays_and_nothing_for_the_others() -> None:
    game = _random_game(4, 3)
    marks = [{0, 2}, set(), {len(game.rounds[2].plays) - 1}]
    doc = record_of(game, NAMES, stand_ins=marks)
    rounds: Any = doc["rounds"]
    for r, marked in zip(rounds, marks, strict=True):
        for k, play in enumerate(r["plays"]):
            if k in marked:
                assert play["stand_in"] is True
                assert list(play)[-1] == "stand_in"  # after seat, tile and end
            else:
                assert "stand_in" not in play
    unmarked: Any = record_of(game, NAMES)["rounds"]
    assert all("stand_in" not in p for r in unmarked for p in r["plays"])


def test_dumps_and_save_write_the_marks_and_read_back(tmp_path: Path) -> None:
    game = _random_game(8, 2)
    marks = [frozenset({1, 3}), frozenset({0})]
    text = dumps_record(game, NAMES, stand_ins=marks)
    assert json.loads(text) == record_of(game, NAMES, stand_ins=marks)
    assert text.count('"stand_in": true') == 3
    assert loads_recorded_game(text).stand_ins == tuple(marks)
    path = tmp_path / "g.json"
    save_record(path, game, NAMES, stand_ins=marks)
    assert path.read_text("utf-8") == text
    again = load_recorded_game(path)
    assert again.stand_ins == tuple(marks)
    assert again.game.rounds[1].events == game.rounds[1].events
    game2, players = load_record(path)
    assert players == NAMES and len(game2.rounds) == 2


def test_a_false_mark_is_read_as_none_and_not_written_back() -> None:
    recorded = recorded_game(_marked((4, False), (5, True)))
    doc = record_of(recorded.game, recorded.players, stand_ins=recorded.stand_ins)
    plays: Any = doc["rounds"]
    assert "stand_in" not in plays[0]["plays"][3]
    assert plays[0]["plays"][4]["stand_in"] is True


def test_fewer_rounds_of_marks_than_rounds_is_fine() -> None:
    game = _random_game(8, 2)
    doc = record_of(game, NAMES, stand_ins=[{0}])
    rounds: Any = doc["rounds"]
    assert rounds[0]["plays"][0]["stand_in"] is True
    assert all("stand_in" not in p for p in rounds[1]["plays"])


@pytest.mark.parametrize(
    ("marks", "words"),
    [
        ([set(), set(), set(), set()], "stand_ins has 4 rounds"),
        ([{-1}], "names play -1 of round 1"),
        ([set(), {99}], "names play 99 of round 2"),
    ],
)
def test_marks_for_plays_the_game_lacks_are_a_programming_error(
    marks: list[set[int]], words: str
) -> None:
    game = _random_game(8, 2)
    for write in (record_of, dumps_record):
        with pytest.raises(ValueError, match=words):
            write(game, NAMES, stand_ins=marks)


@settings(max_examples=40)
@given(
    seed=st.integers(0, 10_000),
    rounds=st.integers(1, 4),
    cut=st.none() | st.integers(0, 12),
    data=st.data(),
)
def test_the_marks_survive_any_round_trip(
    seed: int, rounds: int, cut: int | None, data: st.DataObject
) -> None:
    game = _random_game(seed, rounds, cut)
    marks = tuple(
        frozenset(data.draw(st.sets(st.integers(0, max(len(r.plays) - 1, 0)))))
        if r.plays
        else frozenset[int]()
        for r in game.rounds
    )
    back = loads_recorded_game(dumps_record(game, NAMES, stand_ins=marks))
    assert back.stand_ins == marks
    assert [r.events for r in back.game.rounds] == [r.events for r in game.rounds]
    assert replay_summary(back.game) == replay_summary(game)
