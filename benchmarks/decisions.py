"""The decisions of one seat in seeded rounds against ``basic`` players, for the benchmarks
that judge a seat's moves (``regret.py``, ``ladder.py``)."""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence

from domeng.bots import Player
from domeng.engine import Game, Round, SeatView, view


def seat_decisions(
    game: Game, deals: random.Random, rounds: int, others: Sequence[Player], seat: int
) -> Iterator[tuple[Round, SeatView]]:
    """``rounds`` rounds of ``game`` dealt from ``deals``: a forced move is played, the
    other seats play ``others[seat]``'s choice, and each decision of ``seat`` with two or
    more legal moves is handed out with its view; the caller plays the move."""
    for _ in range(rounds):
        r = game.deal(deals)
        while r.turn is not None:
            turn = r.turn
            legal = r.legal_moves()
            if len(legal) == 1:
                r.play(legal[0])
                continue
            v = view(r, turn)
            if turn != seat:
                r.play(others[turn].choose(v))
                continue
            yield r, v
