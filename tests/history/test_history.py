"""A round's figures and order, the ratings, the calibration of the computer levels, and
the recording of a game's rounds (each once, caught up when one was missed)."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from domeng.bots import make_player
from domeng.engine import Game, view
from domeng.engine.events import CamatElected, Passed, RoundEnded, StonesMoved
from domeng.history.calibration import FORMAT, calibrate, document, load, parse
from domeng.history.figures import round_figures
from domeng.history.ratings import NEW, Rating, rate
from domeng.history.recorder import computer_profiles, record_rounds
from domeng.server.storage import PERSON, Figures, MemoryStorage, StoredProfile


def played(seed: int, rounds: int, levels: list[str]) -> Game:
    g = Game()
    rng = random.Random(seed)
    players = [make_player(n, seed + i) for i, n in enumerate(levels)]
    for _ in range(rounds):
        g.deal(rng)
        while not g.round.finished:
            g.play(players[g.turn].choose(view(g.round, g.turn)))
    return g


def test_a_rounds_figures_are_its_events() -> None:
    g = played(4, 12, ["basic"] * 5)
    for r in g.rounds:
        figures = round_figures(r)
        ended = next(e for e in r.events if isinstance(e, RoundEnded))
        assert [f.won for f in figures] == [n == ended.winner for n in range(5)]
        for f in figures:
            got = sum(
                e.amount for e in r.events if isinstance(e, StonesMoved) and e.receiver == f.seat
            )
            assert f.received == got
            assert f.passebunge == sum(
                isinstance(e, Passed) and e.seat == f.seat and e.passebunge for e in r.events
            )
        camat = [e.seat for e in r.events if isinstance(e, CamatElected)]
        best = min(f.received for f in figures)
        for f in figures:
            if camat:  # the CAMAT ranks first, then fewer stones
                assert (f.place == 1) == (f.seat == camat[0])
            else:
                assert (f.place == 1) == (f.received == best)
            assert f.place == 1 + sum(
                (o.seat in camat, -o.received) > (f.seat in camat, -f.received) for o in figures
            )
    with pytest.raises(ValueError):
        g.deal(random.Random(1))
        round_figures(g.round)


def test_ratings_move_by_the_order_and_ties_share() -> None:
    a, b, c = rate([NEW, NEW, NEW], [1, 2, 2])
    assert a.mu > NEW.mu > b.mu and b == c
    assert rate([NEW], [1]) == [NEW]
    with pytest.raises(ValueError):
        rate([NEW, NEW], [1])


def test_the_calibration_places_the_stronger_level_higher(tmp_path: Path) -> None:
    games = [
        (
            ["basic", "basic", "random", "random", "basic"],
            played(s, 8, ["basic", "basic", "random", "random", "basic"]),
        )
        for s in range(25)
    ]
    ratings = calibrate(games)
    assert ratings["basic"].mu > ratings["random"].mu
    assert ratings["basic"].sigma < NEW.sigma
    doc = document(ratings, rounds=200, command="domeng sim ...")
    assert doc["format"] == FORMAT and parse(doc) == {
        n: Rating(round(r.mu, 4), round(r.sigma, 4)) for n, r in ratings.items()
    }
    path = tmp_path / "c.json"
    path.write_text('{"format": "domeng.calibration/1", "levels": {"x": {"mu": 1}}}')
    with pytest.raises(ValueError):
        load(path)


def test_the_shipped_calibration_orders_expert_basic_random() -> None:
    shipped = load()
    assert shipped["expert"].mu > shipped["basic"].mu > shipped["random"].mu


def test_a_games_rounds_are_recorded_once_each_and_a_missed_one_is_caught_up() -> None:
    s = MemoryStorage()
    computer_profiles(s, ["basic", "random"], {"basic": Rating(26.0, 1.0)}, 0.0)
    s.create_profile(StoredProfile("p-1", "Ann", "en", "red", PERSON, "t", 0.0, Figures(25, 8)))
    g = played(9, 3, ["basic"] * 5)
    seats = ["p-1", "basic", "random", "basic", None]
    assert record_rounds(s, "g", "table", g.rounds[:1], seats, 1.0) == 1
    assert record_rounds(s, "g", "table", g.rounds[:1], seats, 1.0) == 0  # once
    assert record_rounds(s, "g", "table", g.rounds, seats, 2.0) == 2  # caught up
    ann = s.profile(id="p-1")
    basic = s.profile(id="basic")
    assert ann is not None and basic is not None
    assert ann.figures.rounds == 3 and basic.figures.rounds == 6  # two seats a round
    want = sum(round_figures(r)[0].received for r in g.rounds)
    assert ann.figures.received == want and ann.figures.games == 1
    assert ann.figures.sigma < 8
    assert {h.opponent for h in s.head_to_head("basic")} == {"p-1", "random"}  # not itself
