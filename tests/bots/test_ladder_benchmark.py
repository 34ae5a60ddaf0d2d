"""benchmarks/ladder.py: every level's move at the same decisions, valued on the true deal."""

from __future__ import annotations

import json
from collections.abc import Callable
from types import ModuleType

import pytest


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
        _, basic_gain = g.gains
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
        G(rounds=2, decisions=4, gains=(-0.8, 0.0, 0.4), same_as_below=(0, 1, 3)),
        G(rounds=3, decisions=6, gains=(-1.2, 0.0, 0.2), same_as_below=(0, 2, 5)),
    ]
    low, mid, top = ladder.summarize(["a", "b", "c"], games)
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
    flat = [G(2, 3, (0.0, 0.2), (0, 1)), G(3, 3, (0.0, 0.3), (0, 1))]
    _, level = ladder.summarize(["a", "b"], flat)
    assert level.step_round == pytest.approx(0.1)
    assert level.step_round_ci95 == pytest.approx((0.1, 0.1))
    # One game: no interval can be estimated.
    (only, _) = ladder.summarize(["a", "b"], flat[:1])
    assert only.gain_round_ci95 is None
    with pytest.raises(ValueError, match="no decision"):
        ladder.summarize(["a", "b"], [G(2, 0, (0.0, 0.0), (0, 0))])


def test_the_command_prints_each_level_and_its_step(
    ladder: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--levels", "random,basic", "--player", "basic", "--games", "2", "--rounds", "1"]
    assert ladder.main([*argv, "--playouts", "2", "--workers", "1"]) == 0
    out = capsys.readouterr().out
    head, columns, rand, basic = out.splitlines()
    assert "seat 0 = basic" in head and "2 games x 1 rounds" in head
    assert columns.split()[0] == "level"
    assert rand.startswith("random ") and basic.startswith("basic ")
    assert "%" in basic and "%" not in rand  # the share of decisions like the level below
    assert ladder.main([*argv, "--playouts", "2", "--workers", "1", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["player"] == "basic" and doc["decisions"] > 0
    assert [lv["level"] for lv in doc["levels"]] == ["random", "basic"]
    assert doc["levels"][1]["gain_over_basic_a_round"] == 0.0
    assert doc["levels"][0]["step_a_round"] is None


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
