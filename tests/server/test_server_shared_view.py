"""The shared part of a seat's view, kept up to date one event at a time by a table
(:mod:`domeng.server.sharedview`), is exactly what it is when worked out from the whole
round (:func:`domeng.server.wire.shared_view_json`), at every state of many games."""

from __future__ import annotations

import itertools
import random

import pytest

from domeng.engine import Game
from domeng.engine.moves import BlockPasses, Opening, Variants
from domeng.server.sharedview import SharedView
from domeng.server.wire import shared_view_json

VARIANTS = [Variants(opening=o, block_passes=b) for o, b in itertools.product(Opening, BlockPasses)]


@pytest.mark.parametrize("variants", VARIANTS, ids=lambda v: "-".join(v.to_json().values()))
def test_the_kept_view_is_the_view_worked_out_afresh(variants: Variants) -> None:
    rng = random.Random(7)
    checked = 0
    for _ in range(40):
        game, shared = Game(variants), SharedView()
        for _ in range(rng.randint(1, 4)):  # several rounds: the kept parts start again
            if game.rounds and game.round.result is None:
                break
            game.deal(rng)
            assert shared.json(game.round) == shared_view_json(game.round)
            while game.round.result is None:
                after = game.round.clone()  # as the hub does: a copy is played on, then kept
                after.play(rng.choice(after.legal_moves()))
                game.rounds[-1] = after
                if rng.random() < 0.7:  # not asked at every state: it catches up
                    assert shared.json(after) == shared_view_json(after)
                    checked += 1
            assert shared.json(game.round) == shared_view_json(game.round)
    assert checked > 500


def test_what_it_answers_is_not_changed_by_what_comes_after() -> None:
    """The spectators' batches hold updates for a while: a later play must not change
    an update made before it."""
    rng = random.Random(3)
    game, shared = Game(), SharedView()
    game.deal(rng)
    game.round.play(game.round.legal_moves()[0])
    before = shared.json(game.round)
    kept = repr(before)
    while game.round.result is None:
        game.round.play(rng.choice(game.round.legal_moves()))
        shared.json(game.round)
    assert repr(before) == kept
