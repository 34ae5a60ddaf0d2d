"""The coach: what ``expert`` thinks of a position, as data.

:func:`judge_position` takes one seat's view (never the true state) and returns a
:class:`Judgement`: every legal move with its value in the expert's terms, how
sure that value is, what the value is made of, and the expert's beliefs about the
hidden tiles. It is the expert's own machinery (:mod:`domeng.bots.expert`):

- the same guesses of the hidden tiles (:class:`~domeng.bots.sampling.DealSampler`),
  weighed by the same model of the others' plays
  (:class:`~domeng.bots.inference.PlayModel`);
- the same play-outs (:func:`~domeng.bots.rollout.play_out`) and the same objective
  (:class:`~domeng.bots.rollout.Objective`: minus the stones received, plus a tenth
  of those given, the CAMAT terms).

The coach plays **every** legal move out in **the same** guesses with the same random
stream (common random numbers), so the values of all the moves can be compared with
each other, and a difference between two moves has a small paired standard error. The
coach's best move is the one with the best value, and it is the move ``expert`` plays
at the same level (:func:`best_move`). Once few tiles are left in all hands, each guess
can be solved exactly instead of played out (``exact``, :mod:`domeng.bots.exact`; off
in the shipped levels, :data:`EXACT_TILES`).

:func:`hindsight` values moves knowing every hand (the true state: only for a
finished round under review, and always marked as such).

One judgement per position: the budget that counts is the level's number of
play-outs, and the random stream is seeded from everything the view shows (and a seed,
0 unless asked: :func:`position_seed`), so the same view judged at the same level gives
the same values, in a hint and in the later review of that decision. The time cap of a
judgement is :data:`COACH_CAP` (far above what a level spends), so that a busy machine
does not cut it short. ``expert`` plays the best move of this very judgement
(:func:`best_move`, with the level's own, shorter cap: the two agree whenever that cap is
not reached).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from math import sqrt

from domeng.engine import (
    Move,
    Passed,
    Reason,
    Round,
    RoundEnded,
    SeatView,
    StonesMoved,
    determinize,
)
from domeng.engine.moves import SEATS
from domeng.engine.tiles import Tile, numbers_shown, tile_name, tiles_of

from .exact import TooBig, solve_moves
from .inference import DEFAULT_MODEL, ModelParams, PlayModel
from .levels import LEVELS, Level
from .rollout import (
    DEFAULT_OBJECTIVE,
    DEFAULT_WEIGHTS,
    Objective,
    Weights,
    excluded_by_view,
    play_out,
    round_value,
)
from .sampling import UNUSED, DealSampler, NoConsistentDeal

__all__ = [
    "COACH_CAP",
    "COACH_LEVEL",
    "Beliefs",
    "Judgement",
    "MoveValue",
    "best_move",
    "find",
    "hindsight",
    "judge_position",
    "position_seed",
]

COACH_LEVEL = "expert"
"""The level at which the browser's hints and reviews judge: one level for both, so that
a hint and the review of the same decision give the same values."""
COACH_CAP = 30.0
"""The time cap of a judgement, in seconds: far above what any level spends, so that the
play-outs, not the clock, decide how far it goes and a view is always judged alike (a
judgement is not played against a clock)."""

EXACT_TILES = 0
"""With at most this many tiles in all hands together, each guessed world is solved
exactly (:mod:`domeng.bots.exact`) rather than played out (0: never)."""
EXACT_COST = 4
"""An exact world counts as this many play-outs of the level's budget."""
EXACT_BUDGET = 5000
"""Positions one exact solution may visit; past it the world is played out."""

World = tuple[Round, float]
"""A determinized round and its weight (the likelihood of the plays seen, or 1)."""


def position_seed(seed: int, v: SeatView) -> str:
    """A seed for one decision: ``seed`` and everything the view shows."""
    return f"{seed}|{v.seat}|{v.number}|{v.starter}|{v.hand}|{v.plays}|{v.stones}|{v.table}"


_CAUSE: dict[Reason, str] = {
    Reason.PASS: "pass",
    Reason.PASSEBUNGE: "pass",
    Reason.FIRST_CAPPU: "cucuq",
    Reason.CEKI: "cucuq",
    Reason.POLLO: "cucuq",
    Reason.MANGUNO: "cucuq",
    Reason.MATTIKKENG: "manguno",
}
"""Why the seat received stones, in three causes: its own PASS or PASSEBUNGE; being the
CUCUQ (of a FIRST CAPPU, CEKI, POLLO, or a MANGUNO without MATTIKKENG); being the
MANGUNO when a MATTIKKENG had no more pips."""

CAUSES = ("pass", "cucuq", "manguno")


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move as the coach values it (expected over the guesses)."""

    move: Move
    value: float
    """The expert's objective: minus stones received, plus a tenth of those given, plus
    the CAMAT terms. Higher is better."""
    error: float
    """The standard error of ``value`` (from the spread over the guesses)."""
    gap_error: float
    """The standard error of the best move's value minus this one's: paired, since every
    move was played out in the same guesses (0 for the best move itself)."""
    received: dict[str, float]
    """Expected stones the seat receives for the rest of the round, by cause
    (:data:`CAUSES`)."""
    given: float
    """Expected stones the seat gives."""
    first_cappu: float
    """The chance that the seat is the round's FIRST CAPPU."""
    camat: float
    """The chance that the seat is elected CAMAT in this round."""
    other_camat: float
    """The chance that another seat is."""
    passes: tuple[float, ...]
    """Per seat, the chance that it PASSes straight after this move, before anyone else
    plays."""
    playouts: int

    @property
    def stones(self) -> float:
        """Expected stones received, all causes together."""
        return sum(self.received.values())

    @property
    def tile(self) -> str:
        return tile_name(self.move.tile)

    @property
    def end(self) -> str:
        return self.move.end.word


@dataclass(frozen=True, slots=True)
class Beliefs:
    """What the seat may believe about the hidden tiles (weighed guesses)."""

    numbers: tuple[tuple[float, ...], ...]
    """``numbers[s][n]``: the chance that seat ``s`` holds a tile showing ``n`` (for the
    seat itself: 0 or 1, it knows its hand)."""
    tiles: dict[Tile, tuple[float, ...]]
    """For each unseen tile, the chance that it is in each seat's hand (indices 0-4) or
    among the unused tiles (index 5)."""
    worlds: int
    """How many guesses the beliefs come from."""


@dataclass(frozen=True, slots=True)
class Judgement:
    """Every legal move of one position, valued, with the beliefs behind the values."""

    seat: int
    moves: tuple[MoveValue, ...]
    """Best first."""
    beliefs: Beliefs
    level: str
    seconds: float

    @property
    def best(self) -> MoveValue:
        return self.moves[0]

    def of(self, m: Move) -> MoveValue:
        """The valued move equal to ``m`` (see :func:`find`)."""
        return find(self.moves, m)


def find(values: tuple[MoveValue, ...], m: Move) -> MoveValue:
    """The valued move that is ``m``: the same tile at the same end, or the same tile when
    the engine lists it once (the opening tile, or both ends showing the same number)."""
    for mv in values:
        if mv.move == m:
            return mv
    same = [mv for mv in values if mv.move.tile == m.tile]
    if len(same) == 1:
        return same[0]
    raise ValueError(f"{m} is not one of the legal moves")


class _Tally:
    """Weighed sums for one move."""

    __slots__ = ("camat", "cappu", "causes", "given", "mass", "n", "other", "passes", "values")

    def __init__(self) -> None:
        self.values: list[tuple[float, float]] = []
        self.mass = 0.0
        self.causes = dict.fromkeys(CAUSES, 0.0)
        self.given = 0.0
        self.cappu = 0.0
        self.camat = 0.0
        self.other = 0.0
        self.passes = [0.0] * SEATS
        self.n = 0

    def add(self, r: Round, seat: int, since: int, after: int, w: float, obj: Objective) -> None:
        self.values.append((w, round_value(r, seat, since, obj)))
        self.mass += w
        self.n += 1
        events = r.events
        causes = self.causes
        for i in range(since, len(events)):
            e = events[i]
            if type(e) is Passed:
                if i < after:
                    self.passes[e.seat] += w
            elif type(e) is RoundEnded:
                if e.first_cappu == seat:
                    self.cappu += w
            elif type(e) is StonesMoved:
                giver, receiver, amount, reason = e
                if receiver == seat:
                    causes[_CAUSE[reason]] += w * amount
                elif giver == seat:
                    self.given += w * amount
        if r.camat_elected:
            if r.camat == seat:
                self.camat += w
            else:
                self.other += w

    def add_value(self, r: Round, seat: int, since: int, w: float, obj: Objective) -> None:
        """Only the value (what ``expert`` needs to choose): the same as :meth:`add`'s."""
        self.values.append((w, round_value(r, seat, since, obj)))
        self.mass += w
        self.n += 1

    def mean(self) -> float:
        return sum(w * x for w, x in self.values) / (self.mass or 1.0)

    def result(self, m: Move, best: _Tally) -> MoveValue:
        mass = self.mass or 1.0
        mean = self.mean()
        spread = sum((w * (x - mean)) ** 2 for w, x in self.values)
        gap = best.mean() - mean
        pairs = zip(self.values, best.values, strict=True)
        paired = sum((w * (b - x - gap)) ** 2 for (w, x), (_, b) in pairs)
        return MoveValue(
            move=m,
            value=mean,
            error=sqrt(spread) / mass,
            gap_error=sqrt(paired) / mass,
            received={k: v / mass for k, v in self.causes.items()},
            given=self.given / mass,
            first_cappu=self.cappu / mass,
            camat=self.camat / mass,
            other_camat=self.other / mass,
            passes=tuple(p / mass for p in self.passes),
            playouts=self.n,
        )


def _evaluate(
    worlds: Callable[[int], World],
    moves: tuple[Move, ...],
    seat: int,
    rng: random.Random,
    count: int,
    deadline: float,
    objective: Objective,
    weights: Weights = DEFAULT_WEIGHTS,
    excluded: list[int] | None = None,
    detail: bool = True,
    exact: bool = False,
    own_weights: Weights | None = None,
) -> tuple[list[_Tally], list[World]]:
    """Play every move out in ``count`` worlds (``worlds(k)`` gives the k-th), all
    moves in the same world with the same random stream. Without ``detail`` only the
    values are kept (the same values). With ``exact`` every world is solved exactly
    (:func:`~domeng.bots.exact.solve_moves`) instead, or played out if it is too big.
    With ``own_weights`` the seat's own later moves in the play-outs are judged by them."""
    tallies = [_Tally() for _ in moves]
    own = None if own_weights is None else (seat, own_weights)
    seen: list[World] = []
    for k in range(count):
        base, weight = worlds(k)
        seen.append((base, weight))
        since = len(base.events)
        if exact:
            try:
                solved = solve_moves(base, moves, objective, EXACT_BUDGET)
            except TooBig:
                pass
            else:
                for (_, end, after), tally in zip(solved, tallies, strict=True):
                    if detail:
                        tally.add(end, seat, since, after, weight, objective)
                    else:
                        tally.add_value(end, seat, since, weight, objective)
                if time.perf_counter() > deadline:
                    break
                continue
        state = rng.getstate()
        for m, tally in zip(moves, tallies, strict=True):
            rng.setstate(state)
            r = base.clone()
            r.play(m)
            after = len(r.events)
            play_out(r, rng, weights, excluded, own)
            if detail:
                tally.add(r, seat, since, after, weight, objective)
            else:
                tally.add_value(r, seat, since, weight, objective)
        if time.perf_counter() > deadline:
            break
    return tallies, seen


def _ranked(tallies: list[_Tally]) -> list[int]:
    """The moves' indices, best value first (ties in the legal moves' order)."""
    means = [t.mean() for t in tallies]
    return sorted(range(len(tallies)), key=lambda i: -means[i])


def _results(tallies: list[_Tally], moves: tuple[Move, ...]) -> list[MoveValue]:
    order = _ranked(tallies)
    best = tallies[order[0]]
    return [tallies[i].result(moves[i], best) for i in order]


def _beliefs(v: SeatView, worlds: list[World]) -> Beliefs:
    unseen = list(tiles_of(v.unseen))
    where = {t: [0.0] * (SEATS + 1) for t in unseen}
    numbers = [[0.0] * 7 for _ in range(SEATS)]
    mass = 0.0
    for r, w in worlds:
        mass += w
        for s in range(SEATS):
            hand = r.hands[s]
            shown = numbers_shown(hand)
            if s != v.seat:
                for t in tiles_of(hand):
                    where[t][s] += w
            for n in range(7):
                if shown >> n & 1:
                    numbers[s][n] += w
        for t in tiles_of(r.unused):
            where[t][UNUSED] += w
    mass = mass or 1.0
    return Beliefs(
        numbers=tuple(tuple(x / mass for x in row) for row in numbers),
        tiles={t: tuple(x / mass for x in where[t]) for t in unseen},
        worlds=len(worlds),
    )


def _judge(
    v: SeatView,
    level: Level,
    seed: int,
    *,
    objective: Objective,
    weights: Weights,
    model: ModelParams | None,
    fair: bool,
    cap: float,
    detail: bool,
    exact: int,
    own_weights: Weights | None = None,
) -> tuple[list[_Tally], list[World]]:
    """The play-outs of one judgement (see :func:`judge_position`)."""
    moves = v.legal_moves
    if not moves:
        raise ValueError(f"seat {v.seat} is not in turn")
    deadline = time.perf_counter() + cap
    rng = random.Random("coach|" + position_seed(seed, v))
    try:
        sampler = DealSampler(v)
    except NoConsistentDeal as exc:
        raise ValueError(f"no deal explains this view: {exc}") from None
    likelihood = PlayModel(v, model) if model is not None else None

    def world(_: int) -> World:
        hands, unused = sampler.sample(rng)
        weight = likelihood.weight(hands) if likelihood is not None else 1.0
        return determinize(v, hands, unused), weight

    solving = sum(v.hand_counts) <= exact
    cost = len(moves) * (EXACT_COST if solving else 1)
    count = max(1, level.playouts // cost)
    excluded = excluded_by_view(v) if fair else None
    return _evaluate(
        world,
        moves,
        v.seat,
        rng,
        count,
        deadline,
        objective,
        weights,
        excluded,
        detail,
        solving,
        own_weights,
    )


def judge_position(
    v: SeatView,
    level: Level = LEVELS[COACH_LEVEL],
    seed: int = 0,
    *,
    objective: Objective = DEFAULT_OBJECTIVE,
    weights: Weights = DEFAULT_WEIGHTS,
    model: ModelParams | None = DEFAULT_MODEL,
    fair: bool = False,
    cap: float = COACH_CAP,
    exact: int = EXACT_TILES,
) -> Judgement:
    """Every legal move of the seat in turn in ``v``, valued from what it may know.

    The same view at the same level (and ``seed``, 0 unless another is asked for, to
    see how much the values owe to the draw) gives the same values, as long as ``cap``
    seconds do not cut the play-outs short. Raises ``ValueError`` when the view's seat
    is not in turn. With one legal move, that move is still valued (a review shows it
    as forced).
    """
    start = time.perf_counter()
    tallies, seen = _judge(
        v,
        level,
        seed,
        objective=objective,
        weights=weights,
        model=model,
        fair=fair,
        cap=max(cap, level.max_seconds),
        detail=True,
        exact=exact,
    )
    return Judgement(
        seat=v.seat,
        moves=tuple(_results(tallies, v.legal_moves)),
        beliefs=_beliefs(v, seen),
        level=level.name,
        seconds=time.perf_counter() - start,
    )


def best_move(
    v: SeatView,
    level: Level = LEVELS[COACH_LEVEL],
    seed: int = 0,
    *,
    objective: Objective = DEFAULT_OBJECTIVE,
    weights: Weights = DEFAULT_WEIGHTS,
    model: ModelParams | None = DEFAULT_MODEL,
    fair: bool = False,
    cap: float | None = None,
    exact: int = EXACT_TILES,
    own_weights: Weights | None = None,
) -> Move:
    """The best move of :func:`judge_position` with the same arguments, without what only
    a person reads (the parts of each value, the beliefs), within ``cap`` seconds (the
    level's own cap by default). This is how ``expert`` chooses. ``own_weights`` (for
    trials, not shipped): the seat's own later moves in the play-outs judged by them."""
    tallies, _ = _judge(
        v,
        level,
        seed,
        objective=objective,
        weights=weights,
        model=model,
        fair=fair,
        cap=level.max_seconds if cap is None else cap,
        detail=False,
        exact=exact,
        own_weights=own_weights,
    )
    return v.legal_moves[_ranked(tallies)[0]]


def hindsight(
    r: Round,
    level: Level = LEVELS[COACH_LEVEL],
    seed: int = 0,
    *,
    objective: Objective = DEFAULT_OBJECTIVE,
) -> tuple[MoveValue, ...]:
    """The legal moves of the seat in turn in the true round ``r``, valued knowing every
    hand (the hindsight a review shows beside the judgement; never a player's belief).
    Best first."""
    seat = r.turn
    if seat is None:
        raise ValueError("the round is over")
    moves = r.legal_moves()
    start = time.perf_counter()
    rng = random.Random(f"hindsight|{seed}|{r.number}|{r.dealt}|{r.plays}|{r.stones}")
    count = max(1, level.playouts // len(moves))
    truth = (r, 1.0)
    deadline = start + max(level.max_seconds, COACH_CAP)
    tallies, _ = _evaluate(lambda _: truth, moves, seat, rng, count, deadline, objective)
    return tuple(_results(tallies, moves))
