"""Variant ``rounds``: ``fresh`` makes every round the first round of a fresh game
(a duplicate tournament's deals): 25 STONES on the table, nobody CAMAT, the opener by
the rule of the LEMPA; ``carried`` (the default) carries the game on."""

from __future__ import annotations

import json
import random

import pytest

from domeng.engine import Game, Rounds, Variants, deal, first_starter
from domeng.engine.record import RecordError, game_from_record, record_of

FRESH = Variants(rounds=Rounds.FRESH)


def _played_out(game: Game, rng: random.Random) -> None:
    while not game.round.finished:
        game.play(game.legal_moves()[0])


def test_every_fresh_round_starts_with_25_on_the_table_and_the_lempa() -> None:
    rng = random.Random(3)
    game = Game(FRESH)
    carried = Game()
    for number in range(1, 6):
        hands, unused = deal(rng)
        r = game.start_round(hands, unused)
        c = carried.start_round(hands, unused)
        starter, lempa = first_starter(hands)
        assert (r.number, r.table, r.stones, r.camat) == (number, 25, [0] * 5, None)
        assert (r.starter, r.opening_tile) == (starter, lempa)
        assert game.legal_moves()[0].tile == lempa
        _played_out(game, rng)
        _played_out(carried, rng)
        if number > 1:  # the usual game carries its stones on
            assert c.table + sum(c.stones) == 25
    assert sum(carried.round.stones) > 0 or carried.round.camat is not None


def test_a_fresh_round_waits_for_the_one_before() -> None:
    rng = random.Random(4)
    game = Game(FRESH)
    game.deal(rng)
    with pytest.raises(ValueError, match="not finished"):
        game.deal(rng)


def test_the_variant_is_written_only_when_not_the_default_and_replays() -> None:
    rng = random.Random(5)
    game = Game(FRESH)
    for _ in range(3):
        game.deal(rng)
        _played_out(game, rng)
    doc = record_of(game, ["A", "B", "C", "D", "E"])
    assert doc["variants"] == {"opening": "double", "block_passes": "penalized", "rounds": "fresh"}
    again, _ = game_from_record(json.loads(json.dumps(doc)))
    assert [r.stones for r in again.rounds] == [r.stones for r in game.rounds]
    assert again.variants == FRESH
    plain = Game()
    plain.deal(rng)
    assert "rounds" not in record_of(plain, ["A", "B", "C", "D", "E"])["variants"]
    doc["variants"]["rounds"] = "carried"  # the same plays do not replay as one game
    with pytest.raises(RecordError):
        game_from_record(doc)


def test_a_bad_rounds_value_is_refused() -> None:
    doc = {"format": "domeng.record/1", "variants": {"rounds": "twice"}, "rounds": []}
    with pytest.raises(RecordError, match="rounds"):
        game_from_record(doc)
    with pytest.raises(ValueError, match="carried"):
        Variants.from_json({"rounds": "twice"})
