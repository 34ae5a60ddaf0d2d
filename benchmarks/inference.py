"""How much ``expert``'s guesses of the hidden tiles learn from the plays seen.

Run ``python benchmarks/inference.py`` (``--help`` for options).

Why: ``oracle`` sees every hand and ``expert`` does not; the gap between them
is the value of the hidden tiles. ``expert`` guesses them in two steps: a
:class:`~domeng.bots.sampling.DealSampler` draws placements uniformly among
those that agree with the hand sizes, the passes and the first round's
opening, and :class:`~domeng.bots.inference.PlayModel` weighs each placement
by how likely the other seats' plays are if they held it. This shows how much
of the hidden tiles the plays reveal to that model, and so how much of the
gap better guessing could close at most.

What is measured:

- Positions: seeded games of five ``basic`` players (``--games`` games of
  ``--rounds`` rounds); every decision point of seat 0 (two or more legal
  moves) with at least :data:`MIN_PLAYS` plays on the line is kept. The games
  do not depend on ``--samples``: the guesses use a generator of their own.
- Beliefs: at each position ``--samples`` placements are drawn from the
  sampler. "sampler only" gives every placement weight 1; "sampler +
  PlayModel" gives it ``PlayModel(view).weight(hands)``. For every other seat
  s and unseen tile t, p(s, t) is the weighted share of placements that put t
  in s's hand; the truth y(s, t) is 1 if s really holds t, else 0.
- Brier score of a position: the sum over the (s, t) pairs of (p - y)^2,
  averaged over positions (lower is better; a belief that knew every hand
  scores 0). Log score of a position: the mean of -log p over the pairs with
  y = 1 (p clipped at 1e-6), averaged over positions. Effective sample size of
  the PlayModel weights at a position: sum(w)^2 / sum(w^2), averaged over
  positions (``--samples`` would mean the plays tell nothing).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from domeng.bots import make_player
from domeng.bots.inference import PlayModel
from domeng.bots.sampling import DealSampler
from domeng.engine import SEATS, Game, SeatView, TileSet, view
from domeng.engine.tiles import TILE_COUNT

SEAT = 0
"""The seat whose guesses are scored."""
MIN_PLAYS = 5
"""Plays on the line before a position counts: something to learn from."""
CLIP = 1e-6
"""The smallest probability the log score takes."""


@dataclass(frozen=True)
class Score:
    """One belief's scores at one position."""

    brier: float
    log: float


@dataclass(frozen=True)
class Position:
    """The scores of both beliefs at one decision point."""

    sampler: Score
    model: Score
    ess: float
    pairs: int


@dataclass(frozen=True)
class Report:
    games: int
    rounds: int
    samples: int
    seed: int
    positions: list[Position]

    def means(self) -> dict[str, float | None]:
        ps = self.positions
        return {
            "sampler_brier": _mean([p.sampler.brier for p in ps]),
            "sampler_log": _mean([p.sampler.log for p in ps]),
            "model_brier": _mean([p.model.brier for p in ps]),
            "model_log": _mean([p.model.log for p in ps]),
            "ess": _mean([p.ess for p in ps]),
            "pairs": _mean([float(p.pairs) for p in ps]),
        }

    def to_json(self) -> dict[str, object]:
        m = self.means()
        return {
            "games": self.games,
            "rounds": self.rounds,
            "samples": self.samples,
            "seed": self.seed,
            "positions": len(self.positions),
            "pairs_per_position": m["pairs"],
            "beliefs": {
                "sampler": {"brier": m["sampler_brier"], "log": m["sampler_log"]},
                "sampler+playmodel": {
                    "brier": m["model_brier"],
                    "log": m["model_log"],
                    "ess": m["ess"],
                },
                "known hands": {"brier": 0.0, "log": 0.0},
            },
        }


def _mean(xs: Sequence[float]) -> float | None:
    return math.fsum(xs) / len(xs) if xs else None


def decision_points(games: int, rounds: int, seed: int) -> Iterator[tuple[SeatView, list[TileSet]]]:
    """Seat 0's view and the true hands at every kept position of the seeded games."""
    deal_rng = random.Random(seed)
    for g in range(games):
        players = [make_player("basic", (seed * 1000 + g) * SEATS + s) for s in range(SEATS)]
        game = Game()
        for _ in range(rounds):
            r = game.deal(deal_rng)
            while r.turn is not None:
                seat = r.turn
                legal = r.legal_moves()
                if len(legal) == 1:
                    r.play(legal[0])
                    continue
                v = view(r, seat)
                if seat == SEAT and len(v.plays) >= MIN_PLAYS:
                    yield v, list(r.hands)
                r.play(players[seat].choose(v))


def score(
    v: SeatView,
    truth: Sequence[TileSet],
    worlds: Sequence[Sequence[TileSet]],
    weights: Sequence[float],
) -> tuple[Score, int]:
    """The Brier and log scores of the weighted ``worlds`` against ``truth``, and the pairs."""
    unseen = v.unseen
    others = [s for s in range(SEATS) if s != v.seat]
    mass = {s: [0.0] * TILE_COUNT for s in others}
    for hands, w in zip(worlds, weights, strict=True):
        for s in others:
            m = hands[s] & unseen
            row = mass[s]
            while m:
                low = m & -m
                row[low.bit_length() - 1] += w
                m ^= low
    total = math.fsum(weights)
    brier = 0.0
    logs: list[float] = []
    pairs = 0
    for s in others:
        for t in range(TILE_COUNT):
            if not unseen >> t & 1:
                continue
            pairs += 1
            p = mass[s][t] / total
            y = truth[s] >> t & 1
            brier += (p - y) ** 2
            if y:
                logs.append(-math.log(max(p, CLIP)))
    return Score(brier, math.fsum(logs) / len(logs) if logs else 0.0), pairs


def measure_position(
    v: SeatView, truth: Sequence[TileSet], samples: int, rng: random.Random
) -> Position:
    sampler = DealSampler(v)
    model = PlayModel(v)
    worlds = [sampler.sample(rng)[0] for _ in range(samples)]
    weights = [model.weight(hands) for hands in worlds]
    flat, pairs = score(v, truth, worlds, [1.0] * samples)
    weighed, _ = score(v, truth, worlds, weights)
    ess = math.fsum(weights) ** 2 / math.fsum(w * w for w in weights)
    return Position(flat, weighed, ess, pairs)


def measure(games: int, rounds: int, samples: int, seed: int) -> Report:
    sample_rng = random.Random(f"domeng inference samples {seed}")
    found = [
        measure_position(v, truth, samples, sample_rng)
        for v, truth in decision_points(games, rounds, seed)
    ]
    return Report(games, rounds, samples, seed, found)


def format_report(report: Report) -> str:
    m = report.means()

    def num(x: float | None) -> str:
        return "-" if x is None else f"{x:.3f}"

    lines = [
        f"seat 0's guesses of the hidden tiles at {len(report.positions)} positions "
        f"({report.games} games x {report.rounds} rounds of five basic, seed {report.seed})",
        f"{report.samples} samples a position; {m['pairs'] or 0:.1f} (seat, tile) pairs a "
        "position; Brier: summed over the pairs, mean over positions",
        f"{'belief':<20} {'Brier':>8} {'log':>8} {'ESS':>8}",
        f"{'sampler only':<20} {num(m['sampler_brier']):>8} {num(m['sampler_log']):>8} "
        f"{report.samples:>8}",
        f"{'sampler + PlayModel':<20} {num(m['model_brier']):>8} {num(m['model_log']):>8} "
        f"{num(m['ess']):>8}",
        f"{'known hands':<20} {0.0:>8.3f} {0.0:>8.3f}",
    ]
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=60, help="games (60)")
    parser.add_argument("--rounds", type=int, default=2, help="rounds per game (2)")
    parser.add_argument("--samples", type=int, default=1000, help="guesses per position (1000)")
    parser.add_argument("--seed", type=int, default=1, help="seed of the games and guesses (1)")
    parser.add_argument("--json", action="store_true", help="print a JSON document")
    args = parser.parse_args(argv)
    for option in ("games", "rounds", "samples"):
        if getattr(args, option) < 1:
            parser.error(f"--{option} must be at least 1")
    report = measure(args.games, args.rounds, args.samples, args.seed)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_report(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
