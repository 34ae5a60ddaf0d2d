"""How far to trust the coach: its think time, how steady its judgement is from one
seed to another, and how often its best move is hindsight's best.

For ``--positions`` random decisions (positions of games of four ``basic`` and one
seat to judge, where the seat in turn has a choice), the coach judges the seat's
view twice, with two seeds, at ``--level``; and the hindsight values the moves
knowing every hand. Prints:

- the think time per judgement (mean and the slowest);
- how often the two seeds name the same best move, and, when they differ, the
  value gap between the two bests (mostly within the margin: close calls);
- the standard error of a value and of the gap between the best move and the
  runner-up (paired);
- how often the runner-up is within twice that error (the coach says "close");
- how often the coach's best is also hindsight's best, and the stones the coach's
  best loses, in hindsight, against the best knowing every hand.

    .venv/bin/python benchmarks/coach.py --positions 100
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from domeng.bots import make_player
from domeng.bots.coach import find, hindsight, judge_position
from domeng.bots.expert import LEVELS
from domeng.engine import Game, Round, view


def decisions(count: int, seed: int) -> list[Round]:
    """Copies of rounds, from games of ``basic`` players, where the seat in turn has a
    choice (one in three such positions taken)."""
    rng = random.Random(seed)
    players = [make_player("basic", seed + s) for s in range(5)]
    found: list[Round] = []
    game = Game()
    while len(found) < count:
        r = game.deal(rng)
        while not r.finished and len(found) < count:
            seat = r.turn
            assert seat is not None
            if len(r.legal_moves()) > 1 and rng.random() < 1 / 3:
                found.append(r.clone())
            r.play(players[seat].choose(game.view(seat)))
        if len(found) < count and not r.finished:
            break
    return found


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--level", default="expert", choices=list(LEVELS))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    level = LEVELS[args.level]
    times: list[float] = []
    same = 0
    apart: list[float] = []
    errors: list[float] = []
    gaps: list[float] = []
    close = 0
    agree = 0
    lost: list[float] = []
    positions = decisions(args.positions, args.seed)
    for r in positions:
        seat = r.turn
        assert seat is not None
        v = view(r, seat)
        start = time.perf_counter()
        a = judge_position(v, level, seed=1)
        times.append(time.perf_counter() - start)
        b = judge_position(v, level, seed=2)
        if a.best.move == b.best.move:
            same += 1
        else:
            apart.append(abs(find(a.moves, b.best.move).value - a.best.value))
        errors.append(a.best.error)
        runner = a.moves[1]
        gaps.append(runner.gap_error)
        if a.best.value - runner.value < 2 * runner.gap_error:
            close += 1
        truth = hindsight(r, level, seed=1)
        if truth[0].move == a.best.move:
            agree += 1
        lost.append(truth[0].value - find(truth, a.best.move).value)
    n = len(positions)
    print(f"{n} decisions, level {args.level} ({level.playouts} play-outs a judgement)")
    print(f"think time: mean {statistics.mean(times):.3f} s, slowest {max(times):.3f} s")
    print(f"same best move with two seeds: {same / n:.0%}", end="")
    if apart:
        print(f" (when not, the two bests {statistics.mean(apart):.3f} stones apart on average)")
    else:
        print()
    print(f"standard error of a value: mean {statistics.mean(errors):.3f} stones")
    print(f"standard error of the gap best - runner-up: mean {statistics.mean(gaps):.3f}")
    print(f"runner-up within twice that (the coach says 'close'): {close / n:.0%}")
    print(f"the coach's best is hindsight's best: {agree / n:.0%}")
    print(f"what the coach's best loses in hindsight: mean {statistics.mean(lost):.3f} stones")


if __name__ == "__main__":
    main()
