"""The ladder judged decision by decision: each level's move from one view, valued on the truth.

Run ``python benchmarks/ladder.py`` (``--help`` for options).

Why: a paired trial of whole rounds (``benchmarks/trials.py``) cancels the luck of the
deal, but not the luck of what follows a move. Two levels that choose the same move
most of the time then differ by a few hundredths of a stone a round, under a noise of
about one stone a round: telling them apart takes tens of thousands of rounds. Here
the comparison is made where the levels differ, on the same decisions:

1. seat 0 plays ``--player`` against four ``basic`` in seeded games (``--games`` of
   ``--rounds`` rounds);
2. at each of seat 0's decisions with two or more legal moves, every level of
   ``--levels`` (a registered player or a ``trials.py`` SPEC, weakest first) is asked
   for its move from the same view; the expert levels without their time cap, so that
   a loaded machine cannot change a move;
3. every legal move is valued by each judge of ``--judges``:

   - ``truth``: on the *true* deal, every hand in sight, by ``--playouts`` play-outs
     each with the same random stream (the play-outs' policy and the expert's value of
     a round, :func:`domeng.bots.rollout.move_values`), as ``regret.py`` does. Unbiased,
     but noisy: the deal's hidden tiles decide much of what a move is worth, and no
     player that does not peek can know them;
   - ``coach:N``: by the coach's judgement at N play-outs from the seat's own view
     (:func:`domeng.bots.coach.judge_position`), with another random stream than the
     levels' own (seed ``JUDGE_SEED``), so that no level shares the judge's luck. It
     values a move by what the seat may know, which takes the deal's luck out; but it
     is the levels' own search, made deeper, and so says which level's moves a deeper
     search prefers, not which level receives fewer stones;
4. a level's **gain** at a decision is the value of its move minus the value of
   ``basic``'s; a **step** is a level's gain minus the gain of the level before it in
   ``--levels``. Both are paired: the same decisions, the same play-outs.

The unit of every interval is the game: a game's decisions are not independent (the
same deal, stones and CAMAT carried over). "A round" divides a game's sum by its
rounds, so the figures read like ``trials.py``'s stones a round with the sign turned
(positive is better here: a higher value is fewer stones received).

What this does not measure: where a level's moves would have led. The positions are
those ``--player`` reaches, and what follows a move is modelled by the play-outs (every
seat then playing by the play-outs' policy, which is ``basic``'s rules of thumb), not
played by the level itself. It judges each level's decisions, paired; ``trials.py``
judges its games.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # trials.py, decisions.py beside it
from decisions import seat_decisions
from domeng.bots import Player, make_player
from domeng.bots.coach import judge_position
from domeng.bots.levels import LADDER, Level
from domeng.bots.rollout import move_values
from domeng.engine import SEATS, Game, Move, Round, SeatView
from domeng.sim.stats import cluster_mean_ci, interval_json
from trials import SpecError, parse_spec

SEAT = 0
"""The seat whose decisions are judged; the other four are ``basic``."""

Interval = tuple[float, float] | None

JUDGE_SEED = 7919
"""The coach judge's seed: the levels judge with seed 0 (:func:`domeng.bots.coach.best_move`),
so the judge draws other guesses and other play-outs than any level."""

JUDGE_CAP = 3600.0
"""The coach judge's time cap, in seconds: never reached, so a loaded machine cannot cut
a judgement short."""


def judge_playouts(judge: str) -> int | None:
    """The play-outs of a ``coach:N`` judge, None for ``truth``; ValueError otherwise."""
    if judge == "truth":
        return None
    name, _, n = judge.partition(":")
    if name != "coach" or not n.isdigit() or int(n) < 1:
        raise ValueError(f"a judge is truth or coach:N with N at least 1, not {judge!r}")
    return int(n)


@dataclass(frozen=True, slots=True)
class GameSums:
    """One game's sums, level by level (in ``--levels`` order)."""

    rounds: int
    decisions: int
    gains: tuple[tuple[float, ...], ...]
    """For each judge, the sum over the game's decisions of each level's move's value
    minus basic's."""
    same_as_below: tuple[int, ...]
    """Decisions where each level chose the move of the level before it (the first: 0)."""


def seat_seed(seed: int, game_index: int, seat: int) -> int:
    """A player's seed from the run's seed, the game and the seat."""
    return random.Random(f"ladder|{seed}|{game_index}|{seat}").randrange(2**63)


def _make(spec: str, seed: int) -> Player:
    return parse_spec(spec).make(seed)


def _values(
    judge: str, r: Round, v: SeatView, playouts: int, rng: random.Random
) -> dict[Move, float]:
    """Every legal move of the seat in turn, valued by ``judge``."""
    n = judge_playouts(judge)
    if n is None:
        return move_values(r, v.seat, playouts, rng)
    judged = judge_position(v, Level(judge, n, JUDGE_CAP), JUDGE_SEED, cap=JUDGE_CAP)
    return {m.move: m.value for m in judged.moves}


def play_game(job: tuple[tuple[str, ...], int, tuple[str, ...], int, int, int, int]) -> GameSums:
    """One seeded game; each level's gains over basic at seat 0's decisions, summed."""
    levels, played, judges, seed, game_index, rounds, playouts = job
    deals = random.Random(f"ladder|{seed}|{game_index}|deals")
    judge = random.Random(f"ladder|{seed}|{game_index}|judge")
    asked = [_make(spec, seat_seed(seed, game_index, SEAT)) for spec in levels]
    basic = make_player("basic", seat_seed(seed, game_index, SEAT))
    others = [make_player("basic", seat_seed(seed, game_index, s)) for s in range(SEATS)]
    gains = [[0.0] * len(levels) for _ in judges]
    same = [0] * len(levels)
    decisions = 0
    for r, v in seat_decisions(Game(), deals, rounds, others, SEAT):
        moves = [p.choose(v) for p in asked]
        hint = basic.choose(v)
        decisions += 1
        for j, name in enumerate(judges):
            values = _values(name, r, v, playouts, judge)
            for i, m in enumerate(moves):
                gains[j][i] += values[m] - values[hint]
        for i, m in enumerate(moves):
            if i and m == moves[i - 1]:
                same[i] += 1
        r.play(moves[played])
    return GameSums(rounds, decisions, tuple(tuple(g) for g in gains), tuple(same))


@dataclass(frozen=True, slots=True)
class Rung:
    """The figures of one level over the run."""

    spec: str
    gain_decision: float
    gain_decision_ci95: Interval
    gain_round: float
    gain_round_ci95: Interval
    step_round: float | None
    """Gain a round minus the level before's, paired (None for the first level)."""
    step_round_ci95: Interval
    same_as_below: float | None
    """Share of decisions where it chose the move of the level before it."""

    def to_json(self) -> dict[str, object]:
        return {
            "level": self.spec,
            "gain_over_basic_a_decision": self.gain_decision,
            "gain_over_basic_a_decision_ci95": interval_json(self.gain_decision_ci95),
            "gain_over_basic_a_round": self.gain_round,
            "gain_over_basic_a_round_ci95": interval_json(self.gain_round_ci95),
            "step_a_round": self.step_round,
            "step_a_round_ci95": interval_json(self.step_round_ci95),
            "same_move_as_below": self.same_as_below,
        }


def summarize(levels: Sequence[str], games: Sequence[GameSums], judge: int = 0) -> list[Rung]:
    """Each level's gain over basic and its step from the level before, by game, as the
    ``judge``-th judge values the moves."""
    rounds = [g.rounds for g in games]
    decisions = [g.decisions for g in games]
    total_decisions = sum(decisions)
    if total_decisions == 0:
        raise ValueError("no decision to judge")
    rungs: list[Rung] = []
    for i, spec in enumerate(levels):
        totals = [g.gains[judge][i] for g in games]
        per_decision, per_decision_ci = cluster_mean_ci(totals, decisions)
        per_round, per_round_ci = cluster_mean_ci(totals, rounds)
        step: float | None = None
        step_ci: Interval = None
        same: float | None = None
        if i:
            steps = [g.gains[judge][i] - g.gains[judge][i - 1] for g in games]
            step, step_ci = cluster_mean_ci(steps, rounds)
            same = sum(g.same_as_below[i] for g in games) / total_decisions
        rungs.append(
            Rung(spec, per_decision, per_decision_ci, per_round, per_round_ci, step, step_ci, same)
        )
    return rungs


def run(
    levels: Sequence[str],
    player: str,
    seed: int,
    games: int,
    rounds: int,
    playouts: int,
    workers: int,
    judges: Sequence[str] = ("truth",),
) -> list[GameSums]:
    """Every game of the run, in order (the same whatever ``workers`` is)."""
    played = list(levels).index(player)
    jobs = [(tuple(levels), played, tuple(judges), seed, g, rounds, playouts) for g in range(games)]
    if workers <= 1:
        return [play_game(job) for job in jobs]
    with ProcessPoolExecutor(max_workers=workers) as pool:
        return list(pool.map(play_game, jobs))


def _pm(x: float | None, ci: Interval) -> str:
    if x is None:
        return ""
    if ci is None:
        return f"{x:+.3f}"
    return f"{x:+.3f} ± {(ci[1] - ci[0]) / 2:.3f}"


def format_rungs(rungs: Sequence[Rung]) -> str:
    lines = [
        f"{'level':<24} {'a decision [95%]':>17} {'a round [95%]':>17} "
        f"{'step a round [95%]':>19} {'same as below':>14}"
    ]
    for r in rungs:
        same = "" if r.same_as_below is None else f"{100 * r.same_as_below:.1f}%"
        lines.append(
            f"{r.spec:<24} {_pm(r.gain_decision, r.gain_decision_ci95):>17} "
            f"{_pm(r.gain_round, r.gain_round_ci95):>17} "
            f"{_pm(r.step_round, r.step_round_ci95):>19} {same:>14}"
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument(
        "--levels",
        default=",".join(LADDER),
        help="the levels, weakest first, comma-separated: players or trials.py SPECs "
        f"(default: the ladder, {','.join(LADDER)})",
    )
    parser.add_argument(
        "--player", default="expert", help="the level that plays seat 0 (default expert)"
    )
    parser.add_argument("--games", type=int, default=60, help="games (default 60)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds a game (default 10)")
    parser.add_argument(
        "--playouts",
        type=int,
        default=300,
        help="the truth's play-outs per legal move (default 300)",
    )
    parser.add_argument(
        "--judges",
        default="truth",
        help="who values the moves, comma-separated: truth (the true deal), coach:N (the "
        "coach at N play-outs from the seat's view) (default truth)",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    levels = [s.strip() for s in args.levels.split(",") if s.strip()]
    if len(levels) < 2:
        parser.error("--levels: at least two levels")
    if len(set(levels)) != len(levels):
        parser.error("--levels: a level is named twice")
    for spec in levels:
        try:
            parsed = parse_spec(spec)
        except SpecError as e:
            parser.error(f"--levels: {e}")
        if parsed.base == "oracle":
            parser.error("--levels: oracle sees every hand; the ladder is of players that do not")
    judges = [s.strip() for s in args.judges.split(",") if s.strip()]
    if not judges or len(set(judges)) != len(judges):
        parser.error("--judges: one judge or more, each named once")
    for judge in judges:
        try:
            judge_playouts(judge)
        except ValueError as e:
            parser.error(f"--judges: {e}")
    if args.player not in levels:
        parser.error(f"--player must be one of --levels, not {args.player!r}")
    for name in ("games", "rounds", "playouts", "workers"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    games = run(
        levels,
        args.player,
        args.seed,
        args.games,
        args.rounds,
        args.playouts,
        args.workers,
        judges,
    )
    decisions = sum(g.decisions for g in games)
    tables = {judge: summarize(levels, games, j) for j, judge in enumerate(judges)}
    if args.json:
        doc = {
            "player": args.player,
            "games": args.games,
            "rounds": args.rounds,
            "playouts": args.playouts,
            "seed": args.seed,
            "decisions": decisions,
            "judges": {judge: [r.to_json() for r in rungs] for judge, rungs in tables.items()},
        }
        print(json.dumps(doc, indent=2))
    else:
        print(
            f"seat 0 = {args.player} against four basic, {args.games} games x {args.rounds} "
            f"rounds, seed {args.seed}: {decisions} decisions; gain of each level's move over "
            "basic's (positive is better) and step from the level above, paired, by game"
        )
        for judge, rungs in tables.items():
            n = judge_playouts(judge)
            print()
            print(
                f"judged by the true deal, {args.playouts} play-outs a legal move:"
                if n is None
                else f"judged by the coach at {n} play-outs from the seat's view:"
            )
            print(format_rungs(rungs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
