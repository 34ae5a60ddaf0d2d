"""The measuring ``oracle``: it sees every hand, plays legally, and is never offered to people."""

from __future__ import annotations

import random

import pytest

from domeng.bots import OraclePlayer, make_player, player_names
from domeng.bots.expert import LEVELS, Level
from domeng.bots.oracle import ORACLE_LEVEL
from domeng.engine import BlockPasses, Game, Opening, Variants

TINY = Level("oracle:test", 24, 5.0)


def test_oracle_is_not_offered_to_people() -> None:
    assert "oracle" not in player_names()
    assert "oracle" not in player_names(for_people=True)
    assert "oracle" in player_names(for_people=False)
    assert isinstance(make_player("oracle", 1), OraclePlayer)


def test_the_ceiling_thinks_at_least_as_much_as_the_default_expert() -> None:
    # The oracle measures what knowing the hidden tiles is worth: with a smaller
    # budget than `expert` the gap would mix that up with a gap in thinking.
    oracle = make_player("oracle", 1)
    assert isinstance(oracle, OraclePlayer)
    assert oracle.level == ORACLE_LEVEL
    assert ORACLE_LEVEL.playouts >= LEVELS["expert"].playouts
    assert ORACLE_LEVEL.max_seconds >= LEVELS["expert"].max_seconds


def test_oracle_sees_all_and_refuses_a_mere_view() -> None:
    p = make_player("oracle", 1)
    assert p.sees_all
    game = Game()
    r = game.deal(random.Random(1))
    with pytest.raises(NotImplementedError):
        p.choose(game.view(r.starter))


@pytest.mark.parametrize("opening", [Opening.DOUBLE, Opening.FREE])
@pytest.mark.parametrize("block", [BlockPasses.PENALIZED, BlockPasses.FREE])
def test_oracle_plays_legal_moves(opening: Opening, block: BlockPasses) -> None:
    rng = random.Random(3)
    game = Game(Variants(opening, block))
    players = [OraclePlayer(s, TINY) for s in range(5)]
    for _ in range(3):
        r = game.deal(rng)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            before = r.clone()
            m = players[seat].choose_seeing_all(r.clone(), seat)
            assert m in r.legal_moves()
            assert r.hands == before.hands and len(r.events) == len(before.events)
            game.play(m)


def test_oracle_is_deterministic_and_checks_the_turn() -> None:
    game = Game(Variants(opening=Opening.FREE))
    r = game.deal(random.Random(5))
    a = OraclePlayer(2, TINY).choose_seeing_all(r.clone(), r.starter)
    b = OraclePlayer(2, TINY).choose_seeing_all(r.clone(), r.starter)
    assert a == b
    with pytest.raises(ValueError):
        OraclePlayer(2, TINY).choose_seeing_all(r, (r.starter + 1) % 5)
