"""Seat rotation and seeds of `domeng sim`: duplicate play on the same deals."""

from __future__ import annotations

import pytest

from domeng.bots import player_names
from domeng.engine import SEATS, Variants
from domeng.sim import (
    Settings,
    entry_at,
    game_deals,
    game_sizes,
    play_game,
    player_seed,
    seat_of,
)

# `basic` once it is registered (it is written beside this simulator), else `random`.
OTHER = "basic" if "basic" in player_names(for_people=False) else "random"
NAMES = ("random", OTHER, "random", "random", "random")


def test_seat_of_and_entry_at_are_inverse_and_cover_every_seat() -> None:
    for e in range(SEATS):
        assert sorted(seat_of(e, r) for r in range(SEATS)) == list(range(SEATS))
        for r in range(SEATS):
            assert entry_at(seat_of(e, r), r) == e


def test_rounds_are_split_into_games() -> None:
    assert [list(g) for g in game_sizes(30, 4)] == [[0, 1, 2, 3], [4, 5]]
    assert [len(g) for g in game_sizes(2000, 20)] == [20] * 20
    for bad in (0, 7, -5):
        with pytest.raises(ValueError, match="multiple of 5"):
            game_sizes(bad, 20)
    with pytest.raises(ValueError, match="rounds per game"):
        game_sizes(10, 0)


def test_seeds_depend_on_seed_game_rotation_entry_only() -> None:
    seeds = {player_seed(1, g, r, e) for g in range(3) for r in range(5) for e in range(5)}
    assert len(seeds) == 75
    assert player_seed(1, 2, 3, 4) == player_seed(1, 2, 3, 4)
    assert player_seed(1, 2, 3, 4) != player_seed(2, 2, 3, 4)
    assert game_deals(1, 0, 3) == game_deals(1, 0, 3)
    assert game_deals(1, 0, 3) != game_deals(1, 1, 3)
    assert game_deals(1, 0, 3) != game_deals(2, 0, 3)


def test_every_entry_holds_every_hand_of_every_deal_once() -> None:
    settings = Settings(NAMES, rounds=5 * 6, seed=3, game_rounds=3, variants=Variants())
    tasks = settings.tasks()
    assert len(tasks) == 2 * SEATS
    for g in range(2):
        deals = game_deals(3, g, 3)
        held: dict[int, list[list[int]]] = {e: [] for e in range(SEATS)}
        for task in (t for t in tasks if t.game == g):
            game, seat_names, result = play_game(task)
            assert seat_names == [NAMES[entry_at(s, task.rotation)] for s in range(SEATS)]
            assert len(game.rounds) == 3
            assert all(r.finished for r in game.rounds)
            for i, r in enumerate(game.rounds):
                hands, unused = deals[i]
                assert list(r.dealt) == hands  # the same deal, seat by seat, every rotation
                assert r.unused == unused
            for e in range(SEATS):
                held[e].append([r.dealt[seat_of(e, task.rotation)] for r in game.rounds])
            assert [t.rounds for t in result.tallies] == [3] * SEATS
        for e in range(SEATS):
            for i in range(3):  # deal i: entry e held each of its five hands once
                assert sorted(h[i] for h in held[e]) == sorted(deals[i][0])
