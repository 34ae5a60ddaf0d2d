"""Paired trials for tuning ``expert``: variants of a player, each against four ``basic``.

Every SPEC on the command line plays the tournament that

    domeng sim --players SPEC,basic,basic,basic,basic --rounds N --rounds-per-game K --seed S

would play: the same plan (:func:`domeng.sim.plan.plan`), so every SPEC is
dealt the same tiles in the same seats, and its four ``basic`` opponents get
the same seeds (a player's seed depends on the seed, the game, the rotation
and the entry, never on the names). Entry 0 gets the same seed in every SPEC
too. Only entry 0's thinking differs.

Why pairing works: as long as entry 0 makes the same choices in two SPECs,
the two games are move for move identical; they part only where the variants
choose differently, and even then the hands and the opponents' random streams
stay the same. So the per-game difference between two SPECs (entry 0's stones
per round in this SPEC minus in the first) cancels most of the luck of the
deal, and its interval is far narrower than the difference of two independent
runs' intervals. The unit of every interval is the game (its five seat
rotations together): rounds within a game are not independent (stones and the
CAMAT carry over), games are (see :mod:`domeng.sim.stats`).

A SPEC is a registered player name (``basic``, ``expert:fast``, ``expert``,
``expert:strong``, ...) or an expert level followed by ``+key=value``
overrides and the bare flag ``+fair``:

- ``playouts=INT``: play-outs per decision (the budget that counts);
- ``exact=INT``: with at most this many tiles in all hands, each guessed world
  is solved exactly instead of played out (0: never);
- ``seconds=FLOAT``: the safety cap on the time per decision. For every expert
  SPEC (even a bare level name) it defaults to 60 s rather than the level's,
  so that a loaded machine cannot cut a search short and make two runs, or two
  SPECs, differ for reasons of timing;
- any field of :class:`domeng.bots.rollout.Objective` (``camat``,
  ``other_camat``, ``from_player``, ``given``) or of the play-outs'
  :class:`domeng.bots.basic.Weights` (``pips``, ``numbers``, ``lempa``,
  ``cover``, ``fit``, ``nofit``, ``fitcount``, ``allpass``, ``nextpass``,
  ``danger``, ``danger_two``, ``otherpass``, ``epsilon``; they start from
  :data:`domeng.bots.basic.PLAYOUT_WEIGHTS`, where ``cover``, ``danger_two``
  and ``otherpass`` are 0): a number;
- ``fair``: play-outs reason only from what each seat could know;
- ``halving``: the former search, successive halving (stage by stage the weaker
  half of the moves dropped) instead of the coach's judgement (every move in the
  same guesses);
- ``uniform``: guesses not weighed by the others' plays;
- ``model_beta``, ``model_floor``, ``model_pips``, ``model_lempa``,
  ``model_numbers``: a field of the reading of the others' plays
  (:class:`domeng.bots.inference.ModelParams`, the name after ``model_``): a number;
- ``own_`` and a field of the play-outs' weights (``own_pips``, ...): the weights of
  entry 0's own later moves in its play-outs, starting from the SPEC's weights (the
  other seats keep those): a number (``benchmarks/fit_playouts.py`` prints such a SPEC).

Examples (``--workers`` defaults to all cores)::

    python benchmarks/trials.py expert:fast expert:fast+camat=12+other_camat=3+given=0.5
    python benchmarks/trials.py expert:fast expert:fast+fair expert:fast+epsilon=0.2 --rounds 4000
    python benchmarks/trials.py expert:fast+playouts=500 expert:fast --json

Read the ``vs first`` column: a paired difference whose interval excludes 0 is
a real difference on these deals (fewer stones received is better). With many
SPECs, expect about one in twenty intervals to exclude 0 by chance.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import math
import os
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from itertools import pairwise

from domeng.bots import Player, make_player, player_names, register
from domeng.bots.coach import EXACT_TILES
from domeng.bots.expert import LEVELS, ExpertPlayer, Level
from domeng.bots.inference import DEFAULT_MODEL, ModelParams
from domeng.bots.levels import LADDER
from domeng.bots.rollout import DEFAULT_OBJECTIVE, DEFAULT_WEIGHTS, Objective, Weights
from domeng.engine import SEATS, Variants
from domeng.history.calibration import anchored, document, load
from domeng.sim.plan import Task, game_sizes, plan
from domeng.sim.runner import TaskResult, play_task
from domeng.sim.stats import cluster_mean_ci, interval_json

OPPONENT = "basic"
DEFAULT_SECONDS = 60.0
"""Time cap per decision of an expert SPEC: generous, so trials are deterministic."""
REGISTRY_PREFIX = "trials:"
"""SPECs are registered under this prefix, so they never replace a real player's name."""

_OBJECTIVE_KEYS = tuple(f.name for f in dataclasses.fields(Objective))
_WEIGHT_KEYS = tuple(f.name for f in dataclasses.fields(Weights))
_MODEL_PREFIX = "model_"
_MODEL_KEYS = tuple(_MODEL_PREFIX + f.name for f in dataclasses.fields(ModelParams))
_OWN_PREFIX = "own_"
_OWN_KEYS = tuple(_OWN_PREFIX + k for k in _WEIGHT_KEYS)
FLAGS = ("fair", "halving", "uniform")
"""The bare flags: ``fair`` play-outs; ``halving``, the former successive halving rather
than the coach's judgement; ``uniform``, guesses not weighed by the others' plays."""
KEYS = (
    "playouts",
    "seconds",
    "exact",
    *_OBJECTIVE_KEYS,
    *_WEIGHT_KEYS,
    *_OWN_KEYS,
    *_MODEL_KEYS,
    *FLAGS,
)
"""Everything a SPEC may override (:data:`FLAGS` are bare flags)."""


class SpecError(ValueError):
    """A SPEC that cannot be understood."""


@dataclass(frozen=True, slots=True)
class Spec:
    """A player description from the command line."""

    text: str
    """The SPEC as written, which names it in the output."""
    base: str
    """The registered name, or the expert level the overrides apply to."""
    level: Level | None = None
    """For an expert SPEC: its budget (None: a registered player, used as is)."""
    weights: Weights = DEFAULT_WEIGHTS
    objective: Objective = DEFAULT_OBJECTIVE
    flags: frozenset[str] = frozenset()
    exact: int = EXACT_TILES
    model: ModelParams = DEFAULT_MODEL
    own_weights: Weights | None = None
    """The weights of entry 0's own later moves in its play-outs (None: ``weights``)."""

    @property
    def fair(self) -> bool:
        return "fair" in self.flags

    @property
    def registry_name(self) -> str:
        return REGISTRY_PREFIX + self.text

    def make(self, seed: int | None) -> Player:
        """A new player for this SPEC, seeded."""
        if self.level is None:
            return make_player(self.base, seed)
        return ExpertPlayer(
            seed,
            self.level,
            weights=self.weights,
            objective=self.objective,
            fair=self.fair,
            halving="halving" in self.flags,
            model=None if "uniform" in self.flags else self.model,
            exact=self.exact,
            own_weights=self.own_weights,
        )


def _number(text: str, key: str, value: str) -> float:
    try:
        x = float(value)
    except ValueError:
        raise SpecError(f"{text!r}: {key}={value!r}: not a number") from None
    if not math.isfinite(x):
        raise SpecError(f"{text!r}: {key}={value!r}: not a finite number")
    return x


def parse_spec(text: str) -> Spec:
    """Read a SPEC (see the module's docstring); raise :class:`SpecError` if it is wrong."""
    base, *items = text.split("+")
    if not base:
        raise SpecError(f"{text!r}: no player name before the overrides")
    if base not in LEVELS:
        if items:
            levels = ", ".join(LEVELS)
            raise SpecError(f"{text!r}: overrides need an expert level ({levels}), not {base!r}")
        known = player_names(for_people=False)
        if base not in known:
            raise SpecError(f"unknown player {base!r} (known: {', '.join(sorted(known))})")
        return Spec(text, base)
    level = LEVELS[base]
    playouts = level.playouts
    seconds = DEFAULT_SECONDS
    objective: dict[str, float] = {}
    weights: dict[str, float] = {}
    model: dict[str, float] = {}
    own: dict[str, float] = {}
    flags: set[str] = set()
    exact = EXACT_TILES
    seen: set[str] = set()
    for item in items:
        key, eq, value = item.partition("=")
        if not key:
            raise SpecError(f"{text!r}: empty override {'+' + item!r}")
        if key not in KEYS:
            raise SpecError(f"{text!r}: unknown key {key!r} (known: {', '.join(KEYS)})")
        if key in seen:
            raise SpecError(f"{text!r}: {key} given twice")
        seen.add(key)
        if key in FLAGS:
            if eq:
                raise SpecError(f"{text!r}: {key} is a bare flag (+{key}), it takes no value")
            flags.add(key)
            continue
        if not eq or not value:
            raise SpecError(f"{text!r}: {key} needs a value ({key}=...)")
        if key == "exact":
            try:
                exact = int(value)
            except ValueError:
                raise SpecError(f"{text!r}: exact={value!r}: not a whole number") from None
            if exact < 0:
                raise SpecError(f"{text!r}: exact must be 0 or more, not {exact}")
        elif key == "playouts":
            try:
                playouts = int(value)
            except ValueError:
                raise SpecError(f"{text!r}: playouts={value!r}: not a whole number") from None
            if playouts < 1:
                raise SpecError(f"{text!r}: playouts must be at least 1, not {playouts}")
        elif key == "seconds":
            seconds = _number(text, key, value)
            if seconds <= 0:
                raise SpecError(f"{text!r}: seconds must be positive, not {value}")
        elif key in _OBJECTIVE_KEYS:
            objective[key] = _number(text, key, value)
        elif key in _MODEL_KEYS:
            model[key.removeprefix(_MODEL_PREFIX)] = _number(text, key, value)
        elif key in _OWN_KEYS:
            own[key.removeprefix(_OWN_PREFIX)] = _number(text, key, value)
        else:
            weights[key] = _number(text, key, value)
    if "epsilon" in weights and not 0.0 <= weights["epsilon"] <= 1.0:
        raise SpecError(f"{text!r}: epsilon is a chance, between 0 and 1")
    if "floor" in model and not 0.0 <= model["floor"] <= 1.0:
        raise SpecError(f"{text!r}: model_floor is a share, between 0 and 1")
    if "epsilon" in own and not 0.0 <= own["epsilon"] <= 1.0:
        raise SpecError(f"{text!r}: own_epsilon is a chance, between 0 and 1")
    if own and "fair" in flags:
        raise SpecError(f"{text!r}: own_ weights do not go with fair play-outs")
    base_weights = dataclasses.replace(DEFAULT_WEIGHTS, **weights)
    return Spec(
        text,
        base,
        Level(text, playouts, seconds),
        base_weights,
        dataclasses.replace(DEFAULT_OBJECTIVE, **objective),
        frozenset(flags),
        exact,
        dataclasses.replace(DEFAULT_MODEL, **model),
        dataclasses.replace(base_weights, **own) if own else None,
    )


def register_specs(texts: Sequence[str]) -> None:
    """Make every SPEC known to the player registry (in this process)."""
    for text in texts:
        spec = parse_spec(text)
        register(spec.registry_name, spec.make)


@dataclass(slots=True)
class GameTotals:
    """One SPEC's figures for one game, its five rotations together."""

    rounds: int = 0
    received: int = 0
    """Stones entry 0 received."""
    opponents_received: float = 0.0
    """The mean over the four opponents of the stones each received."""
    camat: int = 0
    opponents_camat: float = 0.0
    think_seconds: float = 0.0
    decisions: int = 0

    def add(self, result: TaskResult) -> None:
        me, *others = result.tallies
        self.rounds += me.rounds
        self.received += me.received
        self.opponents_received += sum(t.received for t in others) / len(others)
        self.camat += me.camat
        self.opponents_camat += sum(t.camat for t in others) / len(others)
        self.think_seconds += me.think_seconds
        self.decisions += me.decisions


Interval = tuple[float, float] | None


@dataclass(frozen=True, slots=True)
class Line:
    """One SPEC's result (``to_json`` gives the JSON keys)."""

    spec: str
    rounds: int
    stones_per_round: float
    stones_per_round_ci95: Interval
    opponents_stones_per_round: float
    vs_opponents: float
    """Entry 0's stones per round minus the four opponents' mean (same deals)."""
    vs_opponents_ci95: Interval
    camat_per_100_rounds: float
    opponents_camat_per_100_rounds: float
    ms_per_decision: float
    decisions: int
    vs_first: float | None = None
    """Paired per game: entry 0's stones per round here minus in the first SPEC."""
    vs_first_ci95: Interval = None
    vs_previous: float | None = None
    """Paired per game: entry 0's stones per round here minus in the SPEC before (a
    ladder's step)."""
    vs_previous_ci95: Interval = None

    def to_json(self) -> dict[str, object]:
        return {
            "spec": self.spec,
            "rounds": self.rounds,
            "stones_per_round": self.stones_per_round,
            "stones_per_round_ci95": interval_json(self.stones_per_round_ci95),
            "opponents_stones_per_round": self.opponents_stones_per_round,
            "vs_opponents": self.vs_opponents,
            "vs_opponents_ci95": interval_json(self.vs_opponents_ci95),
            "camat_per_100_rounds": self.camat_per_100_rounds,
            "opponents_camat_per_100_rounds": self.opponents_camat_per_100_rounds,
            "ms_per_decision": self.ms_per_decision,
            "decisions": self.decisions,
            "vs_first": self.vs_first,
            "vs_first_ci95": interval_json(self.vs_first_ci95),
            "vs_previous": self.vs_previous,
            "vs_previous_ci95": interval_json(self.vs_previous_ci95),
        }


@dataclass(frozen=True, slots=True)
class Report:
    specs: tuple[str, ...]
    rounds: int
    rounds_per_game: int
    seed: int
    games: int
    lines: list[Line] = field(default_factory=list)
    seconds: float = 0.0
    """Wall time of the run (not deterministic)."""

    def to_json(self) -> dict[str, object]:
        return {
            "opponents": [OPPONENT] * (SEATS - 1),
            "rounds": self.rounds,
            "rounds_per_game": self.rounds_per_game,
            "games": self.games,
            "seed": self.seed,
            "specs": [line.to_json() for line in self.lines],
            "seconds": self.seconds,
        }


def summarize(specs: Sequence[str], per_spec: Sequence[list[GameTotals]]) -> list[Line]:
    """One line per SPEC from its per-game totals (games in the same order for every SPEC)."""
    lines: list[Line] = []
    first = per_spec[0]
    for text, games in zip(specs, per_spec, strict=True):
        sizes = [g.rounds for g in games]
        n = sum(sizes)
        decisions = sum(g.decisions for g in games)
        mean, ci = cluster_mean_ci([float(g.received) for g in games], sizes)
        vs, vs_ci = cluster_mean_ci([g.received - g.opponents_received for g in games], sizes)
        paired: tuple[float | None, Interval] = (None, None)
        step: tuple[float | None, Interval] = (None, None)
        if lines:
            paired = cluster_mean_ci(
                [float(g.received - f.received) for g, f in zip(games, first, strict=True)],
                sizes,
            )
            before = per_spec[len(lines) - 1]
            step = cluster_mean_ci(
                [float(g.received - b.received) for g, b in zip(games, before, strict=True)],
                sizes,
            )
        lines.append(
            Line(
                spec=text,
                rounds=n,
                stones_per_round=mean,
                stones_per_round_ci95=ci,
                opponents_stones_per_round=sum(g.opponents_received for g in games) / n,
                vs_opponents=vs,
                vs_opponents_ci95=vs_ci,
                camat_per_100_rounds=100.0 * sum(g.camat for g in games) / n,
                opponents_camat_per_100_rounds=100.0 * sum(g.opponents_camat for g in games) / n,
                ms_per_decision=(
                    1000.0 * sum(g.think_seconds for g in games) / decisions if decisions else 0.0
                ),
                decisions=decisions,
                vs_first=paired[0],
                vs_first_ci95=paired[1],
                vs_previous=step[0],
                vs_previous_ci95=step[1],
            )
        )
    return lines


def _play(job: tuple[int, Task]) -> tuple[int, TaskResult]:
    spec_index, task = job
    return spec_index, play_task(task)


def _pool(workers: int, specs: tuple[str, ...]) -> Executor:
    # The SPECs are registered in every worker, whatever the start method.
    return ProcessPoolExecutor(max_workers=workers, initializer=register_specs, initargs=(specs,))


def run_trials(
    specs: tuple[str, ...],
    rounds: int,
    rounds_per_game: int,
    seed: int,
    workers: int,
    progress: Callable[[int, int], None] | None = None,
) -> Report:
    """Play every SPEC's tournament (``workers`` processes; 1: in this process).

    With one worker the SPECs are registered in this process's player registry
    (under :data:`REGISTRY_PREFIX`).
    """
    start = time.perf_counter()
    sizes = game_sizes(rounds, rounds_per_game)
    jobs: list[tuple[int, Task]] = []
    for i, text in enumerate(specs):
        name = parse_spec(text).registry_name
        names = (name, *[OPPONENT] * (SEATS - 1))
        jobs += [(i, t) for t in plan(names, rounds, rounds_per_game, seed, Variants())]
    per_spec = [[GameTotals() for _ in sizes] for _ in specs]
    done = 0
    if workers == 1:
        register_specs(specs)
        results = map(_play, jobs)
        for i, result in results:
            per_spec[i][result.game].add(result)
            done += 1
            if progress:
                progress(done, len(jobs))
    else:
        pool = _pool(min(workers, len(jobs)), specs)
        try:
            for i, result in pool.map(_play, jobs):
                per_spec[i][result.game].add(result)
                done += 1
                if progress:
                    progress(done, len(jobs))
        except BaseException:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    lines = summarize(specs, per_spec)
    seconds = time.perf_counter() - start
    return Report(specs, rounds, rounds_per_game, seed, len(sizes), lines, seconds)


def _pm(mean: float | None, ci: Interval) -> str:
    if mean is None:
        return ""
    half = "n/a" if ci is None else f"{(ci[1] - ci[0]) / 2:.3f}"
    return f"{mean:+.3f} ± {half}"


def format_report(report: Report) -> str:
    """The report as text: a heading, then one line per SPEC."""
    width = max(len("spec"), *(len(s) for s in report.specs))
    head = (
        f"{report.rounds} rounds per spec in {report.games} games of up to "
        f"{report.rounds_per_game} deals x {SEATS} rotations, seed {report.seed}, "
        f"entry 0 vs {SEATS - 1} x {OPPONENT}; stones received per round (lower is better), "
        "± half a 95% interval over games"
    )
    columns = (
        f"{'spec':<{width}}  {'stones':>6}  {'basic':>6}  {'vs basic':>15}  "
        f"{'CAMAT/100':>9}  {'basic':>6}  {'ms/dec':>7}  {'vs first':>15}  vs previous"
    )
    rows = [head, columns]
    for ln in report.lines:
        rows.append(
            f"{ln.spec:<{width}}  {ln.stones_per_round:6.3f}  {ln.opponents_stones_per_round:6.3f}"
            f"  {_pm(ln.vs_opponents, ln.vs_opponents_ci95):>15}  {ln.camat_per_100_rounds:9.2f}"
            f"  {ln.opponents_camat_per_100_rounds:6.2f}  {ln.ms_per_decision:7.1f}"
            f"  {_pm(ln.vs_first, ln.vs_first_ci95):>15}"
            f"  {_pm(ln.vs_previous, ln.vs_previous_ci95)}".rstrip()
        )
    rows.append(f"{report.seconds:.1f} s")
    return "\n".join(rows)


def _show_progress(done: int, total: int) -> None:
    print(f"\r{done}/{total} game rotations played", end="", file=sys.stderr, flush=True)


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="trials.py",
        description="Paired trials: each SPEC as entry 0 against four basic, on the same deals "
        "and opponent seeds; the difference to the first SPEC is paired game by game.",
        epilog="SPEC: a player name (basic, expert:fast, ...) or an expert level with "
        "+key=value overrides, e.g. expert:fast+playouts=1000+camat=12+given=0.5+fair. "
        f"Keys: {', '.join(KEYS)}.",
    )
    p.add_argument("specs", nargs="+", metavar="SPEC", help="a player description")
    p.add_argument("--rounds", type=int, default=2000, help="rounds per SPEC (default: 2000)")
    p.add_argument("--rounds-per-game", type=int, default=5, help="deals per game (default: 5)")
    p.add_argument("--seed", type=int, default=11, help="seed of deals and players (default: 11)")
    p.add_argument(
        "--workers", type=int, default=None, help="worker processes (default: all cores)"
    )
    p.add_argument("--json", action="store_true", help="print one JSON document instead")
    p.add_argument(
        "--calibrate",
        metavar="FILE",
        help="write a calibration of the SPECs that are level names (random and basic among "
        "them) anchored on their paired results (domeng.history.calibration.anchored)",
    )
    p.add_argument(
        "--points",
        type=float,
        default=None,
        help="with --calibrate: rating points per stone a round (default: from this run's "
        "random against basic)",
    )
    return p


def calibration_of(report: Report, command: str, points: float | None = None) -> dict[str, object]:
    """The calibration document of the report's plain level names: each rated by its paired
    result against the four ``basic``, on the shipped calibration's scale of ``basic`` and
    ``random`` (:func:`domeng.history.calibration.anchored`)."""
    paired = {ln.spec: ln.vs_opponents for ln in report.lines if "+" not in ln.spec}
    ratings = anchored(load(), paired, order=LADDER, points=points)
    # A level of the ladder this run did not measure is placed level with the one below
    # it (never below a weaker level, nor at a new player's 25).
    unmeasured = []
    for below, name in pairwise(LADDER):
        if name not in ratings and below in ratings:
            ratings[name] = ratings[below]
            unmeasured.append(name)
    doc = document(ratings, rounds=report.rounds, command=command)
    doc["anchored"] = {
        "on": "paired stones a round against four basic (benchmarks/trials.py)",
        "kept": ["basic", "random"],
        "pooled along": list(LADDER),
        "paired": {name: round(d, 4) for name, d in paired.items()},
        "points per stone a round": "from this run" if points is None else points,
        "placed with the level below, not measured": unmeasured,
    }
    return doc


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    specs = tuple(args.specs)
    for text in specs:
        try:
            parse_spec(text)
        except SpecError as exc:
            parser.error(str(exc))
    try:
        game_sizes(args.rounds, args.rounds_per_game)
    except ValueError as exc:
        parser.error(str(exc))
    workers = args.workers if args.workers is not None else os.cpu_count() or 1
    if workers < 1:
        parser.error(f"--workers must be at least 1, not {workers}")

    progress = _show_progress if sys.stderr.isatty() else None
    try:
        report = run_trials(specs, args.rounds, args.rounds_per_game, args.seed, workers, progress)
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    finally:
        if progress:
            print(file=sys.stderr)
    if args.json:
        print(json.dumps(report.to_json(), indent=2))
    else:
        print(format_report(report))
    if args.calibrate:
        command = "python benchmarks/trials.py " + " ".join(sys.argv[1:] if argv is None else argv)
        try:
            doc = calibration_of(report, command, args.points)
        except ValueError as exc:
            print(f"no calibration: {exc}", file=sys.stderr)
            return 1
        with open(args.calibrate, "w", encoding="utf-8") as out:
            out.write(json.dumps(doc, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
