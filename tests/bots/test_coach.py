"""The coach (domeng.bots.coach, domeng.bots.reasons): values, beliefs and reasons, on
positions built by hand, and its determinism."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domeng.bots.coach import find, hindsight, judge_position
from domeng.bots.expert import Level
from domeng.bots.reasons import KEYS, reasons
from domeng.engine import End, Game, Round, Variants, move, parse_tile, view
from domeng.engine.moves import SEATS
from domeng.engine.tiles import FULL_SET, mask_of

PREFIX = [
    "6-0", "0-0", "1-0", "1-1", "2-1", "2-0", "3-0", "3-1", "4-1", "4-0",
    "5-0", "5-2", "2-2", "4-2", "4-4", "4-3", "3-3", "5-3", "5-5",
]  # fmt: skip
"""Nineteen plays of the hands below: everyone plays in turn, the left end shows 6."""

LEVEL = Level("coach:test", 1200, 30.0)
"""Enough play-outs for steady values; a cap no test machine reaches."""


def make_round(hands: list[str], *, starter: int, number: int = 2) -> Round:
    """A later round (no first-round starter rule) from five written hands."""
    masks = [mask_of(parse_tile(t) for t in h.split()) for h in hands]
    held = 0
    for m in masks:
        held |= m
    return Round(masks, FULL_SET & ~held, starter=starter, number=number, variants=Variants())


def play(r: Round, moves: list[str]) -> None:
    for text in moves:
        tile, *end = text.split()
        r.play(move(tile, End.parse(end[0]) if end else End.RIGHT))


def one_tile_position() -> Round:
    """Nineteen plays, nobody passed; the left end shows 6 throughout and seat 0, who
    never answered it, holds one tile (6-6). Seat 4 is in turn with 6-5 and 6-2 on
    the ends (6, 5), and seat 0 plays next: seat 4 is its CUCUQ if it finishes."""
    r = make_round(
        [
            "6-0 2-0 5-0 4-3 6-6",
            "0-0 3-0 5-2 3-3 3-2",
            "1-0 3-1 2-2 5-3 5-1",
            "1-1 4-1 4-2 5-5 6-1",
            "2-1 4-0 4-4 6-5 6-2",
        ],
        starter=0,
    )
    play(r, PREFIX)
    return r


def pass_position() -> Round:
    """Seat 3 passed on the ends (6, 3), so it holds no 6 and no 3. Seat 2 is in turn
    on (6, 5) with 5-3 (leaves (6, 3): seat 3 must PASS), 5-0 and 6-0."""
    r = make_round(
        [
            "6-6 4-2 6-5 5-5 4-1",
            "6-1 5-2 6-4 3-3 2-1",
            "3-1 5-3 5-0 3-0 6-0",
            "0-0 1-0 2-0 1-1 2-2",
            "4-3 5-4 6-2 3-2 4-0",
        ],
        starter=0,
    )
    play(r, ["6-6", "6-1", "3-1", "4-3", "4-2", "5-2"])
    return r


def test_a_judgement_values_every_legal_move_best_first() -> None:
    r = pass_position()
    v = view(r, 2)
    j = judge_position(v, LEVEL, seed=1)
    assert {m.move for m in j.moves} == set(v.legal_moves)
    values = [m.value for m in j.moves]
    assert values == sorted(values, reverse=True)
    assert j.best.gap_error == 0.0
    for m in j.moves:
        assert m.playouts == LEVEL.playouts // len(v.legal_moves)
        assert m.error > 0 and m.gap_error >= 0
        assert -m.stones - 4 <= m.value <= 5  # the objective's bounds, roughly
        assert 0 <= m.first_cappu <= 1 and 0 <= m.camat <= 1
    # 5-3 leaves (6, 3): seat 3 showed it holds neither, so it PASSes, every time.
    assert find(j.moves, move("5-3")).passes[3] == pytest.approx(1.0)
    assert find(j.moves, move("6-0", End.LEFT)).passes[3] == 0.0


def test_the_beliefs_obey_what_the_seat_saw() -> None:
    r = pass_position()
    v = view(r, 2)
    b = judge_position(v, LEVEL, seed=1).beliefs
    assert set(b.tiles) == set(t for t in range(28) if v.unseen >> t & 1)
    for where in b.tiles.values():
        assert sum(where) == pytest.approx(1.0)
        assert where[2] == 0.0  # never in the seat's own hand
    # Seat 3 passed on 6 and 3: it holds neither number.
    assert b.numbers[3][6] == 0.0 and b.numbers[3][3] == 0.0
    # Every seat holds, on average, as many tiles as it does.
    for s in range(SEATS):
        if s != 2:
            assert sum(w[s] for w in b.tiles.values()) == pytest.approx(v.hand_counts[s])
    # The seat knows its own hand.
    assert b.numbers[2] == tuple(1.0 if n in (0, 3, 5, 6) else 0.0 for n in range(7))


def test_the_others_plays_shape_the_beliefs() -> None:
    # Seat 0 could have answered the 6 end at each of its plays and never did: the play
    # model believes it probably holds no 6, although half of the unseen tiles show one.
    b = judge_position(view(one_tile_position(), 4), LEVEL, seed=1).beliefs
    assert b.numbers[0][6] < 0.45
    assert b.numbers[1][6] > b.numbers[0][6]


def test_a_judgement_is_deterministic_for_a_seed() -> None:
    v = view(pass_position(), 2)
    a, b = judge_position(v, LEVEL, seed=5), judge_position(v, LEVEL, seed=5)
    assert a.moves == b.moves and a.beliefs == b.beliefs
    c = judge_position(v, LEVEL, seed=6)
    assert c.moves != a.moves


def test_reasons_keeps_a_number_and_makes_a_pass() -> None:
    r = pass_position()
    v = view(r, 2)
    j = judge_position(v, LEVEL, seed=1)
    # 5-3 against 6-0: 5-3 makes seat 3 PASS on the 3 it lacks, and keeps the 6 (6-0).
    five_three, six_zero = find(j.moves, move("5-3")), find(j.moves, move("6-0", End.LEFT))
    assert five_three.value > six_zero.value
    why = [w.to_json() for w in reasons(v, j, six_zero, better=five_three)]
    # What the seat saw: seat 3 passed on the ends 6 and 3, so it holds neither.
    assert {"key": "passed_on", "seat": 3, "number": 3, "other": 6} in why
    # 6-6, 6-1 are on the line and 6-0 in hand: 6-5, 6-4, 6-3, 6-2 are still unseen.
    assert {"key": "keeps_unseen", "number": 6, "other": 4} in why
    # Had the seat seen three of those four, one tile with a 6 would be unseen: "one
    # tile", not "1 tiles"
    three = mask_of(parse_tile(t) for t in ("6-5", "6-4", "6-3"))
    seen_more = dataclasses.replace(v, played_tiles=v.played_tiles | three)
    fewer = [w.to_json() for w in reasons(seen_more, j, six_zero, better=five_three)]
    assert {"key": "keeps_unseen_one", "number": 6, "other": 1} in fewer
    # The best, 5-0, against 5-3: 5-0 keeps the 3 (5-3, 3-0), and plays no 3 seat 3 lacks.
    best = [w.key for w in reasons(v, j, five_three)]
    assert "makes_pass" not in best and "passed_on" not in best


def test_reasons_a_seat_with_one_tile_left() -> None:
    r = one_tile_position()
    v = view(r, 4)
    j = judge_position(v, LEVEL, seed=1)
    # Seat 0 probably holds no 6: leaving both ends at 6 is the safe move.
    assert j.best.move == move("6-5", End.RIGHT)
    why = reasons(v, j, find(j.moves, move("6-2", End.LEFT)))
    first = why[0].to_json()
    assert first == {
        "key": "one_tile",
        "seat": 0,
        "number": 2,
        "other": 5,
        "finish": "FIRST CAPPU",
    }
    assert any(w.key == "likely_pass" and w.seat == 0 and w.number == 6 for w in why)
    # (5, 5) against (6, 6): closer; when the gap is beyond the margin, the reason says
    # "both ends at 5".
    both = reasons(v, j, find(j.moves, move("6-5", End.LEFT)))[0].to_json()
    assert both["key"] == "close" or (both["key"], both["number"]) == ("one_tile_both", 5)


def test_reasons_the_last_tile() -> None:
    # Seat 0 holds 6-4 alone on the ends (6, 4): either end makes a CEKI.
    r = make_round(
        [
            "6-0 2-0 5-0 4-3 6-4",
            "0-0 3-0 5-2 3-3 3-2",
            "1-0 3-1 2-2 5-3 5-1",
            "1-1 4-1 4-2 5-5 6-1",
            "2-1 4-0 4-4 5-4 6-2",
        ],
        starter=0,
    )
    play(r, PREFIX)
    play(r, ["5-4"])
    v = view(r, 0)
    assert len(v.legal_moves) == 2
    j = judge_position(v, LEVEL, seed=1)
    assert [w.to_json() for w in reasons(v, j)] == [{"key": "ceki", "tile": "6-4"}]
    # Either way seat 4, the CUCUQ, receives 3: the round's value to seat 0 is 0.
    assert all(m.value == pytest.approx(0.0) and m.first_cappu == 1.0 for m in j.moves)


def test_close_moves_say_so() -> None:
    v = view(pass_position(), 2)
    j = judge_position(v, LEVEL, seed=1)
    runner = j.moves[1]
    why = reasons(v, j)
    if j.best.value - runner.value < 2 * runner.gap_error:
        assert [w.key for w in why] == ["close"]
    assert all(w.key in KEYS for w in why)


def test_hindsight_sees_the_true_hands() -> None:
    # Knowing that seat 0 holds 6-6: (6, 6) is a POLLO, 5 stones for seat 4, the CUCUQ.
    r = one_tile_position()
    seen = hindsight(r, LEVEL, seed=1)
    pollo = find(seen, move("6-5", End.RIGHT))
    assert pollo.value == pytest.approx(-5.0)
    assert seen[0].move != pollo.move


def test_a_judgement_needs_the_seat_in_turn() -> None:
    g = Game()
    r = g.deal(random.Random(1))
    other = (r.turn or 0) + 1
    with pytest.raises(ValueError, match="not in turn"):
        judge_position(view(r, other % 5), LEVEL)


def test_moves_within_twice_their_gap_s_error_are_close() -> None:
    """The coach calls two moves close, rather than name a reason, when the gap between
    them is within twice its paired standard error; past that, not close."""
    v = view(pass_position(), 2)
    j = judge_position(v, LEVEL, seed=1)
    best = j.moves[0]
    for gap, error, close in ((0.3, 0.2, True), (0.3, 0.16, True), (0.3, 0.14, False)):
        other = dataclasses.replace(j.moves[1], value=best.value - gap, gap_error=error)
        judged = dataclasses.replace(j, moves=(best, other, *j.moves[2:]))
        keys = [w.key for w in reasons(v, judged)]
        assert (keys == ["close"]) is close, (gap, error, keys)
