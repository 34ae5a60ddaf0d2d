"""Fit the play-outs' weights offline: one step of policy improvement, by rollouts.

Run ``python benchmarks/fit_playouts.py`` (``--help`` for options). It prints the fitted
weights, how much better their moves are than the shipped play-out weights' on
positions the fit did not see, and the ``benchmarks/trials.py`` SPEC that plays with
them.

How:

1. **Positions.** Rounds are dealt from ``--seed`` and played to their end by the
   play-outs' own policy (:func:`domeng.bots.rollout.play_out`: ``basic``'s rules of
   thumb with :data:`~domeng.bots.basic.PLAYOUT_WEIGHTS`, every hand in sight, as in a
   guessed world of the expert's search). Every ``--every``-th decision with more than
   one legal move and no finishing move is kept.
2. **Values.** Each legal move of a kept position is valued for the seat in turn by
   ``--playouts`` play-outs of the true round after it (the same random stream for
   every move), by the expert's value of a round (:func:`~domeng.bots.rollout.round_value`).
   So the values say which move is best when everyone then plays by the play-out
   policy: the target of one step of policy improvement.
3. **Fit.** ``judge``'s score is a weighted sum of features
   (:mod:`domeng.bots.features`). The fit chooses the eleven weights that maximize the
   expected value of the moves under a softmax of the scores (temperature ``--tau``),
   by gradient ascent from the shipped weights, with a small pull towards them
   (``--l2``). The softmax makes the objective smooth; the play-outs then play its
   best move.
4. **Check.** On the positions of the last ``--holdout`` share of rounds (never fitted),
   the value of the move the fitted weights choose minus that of the shipped weights'
   choice, per position, with its 95% interval.

The fit is deterministic: the same arguments give the same weights.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from domeng.bots.basic import PLAYOUT_WEIGHTS, Weights
from domeng.bots.features import FITTED, move_features, with_fitted
from domeng.bots.rollout import heuristic_move, move_values
from domeng.engine import Game, Round

SEARCH_FACTORS = (0.0, 0.25, 0.5, 0.75, 1.25, 1.5, 2.0, 3.0)
"""The values :func:`line_search` tries for a weight: these times it, and it plus these
less 1."""


@dataclass(frozen=True, slots=True)
class Position:
    """One kept decision: per legal move, its fixed score part, features and value."""

    fixed: tuple[float, ...]
    features: tuple[tuple[float, ...], ...]
    values: tuple[float, ...]


def values_of(r: Round, playouts: int, rng: random.Random) -> list[float]:
    """Every legal move's mean value to the seat in turn over ``playouts`` play-outs."""
    assert r.turn is not None
    return list(move_values(r, r.turn, playouts, rng).values())


def position_of(r: Round, playouts: int, rng: random.Random) -> Position | None:
    """The position of the seat in turn in ``r`` as the fit reads it (None: nothing to
    choose, or a finishing move)."""
    moves = r.legal_moves()
    seat = r.turn
    if seat is None or len(moves) < 2:
        return None
    hand = r.hands[seat]
    others = r.in_hands & ~hand
    parts = []
    for m in moves:
        got = move_features(m, seat, hand, r.left, r.right, others, r.hands, None)
        if got is None:
            return None
        parts.append(got)
    return Position(
        fixed=tuple(f for f, _ in parts),
        features=tuple(x for _, x in parts),
        values=tuple(values_of(r, playouts, rng)),
    )


def positions(rounds: int, every: int, playouts: int, seed: int) -> list[list[Position]]:
    """Per round, its kept positions."""
    rng = random.Random(f"fit|{seed}")
    out: list[list[Position]] = []
    decisions = 0
    for _ in range(rounds):
        game = Game()
        r = game.deal(rng)
        kept: list[Position] = []
        while not r.finished:
            if len(r.legal_moves()) > 1:
                decisions += 1
                if decisions % every == 0:
                    p = position_of(r, playouts, random.Random(f"fit|{seed}|{decisions}"))
                    if p is not None:
                        kept.append(p)
            r.play(heuristic_move(r, rng))
        out.append(kept)
    return out


def save(path: Path, rounds: list[list[Position]]) -> None:
    """Write the valued positions, per round, as JSON."""
    doc = [[[p.fixed, p.features, p.values] for p in kept] for kept in rounds]
    path.write_text(json.dumps(doc))


def load(path: Path) -> list[list[Position]]:
    """Read what :func:`save` wrote."""
    return [
        [
            Position(tuple(fixed), tuple(tuple(x) for x in features), tuple(values))
            for fixed, features, values in kept
        ]
        for kept in json.loads(path.read_text())
    ]


def _scores(p: Position, w: Sequence[float]) -> list[float]:
    return [
        f + sum(a * b for a, b in zip(w, x, strict=True))
        for f, x in zip(p.fixed, p.features, strict=True)
    ]


def chosen(p: Position, w: Sequence[float]) -> int:
    """The move the weights ``w`` play (the first best)."""
    s = _scores(p, w)
    return max(range(len(s)), key=lambda i: (s[i], -i))


def fit(
    data: Sequence[Position],
    start: Sequence[float],
    tau: float,
    l2: float,
    steps: int,
    rate: float,
) -> list[float]:
    """Gradient ascent (Adam) on the mean softmax-expected value, pulled towards ``start``."""
    w = list(start)
    k = len(w)
    m1 = [0.0] * k
    m2 = [0.0] * k
    for step in range(1, steps + 1):
        grad = [0.0] * k
        for p in data:
            s = _scores(p, w)
            top = max(s)
            e = [math.exp((x - top) / tau) for x in s]
            z = sum(e)
            pi = [x / z for x in e]
            q = sum(a * b for a, b in zip(pi, p.values, strict=True))
            fbar = [sum(pi[i] * p.features[i][j] for i in range(len(pi))) for j in range(k)]
            for i, x in enumerate(p.features):
                c = pi[i] * (p.values[i] - q) / tau
                if c:
                    for j in range(k):
                        grad[j] += c * (x[j] - fbar[j])
        n = len(data) or 1
        for j in range(k):
            g = grad[j] / n - 2 * l2 * (w[j] - start[j])
            m1[j] = 0.9 * m1[j] + 0.1 * g
            m2[j] = 0.999 * m2[j] + 0.001 * g * g
            hat1 = m1[j] / (1 - 0.9**step)
            hat2 = m2[j] / (1 - 0.999**step)
            w[j] += rate * hat1 / (math.sqrt(hat2) + 1e-8)
    return w


def value(data: Sequence[Position], w: Sequence[float]) -> float:
    """The mean value of the moves ``w`` plays."""
    return sum(p.values[chosen(p, w)] for p in data) / (len(data) or 1)


def line_search(
    data: Sequence[Position], start: Sequence[float], sweeps: int, factors: Sequence[float]
) -> list[float]:
    """Coordinate search on the value of the moves played (not a softmax): weight by weight,
    each tried at ``factors`` times its value and at its value plus the factors less 1,
    the best kept (ties keep the weight as it is); ``sweeps`` passes over the weights."""
    w = list(start)
    best = value(data, w)
    for _ in range(sweeps):
        for j in range(len(w)):
            here = w[j]
            for x in sorted({here * f for f in factors} | {here + f - 1.0 for f in factors}):
                w[j] = x
                got = value(data, w)
                if got > best + 1e-12:
                    best, here = got, x
            w[j] = here
    return w


def gain(
    data: Sequence[Position], new: Sequence[float], old: Sequence[float]
) -> tuple[float, float, float]:
    """Mean value of ``new``'s choice minus ``old``'s per position, its 95% half-width, and
    how often they choose alike."""
    diffs = [p.values[chosen(p, new)] - p.values[chosen(p, old)] for p in data]
    n = len(diffs)
    if n < 2:
        return 0.0, 0.0, 1.0
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    same = sum(1 for d, p in zip(diffs, data, strict=True) if chosen(p, new) == chosen(p, old)) / n
    return mean, 1.96 * math.sqrt(var / n), same


def spec(w: Weights, level: str = "expert:fast", prefix: str = "") -> str:
    """The ``benchmarks/trials.py`` SPEC of ``level`` with play-outs weighed by ``w``: every
    seat's moves, or with ``prefix="own_"`` only the searching seat's own."""
    return level + "".join(f"+{prefix}{k}={getattr(w, k):.4g}" for k in FITTED)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--rounds", type=int, default=1500, help="rounds dealt (default 1500)")
    ap.add_argument("--every", type=int, default=4, help="keep every N-th decision (default 4)")
    ap.add_argument("--playouts", type=int, default=64, help="play-outs per move (default 64)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument(
        "--holdout", type=float, default=0.3, help="share of rounds held out (default 0.3)"
    )
    ap.add_argument("--tau", type=float, default=1.0, help="softmax temperature (default 1)")
    ap.add_argument("--l2", type=float, default=0.01, help="pull towards the shipped weights")
    ap.add_argument("--steps", type=int, default=200, help="gradient steps (default 200)")
    ap.add_argument("--rate", type=float, default=0.05, help="step size (default 0.05)")
    ap.add_argument(
        "--method",
        choices=("softmax", "search"),
        default="softmax",
        help="softmax: gradient ascent on a softmax of the scores (default); search: "
        "coordinate search on the value of the moves played",
    )
    ap.add_argument("--sweeps", type=int, default=2, help="passes of --method search")
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    ap.add_argument(
        "--data",
        type=Path,
        help="a JSON file of the valued positions: read if it exists (the position "
        "arguments are then not used), else written, to fit again without valuing again",
    )
    args = ap.parse_args(argv)

    began = time.perf_counter()
    loaded = args.data is not None and args.data.exists()
    if loaded:
        rounds = load(args.data)
    else:
        rounds = positions(args.rounds, args.every, args.playouts, args.seed)
        if args.data is not None:
            save(args.data, rounds)
    cut = int(len(rounds) * (1 - args.holdout))
    train = [p for kept in rounds[:cut] for p in kept]
    test = [p for kept in rounds[cut:] for p in kept]
    made = time.perf_counter() - began
    start = [float(getattr(PLAYOUT_WEIGHTS, k)) for k in FITTED]
    if args.method == "search":
        fitted = line_search(train, start, args.sweeps, SEARCH_FACTORS)
    else:
        fitted = fit(train, start, args.tau, args.l2, args.steps, args.rate)
    weights = with_fitted(PLAYOUT_WEIGHTS, fitted)
    in_mean, in_half, in_same = gain(train, fitted, start)
    out_mean, out_half, out_same = gain(test, fitted, start)
    doc = {
        "positions": {"fitted": len(train), "held_out": len(test)},
        "seconds": {"positions": round(made, 1), "all": round(time.perf_counter() - began, 1)},
        "weights": {k: round(getattr(weights, k), 4) for k in FITTED},
        "shipped": {k: getattr(PLAYOUT_WEIGHTS, k) for k in FITTED},
        "gain_fitted": {
            "mean": round(in_mean, 4),
            "half_width": round(in_half, 4),
            "same": round(in_same, 3),
        },
        "gain_held_out": {
            "mean": round(out_mean, 4),
            "half_width": round(out_half, 4),
            "same": round(out_same, 3),
        },
        "spec": spec(weights),
        "spec_own": spec(weights, prefix="own_"),
    }
    if args.json:
        print(json.dumps(doc, indent=2))
        return 0
    source = (
        f"{args.rounds} rounds, every {args.every}th decision, {args.playouts} play-outs a "
        f"move, seed {args.seed}"
    )
    if loaded:
        source = f"read from {args.data}"
    print(
        f"{len(train)} positions fitted, {len(test)} held out ({source}); "
        f"{time.perf_counter() - began:.1f} s; --method {args.method}"
    )
    print(f"{'weight':<10} {'shipped':>8} {'fitted':>8}")
    for k in FITTED:
        print(f"{k:<10} {getattr(PLAYOUT_WEIGHTS, k):>8.3f} {getattr(weights, k):>8.3f}")
    print(
        f"value of the fitted weights' move minus the shipped weights', a decision: "
        f"fitted positions {in_mean:+.4f} ± {in_half:.4f} (same move {in_same:.0%}); "
        f"held out {out_mean:+.4f} ± {out_half:.4f} (same move {out_same:.0%})"
    )
    print(f"trials SPEC, every seat's moves in the play-outs: {doc['spec']}")
    print(f"trials SPEC, the searching seat's own moves only: {doc['spec_own']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
