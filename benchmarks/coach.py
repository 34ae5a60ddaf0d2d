"""How far to trust the coach: its think time, how steady its judgement and its marks
are from one seed to another, how often its best move is hindsight's best, and how often
it marks a mistake that an exact solution does not confirm.

For ``--positions`` random decisions (positions of games of five ``basic`` where the
seat in turn has a choice, one in three taken), the coach judges the seat's view at
``--level`` as a hint or a review would (seed 0), and again with another seed (seed 1);
the hindsight values the moves knowing every hand. Every legal move but the best is
taken as if it had been played, and marked as the review marks it: a mistake or a
blunder only when its loss passes the threshold and is clear of twice its paired
standard error, else ``close`` (:func:`domeng.bots.review.mark_of`), and only when a
second judgement with other guesses marks it too (:func:`domeng.bots.review.confirmed_mark`;
its seed is not seed 1). Prints:

- the think time per judgement (mean and the slowest);
- how often the two seeds name the same best move;
- the standard error of a value and of the gap between the best and the runner-up;
- **marks that hold**: of the moves marked a mistake or a blunder with seed 0, the share
  whose loss judged again with seed 1 still passes the mistake threshold (and the share
  that seed 1 gives the very same mark); and the same for the former rules, clear of 2
  errors on one judgement and the loss alone, for comparison;
- how often the coach's best is also hindsight's best, and what it loses in hindsight;
- **false alarms**: ``--exact`` positions late in a round (at most ``--exact-tiles``
  tiles in all hands) are solved exactly: every placement of the hidden tiles that
  agrees with the view (:func:`domeng.bots.sampling.placements`), weighed as the coach
  weighs its guesses (the others' plays), each solved by a search of every line of play
  to the round's end, every seat choosing its best knowing every hand
  (:mod:`domeng.bots.exact`). A false alarm is a move the coach marks a mistake or a
  blunder whose exact loss is under the mistake threshold.

    .venv/bin/python benchmarks/coach.py --positions 100 --exact 40
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from domeng.bots import make_player
from domeng.bots.coach import Judgement, find, hindsight, judge_position
from domeng.bots.exact import TooBig, solve_moves
from domeng.bots.expert import LEVELS
from domeng.bots.inference import PlayModel
from domeng.bots.levels import Level
from domeng.bots.review import (
    CONFIRM_SEED,
    DIGITS,
    MISTAKE,
    confirmed_mark,
    mark_of,
    needs_confirming,
    second_opinion,
)
from domeng.bots.sampling import DealSampler, placements
from domeng.engine import Game, Round, SeatView, determinize, view

MARKS = ("mistake", "blunder")


def decisions(count: int, seed: int, most_tiles: int = 25) -> list[Round]:
    """Copies of rounds, from games of ``basic`` players, where the seat in turn has a
    choice and all hands together hold at most ``most_tiles`` tiles (one in three such
    positions taken)."""
    rng = random.Random(seed)
    players = [make_player("basic", seed + s) for s in range(5)]
    found: list[Round] = []
    game = Game()
    while len(found) < count:
        r = game.deal(rng)
        while not r.finished and len(found) < count:
            seat = r.turn
            assert seat is not None
            in_hands = sum(h.bit_count() for h in r.hands)
            if len(r.legal_moves()) > 1 and in_hands <= most_tiles and rng.random() < 1 / 3:
                found.append(r.clone())
            r.play(players[seat].choose(game.view(seat)))
        if len(found) < count and not r.finished:
            break
    return found


RULES = ("confirmed", "clear", "loss")
"""The marks' rules compared: the shipped one (clear of 2 errors, and confirmed by a
second judgement with other guesses), clear of 2 errors on one judgement (the former
rule), and the loss alone (the one before)."""
LABELS = {
    "confirmed": "marks (clear of 2 errors, confirmed by a second judgement)",
    "clear": "marks (clear of 2 errors, one judgement)",
    "loss": "marks by the loss alone",
}


def marks(
    j: Judgement,
    rule: str = "confirmed",
    v: SeatView | None = None,
    level: Level | None = None,
    seed: int = 0,
) -> dict[object, str | None]:
    """Each move but the best, as if played: its mark under ``rule`` (the shipped rule
    judges ``v`` again at ``level`` for a move it marks, as the review of a judgement
    with ``seed`` does)."""
    out: dict[object, str | None] = {}
    again: Judgement | None = None
    for mv in j.moves[1:]:
        loss = round(j.best.value - mv.value, DIGITS)
        error = round(mv.gap_error, DIGITS)
        if rule == "loss":
            out[mv.move] = mark_of(loss)
        elif rule == "clear" or not needs_confirming(loss, error):
            out[mv.move] = mark_of(loss, error)
        else:
            assert v is not None and level is not None
            if again is None:
                again = judge_position(v, level, seed=seed + CONFIRM_SEED)
            out[mv.move] = confirmed_mark((loss, error), second_opinion(again, mv.move))
    return out


def exact_values(v: SeatView, limit: int) -> dict[object, float] | None:
    """Every legal move's exact value over every placement the view allows, weighed by
    the others' plays; None when there are more than ``limit`` placements or a world is
    too big to solve."""
    sampler = DealSampler(v)
    every = placements(sampler, limit)
    if every is None:
        return None
    model = PlayModel(v)
    moves = v.legal_moves
    totals = [0.0] * len(moves)
    mass = 0.0
    for hands, unused in every:
        w = model.weight(hands)
        try:
            solved = solve_moves(determinize(v, hands, unused), moves, budget=50_000)
        except TooBig:
            return None
        for i, (value, _, _) in enumerate(solved):
            totals[i] += w * value
        mass += w
    return {m: t / mass for m, t in zip(moves, totals, strict=True)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--positions", type=int, default=100)
    ap.add_argument("--exact", type=int, default=40, help="positions solved exactly")
    ap.add_argument("--exact-tiles", type=int, default=8, help="most tiles in all hands")
    ap.add_argument("--exact-limit", type=int, default=5000, help="most placements")
    ap.add_argument("--level", default="expert", choices=list(LEVELS))
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    level = LEVELS[args.level]
    times: list[float] = []
    same = 0
    errors: list[float] = []
    gaps: list[float] = []
    close = 0
    agree = 0
    lost: list[float] = []
    held = {rule: [0, 0, 0] for rule in RULES}  # -> [marked, held, same]
    closes = 0
    moves_seen = 0
    positions = decisions(args.positions, args.seed)
    for r in positions:
        seat = r.turn
        assert seat is not None
        v = view(r, seat)
        start = time.perf_counter()
        a = judge_position(v, level)
        times.append(time.perf_counter() - start)
        b = judge_position(v, level, seed=1)
        if a.best.move == b.best.move:
            same += 1
        errors.append(a.best.error)
        runner = a.moves[1]
        gaps.append(runner.gap_error)
        if a.best.value - runner.value < 2 * runner.gap_error:
            close += 1
        for rule in RULES:
            first, again = marks(a, rule, v, level), marks(b, rule, v, level, seed=1)
            for m, mark in first.items():
                if mark in MARKS:
                    held[rule][0] += 1
                    held[rule][1] += b.best.value - find(b.moves, m).value >= MISTAKE
                    held[rule][2] += again.get(m) == mark
        mine = marks(a, "confirmed", v, level)
        moves_seen += len(mine)
        closes += sum(x == "close" for x in mine.values())
        truth = hindsight(r, level)
        if truth[0].move == a.best.move:
            agree += 1
        lost.append(truth[0].value - find(truth, a.best.move).value)
    n = len(positions)
    print(f"{n} decisions, level {args.level} ({level.playouts} play-outs a judgement)")
    print(f"think time: mean {statistics.mean(times):.3f} s, slowest {max(times):.3f} s")
    print(f"same best move with two seeds: {same / n:.0%}")
    print(f"standard error of a value: mean {statistics.mean(errors):.3f} stones")
    print(f"standard error of the gap best - runner-up: mean {statistics.mean(gaps):.3f}")
    print(f"runner-up within twice that (the coach says 'close'): {close / n:.0%}")
    print(f"{moves_seen} other moves taken as played: {closes} marked 'close'")
    for rule in RULES:
        label = LABELS[rule]
        marked, kept, same_mark = held[rule]
        share = f"{kept / marked:.1%}" if marked else "-"
        again = f"{same_mark / marked:.1%}" if marked else "-"
        print(
            f"{label}: {marked} with seed 0; judged again with seed 1, the loss still past "
            f"the threshold for {kept}: {share} (the same mark: {again})"
        )
    print(f"the coach's best is hindsight's best: {agree / n:.0%}")
    print(f"what the coach's best loses in hindsight: mean {statistics.mean(lost):.3f} stones")

    solved = 0
    alarms = {rule: [0, 0] for rule in RULES}  # -> [marked, false alarms]
    best_right = 0
    for r in decisions(args.exact * 4, args.seed + 1, args.exact_tiles):
        if solved >= args.exact:
            break
        seat = r.turn
        assert seat is not None
        v = view(r, seat)
        exact = exact_values(v, args.exact_limit)
        if exact is None:
            continue
        solved += 1
        j = judge_position(v, level)
        top = max(exact.values())
        best_right += exact[j.best.move] == top
        for rule in RULES:
            for m, mark in marks(j, rule, v, level).items():
                if mark in MARKS:
                    alarms[rule][0] += 1
                    alarms[rule][1] += top - exact[m] < MISTAKE
    print(
        f"{solved} positions solved exactly (at most {args.exact_tiles} tiles in hands, "
        f"{args.exact_limit} placements): the coach's best is the exact best in "
        f"{best_right / max(1, solved):.0%}"
    )
    for rule in RULES:
        label = LABELS[rule]
        marked, wrong = alarms[rule]
        share = f"{wrong / marked:.1%}" if marked else "-"
        print(f"{label}: {marked}, false alarms {wrong}: {share}")


if __name__ == "__main__":
    main()
