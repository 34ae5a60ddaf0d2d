"""basic's score as features (domeng.bots.features) and the offline fit of the play-outs'
weights (benchmarks/fit_playouts.py)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

from domeng.bots.basic import BASIC_WEIGHTS, PLAYOUT_WEIGHTS, Weights, judge, may_hold
from domeng.bots.features import FITTED, move_features, with_fitted
from domeng.engine import Game, Round


@pytest.fixture(scope="module")
def fitting(load_benchmark: Callable[[str], ModuleType]) -> ModuleType:
    return load_benchmark("fit_playouts")


def _random_weights(rng: random.Random) -> Weights:
    return Weights(*(rng.uniform(-4.0, 4.0) for _ in range(12)), epsilon=0.0)


def _positions(seed: int, rounds: int) -> list[Round]:
    """Rounds at decisions with two or more legal moves, from random play."""
    rng = random.Random(seed)
    out = []
    for _ in range(rounds):
        r = Game().deal(rng)
        while not r.finished:
            ms = r.legal_moves()
            if len(ms) > 1:
                out.append(r.clone())
            r.play(ms[int(rng.random() * len(ms))])
    return out


def _score(m: object, args: tuple[object, ...], w: Weights) -> float:
    out: list[float] = []
    judge((m,), *args, w, lambda: 0.0, out)  # type: ignore[arg-type]
    return out[0]


def test_the_features_weighed_give_judge_s_score_for_any_weights() -> None:
    rng = random.Random(4)
    checked = finishing = 0
    for r in _positions(4, 25):
        seat = r.turn
        assert seat is not None
        hand = r.hands[seat]
        exact = (seat, hand, r.left, r.right, r.in_hands & ~hand, r.hands, None)
        # as basic sees it: the tiles it cannot see, the passes' numbers, the counts
        unseen = (r.in_hands | r.unused) & ~hand
        lacking = [rng.randrange(128) if s != seat else 0 for s in range(5)]
        may = [may_hold(unseen, n) for n in lacking]
        counts = [h.bit_count() for h in r.hands]
        seen = (seat, hand, r.left, r.right, unseen, may, counts)
        for w in (PLAYOUT_WEIGHTS, BASIC_WEIGHTS, _random_weights(rng)):
            for args in (exact, seen):
                for m in r.legal_moves():
                    got = move_features(m, *args, danger_two=w.danger_two)  # type: ignore[arg-type]
                    if got is None:
                        finishing += 1
                        assert not hand & ~(1 << m.tile)
                        continue
                    fixed, x = got
                    mine = fixed + sum(getattr(w, k) * v for k, v in zip(FITTED, x, strict=True))
                    assert mine == pytest.approx(_score(m, args, w), abs=1e-9)
                    checked += 1
    assert checked > 2000 and finishing > 0


def test_with_fitted_sets_exactly_the_fitted_weights() -> None:
    values = [float(i) for i in range(len(FITTED))]
    w = with_fitted(PLAYOUT_WEIGHTS, values)
    assert [getattr(w, k) for k in FITTED] == values
    assert (w.danger_two, w.epsilon) == (PLAYOUT_WEIGHTS.danger_two, PLAYOUT_WEIGHTS.epsilon)
    with pytest.raises(ValueError):
        with_fitted(PLAYOUT_WEIGHTS, values[:-1])


def _pips_rewarded(fitting: ModuleType) -> tuple[list[object], list[float], int]:
    """Hand-built positions: two moves alike but for their pips, the heavier one worth
    more; weights that prefer the lighter one."""
    pips = FITTED.index("pips")
    start = [1.0] * len(FITTED)
    start[pips] = -0.5
    data = []
    for light in range(0, 6):
        a = [1.0] * len(FITTED)
        b = [1.0] * len(FITTED)
        a[pips], b[pips] = float(light), float(light + 2)
        features = (tuple(a), tuple(b))
        data.append(fitting.Position(fixed=(0.0, 0.0), features=features, values=(-1.0, 0.0)))
    return data, start, pips


@pytest.mark.parametrize("method", ["softmax", "search"])
def test_the_fit_learns_what_the_values_reward(fitting: ModuleType, method: str) -> None:
    # Fitted from weights that prefer the lighter tile, the pips' weight must turn
    # positive enough to play the heavier move, and the other weights stay put.
    data, start, pips = _pips_rewarded(fitting)
    if method == "softmax":
        w = fitting.fit(data, start, tau=1.0, l2=0.0, steps=200, rate=0.05)
    else:
        w = fitting.line_search(data, start, sweeps=1, factors=fitting.SEARCH_FACTORS)
    assert w[pips] > 0.0
    assert all(fitting.chosen(p, w) == 1 for p in data)
    assert all(fitting.chosen(p, start) == 0 for p in data)
    others = [x for i, x in enumerate(w) if i != pips]
    assert others == pytest.approx(start[:pips] + start[pips + 1 :])
    mean, _, same = fitting.gain(data, w, start)
    assert mean == 1.0 and same == 0.0
    assert fitting.value(data, w) == 0.0 and fitting.value(data, start) == -1.0


def test_a_small_fit_runs_and_repeats(
    fitting: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--rounds", "12", "--every", "3", "--playouts", "4", "--steps", "5", "--json"]
    assert fitting.main(argv) == 0
    one = capsys.readouterr().out
    assert fitting.main(argv) == 0
    two = capsys.readouterr().out
    a, b = json.loads(one), json.loads(two)
    del a["seconds"], b["seconds"]
    assert a == b
    assert a["positions"]["fitted"] > 0 and a["positions"]["held_out"] > 0
    assert a["spec"].startswith("expert:fast+pips=")
    assert set(a["weights"]) == set(FITTED)
    assert a["spec_own"].startswith("expert:fast+own_pips=")


def test_valued_positions_are_kept_and_fitted_again_alike(
    fitting: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    data = tmp_path / "positions.json"
    argv = ["--rounds", "12", "--every", "3", "--playouts", "4", "--steps", "5", "--json"]
    assert fitting.main([*argv, "--data", str(data)]) == 0
    made = json.loads(capsys.readouterr().out)
    assert data.exists()
    # read again: the same positions, so the same fit (the position arguments unused)
    assert fitting.main(["--steps", "5", "--json", "--data", str(data)]) == 0
    again = json.loads(capsys.readouterr().out)
    for doc in (made, again):
        del doc["seconds"]
    assert made == again
