"""Where a player's moves lose, judged by the truth: each decision valued on the real deal.

Run ``python benchmarks/regret.py`` (``--help`` for options).

Why: ``domeng sim`` tells how many stones a player receives, not which of its
decisions cost them. Here seat 0 plays ``--player`` against four ``basic`` in
seeded games; at each of seat 0's decisions (two or more legal moves) every
legal move is valued on the *true* deal, every hand in sight, by
``--playouts`` play-outs each (the play-out policy and the value of
:mod:`domeng.bots.rollout`, the same random stream for every move), as the
``oracle`` would value them. Then:

- **gain over basic**: the value of the player's move minus the value of the
  move ``basic`` would have made from the same view (the same play-outs, so
  the comparison is sharp); positive is better. Its 95% interval is over
  decisions.
- **regret**: the best move's value minus the chosen move's, for the player
  and for ``basic``. The best of several noisy estimates is biased upwards,
  so regrets are a little too large, the same for both; compare them, do not
  read them as stones.
- **same move**: how often the player chose ``basic``'s move.

Decisions are grouped by how many tiles seat 0 held (5: its first play of
the round) and whether it opened the round.

``--lean K`` (an expert level only) asks whether the player would gain by playing
``basic``'s move wherever its own judgement cannot tell that move from its best: the
best's value minus basic's within ``K`` paired standard errors (the coach's
``gap_error``), and seat 0 holding at least ``--lean-hand`` tiles or opening the
round. **lean gain** is the true value of that leaning player's move minus the
player's own, per decision (0 where it would not lean); the leaning player is not
played, so both are judged on the same decisions. The player's moves are played,
so the games are its own; the seeds make a run repeatable (for the expert
levels, as long as their time cap is not reached).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))  # decisions.py, beside this script
from decisions import seat_decisions
from domeng.bots import make_player, player_names
from domeng.bots.coach import judge_position
from domeng.bots.levels import LEVELS
from domeng.bots.rollout import move_values
from domeng.engine import SEATS, Game
from domeng.sim.stats import interval_json

SEAT = 0
"""The seat of the player measured; the other four are ``basic``."""


@dataclass(frozen=True, slots=True)
class Decision:
    """One decision of seat 0, valued on the true deal."""

    hand: int
    """Tiles seat 0 held before playing."""
    opening: bool
    """Seat 0 opened the round (an empty line)."""
    chosen: float
    """The true value of the player's move."""
    basic: float
    """The true value of ``basic``'s move from the same view."""
    best: float
    """The true value of the best legal move."""
    same: bool
    """The player chose ``basic``'s move."""
    lean: bool = False
    """With ``--lean``: the player would have played ``basic``'s move instead."""

    @property
    def lean_gain(self) -> float:
        """The leaning player's move's true value minus the player's own."""
        return self.basic - self.chosen if self.lean else 0.0


@dataclass(frozen=True, slots=True)
class Lean:
    """``--lean``: play basic's move within ``margin`` paired standard errors of the
    best, with at least ``hand`` tiles in hand or when opening."""

    margin: float
    hand: int = 2


def play_game(job: tuple[str, int, int, int, int, Lean | None]) -> list[Decision]:
    """One seeded game of ``rounds`` rounds; seat 0's decisions, valued."""
    player_name, seed, game_index, rounds, playouts, lean = job
    deals = random.Random(f"regret|{seed}|{game_index}|deals")
    judge = random.Random(f"regret|{seed}|{game_index}|judge")
    player = make_player(player_name, seat_seed(seed, game_index, SEAT))
    shadow = make_player("basic", seat_seed(seed, game_index, SEAT))
    others = [make_player("basic", seat_seed(seed, game_index, s)) for s in range(SEATS)]
    out: list[Decision] = []
    for r, v in seat_decisions(Game(), deals, rounds, others, SEAT):
        seat = v.seat
        hint = shadow.choose(v)
        leans = False
        if lean is None:
            chosen = player.choose(v)
        else:  # the expert's own judgement (its move), and how far basic's is from it
            judged = judge_position(v, LEVELS[player_name])
            chosen = judged.best.move
            hinted = judged.of(hint)
            leans = (
                hint != chosen
                and judged.best.value - hinted.value <= lean.margin * hinted.gap_error
                and (r.hands[seat].bit_count() >= lean.hand or r.ends is None)
            )
        values = move_values(r, seat, playouts, judge)
        out.append(
            Decision(
                hand=r.hands[seat].bit_count(),
                opening=r.ends is None,
                chosen=values[chosen],
                basic=values[hint],
                best=max(values.values()),
                same=chosen == hint,
                lean=leans,
            )
        )
        r.play(chosen)
    return out


def seat_seed(seed: int, game_index: int, seat: int) -> int:
    """A player's seed from the run's seed, the game and the seat."""
    return random.Random(f"regret|{seed}|{game_index}|{seat}").randrange(2**63)


@dataclass(frozen=True, slots=True)
class Group:
    """The figures of a group of decisions."""

    name: str
    decisions: int
    gain: float
    gain_ci95: tuple[float, float] | None
    regret: float
    basic_regret: float
    same_move: float
    lean_gain: float = 0.0
    lean_gain_ci95: tuple[float, float] | None = None
    leaned: int = 0
    """Decisions where the leaning player would have played basic's move."""

    def to_json(self) -> dict[str, object]:
        return {
            "group": self.name,
            "decisions": self.decisions,
            "gain_over_basic": self.gain,
            "gain_over_basic_ci95": interval_json(self.gain_ci95),
            "regret": self.regret,
            "basic_regret": self.basic_regret,
            "same_move": self.same_move,
            "lean_gain": self.lean_gain,
            "lean_gain_ci95": interval_json(self.lean_gain_ci95),
            "leaned": self.leaned,
        }


def group(name: str, ds: Sequence[Decision]) -> Group:
    """Summarize ``ds`` (at least one decision)."""
    n = len(ds)
    mean, ci = mean_ci([d.chosen - d.basic for d in ds])
    lean, lean_ci = mean_ci([d.lean_gain for d in ds])
    return Group(
        name=name,
        decisions=n,
        gain=mean,
        gain_ci95=ci,
        regret=sum(d.best - d.chosen for d in ds) / n,
        basic_regret=sum(d.best - d.basic for d in ds) / n,
        same_move=sum(d.same for d in ds) / n,
        lean_gain=lean,
        lean_gain_ci95=lean_ci,
        leaned=sum(d.lean for d in ds),
    )


def mean_ci(xs: Sequence[float]) -> tuple[float, tuple[float, float] | None]:
    """The mean of ``xs`` (at least one) and its 95% interval (None for one value)."""
    n = len(xs)
    mean = sum(xs) / n
    if n < 2:
        return mean, None
    half = 1.96 * math.sqrt(sum((x - mean) ** 2 for x in xs) / (n - 1) / n)
    return mean, (mean - half, mean + half)


def summarize(ds: Sequence[Decision]) -> list[Group]:
    """All decisions, then by tiles in hand (5 down to 2), then the openings."""
    groups = [group("all", ds)] if ds else []
    for hand in range(5, 1, -1):
        part = [d for d in ds if d.hand == hand and not d.opening]
        if part:
            groups.append(group(f"{hand} tiles in hand", part))
    opening = [d for d in ds if d.opening]
    if opening:
        groups.append(group("opening the round", opening))
    return groups


def run(
    player: str,
    seed: int,
    games: int,
    rounds: int,
    playouts: int,
    workers: int,
    lean: Lean | None = None,
) -> list[Decision]:
    """Every decision of the run, games in order (the same whatever ``workers`` is)."""
    jobs = [(player, seed, g, rounds, playouts, lean) for g in range(games)]
    if workers <= 1:
        parts = [play_game(job) for job in jobs]
    else:
        with ProcessPoolExecutor(max_workers=workers) as pool:
            parts = list(pool.map(play_game, jobs))
    return [d for part in parts for d in part]


def format_groups(player: str, groups: Sequence[Group]) -> str:
    lines = [
        f"{'decisions of ' + player:<28} {'n':>5}  {'gain over basic [95%]':>26}  "
        f"{'regret':>7}  {'basic':>7}  {'same move':>9}"
    ]
    for g in groups:
        ci = "" if g.gain_ci95 is None else f"[{g.gain_ci95[0]:+.3f}, {g.gain_ci95[1]:+.3f}]"
        lines.append(
            f"{g.name:<28} {g.decisions:>5}  {g.gain:+.3f} {ci:>19}  "
            f"{g.regret:7.3f}  {g.basic_regret:7.3f}  {100 * g.same_move:8.1f}%"
        )
    return "\n".join(lines)


def format_lean(lean: Lean, groups: Sequence[Group]) -> str:
    lines = [
        f"leaning to basic's move within {lean.margin:g} paired errors, "
        f"with {lean.hand} tiles or more or opening:",
        f"{'':<28} {'n':>5}  {'leaned':>6}  {'lean gain [95%]':>26}",
    ]
    for g in groups:
        ci = (
            ""
            if g.lean_gain_ci95 is None
            else (f"[{g.lean_gain_ci95[0]:+.3f}, {g.lean_gain_ci95[1]:+.3f}]")
        )
        lines.append(f"{g.name:<28} {g.decisions:>5}  {g.leaned:>6}  {g.lean_gain:+.3f} {ci:>19}")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--player", default="expert:fast", help="the player in seat 0")
    parser.add_argument("--games", type=int, default=120, help="games (default 120)")
    parser.add_argument("--rounds", type=int, default=10, help="rounds a game (default 10)")
    parser.add_argument(
        "--playouts", type=int, default=300, help="play-outs per legal move (default 300)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2, help="processes (default 2)")
    parser.add_argument(
        "--lean",
        type=float,
        metavar="K",
        help="also judge a player that plays basic's move within K paired errors of its "
        "best (an expert level)",
    )
    parser.add_argument(
        "--lean-hand",
        type=int,
        default=2,
        metavar="N",
        help="--lean only with at least N tiles in hand, or opening (default 2: always)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON document")
    args = parser.parse_args(argv)
    if args.player not in player_names(for_people=False) or args.player == "oracle":
        parser.error(f"--player: a player that receives a view, not {args.player!r}")
    for name in ("games", "rounds", "playouts"):
        if getattr(args, name) < 1:
            parser.error(f"--{name} must be at least 1")
    lean = None
    if args.lean is not None:
        if args.player not in LEVELS:
            parser.error(f"--lean: the player must be an expert level, not {args.player!r}")
        if args.lean < 0:
            parser.error("--lean must be 0 or more")
        lean = Lean(args.lean, args.lean_hand)
    ds = run(args.player, args.seed, args.games, args.rounds, args.playouts, args.workers, lean)
    groups = summarize(ds)
    if args.json:
        print(
            json.dumps(
                {
                    "player": args.player,
                    "games": args.games,
                    "rounds": args.rounds,
                    "playouts": args.playouts,
                    "seed": args.seed,
                    "lean": None if lean is None else {"margin": lean.margin, "hand": lean.hand},
                    "groups": [g.to_json() for g in groups],
                },
                indent=2,
            )
        )
    else:
        print(
            f"seat 0 = {args.player} against four basic, {args.games} games x {args.rounds} "
            f"rounds, seed {args.seed}; every legal move valued on the true deal by "
            f"{args.playouts} play-outs, by the expert's value of a round"
        )
        print(format_groups(args.player, groups))
        if lean is not None:
            print(format_lean(lean, groups))
    return 0


if __name__ == "__main__":
    sys.exit(main())
