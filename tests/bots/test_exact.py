"""Exact search of a round's end (domeng.bots.exact), every placement of the hidden tiles
(domeng.bots.sampling.placements), the tiles' numbers helper, and the coach's exact
mode."""

from __future__ import annotations

import random

import pytest

from domeng.bots import make_player
from domeng.bots.coach import best_move, judge_position
from domeng.bots.exact import TooBig, solve, solve_moves
from domeng.bots.levels import Level
from domeng.bots.rollout import round_value
from domeng.bots.sampling import DealSampler, placements
from domeng.engine import Game, Round, SeatView
from domeng.engine.moves import SEATS
from domeng.engine.tiles import HIGH, LOW, TILE_COUNT, numbers_shown, tiles_of

TINY = Level("exact:tiny", 60, 30.0)


def late_positions(most_tiles: int, count: int, seed: int) -> list[tuple[Round, SeatView]]:
    """Positions of games of five ``basic`` with a choice and at most ``most_tiles`` tiles
    in all hands."""
    rng = random.Random(seed)
    players = [make_player("basic", seed + s) for s in range(5)]
    game = Game()
    found: list[tuple[Round, SeatView]] = []
    while len(found) < count:
        r = game.deal(rng)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            v = game.view(seat)
            if len(v.legal_moves) > 1 and sum(h.bit_count() for h in r.hands) <= most_tiles:
                found.append((r.clone(), v))
            r.play(players[seat].choose(v))
    return found[:count]


def brute(r: Round, since: int) -> tuple[float, ...]:
    """Max^n by plain recursion, for checking."""
    if r.finished:
        return tuple(round_value(r, s, since) for s in range(SEATS))
    seat = r.turn
    assert seat is not None
    options = []
    for m in r.legal_moves():
        c = r.clone()
        c.play(m)
        options.append(brute(c, since))
    best = options[0]
    for o in options[1:]:
        if o[seat] > best[seat]:
            best = o
    return best


def test_solve_is_the_best_line_for_each_seat_in_turn() -> None:
    for r, _ in late_positions(9, 12, 4):
        values, end = solve(r)
        assert values == brute(r, len(r.events))
        assert end.finished
        seat = r.turn
        assert seat is not None
        # No move of the seat in turn does better for it, and the best is one of them.
        each = solve_moves(r, r.legal_moves())
        assert max(v for v, _, _ in each) == values[seat]
        for value, finished, after in each:
            assert finished.finished and len(r.events) < after <= len(finished.events)
            assert value == round_value(finished, seat, len(r.events))


def test_a_search_past_its_budget_stops() -> None:
    r, _ = late_positions(9, 1, 5)[0]
    with pytest.raises(TooBig):
        solve(r, budget=0)


def test_placements_are_every_consistent_deal_once() -> None:
    for r, v in late_positions(8, 6, 6):
        sampler = DealSampler(v)
        every = placements(sampler, 10**6)
        assert every is not None and len(every) == sampler.count
        keys = {(tuple(h), u) for h, u in every}
        assert len(keys) == len(every)
        assert (tuple(r.hands), r.unused) in keys  # the truth is one of them
        for hands, unused in every:
            assert hands[v.seat] == v.hand
            assert [h.bit_count() for h in hands] == list(v.hand_counts)
            assert unused.bit_count() == 3 and not unused & v.hand
            for s in range(SEATS):
                for n in range(7):
                    if v.lacking[s] >> n & 1:
                        assert not numbers_shown(hands[s]) >> n & 1
        # Draws land on them only.
        rng = random.Random(1)
        for _ in range(50):
            hands, unused = sampler.sample(rng)
            assert (tuple(hands), unused) in keys
        assert placements(sampler, sampler.count - 1) is None


def test_numbers_shown_is_the_numbers_of_the_tiles() -> None:
    rng = random.Random(3)
    for _ in range(200):
        mask = rng.getrandbits(TILE_COUNT)
        want = 0
        for t in tiles_of(mask):
            want |= 1 << HIGH[t] | 1 << LOW[t]
        assert numbers_shown(mask) == want
    assert numbers_shown(0) == 0


def test_the_exact_coach_solves_late_positions_and_agrees_with_its_player() -> None:
    for _, v in late_positions(7, 4, 8):
        j = judge_position(v, TINY, exact=7)
        assert j.best.move == best_move(v, TINY, exact=7)
        played = judge_position(v, TINY, exact=0)
        assert [mv.playouts for mv in j.moves] != [mv.playouts for mv in played.moves]
        assert {mv.move for mv in j.moves} == set(v.legal_moves)
