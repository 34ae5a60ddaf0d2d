"""benchmarks/regret.py: each decision valued on the true deal, against basic's move."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from types import ModuleType
from typing import Any

import pytest

import domeng.bots.rollout as rollout
from domeng.engine import Game, Opening, Variants


@pytest.fixture(scope="module")
def regret(load_benchmark: Callable[[str], ModuleType]) -> ModuleType:
    return load_benchmark("regret")


def test_basic_against_itself_gains_nothing_and_always_agrees(regret: ModuleType) -> None:
    # Seat 0's basic and the shadow basic get the same seed: the same moves.
    ds = regret.run("basic", seed=3, games=2, rounds=2, playouts=4, workers=1)
    assert ds
    for d in ds:
        assert d.same and d.chosen == d.basic
        assert d.best >= d.chosen
        assert 2 <= d.hand <= 5
    (everything, *_) = regret.summarize(ds)
    assert everything.name == "all" and everything.decisions == len(ds)
    assert everything.gain == 0.0 and everything.same_move == 1.0
    assert everything.regret == everything.basic_regret


def test_a_run_repeats_and_does_not_depend_on_the_workers(regret: ModuleType) -> None:
    # `random` (seeded), not an expert level: no time cap can make two runs differ.
    one = regret.run("random", seed=5, games=2, rounds=2, playouts=3, workers=1)
    two = regret.run("random", seed=5, games=2, rounds=2, playouts=3, workers=2)
    assert one == two
    assert not all(d.same for d in one)  # random does not simply copy basic


def test_move_values_share_one_random_stream_and_leave_the_round_alone(
    regret: ModuleType, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = Game(Variants(opening=Opening.FREE))  # the opener may play any of its 5 tiles
    r = game.deal(random.Random(8))
    assert len(r.legal_moves()) > 1
    before = (list(r.hands), len(r.events), r.turn)

    # Record the random stream each move's play-outs start from.
    starts: list[tuple[int, object]] = []
    real_play_out = rollout.play_out  # move_values lives there (the fit's benchmark uses it too)

    def recording(c: Any, rng: random.Random) -> None:
        starts.append((c.plays[-1][1].tile, rng.getstate()))
        real_play_out(c, rng)

    monkeypatch.setattr(rollout, "play_out", recording)
    values = regret.move_values(r, r.turn, 3, random.Random(1))
    assert set(values) == set(r.legal_moves())
    assert (list(r.hands), len(r.events), r.turn) == before
    by_move: dict[int, list[object]] = {}
    for tile, state in starts:
        by_move.setdefault(tile, []).append(state)
    streams = list(by_move.values())
    assert len(streams) == len(values) and all(len(x) == 3 for x in streams)
    # Every move's play-outs start from the same point of the stream (then they
    # part, as play-outs of different moves draw different numbers of times).
    assert all(x[0] == streams[0][0] for x in streams)
    assert regret.move_values(r, r.turn, 3, random.Random(1)) == values


def test_groups_split_by_hand_and_opening(regret: ModuleType) -> None:
    D = regret.Decision
    ds = [
        D(hand=5, opening=True, chosen=-1.0, basic=-2.0, best=-1.0, same=False),
        D(hand=5, opening=False, chosen=-2.0, basic=-2.0, best=-1.0, same=True),
        D(hand=3, opening=False, chosen=0.0, basic=-1.0, best=0.0, same=False),
    ]
    groups = {g.name: g for g in regret.summarize(ds)}
    assert list(groups) == ["all", "5 tiles in hand", "3 tiles in hand", "opening the round"]
    assert groups["all"].gain == pytest.approx(2.0 / 3)
    assert groups["5 tiles in hand"].decisions == 1
    assert groups["5 tiles in hand"].regret == 1.0
    assert groups["opening the round"].gain == 1.0
    assert groups["opening the round"].gain_ci95 is None  # one decision: no interval


def test_the_command_prints_a_table_or_json(
    regret: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["--games", "1", "--rounds", "1", "--playouts", "2", "--workers", "1"]
    assert regret.main([*args, "--player", "basic"]) == 0
    text = capsys.readouterr().out
    assert "gain over basic" in text and "all" in text
    assert regret.main([*args, "--player", "basic", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["player"] == "basic" and doc["groups"][0]["group"] == "all"


@pytest.mark.parametrize("args", [["--player", "oracle"], ["--player", "nobody"], ["--games", "0"]])
def test_the_command_refuses_bad_arguments(regret: ModuleType, args: list[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        regret.main(args)
    assert exc.value.code == 2


def test_leaning_to_basic_is_judged_on_the_players_own_decisions(regret: ModuleType) -> None:
    always = regret.run(
        "expert:fast", seed=2, games=1, rounds=2, playouts=4, workers=1, lean=regret.Lean(1e9)
    )
    differ = [d for d in always if not d.same]
    assert differ, "the expert and basic never differed: no leaning to judge"
    # within any margin it leans wherever the two differ: its gain is basic's over the expert
    assert [d.lean for d in always] == [not d.same for d in always]
    (everything, *_) = regret.summarize(always)
    assert everything.leaned == len(differ)
    assert abs(everything.lean_gain + everything.gain) < 1e-9
    # from 6 tiles up (more than a hand holds) it leans only when opening
    opening = regret.run(
        "expert:fast",
        seed=2,
        games=1,
        rounds=2,
        playouts=4,
        workers=1,
        lean=regret.Lean(1e9, hand=6),
    )
    assert [d.lean for d in opening] == [d.opening and not d.same for d in opening]
    # the same decisions, whatever the rule: the leaning player is judged, not played
    assert [(d.chosen, d.basic) for d in opening] == [(d.chosen, d.basic) for d in always]


def test_leaning_needs_an_expert_level(regret: ModuleType, capsys: Any) -> None:
    with pytest.raises(SystemExit):
        regret.main(["--player", "basic", "--lean", "2"])
    assert "an expert level" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        regret.main(["--player", "expert:fast", "--lean", "-1"])
    assert "0 or more" in capsys.readouterr().err
