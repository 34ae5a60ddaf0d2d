"""A round's figures are read from its events once, by the engine's tally: a player's
figures of each round and the game's standings are that one reading, so they agree."""

from __future__ import annotations

import random

from domeng.engine import Game
from domeng.engine.events import CamatElected, Finish, RoundEnded
from domeng.engine.moves import BlockPasses, Opening, Variants
from domeng.engine.standings import standings
from domeng.history.figures import round_figures


def _random_game(seed: int) -> Game:
    rng = random.Random(seed)
    g = Game(Variants(rng.choice(list(Opening)), rng.choice(list(BlockPasses))))
    for _ in range(rng.randint(4, 12)):
        g.deal(rng)
        while not g.round.finished:
            g.play(rng.choice(g.legal_moves()))
    return g


def test_each_rounds_figures_are_its_ending() -> None:
    seen = {"ceki": 0, "pollo": 0, "manguno": 0, "mattikkeng": 0, "camat": 0}
    for seed in range(40):
        for r in _random_game(seed).rounds:
            ended = next(e for e in r.events if isinstance(e, RoundEnded))
            camat = [e.seat for e in r.events if isinstance(e, CamatElected)]
            for f in round_figures(r):
                first = ended.first_cappu == f.seat
                assert f.ceki == (first and ended.finish is Finish.CEKI)
                assert f.pollo == (first and ended.finish is Finish.POLLO)
                assert f.manguno == (ended.manguno == f.seat)
                assert f.mattikkeng == (f.seat in ended.mattikkeng)
                assert f.camat == (f.seat in camat)
                for name in seen:
                    seen[name] += getattr(f, name)
    assert all(seen.values()), seen  # the games show every figure


def test_the_standings_are_the_sum_of_the_rounds_figures() -> None:
    for seed in range(40):
        g = _random_game(seed)
        per_round = [round_figures(r) for r in g.rounds]
        for s in standings(g):
            mine = [figures[s.seat] for figures in per_round]
            assert s.received == sum(f.received for f in mine)
            assert s.rounds_won == sum(f.won for f in mine)
            assert s.ceki == sum(f.ceki for f in mine)
            assert s.pollo == sum(f.pollo for f in mine)
            assert s.manguno == sum(f.manguno for f in mine)
            assert s.mattikkeng == sum(f.mattikkeng for f in mine)
            assert s.titles == sum(f.camat for f in mine)
