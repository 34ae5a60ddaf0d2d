"""The standings' tally: a copy is a tally of its own (the table service adds the round
being played to a copy of its finished rounds' tally)."""

from __future__ import annotations

import dataclasses
import random

from domeng.engine import Game
from domeng.engine.standings import Tally


def test_a_copy_shares_no_figure_with_its_tally() -> None:
    g = Game()
    rng = random.Random(6)  # 30 rounds with a POLLO (the rarest figure)
    tally = Tally()
    figures = [f.name for f in dataclasses.fields(Tally) if f.name != "rounds"]
    for _ in range(30):
        g.deal(rng)
        while not g.round.finished:
            g.play(rng.choice(g.legal_moves()))
        tally.add(g.round)
    assert all(any(getattr(tally, name)) for name in figures)  # each one counted
    before = dataclasses.astuple(tally)
    copy = tally.copy()
    assert dataclasses.astuple(copy) == before
    for r in g.rounds:  # every figure of the copy grows
        copy.add(r)
    for f in dataclasses.fields(Tally):
        assert getattr(copy, f.name) != getattr(tally, f.name), f.name
    assert dataclasses.astuple(tally) == before
