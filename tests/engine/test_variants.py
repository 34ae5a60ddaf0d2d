"""The two variants side by side on the same deals: ``block_passes`` (penalized /
free) and ``opening`` (double / free)."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from domeng.engine import (
    BlockPasses,
    Game,
    Opening,
    Passed,
    Played,
    Reason,
    RoundEnded,
    StonesMoved,
    Variants,
)

from .deals import (
    BLOCK_MOVES,
    LEMPA_BLOCK_DEAL,
    LEMPA_BLOCK_MOVES,
    PASSEBUNGE_DEAL,
    PASSEBUNGE_MOVES,
    RETURN_DEAL,
    RETURN_MOVES,
    block_round,
    by_rel,
    deal_of,
    make_round,
    play,
)

PENALIZED = Variants()
FREE = Variants(block_passes=BlockPasses.FREE)
ALL = [
    Variants(o, b) for o in (Opening.DOUBLE, Opening.FREE) for b in BlockPasses
]  # the four combinations


def split_at_block(
    events: Sequence[object],
) -> tuple[Sequence[object], Sequence[object], Sequence[object]]:
    """(up to the MANGUNO's play, the block passes with their stones, from RoundEnded on)."""
    last_play = max(i for i, e in enumerate(events) if isinstance(e, Played))
    end = next(i for i, e in enumerate(events) if isinstance(e, RoundEnded))
    return events[: last_play + 1], events[last_play + 1 : end], events[end:]


@pytest.mark.parametrize(
    ("hands", "moves", "stones", "table"),
    [
        (PASSEBUNGE_DEAL, PASSEBUNGE_MOVES, [0] * 5, 25),
        (PASSEBUNGE_DEAL, PASSEBUNGE_MOVES, [0, 12, 0, 10, 0], 3),
        (LEMPA_BLOCK_DEAL, LEMPA_BLOCK_MOVES, [0] * 5, 25),
        (LEMPA_BLOCK_DEAL, LEMPA_BLOCK_MOVES, [2, 0, 20, 0, 0], 3),
    ],
)
def test_block_passes_free_drops_exactly_the_passes_after_the_manguno_play(
    hands: list[str], moves: list[str], stones: list[int], table: int
) -> None:
    pen = make_round(hands, starter=0, stones=stones, table=table, variants=PENALIZED)
    free = make_round(hands, starter=0, stones=stones, table=table, variants=FREE)
    play(pen, moves)
    play(free, moves)
    before_p, passes_p, end_p = split_at_block(pen.events)
    before_f, passes_f, end_f = split_at_block(free.events)
    # everything up to the MANGUNO's play is the same (earlier passes included)
    assert before_p == before_f
    # penalized: all five seats pass, starting after the MANGUNO, MANGUNO last
    manguno = pen.last_mappano
    assert manguno is not None
    seats = [e.seat for e in passes_p if isinstance(e, Passed)]
    assert seats == [(manguno + k) % 5 for k in range(1, 6)]
    assert all(isinstance(e, Passed | StonesMoved) for e in passes_p)
    # free: nobody passes after the MANGUNO's play, no stones move for it
    assert passes_f == []
    # the same ending (hands, winner, MATTIKKENG) either way
    assert end_p[0] == end_f[0] == pen.result == free.result
    assert free.table + sum(free.stones) == pen.table + sum(pen.stones) == 25


def test_block_passes_free_the_round_ends_right_after_the_mangunos_play() -> None:
    r = block_round("none", 1, variants=FREE)
    play(r, BLOCK_MOVES[:-1])
    assert not r.finished and r.turn == 1
    play(r, BLOCK_MOVES[-1:])
    assert r.finished and r.turn is None
    assert isinstance(r.events[-3], Played) and isinstance(r.events[-2], RoundEnded)
    assert r.stones == by_rel([0, 0, 0, 0, 1], 1) and r.table == 24


def test_passes_before_a_block_cost_stones_in_both_variants() -> None:
    for variants in (PENALIZED, FREE):
        r = make_round(PASSEBUNGE_DEAL, starter=0, variants=variants)
        play(r, PASSEBUNGE_MOVES[:4])
        assert r.events[-2:] == [
            Passed(4, True, 2, 0, 3),
            StonesMoved(None, 4, 2, Reason.PASSEBUNGE),
        ]
        assert r.stones == [0, 0, 0, 0, 2]


def test_passes_that_are_no_block_are_the_same_in_both_variants() -> None:
    pen = make_round(RETURN_DEAL, starter=0, variants=PENALIZED)
    free = make_round(RETURN_DEAL, starter=0, variants=FREE)
    play(pen, RETURN_MOVES)
    play(free, RETURN_MOVES)
    assert pen.events == free.events
    assert pen.stones == free.stones == [2, 2, 1, 6, 4]


@pytest.mark.parametrize("variants", ALL)
def test_a_games_variants_apply_to_every_round(variants: Variants) -> None:
    g = Game(variants)
    assert g.variants == variants
    rng = random.Random(5)
    for _ in range(4):
        r = g.deal(rng)
        assert r.variants == variants
        assert g.view(r.starter).variants == variants
        while not r.finished:
            g.play(r.legal_moves()[0])
    # opening: only the first round may be bound to a LEMPA
    assert all(r.opening_tile is None for r in g.rounds[1:])
    assert (g.rounds[0].opening_tile is not None) == (variants.opening is Opening.DOUBLE)


@pytest.mark.parametrize("variants", ALL)
def test_first_round_deal_by_variant(variants: Variants) -> None:
    g = Game(variants)
    r = g.start_round(*deal_of(LEMPA_BLOCK_DEAL))
    assert r.starter == 0  # the 6-6 in either opening variant
    assert len(r.legal_moves()) == (1 if variants.opening is Opening.DOUBLE else 5)
