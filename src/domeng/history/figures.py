"""What one finished round gives each seat: the figures a player's page sums, and the
round's order that the ratings read.

Everything comes from the round's events, as the engine worked them out, read by the
engine's one tally of them (:class:`domeng.engine.standings.Tally`, which the
standings sum too), so a figure always agrees with ``domeng replay`` of the same record
and with the table's standings.

>>> import random
>>> from domeng.engine import Game
>>> g = Game()
>>> _ = g.deal(random.Random(3))
>>> while not g.round.finished:
...     g.play(g.legal_moves()[0])
>>> figures = round_figures(g.round)
>>> sum(f.won for f in figures), min(f.place for f in figures)
(1, 1)
"""

from __future__ import annotations

from dataclasses import dataclass

from domeng.engine import SEATS
from domeng.engine.round import Round
from domeng.engine.standings import Tally


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """One seat's part in one finished round."""

    seat: int
    place: int
    """1 for the best: a CAMAT election ranks first, then fewer stones received; seats
    equal on both share a place."""
    received: int
    """Stones received this round."""
    won: bool
    camat: bool
    """Elected CAMAT at the end of this round."""
    ceki: bool
    """Finished as FIRST CAPPU with a CEKI."""
    pollo: bool
    """Finished as FIRST CAPPU with a POLLO."""
    manguno: bool
    mattikkeng: bool
    passebunge: int
    """PASSEBUNGE passes this round."""


def round_figures(r: Round) -> list[SeatFigures]:
    """Every seat's figures in the finished round ``r``, in seat order."""
    if not r.finished:
        raise ValueError(f"round {r.number} is not finished")
    t = Tally()
    t.add(r)
    received, camat = t.received, t.camat

    def key(n: int) -> tuple[int, int]:
        return (0 if camat[n] else 1, received[n])

    places = [1 + sum(key(o) < key(n) for o in range(SEATS)) for n in range(SEATS)]
    return [
        SeatFigures(
            seat=n,
            place=places[n],
            received=received[n],
            won=t.won[n] > 0,
            camat=camat[n] > 0,
            ceki=t.ceki[n] > 0,
            pollo=t.pollo[n] > 0,
            manguno=t.manguno[n] > 0,
            mattikkeng=t.mattikkeng[n] > 0,
            passebunge=t.passebunge[n],
        )
        for n in range(SEATS)
    ]
