"""``oracle``: the expert's search on the true state, every hand in sight.

For measuring only: it sees every hand and the unused tiles
(``sees_all = True``), so it is the ceiling a player without hidden
information cannot pass. It is never offered at a table where people play
(``player_names(for_people=True)`` leaves it out) and its :meth:`choose`,
which would receive only a seat's view, refuses.

The search is the expert's (:func:`domeng.bots.expert.search`) with one world,
the real one: every legal move is played out to the round's end many times with
the same heuristic policy, and the best average value wins.
"""

from __future__ import annotations

import random
import time

from domeng.engine import Move, Round, SeatView

from .base import Player
from .expert import Level, search

ORACLE_LEVEL = Level("oracle", 8000, 0.95)
"""The oracle's budget: 8,000 play-outs (what ``expert`` searched with until the
levels were re-cut; kept so the ceiling measured in docs/bots.md stays the same)."""


class OraclePlayer(Player):
    """Perfect-information Monte Carlo search (see the module's docstring)."""

    name = "oracle"
    sees_all = True

    def __init__(self, seed: int | None = None, level: Level = ORACLE_LEVEL) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.level = level

    def choose(self, view: SeatView) -> Move:
        raise NotImplementedError("oracle sees every hand: call choose_seeing_all(round, seat)")

    def choose_seeing_all(self, r: Round, seat: int) -> Move:
        if r.turn != seat:
            raise ValueError(f"seat {seat} is not in turn")
        moves = r.legal_moves()
        if len(moves) == 1:
            return moves[0]
        start = time.perf_counter()
        rng = random.Random(f"{self.seed}|{seat}|{r.number}|{r.dealt}|{r.plays}|{r.stones}")
        return search(
            [(r.clone(), 1.0)],
            moves,
            seat,
            rng,
            self.level.playouts,
            start + self.level.max_seconds,
        )
