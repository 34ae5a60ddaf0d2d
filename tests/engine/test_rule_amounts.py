"""The rules' amounts and the small rules the players use, each named once in the engine
(domeng.engine.events, moves, tiles), and the rounds keep to them."""

from __future__ import annotations

import random

import pytest

from domeng.engine import (
    SEATS,
    BlockPasses,
    Finish,
    Game,
    Opening,
    Passed,
    Played,
    Reason,
    RoundEnd,
    RoundEnded,
    StonesMoved,
    Variants,
    ending_award,
    parse_tile,
)
from domeng.engine.events import (
    CEKI_STONES,
    CUCUQ_STONES_ON,
    MANGUNO_STONES,
    MATTIKKENG_SHARED_STONES,
    MATTIKKENG_STONES,
    MOST_STONES,
    PASS_STONES,
    PASSEBUNGE_STONES,
    PLAIN_STONES,
    POLLO_STONES,
    finish_of,
    finish_on,
    finish_stones,
    is_mattikkeng,
    pass_stones,
)
from domeng.engine.moves import HAND_SIZE, NEXT_SEAT, PREV_SEAT, UNUSED_TILES
from domeng.engine.tiles import ENDS_MASK, HIGH, LOW, NUMBERS, OTHER_HALF, TILE_COUNT, other_half

T = parse_tile


def test_the_amounts_are_the_rules() -> None:
    # shared/spec/rules.md: a PASS 1, a PASSEBUNGE 2; the CUCUQ 1, 3 (CEKI), 5 (POLLO); the
    # CUCUQ of a MANGUNO 1; the MANGUNO 5 from a MATTIKKENG, or 1.
    assert (PASS_STONES, PASSEBUNGE_STONES) == (1, 2)
    assert (PLAIN_STONES, CEKI_STONES, POLLO_STONES) == (1, 3, 5)
    assert (MANGUNO_STONES, MATTIKKENG_STONES, MATTIKKENG_SHARED_STONES) == (1, 5, 1)
    assert MOST_STONES == 5
    assert [pass_stones(False), pass_stones(True)] == [PASS_STONES, PASSEBUNGE_STONES]
    assert {f: finish_stones(f) for f in Finish} == {
        Finish.PLAIN: PLAIN_STONES,
        Finish.CEKI: CEKI_STONES,
        Finish.POLLO: POLLO_STONES,
    }


def test_the_finish_of_a_last_tile() -> None:
    assert finish_of(T("6-4"), False) is Finish.PLAIN
    assert finish_of(T("6-6"), False) is Finish.PLAIN
    assert finish_of(T("6-4"), True) is Finish.CEKI
    assert finish_of(T("6-6"), True) is Finish.POLLO
    # on ends 6 and 4: [6|4] leaves 4 and 4 (or 6 and 6), a CEKI; [6|6] leaves 6 and 4
    assert finish_on(T("6-4"), 6, 4) is Finish.CEKI
    assert finish_on(T("6-4"), 4, 6) is Finish.CEKI
    assert finish_on(T("6-6"), 6, 4) is Finish.PLAIN
    assert finish_on(T("4-1"), 6, 4) is Finish.PLAIN
    # on ends 4 and 4: only [4|4] is a POLLO
    assert finish_on(T("4-4"), 4, 4) is Finish.POLLO
    assert finish_on(T("6-4"), 4, 4) is Finish.PLAIN
    with pytest.raises(ValueError, match="fits neither"):
        finish_on(T("3-2"), 6, 4)


def test_the_finish_does_not_depend_on_the_end_chosen() -> None:
    for t in range(TILE_COUNT):
        for left in NUMBERS:
            for right in NUMBERS:
                finishes = set()
                if left in (HIGH[t], LOW[t]):
                    finishes.add(finish_of(t, OTHER_HALF[t * 7 + left] == right))
                if right in (HIGH[t], LOW[t]):
                    finishes.add(finish_of(t, OTHER_HALF[t * 7 + right] == left))
                if finishes:
                    assert finishes == {finish_on(t, left, right)}


def test_the_cucuq_table_is_finish_on_in_stones() -> None:
    for t in range(TILE_COUNT):
        for left in NUMBERS:
            for right in NUMBERS:
                got = CUCUQ_STONES_ON[t * 49 + left * 7 + right]
                if ENDS_MASK[left * 7 + right] >> t & 1:
                    assert got == finish_stones(finish_on(t, left, right))
                else:
                    assert got == 0


def test_the_small_rules_of_seats_tiles_and_mattikkeng() -> None:
    assert [NEXT_SEAT[s] for s in range(SEATS)] == [1, 2, 3, 4, 0]
    assert [PREV_SEAT[s] for s in range(SEATS)] == [4, 0, 1, 2, 3]
    assert UNUSED_TILES == TILE_COUNT - SEATS * HAND_SIZE == 3
    for t in range(TILE_COUNT):
        for n in NUMBERS:
            half = n in (HIGH[t], LOW[t])
            assert OTHER_HALF[t * 7 + n] == (other_half(t, n) if half else -1)
    assert is_mattikkeng(7, 7) and is_mattikkeng(3, 7) and not is_mattikkeng(8, 7)
    assert is_mattikkeng(6.5, 7) and not is_mattikkeng(7.5, 7)


def _random_rounds(count: int, variants: Variants, seed: int) -> list[Game]:
    rng = random.Random(seed)
    games = []
    game = Game(variants)
    for n in range(count):
        if n % 200 == 0:
            game = Game(variants)
            games.append(game)
        r = game.deal(rng)
        while not r.finished:
            game.play(rng.choice(game.legal_moves()))
    return games


VARIANTS = [Variants(), Variants(Opening.FREE, BlockPasses.FREE)]


@pytest.mark.parametrize("variants", VARIANTS, ids=["default", "free"])
def test_rounds_pay_the_named_amounts(variants: Variants) -> None:
    seen: set[Finish | str] = set()
    short = 0
    for game in _random_rounds(1200, variants, seed=5):
        for r in game.rounds:
            events = r.events
            ends_before: tuple[int, int] | None = None
            ends: tuple[int, int] | None = None
            for i, e in enumerate(events):
                if type(e) is Played:
                    ends_before, ends = ends, (e.left, e.right)
                elif type(e) is Passed:
                    due = pass_stones(e.passebunge)
                    paid = []
                    for later in events[i + 1 :]:
                        if type(later) is not StonesMoved:
                            break
                        paid.append(later)
                    assert sum(m.amount for m in paid) == e.stones <= due
                    reason = Reason.PASSEBUNGE if e.passebunge else Reason.PASS
                    assert all(m.reason is reason and m.receiver == e.seat for m in paid)
                    short += e.stones < due
                elif type(e) is StonesMoved:
                    assert 1 <= e.amount <= MOST_STONES
            ended = r.result
            assert isinstance(ended, RoundEnded)
            if ended.end is RoundEnd.CAPPU:
                last = next(e for e in reversed(events) if type(e) is Played)
                assert ends_before is not None and ended.finish is not None
                assert finish_on(last.tile, *ends_before) is ended.finish
                assert ending_award(ended)[1] == finish_stones(ended.finish)
                assert ended.cucuq == PREV_SEAT[last.seat]
                seen.add(ended.finish)
            else:
                assert ended.manguno is not None
                mine = ended.pip_totals[ended.manguno]
                expected = [
                    s
                    for k in range(1, SEATS)
                    if is_mattikkeng(ended.pip_totals[s := (ended.manguno + k) % SEATS], mine)
                ]
                assert list(ended.mattikkeng) == expected
                seen.add("block")
    assert seen == {*Finish, "block"}
    assert short  # some passes found the table short
