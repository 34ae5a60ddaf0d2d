"""benchmarks/ladder.py: every level's move at the same decisions, valued on the true deal."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from types import ModuleType

import pytest

from domeng.bots.coach import judge_position
from domeng.bots.levels import Level
from domeng.engine import Game, Opening, Variants, view


@pytest.fixture(scope="module")
def ladder(load_benchmark: Callable[[str], ModuleType]) -> ModuleType:
    return load_benchmark("ladder")


def test_basic_gains_nothing_over_itself_and_random_is_judged_on_the_same_decisions(
    ladder: ModuleType,
) -> None:
    games = ladder.run(
        ["random", "basic"], "basic", seed=3, games=3, rounds=2, playouts=4, workers=1
    )
    assert len(games) == 3
    assert all(g.rounds == 2 and g.decisions > 0 for g in games)
    for g in games:
        (gains,) = g.gains  # one judge: the truth
        _, basic_gain = gains
        assert basic_gain == 0.0  # basic's move is the move it is measured against
        assert g.same_as_below[0] == 0  # the first level has no level below it
        assert 0 <= g.same_as_below[1] < g.decisions  # random does not always copy basic
    rand, basic = ladder.summarize(["random", "basic"], games)
    assert basic.gain_round == 0.0 and basic.gain_decision == 0.0
    # The step from random to basic is minus random's gain: the same decisions, paired.
    assert basic.step_round == pytest.approx(-rand.gain_round)
    assert rand.step_round is None and rand.same_as_below is None
    assert rand.gain_round < 0  # over 3 games random's moves are worse than basic's


def test_a_run_repeats_and_does_not_depend_on_the_workers(ladder: ModuleType) -> None:
    args = (["random", "basic"], "random")
    one = ladder.run(*args, seed=5, games=2, rounds=2, playouts=3, workers=1)
    two = ladder.run(*args, seed=5, games=2, rounds=2, playouts=3, workers=2)
    assert one == two
    # Another player in seat 0 leads to other decisions.
    other = ladder.run(
        ["random", "basic"], "basic", seed=5, games=2, rounds=2, playouts=3, workers=1
    )
    assert other != one


def test_the_figures_are_sums_over_games_divided_by_rounds_and_decisions(
    ladder: ModuleType,
) -> None:
    G = ladder.GameSums
    games = [
        G(rounds=2, decisions=4, gains=((-0.8, 0.0, 0.4), (9, 9, 9)), same_as_below=(0, 1, 3)),
        G(rounds=3, decisions=6, gains=((-1.2, 0.0, 0.2), (9, 9, 9)), same_as_below=(0, 2, 5)),
    ]
    low, mid, top = ladder.summarize(["a", "b", "c"], games)  # the first judge
    assert low.gain_round == pytest.approx(-2.0 / 5) and low.gain_decision == pytest.approx(-0.2)
    assert top.gain_round == pytest.approx(0.6 / 5) and top.gain_decision == pytest.approx(0.06)
    assert mid.step_round == pytest.approx(2.0 / 5)
    assert top.step_round == pytest.approx(0.6 / 5)
    assert mid.same_as_below == pytest.approx(3 / 10) and top.same_as_below == pytest.approx(0.8)
    # Two games: an interval, around the mean; its width from how far the games differ.
    assert top.step_round_ci95 is not None
    lo, hi = top.step_round_ci95
    assert lo < top.step_round < hi
    # A level whose step is the same in every game, per round, has no spread at all.
    flat = [G(2, 3, ((9, 9), (0.0, 0.2)), (0, 1)), G(3, 3, ((9, 9), (0.0, 0.3)), (0, 1))]
    _, level = ladder.summarize(["a", "b"], flat, judge=1)
    assert level.step_round == pytest.approx(0.1)
    assert level.step_round_ci95 == pytest.approx((0.1, 0.1))
    # One game: no interval can be estimated.
    (only, _) = ladder.summarize(["a", "b"], flat[:1])
    assert only.gain_round_ci95 is None
    with pytest.raises(ValueError, match="no decision"):
        ladder.summarize(["a", "b"], [G(2, 0, ((0.0, 0.0),), (0, 0))])


def test_the_command_prints_each_level_and_its_step(
    ladder: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--levels", "random,basic", "--player", "basic", "--games", "2", "--rounds", "1"]
    assert ladder.main([*argv, "--playouts", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    head, _, judge, columns, rand, basic = out.splitlines()
    assert "seat 0 = basic" in head and "2 games x 1 rounds" in head
    assert judge == "judged by the true deal, 2 play-outs a legal move:"
    assert columns.split()[0] == "level"
    assert rand.startswith("random ") and basic.startswith("basic ")
    assert "%" in basic and "%" not in rand  # the share of decisions like the level below
    assert ladder.main([*argv, "--playouts", "2", "--workers", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["player"] == "basic" and doc["decisions"] > 0
    levels = doc["judges"]["truth"]
    assert [lv["level"] for lv in levels] == ["random", "basic"]
    assert levels[1]["gain_over_basic_a_round"] == 0.0
    assert levels[0]["step_a_round"] is None


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (["--levels", "basic"], "at least two levels"),
        (["--levels", "basic,basic"], "named twice"),
        (["--levels", "basic,oracle", "--player", "basic"], "oracle sees every hand"),
        (["--levels", "basic,nobody"], "unknown player"),
        (["--levels", "basic,expert+playouts=0"], "playouts must be at least 1"),
        (["--levels", "random,basic", "--player", "expert"], "--player must be one of"),
        (["--levels", "random,basic", "--player", "basic", "--games", "0"], "--games"),
        (["--levels", "random,basic", "--player", "basic", "--playouts", "0"], "--playouts"),
        (["--levels", "random,basic", "--player", "basic", "--workers", "0"], "--workers"),
        (["--levels", "random,basic", "--player", "basic", "--judges", ","], "one judge or more"),
        (["--levels", "random,basic", "--player", "basic", "--judges", "truth,truth"], "once"),
        (["--levels", "random,basic", "--player", "basic", "--judges", "coach:0"], "coach:N"),
        (["--levels", "random,basic", "--player", "basic", "--judges", "coach"], "coach:N"),
        (["--levels", "random,basic", "--player", "basic", "--judges", "oracle:9"], "coach:N"),
    ],
)
def test_wrong_arguments_are_refused(
    ladder: ModuleType, capsys: pytest.CaptureFixture[str], argv: list[str], says: str
) -> None:
    with pytest.raises(SystemExit) as stop:
        ladder.main(argv)
    assert stop.value.code == 2
    assert says in capsys.readouterr().err


def test_one_game_and_two_levels_are_enough(
    ladder: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--levels", "random,basic", "--player", "random", "--games", "1", "--rounds", "1"]
    assert ladder.main([*argv, "--playouts", "1", "--workers", "1"]) == 0
    assert "random" in capsys.readouterr().out


def test_the_coach_judges_from_the_seats_view_with_its_own_random_stream(
    ladder: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert ladder.judge_playouts("truth") is None
    assert ladder.judge_playouts("coach:1") == 1
    assert ladder.judge_playouts("coach:2500") == 2500
    args = (["random", "basic"], "random")
    games = ladder.run(
        *args, seed=4, games=2, rounds=2, playouts=2, workers=1, judges=("truth", "coach:40")
    )
    for g in games:
        truth, coach = g.gains
        assert truth[1] == 0.0 and coach[1] == 0.0  # basic against itself, both judges
    # Two judges, two valuations of random's moves (where it did not play basic's).
    assert any(g.gains[0][0] != g.gains[1][0] for g in games)
    # The judge draws apart from the levels (seed 0), so it does not share their luck.
    assert ladder.JUDGE_SEED != 0
    argv = ["--levels", "random,basic", "--player", "basic", "--games", "1", "--rounds", "1"]
    assert ladder.main([*argv, "--playouts", "1", "--workers", "1", "--judges", "coach:30"]) == 0
    out = capsys.readouterr().out
    assert "judged by the coach at 30 play-outs from the seat's view:" in out
    assert "true deal" not in out


def test_the_coach_judge_is_the_coach_at_its_own_seed(ladder: ModuleType) -> None:
    r = Game(Variants(opening=Opening.FREE)).deal(random.Random(8))
    v = view(r, r.turn)
    assert len(v.legal_moves) > 1
    judged = ladder._values("coach:60", r, v, 1, random.Random(0))
    level = Level("coach:60", 60, 3600.0)
    own = judge_position(v, level, ladder.JUDGE_SEED)
    assert judged == {m.move: m.value for m in own.moves}
    levels_luck = judge_position(v, level, 0)  # the levels' own stream
    assert judged != {m.move: m.value for m in levels_luck.moves}
