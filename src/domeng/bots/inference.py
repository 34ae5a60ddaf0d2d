"""Reading the other players' choices: how likely a guess makes the plays seen.

Passes are certain evidence (the sampler obeys them); plays are soft evidence.
Most players get rid of a LEMPA early (it fits one number only), keep a
variety of numbers in hand and shed heavy tiles, so a seat that answered a 6
with [6|1] where [6|6] would have fitted too probably did not hold the LEMPA.
:class:`PlayModel` scores a guess of the hidden hands by the probability that
the other seats, holding those hands, would have chosen the tiles they did,
under a soft rule-of-thumb model:

    P(tile u | the tiles that fitted) ∝ exp(beta * score(u)),
    score(u) = pips * pips(u) + lempa * [u is a LEMPA] + numbers * (numbers left after u)

mixed with a uniform choice (``floor``) so that no guess is ever ruled out by a
player who plays differently. The search weighs each guessed world by this
likelihood (importance weights), which sharpens the guesses without peeking.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import exp

from domeng.engine import Played, SeatView, TileSet
from domeng.engine.tiles import ENDS_MASK, HIGH, LOW, PIPS, TILE_COUNT, numbers_shown


@dataclass(frozen=True, slots=True)
class ModelParams:
    beta: float = 1.0
    """How sure the model is that a player picks the best-scoring tile."""
    pips: float = 0.1
    lempa: float = 3.0
    numbers: float = 1.0
    floor: float = 0.2
    """Share of the uniform choice in the mixture."""


DEFAULT_MODEL = ModelParams()


class PlayModel:
    """The likelihood of the plays ``view`` shows, given guessed hands."""

    def __init__(self, v: SeatView, params: ModelParams = DEFAULT_MODEL) -> None:
        self.params = params
        self.strength = tuple(
            exp(
                params.beta * (params.pips * PIPS[t] + (params.lempa if HIGH[t] == LOW[t] else 0.0))
            )
            for t in range(TILE_COUNT)
        )
        self.variety = tuple(exp(params.beta * params.numbers * n) for n in range(8))
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
        variety = self.variety
        floor = self.params.floor
        for seat, t, fit, later in self.records:
            hand = hands[seat] | later | (1 << t)
            options = hand if fit < 0 else hand & fit
            n = options.bit_count()
            if n == 1:
                continue
            total = 0.0
            chosen = 0.0
            m = options
            while m:
                low = m & -m
                u = low.bit_length() - 1
                m ^= low
                s = strength[u] * variety[numbers_shown(hand & ~low).bit_count()]
                total += s
                if u == t:
                    chosen = s
            w *= floor / n + (1.0 - floor) * chosen / total
        return w
