"""A blocked line: the MANGUNO, MATTIKKENG and the CUCUQ (rules.md, "MANGUNO")."""

from __future__ import annotations

import pytest

from domeng.engine import (
    End,
    Passed,
    Played,
    Reason,
    RoundEnd,
    RoundEnded,
    StonesMoved,
    parse_tile,
)

from .deals import (
    BLOCK_MOVES,
    BLOCK_REST,
    FREE_BLOCK,
    PASSEBUNGE_DEAL,
    PASSEBUNGE_MOVES,
    block_round,
    by_rel,
    make_round,
    play,
    rotate,
    tiles,
)

L, R = End.LEFT, End.RIGHT
T = parse_tile
STARTERS = [0, 1, 2, 3, 4]

# kind -> (pip totals rel 0-4, MATTIKKENG (rel, in turn order after the MANGUNO),
#          winner (rel), receiver (rel), amount, reason)
EXPECTED = {
    "none": ((10, 22, 29, 34, 42), (), 0, 4, 1, Reason.MANGUNO),
    "lower": ((19, 26, 15, 34, 43), (2,), 2, 0, 5, Reason.MATTIKKENG),
    "equal": ((19, 22, 19, 34, 43), (2,), 2, 0, 1, Reason.MATTIKKENG),
    "two": ((30, 15, 33, 23, 36), (1, 3), 1, 0, 1, Reason.MATTIKKENG),
    "tie": ((30, 22, 31, 22, 32), (1, 3), 1, 0, 1, Reason.MATTIKKENG),
    "three": ((30, 23, 28, 19, 37), (1, 2, 3), 3, 0, 1, Reason.MATTIKKENG),
}


def block_plays(s: list[int]) -> list[Played]:
    """The BLOCK deal's six Played events, for the seats ``s`` of rel 0-4."""
    return [
        Played(s[0], T("2-1"), R, 2, 1, False, True),
        Played(s[1], T("1-0"), R, 2, 0, False, False),
        Played(s[2], T("2-0"), L, 0, 0, True, False),
        Played(s[3], T("3-0"), R, 0, 3, False, False),
        Played(s[4], T("4-3"), R, 0, 4, False, False),
        Played(s[0], T("4-0"), R, 0, 0, True, False),
    ]


def expected_end(kind: str, starter: int) -> tuple[RoundEnded, StonesMoved]:
    s = [(starter + k) % 5 for k in range(5)]
    totals, matt, winner, receiver, amount, reason = EXPECTED[kind]
    ended = RoundEnded(
        RoundEnd.BLOCK,
        winner=s[winner],
        first_cappu=None,
        finish=None,
        manguno=s[0],
        mattikkeng=tuple(s[m] for m in matt),
        cucuq=s[4] if not matt else None,
        hands=tuple(by_rel([tiles(h) for h in BLOCK_REST[kind]], starter)),
        unused=tiles("0-0 5-0 6-0"),
        pip_totals=tuple(by_rel(list(totals), starter)),
    )
    return ended, StonesMoved(None, s[receiver], amount, reason)


@pytest.mark.parametrize("starter", STARTERS)
@pytest.mark.parametrize("kind", list(EXPECTED))
def test_manguno_block_passes_penalized(kind: str, starter: int) -> None:
    s = [(starter + k) % 5 for k in range(5)]
    r = block_round(kind, starter)
    play(r, BLOCK_MOVES)
    ended, paid = expected_end(kind, starter)
    # everyone passes in turn after the MANGUNO's play, the MANGUNO included:
    # each an ordinary PASS (all have played), 1 stone from the table
    passes: list[object] = []
    for k in (1, 2, 3, 4, 0):
        passes += [Passed(s[k], False, 1, 0, 0), StonesMoved(None, s[k], 1, Reason.PASS)]
    assert r.events == [*block_plays(s), *passes, ended, paid]
    assert r.result == ended and r.finished and r.turn is None
    assert r.last_mappano == s[0] == ended.manguno
    amount = EXPECTED[kind][4]
    assert r.stones == [1 + (amount if k == paid.receiver else 0) for k in range(5)]
    assert r.table == 25 - 5 - amount
    assert r.camat is None
    assert r.next_starter() == ended.winner


@pytest.mark.parametrize("starter", STARTERS)
@pytest.mark.parametrize("kind", list(EXPECTED))
def test_manguno_block_passes_free(kind: str, starter: int) -> None:
    s = [(starter + k) % 5 for k in range(5)]
    r = block_round(kind, starter, variants=FREE_BLOCK)
    play(r, BLOCK_MOVES)
    ended, paid = expected_end(kind, starter)
    # the round ends right after the MANGUNO's play: nobody passes
    assert r.events == [*block_plays(s), ended, paid]
    amount = EXPECTED[kind][4]
    assert r.stones == [amount if k == paid.receiver else 0 for k in range(5)]
    assert r.table == 25 - amount


def test_a_tie_for_the_lowest_goes_to_the_first_in_turn_order_after_the_manguno() -> None:
    # MANGUNO at seat 3: turn order after it is 4, 0, 1, 2. rel 1 = seat 4 and
    # rel 3 = seat 1 both hold 22: seat 4 wins, though seat 1 has the lower number.
    r = block_round("tie", 3, variants=FREE_BLOCK)
    play(r, BLOCK_MOVES)
    assert r.result is not None
    assert r.result.manguno == 3
    assert r.result.mattikkeng == (4, 1)
    assert r.result.pip_totals == (31, 22, 32, 30, 22)
    assert r.result.winner == 4
    assert r.events[-1] == StonesMoved(None, 3, 1, Reason.MATTIKKENG)
    assert r.next_starter() == 4


def test_mattikkeng_listed_in_turn_order_after_the_manguno_wrapping_round() -> None:
    # MANGUNO at seat 4 ("three"): MATTIKKENG rel 1-3 = seats 0, 1, 2; with the
    # MANGUNO at seat 2 they are seats 3, 4, 0, in that order.
    r = block_round("three", 2, variants=FREE_BLOCK)
    play(r, BLOCK_MOVES)
    assert r.result is not None and r.result.mattikkeng == (3, 4, 0)
    assert r.result.winner == 0  # rel 3, 19 pips, the lowest


def test_manguno_equal_to_a_mattikkeng_still_counts_them() -> None:
    # "no more pips than the MANGUNO's": equal is a MATTIKKENG, who wins
    r = block_round("equal", 1, variants=FREE_BLOCK)
    play(r, BLOCK_MOVES)
    assert r.result is not None
    assert r.result.pip_totals[1] == r.result.pip_totals[3] == 19
    assert r.result.mattikkeng == (3,) and r.result.winner == 3
    assert r.events[-1] == StonesMoved(None, 1, 1, Reason.MATTIKKENG)


@pytest.mark.parametrize("starter", STARTERS)
def test_passebunge_deal_manguno_is_not_the_starter(starter: int) -> None:
    s = [(starter + k) % 5 for k in range(5)]
    r = make_round(rotate(PASSEBUNGE_DEAL, starter), starter=starter)
    play(r, PASSEBUNGE_MOVES[:4])
    # rel 4 holds no 0 and no 3 for (0,3), has played nothing: PASSEBUNGE
    assert r.events[-3:] == [
        Played(s[3], T("3-0"), R, 0, 3, False, False),
        Passed(s[4], True, 2, 0, 3),
        StonesMoved(None, s[4], 2, Reason.PASSEBUNGE),
    ]
    assert r.turn == s[0]
    play(r, PASSEBUNGE_MOVES[4:])
    passes: list[object] = []
    for k, pb in ((2, False), (3, False), (4, True), (0, False), (1, False)):
        amount = 2 if pb else 1
        reason = Reason.PASSEBUNGE if pb else Reason.PASS
        passes += [Passed(s[k], pb, amount, 0, 0), StonesMoved(None, s[k], amount, reason)]
    ended = RoundEnded(
        RoundEnd.BLOCK,
        winner=s[0],
        first_cappu=None,
        finish=None,
        manguno=s[1],
        mattikkeng=(s[0],),
        cucuq=None,
        hands=tuple(
            by_rel(
                [
                    tiles("1-1 2-2 3-1"),
                    tiles("3-2 4-1 4-2"),
                    tiles("3-3 4-4 5-1 5-2"),
                    tiles("5-3 6-1 6-2 6-3"),
                    tiles("6-6 6-5 6-4 5-5 5-4"),
                ],
                starter,
            )
        ),
        unused=tiles("0-0 5-0 6-0"),
        pip_totals=tuple(by_rel([10, 16, 27, 32, 52], starter)),
    )
    assert r.events == [
        Played(s[0], T("2-1"), R, 2, 1, False, True),
        Played(s[1], T("1-0"), R, 2, 0, False, False),
        Played(s[2], T("2-0"), L, 0, 0, True, False),
        Played(s[3], T("3-0"), R, 0, 3, False, False),
        Passed(s[4], True, 2, 0, 3),
        StonesMoved(None, s[4], 2, Reason.PASSEBUNGE),
        Played(s[0], T("4-3"), R, 0, 4, False, False),
        Played(s[1], T("4-0"), R, 0, 0, True, False),
        *passes,
        ended,
        # one MATTIKKENG with fewer pips (10 < 16): the MANGUNO receives 5
        StonesMoved(None, s[1], 5, Reason.MATTIKKENG),
    ]
    assert r.stones == by_rel([1, 6, 1, 1, 4], starter) and r.table == 12
    assert r.next_starter() == s[0]


def test_the_block_may_come_at_a_play_that_fits_both_ends() -> None:
    # rel 1's 4-0 fits both ends of (0,4); on the left it leaves (4,4), no block
    r = make_round(PASSEBUNGE_DEAL, starter=0)
    play(r, [*PASSEBUNGE_MOVES[:5], "4-0 left"])
    assert r.ends == (4, 4) and not r.finished
    # rel 2 holds 4-4: they play on
    assert r.turn == 2
