"""Reading the other players' choices: how likely a guess makes the plays seen.

Passes are certain evidence (the sampler obeys them); plays are soft evidence.
Most players shed heavy tiles first and like to get rid of a LEMPA, so a seat
that opened with [2|1], or answered with [1|0] where [6|1] would have fitted
too, probably did not hold the heavy tile. :class:`PlayModel` scores a guess of
the hidden hands by the probability that the other seats, holding those hands,
would have chosen the tiles they did, under a soft "heavy first" model:

    P(tile u | the tiles that fitted) ∝ exp(beta * (pips(u) + lempa * [u is a LEMPA]))

mixed with a uniform choice (``floor``) so that no guess is ever ruled out by a
player who plays differently. The search weighs each guessed world by this
likelihood (importance weights), which sharpens the guesses without peeking.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp

from domeng.engine import Played, SeatView, TileSet
from domeng.engine.tiles import ENDS_MASK, HIGH, LOW, PIPS, TILE_COUNT


@dataclass(frozen=True, slots=True)
class ModelParams:
    beta: float = 0.35
    """How sure the model is that a player sheds the heaviest fitting tile."""
    lempa: float = 3.0
    """A LEMPA counts as this many extra pips (players like to place them early)."""
    floor: float = 0.15
    """Share of the uniform choice in the mixture."""


DEFAULT_MODEL = ModelParams()


class PlayModel:
    """The likelihood of the plays ``view`` shows, given guessed hands."""

    def __init__(self, v: SeatView, params: ModelParams = DEFAULT_MODEL) -> None:
        self.params = params
        self.strength = tuple(
            exp(params.beta * (PIPS[t] + (params.lempa if HIGH[t] == LOW[t] else 0.0)))
            for t in range(TILE_COUNT)
        )
        # (seat, tile, fitting-tiles mask or -1 for a free opening, tiles it played later)
        records: list[tuple[int, int, int, int]] = []
        later = [0] * 5
        before = -1
        played: list[tuple[int, int, int]] = []
        for e in v.history:
            if type(e) is not Played:
                continue
            # A forced opening (variant double) tells nothing; a free one, the whole hand.
            fit = (-1 if v.opening_tile is None else 0) if e.opening else ENDS_MASK[before]
            played.append((e.seat, e.tile, fit))
            before = e.left * 7 + e.right
        for seat, t, fit in reversed(played):
            if seat != v.seat and fit != 0:
                records.append((seat, t, fit, later[seat]))
            later[seat] |= 1 << t
        self.records = records

    def weight(self, hands: list[TileSet]) -> float:
        """The likelihood (up to a constant) of the others' plays if they held ``hands``."""
        w = 1.0
        strength = self.strength
        floor = self.params.floor
        for seat, t, fit, later in self.records:
            hand = hands[seat] | later | (1 << t)
            options = hand if fit < 0 else hand & fit
            n = options.bit_count()
            if n == 1:
                continue
            total = 0.0
            m = options
            while m:
                low = m & -m
                total += strength[low.bit_length() - 1]
                m ^= low
            w *= floor / n + (1.0 - floor) * strength[t] / total
        return w
