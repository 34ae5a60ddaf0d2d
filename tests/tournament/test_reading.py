"""A table's game read for the tournament's scoring (docs/tournaments.md): a duplicate
table's deals count once finished, never while in play, and a table game's end is
read figure by figure (CAMAT titles, STONES held, STONES received, rounds won,
PASSEBUNGE), each into its own place."""

from __future__ import annotations

import random

from domeng.engine import Game, Rounds, Variants
from domeng.engine.standings import Tally
from domeng.tournament.reading import deals_played, table_game
from domeng.tournament.scoring import table_points

KEYS = ("a", "b", "c", "d", "e")


def _finish_round(game: Game) -> None:
    while not game.round.finished:
        game.play(game.legal_moves()[0])


def test_a_deal_in_play_is_not_counted_until_it_is_finished() -> None:
    game = Game(Variants(rounds=Rounds.FRESH))
    rng = random.Random(5)
    game.deal(rng)
    _finish_round(game)
    game.deal(rng)
    game.play(game.legal_moves()[0])  # the second deal is under way
    assert not game.round.finished
    played = deals_played(game, 2, 3, KEYS)
    assert [d.deal for d in played] == [1]  # the finished one only
    first = played[0]
    assert (first.round, first.deal, first.table, first.entrants) == (2, 1, 3, KEYS)
    tally = Tally()
    tally.add(game.rounds[0])
    assert first.received == tuple(tally.received) and sum(first.won) == 1
    _finish_round(game)
    assert [d.deal for d in deals_played(game, 2, 3, KEYS)] == [1, 2]


def test_a_table_game_s_end_is_read_figure_by_figure() -> None:
    game = Game()
    rng = random.Random(8)
    for _ in range(6):  # STONES carried over from deal to deal
        game.deal(rng)
        _finish_round(game)
    assert game.titles != game.stones  # told apart
    got = table_game(game, 1, 2, KEYS)
    tally = Tally()
    for r in game.rounds:
        tally.add(r)
    assert (got.round, got.table, got.entrants) == (1, 2, KEYS)
    assert got.titles == tuple(game.titles)
    assert got.stones == tuple(game.stones)
    assert got.received == tuple(tally.received)
    assert got.won == tuple(tally.won) and sum(got.won) == 6
    assert got.passebunge == tuple(tally.passebunge)
    # its table points follow the table's own standings: titles, STONES held, received
    standing = {s.seat: s.rank for s in tally.ranked(game.titles, game.stones)}
    points = table_points(got.titles, got.stones, got.received)
    for x in range(5):
        for y in range(5):
            if standing[x] < standing[y]:
                assert points[x] > points[y]
