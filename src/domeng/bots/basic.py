"""``basic``: a sensible player that looks one play ahead, from its seat's view only.

Each legal move gets a score from a few plain rules of thumb, and the best one
is played (ties broken by a seeded generator, so a seed gives the same play):

- finish when it can, by CEKI or POLLO when the ends allow it;
- get rid of a LEMPA early (it fits one number only), and otherwise of heavy
  tiles, so that a blocked line finds few pips in hand;
- keep tiles that fit the new ends and a variety of numbers, so as not to PASS;
- leave ends the next player has shown they lack, so that they PASS;
- when the next player holds one tile, avoid ends they might finish on: their
  FIRST CAPPU makes this seat the CUCUQ (3 stones for a CEKI, 5 for a POLLO);
- block the line only with few pips in hand (the MANGUNO pays when a
  MATTIKKENG has no more pips).

These rules of thumb are written once, in :func:`judge`: :class:`BasicPlayer` plays
its best move, and the search players' play-outs (:mod:`domeng.bots.rollout`) play
every seat's moves by it, thousands of times a decision. So it works on plain ints,
a hand and sets of tiles as bitmasks, the ends as numbers, and what it is told about
the other seats is a belief, whatever its source:

- ``others``: the tiles some other seat may hold (for ``basic``, every tile it cannot
  see; in a play-out, the guessed world's other hands);
- ``may[s]``: the tiles seat ``s`` may hold (its passes rule numbers out);
- ``counts``: every seat's tile count; None when the belief is exact, each ``may[s]``
  being seat s's very hand (a play-out that looks at the guessed world).

The weights of the rules of thumb are a :class:`Weights`: ``basic``'s
(:data:`BASIC_WEIGHTS`) or the play-outs' (:data:`PLAYOUT_WEIGHTS`). The stones at
stake come from the engine's rules (:mod:`domeng.engine.events`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from domeng.engine import Move, SeatView, TileSet
from domeng.engine.events import CUCUQ_STONES_ON, finish_of, finish_stones, is_mattikkeng
from domeng.engine.moves import NEXT_SEAT, SEATS
from domeng.engine.tiles import (
    ENDS_MASK,
    HIGH,
    LOW,
    NUMBER_MASK,
    NUMBERS,
    OTHER_HALF,
    PIPS,
    TILE_COUNT,
    TILE_NUMBERS,
    numbers_shown,
    pip_total,
    tiles_of,
)

from .base import Player

__all__ = [
    "BASIC_WEIGHTS",
    "PLAYOUT_WEIGHTS",
    "BasicPlayer",
    "Weights",
    "block_value",
    "ends_after",
    "judge",
    "may_hold",
    "numbers_in",
    "score_move",
]


@dataclass(frozen=True, slots=True)
class Weights:
    """What the judgement likes in a move: the weight of each rule of thumb.

    The defaults are ``basic``'s (tuned against ``random``); the play-outs use
    :data:`PLAYOUT_WEIGHTS`.
    """

    pips: float = 0.1
    """Per pip of the tile played (shed heavy tiles: they count against a MANGUNO)."""
    numbers: float = 1.0
    """Per different number left in hand (variety: fewer PASSes)."""
    lempa: float = 3.0
    """Playing a LEMPA (it fits only one number, so it is hard to place later)."""
    cover: float = 0.3
    """Per hidden tile carrying a number left in hand (those numbers will show again)."""
    fit: float = 2.5
    """Keeping a tile that fits the new ends (minus ``nofit`` when none does)."""
    nofit: float = 2.0
    fitcount: float = 0.4
    """Per tile left in hand that fits the new ends."""
    allpass: float = 4.0
    """Nobody else can play on the new ends but this seat can."""
    nextpass: float = 3.0
    """The next seat cannot play on the new ends."""
    danger: float = 4.0
    """Per stone this seat would receive as CUCUQ if the next seat finished on the new ends."""
    danger_two: float = 0.3
    """The share of ``danger`` counted when the next seat holds two tiles, not one."""
    otherpass: float = 0.5
    """Per seat after the next that cannot play on the new ends."""
    epsilon: float = 0.0
    """Chance of a uniformly random legal move instead (the play-outs' noise; ``basic``'s
    is 0)."""


BASIC_WEIGHTS = Weights()
"""``basic``'s weights."""
PLAYOUT_WEIGHTS = Weights(cover=0.0, danger_two=0.0, otherpass=0.0, epsilon=0.05)
"""The play-outs' weights, as they have always played: ``basic``'s without three of its
rules of thumb (``cover``, ``danger_two``, ``otherpass``; play-outs in which every seat
played exactly as ``basic`` were slower and no stronger in paired trials, docs/bots.md),
and 5% random moves."""

FINISH = 1000.0
"""The score of a finishing move before its finish's stones: above every other move."""
BLOCK_SURE = 8.0
"""Blocking the line when no other seat can have as few pips (no MATTIKKENG)."""
BLOCK_LIKELY = 0.0
"""Blocking it when no other seat is expected to have as few (by the average tile)."""
BLOCK_RISKY = -10.0
"""Blocking it otherwise: a MATTIKKENG would make this seat, the MANGUNO, receive stones."""

_WORST = float("-inf")
_LEMPA = tuple(HIGH[t] == LOW[t] for t in range(TILE_COUNT))
_VARIETY: dict[int, int] = {}
"""How many different numbers the tiles of a set show, by set (filled as met)."""
_known_variety = _VARIETY.get
_LACKED: tuple[TileSet, ...] = tuple(
    sum(1 << t for t in range(TILE_COUNT) if TILE_NUMBERS[t] & lacking) for lacking in range(128)
)
"""``_LACKED[m]``: the tiles showing one of the numbers of the 7-bit mask m."""


def _variety(tiles: TileSet) -> int:
    _VARIETY[tiles] = count = numbers_shown(tiles).bit_count()
    return count


def numbers_in(hand: TileSet) -> int:
    """How many different numbers the tiles of ``hand`` show."""
    return _known_variety(hand) or _variety(hand)


def may_hold(unseen: TileSet, lacking: int) -> TileSet:
    """The tiles of ``unseen`` a seat may hold, given the numbers it showed it lacks (a
    7-bit mask, as :attr:`domeng.engine.SeatView.lacking`)."""
    return unseen & ~_LACKED[lacking]


def lowest_pips(candidates: TileSet, n: int) -> int:
    """The least pips ``n`` tiles from ``candidates`` can add up to."""
    return sum(sorted(PIPS[t] for t in tiles_of(candidates))[:n])


def block_value(
    seat: int,
    rest: TileSet,
    others: TileSet,
    may: Sequence[TileSet],
    counts: Sequence[int] | None,
) -> float:
    """The score of blocking the line with ``rest`` left in hand, this seat being the
    MANGUNO: :data:`BLOCK_SURE` when no other seat can be MATTIKKENG (hold as few pips),
    :data:`BLOCK_LIKELY` when none is expected to be (its tile count times the average
    pips of ``others``), else :data:`BLOCK_RISKY`. With an exact belief (``counts``
    None) every seat's pips are known, so it is sure or risky."""
    mine = pip_total(rest)
    if counts is None:
        for k in range(1, SEATS):
            if is_mattikkeng(pip_total(may[(seat + k) % SEATS]), mine):
                return BLOCK_RISKY
        return BLOCK_SURE
    sure = True
    likely = True
    average = pip_total(others) / max(1, others.bit_count())
    for k in range(1, SEATS):
        s = (seat + k) % SEATS
        n = counts[s]
        if is_mattikkeng(lowest_pips(may[s], n), mine):
            sure = False
        if is_mattikkeng(average * n, mine):
            likely = False
    if sure:
        return BLOCK_SURE
    if likely:
        return BLOCK_LIKELY
    return BLOCK_RISKY


def judge(
    moves: Sequence[Move],
    seat: int,
    hand: TileSet,
    left: int,
    right: int,
    others: TileSet,
    may: Sequence[TileSet],
    counts: Sequence[int] | None,
    w: Weights,
    noise: Callable[[], float],
    score_out: list[float] | None = None,
) -> Move:
    """The best of ``moves`` for ``seat`` holding ``hand`` on a line with ends ``left``
    and ``right`` (-1 and -1 before the opening); the beliefs ``others``, ``may`` and
    ``counts`` as in the module's docstring. Each move's score gets ``noise() * 1e-3``
    (one call per move, in order) to break ties; the first best wins. Its score is
    appended to ``score_out`` when given (a list, not a returned pair: building a
    tuple for every decision cost the play-outs 0.7% of their speed).
    """
    best = moves[0]
    best_score = _WORST
    nxt = NEXT_SEAT[seat]
    may_next = may[nxt]
    count = may_next.bit_count() if counts is None else counts[nxt]
    # The next seat may finish at its turn (or, with two tiles, soon): this seat is CUCUQ.
    fear = count == 1 or (count == 2 and w.danger_two)
    cover = w.cover
    otherpass = w.otherpass
    for m in moves:
        t = m[0]
        rest = hand & ~(1 << t)
        if left < 0:
            nl, nr = HIGH[t], LOW[t]
        elif m[1]:
            nl, nr = left, OTHER_HALF[t * 7 + right]
        else:
            nl, nr = OTHER_HALF[t * 7 + left], right
        if not rest:
            # FIRST CAPPU: the bigger the finish, the more the CUCUQ receives. (The
            # finishing moves of a position all play the same tile, and either end gives
            # it the same finish, so they score alike and the noise picks one.)
            score = FINISH + finish_stones(finish_of(t, left >= 0 and nl == nr))
        else:
            fit = ENDS_MASK[nl * 7 + nr]
            mine = rest & fit
            score = w.pips * PIPS[t] + w.numbers * (_known_variety(rest) or _variety(rest))
            if _LEMPA[t]:
                score += w.lempa
            if cover:
                score += cover * _cover(rest, others)
            if mine:
                score = score + w.fit + w.fitcount * mine.bit_count()
            else:
                score -= w.nofit
            if not others & fit:
                # Nobody else can play on these ends: they all PASS.
                if mine:
                    score += w.allpass
                else:
                    score += block_value(seat, rest, others, may, counts)
            else:
                may_fit = may_next & fit
                if not may_fit:
                    score += w.nextpass
                elif fear:
                    # The stones if the next seat finishes on these ends (as it may).
                    danger = 0.0
                    key = nl * 7 + nr
                    while may_fit:
                        low = may_fit & -may_fit
                        stones = CUCUQ_STONES_ON[(low.bit_length() - 1) * 49 + key]
                        danger += stones if count == 1 else w.danger_two * stones
                        may_fit ^= low
                    score -= w.danger * danger * count / may_next.bit_count()
                if otherpass:
                    # The other seats: ends they cannot play on make them PASS too.
                    for k in range(2, SEATS):
                        if not may[(seat + k) % SEATS] & fit:
                            score += otherpass
        score += noise() * 1e-3
        if score > best_score:
            best, best_score = m, score
    if score_out is not None:
        score_out.append(best_score)
    return best


def _cover(rest: TileSet, others: TileSet) -> int:
    """How many of ``others`` carry a number that ``rest`` shows."""
    held = numbers_shown(rest)
    return sum((others & NUMBER_MASK[n]).bit_count() for n in NUMBERS if held >> n & 1)


def ends_after(ends: tuple[int, int] | None, m: Move) -> tuple[int, int]:
    """The open ends once ``m`` is played on a line with ``ends`` (None: opening)."""
    t = m.tile
    if ends is None:
        return HIGH[t], LOW[t]
    left, right = ends
    if m.end:
        return left, OTHER_HALF[t * 7 + right]
    return OTHER_HALF[t * 7 + left], right


def _no_noise() -> float:
    return 0.0


class BasicPlayer(Player):
    """Rules of thumb over the legal moves (see the module's docstring)."""

    name = "basic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.weights: Weights = BASIC_WEIGHTS

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        w = self.weights
        rnd = self.rng.random
        if w.epsilon and rnd() < w.epsilon:
            return moves[int(rnd() * len(moves))]
        return _judge_view(view, moves, w, rnd)

    def score(self, view: SeatView, m: Move) -> float:
        """How good playing ``m`` looks from ``view`` (higher is better)."""
        out: list[float] = []
        _judge_view(view, (m,), self.weights, _no_noise, out)
        return out[0]


def _judge_view(
    view: SeatView,
    moves: Sequence[Move],
    w: Weights,
    noise: Callable[[], float],
    score_out: list[float] | None = None,
) -> Move:
    """:func:`judge` told what ``view`` shows: what each seat may hold after
    its passes, and every seat's tile count."""
    unseen = view.unseen
    left, right = view.ends if view.ends is not None else (-1, -1)
    may = [may_hold(unseen, lacking) for lacking in view.lacking]
    counts = view.hand_counts
    hand = view.hand
    return judge(moves, view.seat, hand, left, right, unseen, may, counts, w, noise, score_out)


def score_move(
    seat: int,
    hand: TileSet,
    unseen: TileSet,
    ends: tuple[int, int] | None,
    lacking: Sequence[int],
    counts: Sequence[int],
    m: Move,
    w: Weights = BASIC_WEIGHTS,
) -> float:
    """``basic``'s score of playing ``m`` (higher is better), from what a seat knows:
    its ``hand``, the tiles it cannot see (``unseen``), the line's ``ends``, the
    numbers each seat showed it lacks (``lacking``) and every seat's tile count.

    A function of these alone: given what another seat knew at some moment, it
    tells how ``basic`` would have scored that seat's moves.
    """
    left, right = ends if ends is not None else (-1, -1)
    may = [may_hold(unseen, n) for n in lacking]
    out: list[float] = []
    judge((m,), seat, hand, left, right, unseen, may, counts, w, _no_noise, out)
    return out[0]
