"""``random``: any legal move."""

from __future__ import annotations

import random

from domeng.engine import Move, SeatView

from .base import Player


class RandomPlayer(Player):
    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        return self.rng.choice(view.legal_moves)
