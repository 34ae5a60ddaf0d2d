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
from domeng.storage import PERSON, Figures, MemoryStorage, StoredProfile


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


def test_a_round_is_rated_from_the_ratings_another_process_left(tmp_path: Path) -> None:
    """The service and a terminal record rounds of the same player into one SQLite file:
    each recording is one write transaction, so the second is rated from the first's
    rating, never from the one before it (a lost update)."""
    import sqlite3
    import threading

    from domeng.storage import SQLiteStorage

    path = tmp_path / "shared.sqlite3"
    first, second = SQLiteStorage(path, service=True), SQLiteStorage(path)
    first.create_profile(StoredProfile("p-1", "Ann", "en", "red", PERSON, "t", 0.0, Figures(25, 8)))
    computer_profiles(first, ["basic"], {}, 0.0)
    g, h = played(3, 1, ["basic"] * 5), played(4, 1, ["basic"] * 5)
    seats = ["p-1", "basic", None, None, None]
    read, go = threading.Event(), threading.Event()
    profile = first.profile

    def pausing(**key: str) -> StoredProfile | None:  # the first reads Ann's rating, then
        found = profile(**key)  # waits while the other process records its round
        read.set()
        go.wait(30)
        return found

    first.profile = pausing  # type: ignore[method-assign]
    service = threading.Thread(
        target=record_rounds, args=(first, "g", "table", g.rounds, seats, 1.0)
    )
    service.start()
    assert read.wait(30)
    # the terminal comes while the service records: it finds the database's write lock
    # taken (it is told at once here, not after waiting its turn)
    second._db.execute("PRAGMA busy_timeout = 0")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        record_rounds(second, "h", "terminal", h.rounds, seats, 2.0)
    go.set()
    service.join(30)
    record_rounds(second, "h", "terminal", h.rounds, seats, 2.0)  # now its turn
    first.profile = profile  # type: ignore[method-assign]
    ann = second.profile(id="p-1")
    assert ann is not None and ann.figures.rounds == 2
    # the same two rounds recorded one after the other, in a database of their own
    alone = MemoryStorage()
    alone.create_profile(StoredProfile("p-1", "Ann", "en", "red", PERSON, "t", 0.0, Figures(25, 8)))
    computer_profiles(alone, ["basic"], {}, 0.0)
    record_rounds(alone, "g", "table", g.rounds, seats, 1.0)
    record_rounds(alone, "h", "terminal", h.rounds, seats, 2.0)
    want = alone.profile(id="p-1")
    assert want is not None and ann.figures.mu != 25.0
    assert (ann.figures.mu, ann.figures.sigma) == (want.figures.mu, want.figures.sigma)
    first.close()
    second.close()


def test_a_calibration_anchored_on_paired_results_keeps_their_order() -> None:
    from domeng.history.calibration import anchored

    base = {"basic": Rating(25.5, 1.9), "random": Rating(24.3, 1.9), "expert": Rating(24.0, 2.0)}
    paired = {"random": 0.2, "basic": 0.01, "fast": -0.05, "expert": -0.07}
    out = anchored(base, paired)
    assert out["basic"] == base["basic"] and out["random"] == base["random"]
    # A stone a round is worth (25.5 - 24.3) / (0.2 - 0.01) points, from the anchor.
    points = 1.2 / 0.19
    assert out["expert"].mu == pytest.approx(25.5 + 0.08 * points)
    assert out["fast"].mu == pytest.approx(25.5 + 0.06 * points)
    assert out["expert"].mu > out["fast"].mu > out["basic"].mu > out["random"].mu
    assert out["expert"].sigma == 1.9
    with pytest.raises(ValueError):
        anchored(base, {"random": -0.1, "expert": 0.0})  # random stronger than basic
    with pytest.raises(ValueError):
        anchored(base, {"expert": 0.0})  # nothing to scale by


def test_levels_that_invert_the_ladder_within_noise_are_pooled() -> None:
    from domeng.history.calibration import anchored

    base = {"basic": Rating(25.5, 1.9), "random": Rating(24.3, 1.9)}
    paired = {"random": 0.2, "basic": 0.0, "fast": -0.05, "expert": -0.07, "strong": -0.06}
    order = ("random", "basic", "fast", "expert", "strong")
    out = anchored(base, paired, order=order)
    assert out["expert"].mu == out["strong"].mu == pytest.approx(25.5 + 0.065 * 1.2 / 0.2)
    assert out["fast"].mu < out["expert"].mu
    # Without the order each keeps its own result.
    free = anchored(base, paired)
    assert free["strong"].mu < free["expert"].mu
    # Three in a row pooled: (-0.05, -0.03, -0.04) -> their mean.
    three = anchored(base, {**paired, "fast": -0.05, "expert": -0.03, "strong": -0.04}, order=order)
    assert three["fast"].mu == three["expert"].mu == three["strong"].mu


def test_an_anchored_calibration_may_take_its_scale_from_elsewhere() -> None:
    from domeng.history.calibration import anchored

    base = {"basic": Rating(25.5, 1.9), "random": Rating(24.3, 1.9)}
    out = anchored(base, {"basic": 0.05, "expert": -0.15}, points=6.0)
    assert out["expert"].mu == pytest.approx(25.5 + 0.2 * 6.0)
    with pytest.raises(ValueError):
        anchored(base, {"expert": -0.1}, points=0.0)


def test_a_pooled_pair_that_now_inverts_the_level_below_is_pooled_with_it_too() -> None:
    from domeng.history.calibration import anchored

    base = {"basic": Rating(25.5, 1.9), "random": Rating(24.3, 1.9)}
    order = ("random", "basic", "fast", "expert", "strong")
    # strong (-0.03) inverts expert (-0.06): their mean, -0.045, now inverts fast
    # (-0.05), and the three are pooled to the mean of the three levels' results.
    paired = {"random": 0.2, "basic": 0.0, "fast": -0.05, "expert": -0.06, "strong": -0.03}
    out = anchored(base, paired, order=order)
    mean = (0.05 + 0.06 + 0.03) / 3
    for name in ("fast", "expert", "strong"):
        assert out[name].mu == pytest.approx(25.5 + mean * 1.2 / 0.2)
    rated = [out[n].mu for n in order]
    assert rated == sorted(rated)


def test_an_anchored_calibration_leaves_out_a_level_of_the_order_not_measured() -> None:
    from domeng.history.calibration import anchored

    base = {"basic": Rating(25.5, 1.9), "random": Rating(24.3, 1.9)}
    order = ("random", "basic", "fast", "expert", "strong")
    out = anchored(base, {"random": 0.2, "basic": 0.0, "expert": -0.05}, order=order)
    assert set(out) == {"random", "basic", "expert"}
    assert out["expert"].mu == pytest.approx(25.5 + 0.05 * 1.2 / 0.2)


def test_an_anchored_calibration_refuses_a_scale_it_cannot_take() -> None:
    from domeng.history.calibration import anchored

    base = {"basic": Rating(25.5, 1.9), "random": Rating(24.3, 1.9)}
    with pytest.raises(ValueError):  # no gap between the two: no scale
        anchored(base, {"random": 0.1, "basic": 0.1, "expert": -0.1})
    upside_down = {"basic": Rating(24.3, 1.9), "random": Rating(25.5, 1.9)}
    with pytest.raises(ValueError):  # the base rates random above basic
        anchored(upside_down, {"random": 0.2, "basic": 0.0, "expert": -0.1})
    with pytest.raises(ValueError):  # points per stone that are no number
        anchored(base, {"basic": 0.0, "expert": -0.1}, points=float("nan"))


def test_the_anchor_and_the_scale_level_keep_their_ratings_and_sigma_is_the_anchor_s() -> None:
    from domeng.history.calibration import anchored

    base = {"basic": Rating(25.5, 1.9), "random": Rating(24.3, 2.4)}
    # the scale from elsewhere: neither needs a paired result of this run
    out = anchored(base, {"expert": -0.15}, points=6.0)
    assert set(out) == {"basic", "random", "expert"}
    assert out["basic"] == base["basic"] and out["random"] == base["random"]
    assert out["expert"].mu == pytest.approx(25.5 + 0.15 * 6.0) and out["expert"].sigma == 1.9
    scaled = anchored(base, {"random": 0.2, "basic": 0.0, "expert": -0.1})
    assert scaled["random"] == base["random"] and scaled["basic"] == base["basic"]
    assert scaled["expert"].sigma == 1.9


def test_a_calibrated_rating_is_the_mean_of_the_second_half_with_the_last_sigma() -> None:
    game = played(7, 4, ["basic", "random", "basic", "random", "random"])
    names = ["a", "b", "c", "d", "e"]  # five players, one seat each
    now = [NEW] * 5
    after = []
    for r in game.rounds:
        now = rate(now, [f.place for f in round_figures(r)])
        after.append(now)
    got = calibrate([(names, game)])
    for i, name in enumerate(names):
        # the first two rounds bring each from a new player's rating; the last two count
        assert got[name].mu == pytest.approx((after[2][i].mu + after[3][i].mu) / 2)
        assert got[name].sigma == after[3][i].sigma
