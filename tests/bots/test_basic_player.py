"""The ``basic`` computer player: legal, deterministic, finishes when it can, and
better than ``random`` over a fixed set of rounds."""

from __future__ import annotations

import dataclasses
import random

from domeng.bots import make_player, player_names
from domeng.bots.base import Player
from domeng.bots.basic import BasicPlayer, ends_after, numbers_in
from domeng.engine import (
    End,
    Game,
    Move,
    Round,
    SeatView,
    StonesMoved,
    move,
    parse_tile,
    view,
)
from domeng.engine.tiles import mask_of


def _hands(*specs: str) -> list[int]:
    return [mask_of(parse_tile(t) for t in spec.split()) for spec in specs]


def _play_rounds(players: list[Player], rounds: int, seed: int) -> tuple[Game, list[Move]]:
    rng = random.Random(seed)
    game = Game()
    chosen: list[Move] = []
    for _ in range(rounds):
        r = game.deal(rng)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            v = game.view(seat)
            m = players[seat].choose(v)
            assert m in v.legal_moves
            chosen.append(m)
            r.play(m)
    return game, chosen


def test_basic_is_registered_for_people() -> None:
    assert "basic" in player_names()
    assert isinstance(make_player("basic", 1), BasicPlayer)


def test_basic_plays_only_legal_moves_in_whole_games() -> None:
    players: list[Player] = [BasicPlayer(s) for s in range(5)]
    game, chosen = _play_rounds(players, 40, seed=3)
    assert len(game.rounds) == 40
    assert chosen


def test_basic_is_deterministic_given_its_seed() -> None:
    def run() -> list[Move]:
        players: list[Player] = [make_player("basic", 100 + s) for s in range(5)]
        return _play_rounds(players, 10, seed=9)[1]

    assert run() == run()


def test_ends_after_a_play() -> None:
    assert ends_after(None, move("6-4")) == (6, 4)
    assert ends_after((6, 4), move("4-1", End.RIGHT)) == (6, 1)
    assert ends_after((6, 4), move("6-2", End.LEFT)) == (2, 4)
    assert numbers_in(mask_of([parse_tile("6-4"), parse_tile("4-4")])) == 2


def _midround_view() -> SeatView:
    """Seat 0 in turn on ends 6 and 5, after five plays."""
    hands = _hands(
        "6-6 5-3 6-1 1-1 2-2",
        "6-4 4-4 5-5 1-0 2-0",
        "4-3 3-3 6-5 5-0 4-0",
        "6-2 3-0 5-4 2-1 3-1",
        "6-0 5-2 5-1 4-2 4-1",
    )
    r = Round(hands, mask_of(parse_tile(t) for t in ("6-3", "0-0", "3-2")), starter=0)
    for t, end in (("6-6", End.RIGHT), ("6-4", End.RIGHT), ("4-3", End.RIGHT)):
        r.play(move(t, end))
    r.play(move("3-1", End.RIGHT))  # seat 3: ends 6 and 1
    r.play(move("5-1", End.RIGHT))  # seat 4: ends 6 and 5
    assert r.turn == 0, r.turn
    return view(r, 0)


def test_basic_fears_the_next_player_finishing_with_one_tile() -> None:
    v = _midround_view()
    player = BasicPlayer(0)
    calm = {m: player.score(v, m) for m in v.legal_moves}
    tense = dataclasses.replace(v, hand_counts=(v.hand_counts[0], 1, *v.hand_counts[2:]))
    tense_scores = {m: player.score(tense, m) for m in v.legal_moves}
    assert all(tense_scores[m] <= calm[m] for m in v.legal_moves)
    assert any(tense_scores[m] < calm[m] for m in v.legal_moves)


def test_basic_finishing_move_scores_above_everything() -> None:
    v = _midround_view()
    t = next(iter(v.legal_moves)).tile
    last = dataclasses.replace(v, hand=1 << t, legal_moves=(v.legal_moves[0],))
    player = BasicPlayer(0)
    assert player.score(last, v.legal_moves[0]) >= 1000
    assert player.choose(last) == v.legal_moves[0]


def test_basic_receives_fewer_stones_than_random() -> None:
    # 300 rounds, basic at a seat that moves every 20 rounds, four random players.
    rng = random.Random(2024)
    basic_stones = random_stones = 0
    game = Game()
    players: list[Player] = []
    hero = 0
    for n in range(300):
        if n % 20 == 0:
            game = Game()
            hero = n // 20 % 5
            players = [make_player("random", rng.randrange(1 << 30)) for _ in range(5)]
            players[hero] = make_player("basic", rng.randrange(1 << 30))
        r = game.deal(rng)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            r.play(players[seat].choose(game.view(seat)))
        for e in r.events:
            if type(e) is StonesMoved:
                if e.receiver == hero:
                    basic_stones += e.amount
                else:
                    random_stones += e.amount
    assert basic_stones < random_stones / 4
