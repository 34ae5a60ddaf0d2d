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
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from types import MappingProxyType

from domeng.engine import Move, SeatView
from domeng.engine.events import CUCUQ_STONES_ON, finish_of, finish_stones, is_mattikkeng
from domeng.engine.moves import NEXT_SEAT, SEATS
from domeng.engine.tiles import (
    ENDS_MASK,
    HIGH,
    LOW,
    NUMBER_MASK,
    OTHER_HALF,
    PIPS,
    TileSet,
    pip_total,
    tiles_of,
)

from .base import Player

WEIGHTS: Mapping[str, float] = MappingProxyType(
    {
        "pips": 0.1,
        "numbers": 1.0,
        "lempa": 3.0,
        "cover": 0.3,
        "fit": 2.5,
        "nofit": 2.0,
        "fitcount": 0.4,
        "allpass": 4.0,
        "nextpass": 3.0,
        "danger": 4.0,
        "otherpass": 0.5,
    }
)
"""The weight of each rule of thumb in a move's score (tuned against ``random``)."""


def ends_after(ends: tuple[int, int] | None, m: Move) -> tuple[int, int]:
    """The open ends once ``m`` is played on a line with ``ends`` (None: opening)."""
    t = m.tile
    if ends is None:
        return HIGH[t], LOW[t]
    left, right = ends
    if m.end:
        return left, OTHER_HALF[t * 7 + right]
    return OTHER_HALF[t * 7 + left], right


def numbers_in(hand: TileSet) -> int:
    """How many different numbers the tiles of ``hand`` show."""
    seen = 0
    for t in tiles_of(hand):
        seen |= (1 << HIGH[t]) | (1 << LOW[t])
    return seen.bit_count()


def _lowest_pips(candidates: TileSet, n: int) -> int:
    """The least pips ``n`` tiles from ``candidates`` can add up to."""
    return sum(sorted(PIPS[t] for t in tiles_of(candidates))[:n])


class BasicPlayer(Player):
    """Rules of thumb over the legal moves (see the module's docstring)."""

    name = "basic"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)
        self.weights: Mapping[str, float] = WEIGHTS

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        best = moves[0]
        best_score = float("-inf")
        for m in moves:
            score = self.score(view, m) + self.rng.random() * 1e-3
            if score > best_score:
                best, best_score = m, score
        return best

    def score(self, view: SeatView, m: Move) -> float:
        """How good playing ``m`` looks from ``view`` (higher is better)."""
        return score_move(
            view.seat,
            view.hand,
            view.unseen,
            view.ends,
            view.lacking,
            view.hand_counts,
            m,
            self.weights,
        )


def _may_hold(unseen: TileSet, lacking: int) -> TileSet:
    """The tiles of ``unseen`` a seat may hold, given the numbers it showed it lacks."""
    for n in range(7):
        if lacking >> n & 1:
            unseen &= ~NUMBER_MASK[n]
    return unseen


def score_move(
    seat: int,
    hand: TileSet,
    unseen: TileSet,
    ends: tuple[int, int] | None,
    lacking: Sequence[int],
    counts: Sequence[int],
    m: Move,
    w: Mapping[str, float] = WEIGHTS,
) -> float:
    """``basic``'s score of playing ``m`` (higher is better), from what a seat knows:
    its ``hand``, the tiles it cannot see (``unseen``), the line's ``ends``, the
    numbers each seat showed it lacks (``lacking``) and every seat's tile count.

    A function of these alone: given what another seat knew at some moment, it
    tells how ``basic`` would have scored that seat's moves.
    """
    t = m.tile
    left, right = ends_after(ends, m)
    mappakuling = ends is not None and left == right
    rest = hand & ~(1 << t)
    if not rest:
        # FIRST CAPPU: the bigger the finish, the more the CUCUQ receives. (The
        # finishing moves of a position all play the same tile, and either end gives
        # it the same finish, so they score alike and the noise picks one.)
        return 1000.0 + finish_stones(finish_of(t, mappakuling))

    fit = ENDS_MASK[left * 7 + right]
    mine = rest & fit
    score = w["pips"] * PIPS[t]
    score += w["numbers"] * numbers_in(rest)
    score += w["lempa"] * (HIGH[t] == LOW[t])
    if w["cover"]:
        # Numbers that many hidden tiles carry will show at the ends again: hold them.
        held = 0
        for r in tiles_of(rest):
            held |= (1 << HIGH[r]) | (1 << LOW[r])
        score += w["cover"] * sum(
            (unseen & NUMBER_MASK[n]).bit_count() for n in range(7) if held >> n & 1
        )
    score += w["fit"] if mine else -w["nofit"]
    score += w["fitcount"] * mine.bit_count()

    if not unseen & fit:
        # Nobody else can play on these ends: they all PASS.
        if mine:
            score += w["allpass"]
        else:
            score += _block(seat, rest, unseen, lacking, counts)
        return score

    nxt = NEXT_SEAT[seat]
    may = _may_hold(unseen, lacking[nxt])
    may_fit = may & fit
    count = counts[nxt]
    if not may_fit:
        score += w["nextpass"]
    elif count <= 2 and may:
        # The next player may finish on these ends, making this seat the CUCUQ.
        danger = 0.0
        key = left * 7 + right
        for c in tiles_of(may_fit):
            if count == 1:
                danger += CUCUQ_STONES_ON[c * 49 + key]
            else:
                danger += 0.3 * CUCUQ_STONES_ON[c * 49 + key]
        score -= w["danger"] * danger * count / may.bit_count()
    # The other players: ends they lack make them PASS too.
    for k in range(2, SEATS):
        other = (seat + k) % SEATS
        if not _may_hold(unseen, lacking[other]) & fit:
            score += w["otherpass"]
    return score


def _block(
    seat: int,
    rest: TileSet,
    unseen: TileSet,
    lacking: Sequence[int],
    counts: Sequence[int],
) -> float:
    """The score of blocking the line, this seat being the MANGUNO."""
    mine = pip_total(rest)
    sure = True
    likely = True
    average = pip_total(unseen) / max(1, unseen.bit_count())
    for k in range(1, SEATS):
        s = (seat + k) % SEATS
        n = counts[s]
        if is_mattikkeng(_lowest_pips(_may_hold(unseen, lacking[s]), n), mine):
            sure = False
        if is_mattikkeng(average * n, mine):
            likely = False
    if sure:
        return 8.0
    if likely:
        return 0.0
    return -10.0
