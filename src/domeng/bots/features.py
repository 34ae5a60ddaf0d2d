"""``basic``'s rules of thumb as numbers: the score of a move, split into its features.

:func:`domeng.bots.basic.judge` scores a move by a weighted sum of a few rules of thumb
(:class:`~domeng.bots.basic.Weights`), plus a part no weight scales (the value of
blocking the line). :func:`move_features` gives that sum's parts for one move, so that

    score = fixed + sum(getattr(w, key) * x for key, x in zip(FITTED, features))

for the weights ``w`` (a test checks it against ``judge`` itself). This is what lets the
play-outs' weights be fitted offline (``benchmarks/fit_playouts.py``): each feature is
a column, each weight a coefficient. ``danger_two`` and ``epsilon`` are not fitted (the
first multiplies ``danger``, the second is not a score), nor is a finishing move scored
(it is always played: every finishing move plays the same tile).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from domeng.engine import Move, TileSet
from domeng.engine.events import CUCUQ_STONES_ON
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
    numbers_shown,
)

from .basic import Weights, block_value, numbers_in

__all__ = ["FITTED", "move_features", "with_fitted"]

FITTED: tuple[str, ...] = (
    "pips",
    "numbers",
    "lempa",
    "cover",
    "fit",
    "nofit",
    "fitcount",
    "allpass",
    "nextpass",
    "danger",
    "otherpass",
)
"""The weights a fit sets, in the order of :func:`move_features`' features."""

_LEMPA = tuple(HIGH[t] == LOW[t] for t in range(TILE_COUNT))


def move_features(
    m: Move,
    seat: int,
    hand: TileSet,
    left: int,
    right: int,
    others: TileSet,
    may: Sequence[TileSet],
    counts: Sequence[int] | None,
    danger_two: float = 0.0,
) -> tuple[float, tuple[float, ...]] | None:
    """The fixed part of ``m``'s score and its features (in :data:`FITTED`'s order), as
    :func:`~domeng.bots.basic.judge` scores it with the same beliefs (and ``danger_two``);
    None for a finishing move (the last tile in hand)."""
    t = m[0]
    rest = hand & ~(1 << t)
    if not rest:
        return None
    if left < 0:
        nl, nr = HIGH[t], LOW[t]
    elif m[1]:
        nl, nr = left, OTHER_HALF[t * 7 + right]
    else:
        nl, nr = OTHER_HALF[t * 7 + left], right
    fit = ENDS_MASK[nl * 7 + nr]
    mine = rest & fit
    fixed = 0.0
    cover = 0.0
    held = numbers_shown(rest)
    for n in NUMBERS:
        if held >> n & 1:
            cover += (others & NUMBER_MASK[n]).bit_count()
    allpass = nextpass = danger = otherpass = 0.0
    if not others & fit:
        if mine:
            allpass = 1.0
        else:
            fixed = block_value(seat, rest, others, may, counts)
    else:
        nxt = NEXT_SEAT[seat]
        may_next = may[nxt]
        count = may_next.bit_count() if counts is None else counts[nxt]
        fear = count == 1 or (count == 2 and danger_two)
        may_fit = may_next & fit
        if not may_fit:
            nextpass = 1.0
        elif fear:
            total = 0.0
            key = nl * 7 + nr
            while may_fit:
                low = may_fit & -may_fit
                stones = CUCUQ_STONES_ON[(low.bit_length() - 1) * 49 + key]
                total += stones if count == 1 else danger_two * stones
                may_fit ^= low
            danger = -total * count / may_next.bit_count()
        for k in range(2, SEATS):
            if not may[(seat + k) % SEATS] & fit:
                otherpass += 1.0
    features = (
        float(PIPS[t]),
        float(numbers_in(rest)),
        1.0 if _LEMPA[t] else 0.0,
        cover,
        1.0 if mine else 0.0,
        0.0 if mine else -1.0,
        float(mine.bit_count()),
        allpass,
        nextpass,
        danger,
        otherpass,
    )
    return fixed, features


def with_fitted(base: Weights, values: Sequence[float]) -> Weights:
    """``base`` with the weights of :data:`FITTED` set to ``values`` (in that order)."""
    if len(values) != len(FITTED):
        raise ValueError(f"{len(FITTED)} weights expected, got {len(values)}")
    return dataclasses.replace(base, **dict(zip(FITTED, values, strict=True)))
