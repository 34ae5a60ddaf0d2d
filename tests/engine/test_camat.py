"""CAMAT: elected after a FIRST CAPPU (never a MANGUNO) when the table is empty and
the FIRST CAPPU holds no stones, after all the round's stones moved; then all 25
back on the table, titles + 1, and the CAMAT opens every later round (rules.md, "CAMAT")."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from domeng.engine import (
    CamatElected,
    Game,
    Reason,
    RoundEnded,
    StonesMoved,
    move,
)
from domeng.engine.tiles import tiles_of

from .deals import (
    BLOCK_MOVES,
    FREE_BLOCK,
    block_deal,
    block_round,
    by_rel,
    cappu_deal,
    cappu_round,
    deal_of,
    play,
    rotate,
)

STARTERS = [0, 1, 2, 3, 4]


def after_end(events: Sequence[object]) -> list[object]:
    end = next(i for i, e in enumerate(events) if isinstance(e, RoundEnded))
    return list(events[end + 1 :])


@pytest.mark.parametrize("starter", STARTERS)
@pytest.mark.parametrize(
    ("finish", "table", "stones", "moved"),
    [
        # the table's last stone to the CUCUQ; the FIRST CAPPU holds none
        ("plain", 1, [0, 0, 24, 0, 0], [(None, 1)]),
        # the FIRST CAPPU gives their last stone
        ("plain", 0, [1, 0, 24, 0, 0], [(0, 1)]),
        # POLLO: 1 from the table, 2 from the FIRST CAPPU, 2 not given
        ("pollo", 1, [2, 11, 0, 11, 0], [(None, 1), (0, 2)]),
        # CEKI: the table's 3 exactly
        ("ceki", 3, [0, 0, 0, 0, 22], [(None, 3)]),
        # nothing left anywhere to give: nothing moves, still elected
        ("plain", 0, [0, 25, 0, 0, 0], []),
    ],
)
def test_first_cappu_with_no_stones_and_an_empty_table_is_elected_camat(
    starter: int,
    finish: str,
    table: int,
    stones: list[int],
    moved: list[tuple[int | None, int]],
) -> None:
    r, moves = cappu_round(finish, starter, stones=by_rel(stones, starter), table=table)
    cucuq = (starter - 1) % 5
    reason = {"plain": Reason.FIRST_CAPPU, "ceki": Reason.CEKI, "pollo": Reason.POLLO}[finish]
    play(r, moves)
    assert after_end(r.events) == [
        *(
            StonesMoved(None if g is None else (starter + g) % 5, cucuq, a, reason)
            for g, a in moved
        ),
        CamatElected(starter, 1),
    ]
    assert r.camat == starter and r.camat_elected
    assert r.titles == [1 if s == starter else 0 for s in range(5)]
    # all 25 back on the table, every player at 0
    assert r.stones == [0] * 5 and r.table == 25
    assert r.next_starter() == starter
    # the round's result still tells how it ended
    assert r.result is not None and r.result.first_cappu == starter


@pytest.mark.parametrize(
    ("finish", "table", "stones", "after"),
    [
        ("plain", 2, [0, 0, 23, 0, 0], [0, 0, 23, 0, 1]),  # 1 left on the table
        ("plain", 0, [3, 0, 22, 0, 0], [2, 0, 22, 0, 1]),  # the FIRST CAPPU keeps 2
        ("pollo", 0, [6, 19, 0, 0, 0], [1, 19, 0, 0, 5]),  # keeps 1
        ("ceki", 5, [0, 20, 0, 0, 0], [0, 20, 0, 0, 3]),  # 2 left on the table
    ],
)
def test_no_camat_while_the_table_or_the_first_cappu_holds_stones(
    finish: str, table: int, stones: list[int], after: list[int]
) -> None:
    r, moves = cappu_round(finish, 1, stones=by_rel(stones, 1), table=table)
    play(r, moves)
    assert not any(isinstance(e, CamatElected) for e in r.events)
    assert r.camat is None and not r.camat_elected and r.titles == [0] * 5
    assert r.stones == by_rel(after, 1)


@pytest.mark.parametrize(
    ("kind", "table", "stones"),
    [
        # MANGUNO wins, holds nothing, the CUCUQ takes the table's last stone
        ("none", 1, [0, 0, 24, 0, 0]),
        # a MATTIKKENG wins, holds nothing, the MANGUNO takes the table's last 5
        ("lower", 5, [0, 20, 0, 0, 0]),
    ],
)
def test_never_after_a_manguno(kind: str, table: int, stones: list[int]) -> None:
    r = block_round(kind, 3, stones=by_rel(stones, 3), table=table, variants=FREE_BLOCK)
    play(r, BLOCK_MOVES)
    assert r.table == 0
    assert r.result is not None and r.stones[r.result.winner] == 0
    assert r.camat is None and not r.camat_elected
    assert not any(isinstance(e, CamatElected) for e in r.events)


def test_the_same_player_may_be_elected_again() -> None:
    r, moves = cappu_round(
        "plain", 2, stones=by_rel([0, 0, 24, 0, 0], 2), table=1, camat=2, titles=[1, 0, 2, 0, 0]
    )
    play(r, moves)
    assert r.events[-1] == CamatElected(2, 3)
    assert r.camat == 2 and r.titles == [1, 0, 3, 0, 0]


def test_another_player_elected_takes_the_camat_over() -> None:
    r, moves = cappu_round(
        "ceki", 4, stones=by_rel([0, 0, 0, 22, 0], 4), table=3, camat=1, titles=[0, 2, 0, 0, 0]
    )
    assert r.camat == 1
    play(r, moves)
    assert r.events[-1] == CamatElected(4, 1)
    assert r.camat == 4 and r.titles == [0, 2, 0, 0, 1]
    assert r.next_starter() == 4


def test_the_camat_opens_every_later_round_with_any_tile_until_another_camat() -> None:
    g = Game()  # opening: double, which binds only a game's first round
    # round 1 (set up directly): seat 2 becomes CAMAT
    r1, moves = cappu_round("plain", 2, stones=by_rel([0, 0, 24, 0, 0], 2), table=1)
    g.rounds.append(r1)
    play(r1, moves)
    assert g.camat == 2 and g.titles == [0, 0, 1, 0, 0]
    assert g.stones == [0] * 5 and g.table == 25
    assert g.next_starter() == 2

    # round 2: the CAMAT opens, with any of their tiles
    hands, unused = deal_of(rotate(block_deal("lower"), 2))
    r2 = g.start_round(hands, unused)
    assert g.round is r2 and r2.number == 2
    assert r2.starter == 2 and g.turn == 2 and r2.opening_tile is None
    assert set(r2.legal_moves()) == {move(t) for t in tiles_of(hands[2])}
    assert r2.camat == 2 and r2.titles == [0, 0, 1, 0, 0]
    assert r2.stones == [0] * 5 and r2.table == 25
    play(r2, BLOCK_MOVES)
    # a MATTIKKENG (rel 2 = seat 4) wins, but the CAMAT opens the next round
    assert r2.result is not None and r2.result.winner == 4
    assert r2.next_starter() == 2 and g.next_starter() == 2
    # five passes (1 each), the MANGUNO (seat 2) receives 5
    assert g.stones == [1, 1, 6, 1, 1] and g.table == 15

    # round 3: the CAMAT again; the stones carry on
    rel, moves3 = cappu_deal("ceki")
    r3 = g.start_round(*deal_of(rotate(rel, 2)))
    assert r3.starter == 2 and r3.number == 3
    assert r3.stones == [1, 1, 6, 1, 1] and r3.table == 15
    play(r3, moves3)
    assert r3.events[-1] == StonesMoved(None, 1, 3, Reason.CEKI)
    assert g.stones == [1, 4, 6, 1, 1] and g.table == 12 and g.camat == 2

    # round 4 (set up directly, carrying CAMAT and titles): seat 4 is elected
    r4, moves4 = cappu_round(
        "plain",
        4,
        stones=by_rel([0, 0, 24, 0, 0], 4),
        table=1,
        camat=2,
        titles=[0, 0, 1, 0, 0],
        number=4,
    )
    g.rounds.append(r4)
    play(r4, moves4)
    assert g.camat == 4 and g.titles == [0, 0, 1, 0, 1]

    # round 5: the new CAMAT opens
    r5 = g.start_round(*deal_of(rotate(block_deal("none"), 4)))
    assert r5.starter == 4 and r5.camat == 4 and r5.number == 5
    assert r5.titles == [0, 0, 1, 0, 1] and r5.stones == [0] * 5 and r5.table == 25
