"""``basic``'s judgement (domeng.bots.basic.judge), the one copy the ``basic`` player and
the play-outs share: the stones it weighs are the engine's, and the play-outs' inline
adapters make the moves heuristic_move makes."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domeng.bots.basic import (
    BLOCK_LIKELY,
    BLOCK_RISKY,
    BLOCK_SURE,
    FINISH,
    PLAYOUT_WEIGHTS,
    Weights,
    block_value,
    judge,
)
from domeng.bots.rollout import DEFAULT_WEIGHTS, excluded_by_passes, heuristic_move, play_out
from domeng.engine import End, Finish, Game, Move, Passed, Round, RoundEnd, ending_award, move
from domeng.engine.events import finish_on, finish_stones
from domeng.engine.moves import NEXT_SEAT
from domeng.engine.tiles import ENDS_MASK, NUMBERS, OTHER_HALF, TILE_COUNT, parse_tile

T = parse_tile


def _zero() -> float:
    return 0.0


def _score(r: Round, m: Move, w: Weights) -> float:
    """The judgement's score of ``m`` for the seat in turn, every hand known (a play-out's
    belief), without noise."""
    seat = r.turn
    assert seat is not None
    hand = r.hands[seat]
    out: list[float] = []
    judge((m,), seat, hand, r.left, r.right, r.in_hands & ~hand, r.hands, None, w, _zero, out)
    return out[0]


def _positions(count: int, seed: int) -> list[Round]:
    """Copies of random rounds where the seat in turn has a choice or holds one tile."""
    rng = random.Random(seed)
    found: list[Round] = []
    game = Game()
    while len(found) < count:
        r = game.deal(rng)
        while not r.finished:
            if len(r.legal_moves()) > 1 or r.hands[r.turn or 0].bit_count() == 1:
                found.append(r.clone())
            r.play(rng.choice(r.legal_moves()))
    return found


def test_the_danger_is_the_stones_the_engine_gives_the_cucuq() -> None:
    # The next seat holds one tile: for every move, the danger the judgement counts per
    # unit of weight is what the engine gives this seat, the CUCUQ, when the next seat
    # then finishes (nothing when it cannot play on the new ends).
    on = dataclasses.replace(PLAYOUT_WEIGHTS, danger=1.0)
    off = dataclasses.replace(PLAYOUT_WEIGHTS, danger=0.0)
    finishes: set[Finish] = set()
    for r in _positions(6000, seed=1):
        seat = r.turn
        assert seat is not None
        nxt = NEXT_SEAT[seat]
        if r.hands[nxt].bit_count() != 1 or r.hands[seat].bit_count() == 1:
            continue
        for m in r.legal_moves():
            fear = _score(r, m, off) - _score(r, m, on)
            c = r.clone()
            c.play(m)
            if c.turn != nxt:
                assert fear == 0
                continue
            c.play(c.legal_moves()[0])
            assert c.result is not None and c.result.end is RoundEnd.CAPPU
            assert c.result.finish is not None
            assert ending_award(c.result) == (seat, fear)
            assert fear == finish_stones(c.result.finish)
            finishes.add(c.result.finish)
    assert finishes == set(Finish)


def test_the_danger_of_every_finish_on_every_ends() -> None:
    # Every tile the next seat may finish with, on every ends it fits: the danger is the
    # engine's award for that finish.
    on = dataclasses.replace(PLAYOUT_WEIGHTS, danger=1.0)
    off = dataclasses.replace(PLAYOUT_WEIGHTS, danger=0.0)
    checked = 0
    for c in range(TILE_COUNT):
        for left in NUMBERS:
            for right in NUMBERS:
                if not ENDS_MASK[left * 7 + right] >> c & 1:
                    continue
                # Seat 0 puts [x|left] on the left end, showing x, so that the ends become
                # left and right; it keeps one more tile. Seat 1 holds only c.
                x, t = next(
                    (x, t)
                    for x in NUMBERS
                    for t in range(TILE_COUNT)
                    if t != c and OTHER_HALF[t * 7 + x] == left
                )
                spare = next(u for u in range(TILE_COUNT) if u not in (c, t))
                hand = 1 << t | 1 << spare
                hands = [hand, 1 << c, 0, 0, 0]
                m = move(t, End.LEFT)
                scores = []
                for w in (off, on):
                    out: list[float] = []
                    judge((m,), 0, hand, x, right, 1 << c, hands, None, w, _zero, out)
                    scores.append(out[0])
                assert scores[0] - scores[1] == finish_stones(finish_on(c, left, right))
                checked += 1
    assert checked == sum(ENDS_MASK[key].bit_count() for key in range(49))


def test_a_finishing_move_scores_its_finish_as_the_engine_pays_it() -> None:
    for r in _positions(4000, seed=2):
        seat = r.turn
        assert seat is not None
        if r.hands[seat].bit_count() != 1:
            continue
        for m in r.legal_moves():
            c = r.clone()
            c.play(m)
            assert c.result is not None and c.result.finish is not None
            assert _score(r, m, DEFAULT_WEIGHTS) == FINISH + finish_stones(c.result.finish)


def test_a_blocked_line_is_judged_by_the_engines_mattikkeng() -> None:
    # The last play of a blocked round: with every hand known, blocking is BLOCK_SURE
    # exactly when the engine then finds no MATTIKKENG.
    rng = random.Random(3)
    game = Game()
    seen = set()
    ties = 0
    while len(seen) < 2 or ties < 5:
        r = game.deal(rng)
        before = r.clone()
        while not r.finished:
            before = r.clone()
            r.play(rng.choice(r.legal_moves()))
        assert r.result is not None
        if r.result.end is not RoundEnd.BLOCK:
            continue
        seat = r.result.manguno
        assert seat is not None and before.turn == seat
        rest = r.hands[seat]
        others = before.in_hands & ~before.hands[seat]
        hands = list(before.hands)
        hands[seat] = rest
        value = block_value(seat, rest, others, hands, None)
        assert value == (BLOCK_RISKY if r.result.mattikkeng else BLOCK_SURE)
        seen.add(value)
        totals = r.result.pip_totals
        ties += any(totals[s] == totals[seat] for s in r.result.mattikkeng)


def _tiles(text: str) -> int:
    return sum(1 << T(t) for t in text.split())


def test_a_believed_block_is_sure_likely_or_risky() -> None:
    # Seat 0 blocks the line; each other seat holds one tile among the seven it cannot see.
    counts = [1, 1, 1, 1, 1]

    def value(rest: str, unseen: str) -> float:
        hidden = _tiles(unseen)
        return block_value(0, _tiles(rest), hidden, [_tiles(rest)] + [hidden] * 4, counts)

    # 0 pips left: no other seat can have as few
    assert value("0-0", "6-6 6-5 5-5 6-4 6-3 5-4 4-4") == BLOCK_SURE
    # 2 pips: a seat may hold [1|0], but the average unseen tile has 62 / 7 pips
    assert value("2-0", "1-0 6-6 5-5 6-4 6-3 5-4 6-5") == BLOCK_LIKELY
    # 11 pips: the average unseen tile has 41 / 7
    assert value("6-5", "1-0 2-0 2-1 3-0 6-6 5-5 6-4") == BLOCK_RISKY
    # as many pips is as few (MATTIKKENG): [1|1] may match 2 pips, an average of 3 matches 3
    assert value("2-0", "1-1 6-6 5-5 6-4 6-3 5-4 6-5") == BLOCK_LIKELY
    assert value("3-0", "1-0 2-0 1-1 2-1 4-0 2-2 5-0") == BLOCK_RISKY


@pytest.mark.parametrize("fair", [False, True], ids=["exact", "fair"])
def test_play_out_plays_the_moves_of_heuristic_move(fair: bool) -> None:
    # play_out has heuristic_move's body inline (for speed): the same moves, step by step.
    for i, base in enumerate(_positions(60, seed=4)):
        excluded = excluded_by_passes(base) if fair else None
        a = base.clone()
        play_out(a, random.Random(i), excluded=excluded)
        b = base.clone()
        rng = random.Random(i)
        ex = None if excluded is None else excluded[:]
        while not b.finished:
            n = len(b.events)
            b.play(heuristic_move(b, rng, excluded=ex))
            if ex is not None:
                for e in b.events[n + 1 :]:
                    if isinstance(e, Passed):
                        ex[e.seat] |= ENDS_MASK[e.left * 7 + e.right]
        assert a.events == b.events
