"""A round ending with a FIRST CAPPU: plain (1), CEKI (3), POLLO (5) to the CUCUQ,
from the table, what the table lacks from the FIRST CAPPU (rules.md, "FIRST CAPPU")."""

from __future__ import annotations

import pytest

from domeng.engine import (
    End,
    Finish,
    Passed,
    Played,
    Reason,
    RoundEnd,
    RoundEnded,
    StonesMoved,
    parse_tile,
)

from .deals import by_rel, cappu_round, play, tiles

L, R = End.LEFT, End.RIGHT
T = parse_tile
STARTERS = [0, 1, 2, 3, 4]

# finish -> (the last Played event's (tile, end, left, right, mappakuling), Finish,
#            stones to the CUCUQ, the reason)
LAST_PLAY = {
    "plain": (("6-3", L, 3, 4, False), Finish.PLAIN, 1, Reason.FIRST_CAPPU),
    "lempa": (("6-6", L, 6, 4, False), Finish.PLAIN, 1, Reason.FIRST_CAPPU),
    "ceki": (("6-4", R, 6, 6, True), Finish.CEKI, 3, Reason.CEKI),
    "ceki-left": (("6-4", L, 4, 4, True), Finish.CEKI, 3, Reason.CEKI),
    "pollo": (("6-6", R, 6, 6, True), Finish.POLLO, 5, Reason.POLLO),
}
UNUSED = {
    "plain": "6-4 6-5 6-6",
    "lempa": "6-3 6-4 6-5",
    "ceki": "6-3 6-5 6-6",
    "ceki-left": "6-3 6-5 6-6",
    "pollo": "5-4 6-3 6-4",
}
# the ends after each of the 19 plays every CAPPU deal shares (deals.py)
PREFIX_ENDS = [
    (6, 0), (6, 0), (6, 1), (6, 1), (6, 2),
    (6, 0), (6, 3), (6, 1), (6, 4), (6, 0),
    (6, 5), (6, 2), (6, 2), (6, 4), (6, 4),
    (6, 3), (6, 3), (6, 5), (6, 5),
]  # fmt: skip


@pytest.mark.parametrize("starter", STARTERS)
@pytest.mark.parametrize("finish", list(LAST_PLAY))
def test_first_cappu_pays_the_cucuq_by_the_last_play(finish: str, starter: int) -> None:
    r, moves = cappu_round(finish, starter)
    cucuq = (starter - 1) % 5  # the player before the FIRST CAPPU
    play(r, moves[:-1])
    assert r.turn == starter and not r.finished
    assert r.stones == [0] * 5 and r.table == 25  # nobody passed
    n = len(r.events)
    play(r, moves[-1:])
    (name, end, left, right, kuling), kind, amount, reason = LAST_PLAY[finish]
    hands = by_rel([0, tiles("3-2"), tiles("5-1"), tiles("6-1"), tiles("6-2")], starter)
    assert r.events[n:] == [
        Played(starter, T(name), end, left, right, kuling, False),
        RoundEnded(
            RoundEnd.CAPPU,
            winner=starter,
            first_cappu=starter,
            finish=kind,
            manguno=None,
            mattikkeng=(),
            cucuq=cucuq,
            hands=tuple(hands),
            unused=tiles(UNUSED[finish]),
            pip_totals=tuple(by_rel([0, 5, 6, 7, 8], starter)),
        ),
        StonesMoved(None, cucuq, amount, reason),
    ]
    assert r.finished and r.turn is None and r.legal_moves() == ()
    assert r.result is r.events[n + 1]
    assert r.stones == [amount if s == cucuq else 0 for s in range(5)]
    assert r.table == 25 - amount
    assert r.camat is None and not r.camat_elected
    assert r.next_starter() == starter  # the winner opens the next round
    assert not any(isinstance(e, Passed) for e in r.events)
    assert len(r.plays) == 21


@pytest.mark.parametrize("finish", list(LAST_PLAY))
def test_the_line_of_a_cappu_deal(finish: str) -> None:
    r, moves = cappu_round(finish, 0)
    play(r, moves)
    played = [e for e in r.events if isinstance(e, Played)]
    assert [(e.left, e.right) for e in played[:19]] == PREFIX_ENDS
    assert [e.seat for e in played] == [i % 5 for i in range(21)]
    assert played[0].opening and not any(e.opening for e in played[1:])
    # no MAPPAKULING before the 20th play
    assert not any(e.mappakuling for e in played[:19])


def test_a_mappakuling_that_is_not_the_last_tile_ends_nothing() -> None:
    r, moves = cappu_round("pollo", 0)
    play(r, moves[:-1])
    assert r.events[-1] == Played(4, T("6-5"), R, 6, 6, True, False)
    assert not r.finished and r.turn == 0
    assert r.stones == [0] * 5 and r.table == 25


def test_a_lempa_without_mappakuling_is_a_plain_first_cappu_not_pollo() -> None:
    r, moves = cappu_round("lempa", 2)
    play(r, moves)
    assert r.result is not None and r.result.finish is Finish.PLAIN
    assert r.events[-1] == StonesMoved(None, 1, 1, Reason.FIRST_CAPPU)


@pytest.mark.parametrize(
    ("finish", "starter", "table", "stones", "after", "moved"),
    [
        # POLLO, 2 on the table: 2 from the table, 3 from the FIRST CAPPU
        (
            "pollo",
            0,
            2,
            [10, 0, 13, 0, 0],
            [7, 0, 13, 0, 5],
            [(None, 2), (0, 3)],
        ),
        # CEKI, 1 on the table: 1 + 2 from the FIRST CAPPU
        ("ceki", 3, 1, [4, 20, 0, 0, 0], [2, 20, 0, 0, 3], [(None, 1), (0, 2)]),
        # plain, table empty: the FIRST CAPPU gives the 1
        ("plain", 1, 0, [3, 0, 0, 22, 0], [2, 0, 0, 22, 1], [(0, 1)]),
        # the CUCUQ already holds stones; the table has enough
        ("ceki", 4, 20, [0, 0, 0, 0, 5], [0, 0, 0, 0, 8], [(None, 3)]),
    ],
)
def test_what_the_table_lacks_the_first_cappu_gives(
    finish: str,
    starter: int,
    table: int,
    stones: list[int],
    after: list[int],
    moved: list[tuple[int | None, int]],
) -> None:
    """``stones``/``after`` are relative to the starter (the FIRST CAPPU); rel 4 is the CUCUQ."""
    r, moves = cappu_round(finish, starter, stones=by_rel(stones, starter), table=table)
    play(r, moves)
    cucuq = (starter - 1) % 5
    reason = LAST_PLAY[finish][3]
    end = next(i for i, e in enumerate(r.events) if isinstance(e, RoundEnded))
    assert r.events[end + 1 :] == [
        StonesMoved(None if g is None else (starter + g) % 5, cucuq, a, reason) for g, a in moved
    ]
    assert r.stones == by_rel(after, starter)
    assert r.table == 25 - sum(after)
    assert r.camat is None  # the FIRST CAPPU still holds stones (or the table does)
