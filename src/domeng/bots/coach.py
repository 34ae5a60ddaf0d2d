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

One difference: where the expert halves its candidates stage by stage to find the
best move fast, the coach plays **every** legal move out in **the same** guesses
with the same random stream (common random numbers), so the values of all the
moves can be compared with each other, and a difference between two moves has a
small paired standard error. The coach's best move is the one with the best value;
in a close position it may differ from the move ``expert`` plays.

:func:`hindsight` values moves knowing every hand (the true state: only for a
finished round under review, and always marked as such).

Determinism: the budget that counts is the level's number of play-outs, the
random stream is seeded from the seed and everything the view shows
(:func:`~domeng.bots.expert.position_seed`); the level's time is a safety cap.
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
from domeng.engine.tiles import HIGH, LOW, Tile, tile_name, tiles_of

from .expert import LEVELS, Level, World, position_seed
from .inference import DEFAULT_MODEL, PlayModel
from .rollout import DEFAULT_OBJECTIVE, DEFAULT_WEIGHTS, Objective, play_out, round_value
from .sampling import UNUSED, DealSampler, NoConsistentDeal

__all__ = [
    "Beliefs",
    "Judgement",
    "MoveValue",
    "find",
    "hindsight",
    "judge_position",
]

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
) -> tuple[list[MoveValue], list[World]]:
    """Play every move out in ``count`` worlds (``worlds(k)`` gives the k-th), all
    moves in the same world with the same random stream."""
    tallies = [_Tally() for _ in moves]
    seen: list[World] = []
    for k in range(count):
        base, weight = worlds(k)
        seen.append((base, weight))
        since = len(base.events)
        state = rng.getstate()
        for m, tally in zip(moves, tallies, strict=True):
            rng.setstate(state)
            r = base.clone()
            r.play(m)
            after = len(r.events)
            play_out(r, rng, DEFAULT_WEIGHTS, None)
            tally.add(r, seat, since, after, weight, objective)
        if time.perf_counter() > deadline:
            break
    best = max(tallies, key=_Tally.mean)
    values = [t.result(m, best) for t, m in zip(tallies, moves, strict=True)]
    values.sort(key=lambda mv: -mv.value)
    return values, seen


def _beliefs(v: SeatView, worlds: list[World]) -> Beliefs:
    unseen = list(tiles_of(v.unseen))
    where = {t: [0.0] * (SEATS + 1) for t in unseen}
    numbers = [[0.0] * 7 for _ in range(SEATS)]
    mass = 0.0
    for r, w in worlds:
        mass += w
        for s in range(SEATS):
            hand = r.hands[s]
            shown = 0
            for t in tiles_of(hand):
                shown |= (1 << HIGH[t]) | (1 << LOW[t])
                if s != v.seat:
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


def judge_position(
    v: SeatView,
    level: Level = LEVELS["expert"],
    seed: int = 0,
    *,
    objective: Objective = DEFAULT_OBJECTIVE,
) -> Judgement:
    """Every legal move of the seat in turn in ``v``, valued from what it may know.

    Raises ``ValueError`` when the view's seat is not in turn. With one legal move,
    that move is still valued (a review shows it as forced).
    """
    moves = v.legal_moves
    if not moves:
        raise ValueError(f"seat {v.seat} is not in turn")
    start = time.perf_counter()
    rng = random.Random("coach|" + position_seed(seed, v))
    try:
        sampler = DealSampler(v)
    except NoConsistentDeal as exc:
        raise ValueError(f"no deal explains this view: {exc}") from None
    model = PlayModel(v, DEFAULT_MODEL)

    def world(_: int) -> World:
        hands, unused = sampler.sample(rng)
        return determinize(v, hands, unused), model.weight(hands)

    count = max(1, level.playouts // len(moves))
    values, seen = _evaluate(world, moves, v.seat, rng, count, start + level.max_seconds, objective)
    return Judgement(
        seat=v.seat,
        moves=tuple(values),
        beliefs=_beliefs(v, seen),
        level=level.name,
        seconds=time.perf_counter() - start,
    )


def hindsight(
    r: Round,
    level: Level = LEVELS["expert"],
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
    values, _ = _evaluate(
        lambda _: truth, moves, seat, rng, count, start + level.max_seconds, objective
    )
    return tuple(values)
