"""benchmarks/trials.py: paired trials of expert variants against four basic."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

import domeng.bots as bots

CHEAP = "expert:fast+playouts=20"


@pytest.fixture(scope="module")
def trials(load_benchmark: Callable[[str], ModuleType]) -> ModuleType:
    return load_benchmark("trials")


@pytest.fixture
def registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The script registers its SPECs in this process: keep them out of other tests."""
    monkeypatch.setattr(bots, "_FACTORIES", dict(bots._FACTORIES))


def test_json_report_pairs_every_spec_with_the_first(
    trials: ModuleType, registry: None, capsys: pytest.CaptureFixture[str]
) -> None:
    specs = [CHEAP, CHEAP + "+camat=0", CHEAP]
    argv = [*specs, "--rounds", "10", "--rounds-per-game", "1", "--workers", "1", "--json"]
    assert trials.main(argv) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rounds"] == 10
    assert doc["games"] == 2
    assert doc["seed"] == 11
    assert doc["opponents"] == ["basic"] * 4
    lines = doc["specs"]
    assert [line["spec"] for line in lines] == specs
    for line in lines:
        assert line["rounds"] == 10
        assert line["decisions"] > 0
        for key in ("stones_per_round", "opponents_stones_per_round", "vs_opponents"):
            assert isinstance(line[key], float)
        assert len(line["vs_opponents_ci95"]) == 2
        assert line["camat_per_100_rounds"] >= 0
    assert lines[0]["vs_first"] is None and lines[0]["vs_first_ci95"] is None
    assert isinstance(lines[1]["vs_first"], float) and len(lines[1]["vs_first_ci95"]) == 2
    # The same SPEC again meets the same deals and seeds: the very same games.
    assert lines[2]["vs_first"] == 0.0 and lines[2]["vs_first_ci95"] == [0.0, 0.0]
    assert lines[2]["stones_per_round"] == lines[0]["stones_per_round"]
    # A ladder's step: each SPEC paired with the one before it.
    assert lines[0]["vs_previous"] is None
    assert lines[1]["vs_previous"] == lines[1]["vs_first"]
    assert lines[2]["vs_previous"] == pytest.approx(-lines[1]["vs_first"])


def test_a_calibration_anchored_on_the_paired_results(
    trials: ModuleType, registry: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from domeng.history.calibration import load

    out = tmp_path / "c.json"
    argv = ["random", "basic", "--rounds", "10", "--rounds-per-game", "1", "--workers", "1"]
    assert trials.main([*argv, "--calibrate", str(out)]) == 0
    assert "vs previous" in capsys.readouterr().out
    doc = json.loads(out.read_text())
    shipped = load()
    got = load(out)
    assert got["basic"].mu == round(shipped["basic"].mu, 4)
    assert got["random"].mu == round(shipped["random"].mu, 4)
    assert set(doc["anchored"]["paired"]) == {"random", "basic"}
    # The levels above, not measured, are placed level with the one below.
    assert doc["anchored"]["placed with the level below, not measured"] == [
        "expert:fast",
        "expert",
        "expert:strong",
    ]
    assert got["expert:strong"] == got["expert"] == got["expert:fast"] == got["basic"]
    assert doc["command"].startswith("python benchmarks/trials.py random basic")


def test_spec_overrides(trials: ModuleType) -> None:
    s = trials.parse_spec(
        "expert:fast+playouts=1000+camat=12+other_camat=3+given=0.5+epsilon=0.2+fair"
    )
    assert (s.level.playouts, s.level.max_seconds) == (1000, trials.DEFAULT_SECONDS)
    assert (s.objective.camat, s.objective.other_camat, s.objective.given) == (12, 3, 0.5)
    assert s.weights.epsilon == 0.2 and s.fair
    assert trials.parse_spec("basic").level is None


def test_spec_model_overrides_reach_the_player(trials: ModuleType) -> None:
    s = trials.parse_spec("expert:fast+model_beta=2+model_floor=0.05")
    assert (s.model.beta, s.model.floor) == (2, 0.05)
    assert s.model.lempa == trials.DEFAULT_MODEL.lempa
    assert s.make(1).model == s.model
    assert trials.parse_spec("expert:fast+model_beta=2+uniform").make(1).model is None
    assert trials.parse_spec("expert:fast").model == trials.DEFAULT_MODEL


def test_spec_own_weights_reach_the_player_s_own_play_outs_only(trials: ModuleType) -> None:
    s = trials.parse_spec("expert:fast+pips=0.3+own_pips=0.7+own_epsilon=0")
    assert s.weights.pips == 0.3 and s.weights.epsilon == trials.DEFAULT_WEIGHTS.epsilon
    assert s.own_weights is not None
    assert (s.own_weights.pips, s.own_weights.epsilon) == (0.7, 0.0)
    assert s.own_weights.lempa == s.weights.lempa
    player = s.make(1)
    assert (player.weights, player.own_weights) == (s.weights, s.own_weights)
    assert trials.parse_spec("expert:fast+pips=0.3").make(1).own_weights is None


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        (CHEAP + "+bogus=1", "unknown key 'bogus'"),
        (CHEAP + "+own_epsilon=2", "own_epsilon is a chance"),
        (CHEAP + "+own_pips=1+fair", "do not go with fair"),
        (CHEAP + "+own_bogus=1", "unknown key 'own_bogus'"),
        (CHEAP + "+camat=lots", "not a number"),
        ("expert:fast+playouts=1.5", "not a whole number"),
        ("basic+camat=1", "overrides need an expert level"),
        ("nobody", "unknown player 'nobody'"),
        (CHEAP + "+model_floor=1.5", "model_floor is a share"),
        (CHEAP + "+model_beta=sharp", "not a number"),
    ],
)
def test_bad_spec_exits_2_with_a_message(
    trials: ModuleType, capsys: pytest.CaptureFixture[str], spec: str, message: str
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        trials.main([spec, "--rounds", "10", "--workers", "1"])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err
