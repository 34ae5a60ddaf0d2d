"""Computer players' benchmark: time per move for each player and level, and sim speed.

Run ``python benchmarks/bots.py`` (a few minutes on 2 cores; ``--help`` for options).

What is measured:

- Positions: a fixed set of decision points (the seat in turn has two or more
  legal moves) taken from seeded games of five ``basic`` players (``random`` if
  ``basic`` is not registered): :data:`POSITION_GAMES` games of
  :data:`POSITION_ROUNDS` rounds with seed 1, every decision point kept, then
  ``--positions`` of them picked evenly. Every player is timed on the same
  positions, in the same order, one process, one move at a time.
- Time per move: wall time of one ``choose(view)`` call (``choose_seeing_all``
  for the ``oracle``), building the view excluded. Each level stops early once
  it has spent ``--budget`` seconds, so slow levels are timed on fewer
  positions (the line says how many). Median and 95th percentile (inclusive
  method of :func:`statistics.quantiles`).
- Play-out speed: what a search spends its time on. From each position's true
  round, a copy is played to its end by :func:`domeng.bots.rollout.play_out`
  (the play-out policy for every seat), ``--playouts`` play-outs spread evenly
  over the positions, seeded; once as ``expert`` plays them (each seat sees
  the guessed world) and once ``fair`` (each seat reasons from what it could
  know). CPU time of this process (``time.process_time``), so other work on the
  machine slows the run, not the figure, as far as it can; microseconds per
  play-out, the median of ``--repeats`` runs.
- Sim speed: ``domeng sim`` (its library entry, :func:`domeng.sim.run`) with
  five ``basic`` players, ``--sim-rounds`` rounds, on all cores: rounds per
  second of wall time, process start-up included.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from dataclasses import dataclass

from domeng.bots import make_player, player_names
from domeng.bots.rollout import excluded_by_passes, play_out
from domeng.engine import Game, Round, view
from domeng.sim import Settings, run

LEVELS = ("random", "basic", "expert:fast", "expert", "expert:strong", "oracle")
POSITION_GAMES = 4
POSITION_ROUNDS = 10


@dataclass(frozen=True)
class Position:
    round: Round
    seat: int


def positions(count: int) -> list[Position]:
    """``count`` decision points from seeded games, picked evenly (always the same)."""
    known = player_names(for_people=False)
    name = "basic" if "basic" in known else "random"
    found: list[Position] = []
    deal_rng = random.Random(1)
    for g in range(POSITION_GAMES):
        players = [make_player(name, 100 * g + s) for s in range(5)]
        game = Game()
        for _ in range(POSITION_ROUNDS):
            r = game.deal(deal_rng)
            while r.turn is not None:
                seat = r.turn
                legal = r.legal_moves()
                if len(legal) > 1:
                    found.append(Position(r.clone(), seat))
                    m = players[seat].choose(view(r, seat))
                else:
                    m = legal[0]
                r.play(m)
    if count >= len(found):
        return found
    step = len(found) / count
    return [found[int(i * step)] for i in range(count)]


def time_level(name: str, spots: list[Position], budget: float) -> list[float]:
    """Seconds per move of player ``name`` over ``spots``, until ``budget`` is spent."""
    player = make_player(name, 1)
    times: list[float] = []
    spent = 0.0
    for p in spots:
        if player.sees_all:
            r = p.round.clone()
            start = time.perf_counter()
            player.choose_seeing_all(r, p.seat)
        else:
            v = view(p.round, p.seat)
            start = time.perf_counter()
            player.choose(v)
        took = time.perf_counter() - start
        times.append(took)
        spent += took
        if spent >= budget:
            break
    return times


def p95(xs: list[float]) -> float:
    if len(xs) < 2:
        return xs[0]
    return statistics.quantiles(xs, n=20, method="inclusive")[18]


def playout_speed(spots: list[Position], playouts: int, fair: bool) -> float:
    """Microseconds of CPU per play-out from the positions' true rounds (see the docstring)."""
    rng = random.Random(7)
    per_spot = max(1, playouts // len(spots))
    bases = [(p.round, excluded_by_passes(p.round) if fair else None) for p in spots]
    clock = time.process_time
    start = clock()
    for base, excluded in bases:
        for _ in range(per_spot):
            play_out(base.clone(), rng, excluded=excluded)
    return (clock() - start) / (per_spot * len(bases)) * 1e6


def sim_speed(rounds: int, workers: int) -> float:
    start = time.perf_counter()
    run(Settings(("basic",) * 5, rounds=rounds, seed=1), workers)
    return rounds / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=60, help="positions to time (60)")
    parser.add_argument(
        "--budget", type=float, default=40.0, help="seconds of thinking per level at most (40)"
    )
    parser.add_argument(
        "--sim-rounds", type=int, default=5000, help="rounds for the sim speed (5000)"
    )
    parser.add_argument("--levels", default=",".join(LEVELS), help="players to time")
    parser.add_argument(
        "--playouts",
        type=int,
        default=20000,
        help="play-outs per run of the play-out speed (20000)",
    )
    parser.add_argument("--repeats", type=int, default=5, help="runs of the play-out speed (5)")
    args = parser.parse_args()
    spots = positions(args.positions)
    known = player_names(for_people=False)
    print(f"time per move over {len(spots)} positions (budget {args.budget:.0f} s per level)")
    print(f"{'player':<15} {'moves':>5} {'median ms':>10} {'p95 ms':>10} {'max ms':>10}")
    for name in args.levels.split(","):
        if name not in known:
            print(f"{name:<15} not registered")
            continue
        ts = [t * 1000 for t in time_level(name, spots, args.budget)]
        print(
            f"{name:<15} {len(ts):>5} {statistics.median(ts):>10.3f} {p95(ts):>10.3f} "
            f"{max(ts):>10.3f}",
            flush=True,
        )
    for fair in (False, True):
        runs = [playout_speed(spots, args.playouts, fair) for _ in range(args.repeats)]
        print(
            f"play-outs{' (fair)' if fair else ''}: {statistics.median(runs):.1f} µs each "
            f"(median of {args.repeats} runs of {args.playouts}; CPU time)",
            flush=True,
        )
    workers = os.cpu_count() or 1
    if "basic" in known:
        rate = sim_speed(args.sim_rounds, workers)
        print(f"sim: {rate:.0f} rounds/s (five basic, {args.sim_rounds} rounds, {workers} workers)")
    else:
        print("sim: basic is not registered")


if __name__ == "__main__":
    main()
