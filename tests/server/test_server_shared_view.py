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


def test_a_view_not_asked_for_a_while_starts_the_next_round_again() -> None:
    """A table sends no update while nobody is connected, so its kept view may last have
    been asked for in an earlier round, and be asked next when the round being played
    has more events than that one had: the round's number, not its length, tells."""
    rng = random.Random(11)
    checked = 0
    for _ in range(60):
        game, shared = Game(), SharedView()
        for _ in range(rng.randint(2, 6)):
            game.deal(rng)
            while game.round.result is None:
                game.round.play(rng.choice(game.round.legal_moves()))
                if rng.random() < 0.03:  # now and then, never at a deal
                    assert shared.json(game.round) == shared_view_json(game.round)
                    checked += 1
    assert checked > 100
