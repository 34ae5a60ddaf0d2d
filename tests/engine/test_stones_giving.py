"""STONES: the table first, then the giver(s) named by the rule, each as much as
they hold; what they cannot cover is not given; a giver who is the receiver moves
nothing; never negative (rules.md, "PASS and its stones" and "Giving stones")."""

from __future__ import annotations

import random
from collections.abc import Sequence

import pytest

from domeng.engine import (
    Finish,
    Game,
    Passed,
    Reason,
    RoundEnd,
    RoundEnded,
    StonesMoved,
    ending_award,
)

from .deals import (
    BLOCK_MOVES,
    FREE_BLOCK,
    PASSEBUNGE_DEAL,
    PASSEBUNGE_MOVES,
    RETURN_DEAL,
    RETURN_MOVES,
    block_round,
    by_rel,
    make_round,
    play,
    rotate,
)

STARTERS = [0, 1, 2, 3, 4]
PB, P = Reason.PASSEBUNGE, Reason.PASS


def after_end(events: Sequence[object]) -> list[object]:
    end = next(i for i, e in enumerate(events) if isinstance(e, RoundEnded))
    return list(events[end + 1 :])


@pytest.mark.parametrize("starter", STARTERS)
def test_the_last_mappano_gives_what_the_table_lacks_for_a_pass(starter: int) -> None:
    s = [(starter + k) % 5 for k in range(5)]
    r = make_round(
        rotate(RETURN_DEAL, starter),
        starter=starter,
        stones=by_rel([17, 0, 5, 0, 0], starter),
        table=3,
    )
    play(r, RETURN_MOVES[:3])  # rel 2 is the LAST MAPPANO; (6,6); four passes
    assert r.events[3:] == [
        Passed(s[3], True, 2, 6, 6),
        StonesMoved(None, s[3], 2, PB),  # the table had 3
        Passed(s[4], True, 2, 6, 6),
        StonesMoved(None, s[4], 1, PB),  # the table's last one ...
        StonesMoved(s[2], s[4], 1, PB),  # ... and one from the LAST MAPPANO
        Passed(s[0], False, 1, 6, 6),
        StonesMoved(s[2], s[0], 1, P),
        Passed(s[1], False, 1, 6, 6),
        StonesMoved(s[2], s[1], 1, P),
    ]
    assert r.stones == by_rel([18, 1, 2, 2, 2], starter) and r.table == 0
    n = len(r.events)
    play(r, RETURN_MOVES[3:4])  # rel 2 plays 6-6; the same four pass again
    assert r.events[n + 1 :] == [
        Passed(s[3], True, 2, 6, 6),
        StonesMoved(s[2], s[3], 2, PB),  # the LAST MAPPANO's last two
        Passed(s[4], True, 0, 6, 6),  # nobody can cover it: not given
        Passed(s[0], False, 0, 6, 6),
        Passed(s[1], False, 0, 6, 6),
    ]
    assert r.stones == by_rel([18, 1, 0, 4, 2], starter) and r.table == 0
    play(r, RETURN_MOVES[4:])
    # rel 3's third PASSEBUNGE gives nothing; later rel 2 passes on (6,2) after
    # rel 1's 2-2: rel 1, the LAST MAPPANO, gives their one stone
    passes = [e for e in r.events[n:] if isinstance(e, Passed)]
    assert passes[-2:] == [Passed(s[3], True, 0, 6, 5), Passed(s[2], False, 1, 6, 2)]
    assert StonesMoved(s[1], s[2], 1, P) in r.events
    assert r.stones == by_rel([18, 0, 1, 4, 2], starter) and r.table == 0


@pytest.mark.parametrize("starter", STARTERS)
def test_block_passes_when_the_table_runs_out_and_the_manguno_passes_to_themselves(
    starter: int,
) -> None:
    s = [(starter + k) % 5 for k in range(5)]
    r = make_round(
        rotate(PASSEBUNGE_DEAL, starter),
        starter=starter,
        stones=by_rel([0, 12, 0, 10, 0], starter),
        table=3,
    )
    play(r, PASSEBUNGE_MOVES)
    assert r.events[4:6] == [Passed(s[4], True, 2, 0, 3), StonesMoved(None, s[4], 2, PB)]
    assert r.events[8:] == [
        # the block: rel 1 is the LAST MAPPANO (the MANGUNO); the table has 1 left
        Passed(s[2], False, 1, 0, 0),
        StonesMoved(None, s[2], 1, P),
        Passed(s[3], False, 1, 0, 0),
        StonesMoved(s[1], s[3], 1, P),
        Passed(s[4], True, 2, 0, 0),
        StonesMoved(s[1], s[4], 2, PB),
        Passed(s[0], False, 1, 0, 0),
        StonesMoved(s[1], s[0], 1, P),
        # the MANGUNO's own pass: the giver would be the receiver, nothing moves
        Passed(s[1], False, 0, 0, 0),
        r.result,
        # the MANGUNO receives 5: the table is empty; the one MATTIKKENG (rel 0)
        # holds 1 and gives it; the other 4 are not given
        StonesMoved(s[0], s[1], 1, Reason.MATTIKKENG),
    ]
    assert r.stones == by_rel([0, 9, 1, 11, 4], starter) and r.table == 0
    # the table is empty and the winner holds nothing, but it was a MANGUNO: no CAMAT
    assert r.result is not None and r.result.winner == s[0]
    assert r.camat is None and not r.camat_elected


def test_a_pass_the_last_mappano_cannot_cover_is_not_given() -> None:
    s = [0, 1, 2, 3, 4]
    r = make_round(PASSEBUNGE_DEAL, starter=0, stones=[24, 0, 0, 0, 0], table=1)
    play(r, PASSEBUNGE_MOVES)
    # rel 4's PASSEBUNGE: 1 from the table, rel 3 (LAST MAPPANO) holds nothing
    assert r.events[4:6] == [Passed(4, True, 1, 0, 3), StonesMoved(None, 4, 1, PB)]
    assert [e for e in r.events if isinstance(e, Passed)][1:] == [
        Passed(s[2], False, 0, 0, 0),
        Passed(s[3], False, 0, 0, 0),
        Passed(s[4], True, 0, 0, 0),
        Passed(s[0], False, 0, 0, 0),
        Passed(s[1], False, 0, 0, 0),
    ]
    assert after_end(r.events) == [StonesMoved(0, 1, 5, Reason.MATTIKKENG)]
    assert r.stones == [19, 5, 0, 0, 1] and r.table == 0


def test_manguno_gives_for_the_block_passes_until_empty() -> None:
    r = block_round("none", 2, stones=by_rel([3, 0, 0, 0, 22], 2), table=0)
    play(r, BLOCK_MOVES)
    s = [2, 3, 4, 0, 1]
    assert r.events[6:] == [
        Passed(s[1], False, 1, 0, 0),
        StonesMoved(s[0], s[1], 1, P),
        Passed(s[2], False, 1, 0, 0),
        StonesMoved(s[0], s[2], 1, P),
        Passed(s[3], False, 1, 0, 0),
        StonesMoved(s[0], s[3], 1, P),
        Passed(s[4], False, 0, 0, 0),
        Passed(s[0], False, 0, 0, 0),
        r.result,
        # the CUCUQ's 1: the table and the MANGUNO are empty: nothing moves
    ]
    assert r.stones == by_rel([0, 1, 1, 1, 22], 2) and r.table == 0
    assert r.camat is None  # a MANGUNO is never elected CAMAT


@pytest.mark.parametrize(
    ("kind", "starter", "table", "stones", "moved", "note"),
    [
        ("none", 1, 0, [4, 0, 21, 0, 0], [(0, 4, 1)], "the MANGUNO pays the CUCUQ"),
        ("none", 1, 0, [0, 0, 25, 0, 0], [], "the MANGUNO holds nothing"),
        ("none", 1, 1, [0, 0, 24, 0, 0], [(None, 4, 1)], "the table has it"),
        (
            "lower",
            0,
            2,
            [0, 22, 1, 0, 0],
            [(None, 0, 2), (2, 0, 1)],
            "table 2, the MATTIKKENG's last 1, 2 not given; rel 1 is no giver",
        ),
        ("lower", 4, 0, [0, 22, 3, 0, 0], [(2, 0, 3)], "the MATTIKKENG covers 3 of 5"),
        ("two", 2, 1, [0, 12, 0, 12, 0], [(None, 0, 1)], "the table first"),
        ("three", 3, 0, [0, 3, 20, 2, 0], [(3, 0, 1)], "the winning MATTIKKENG first"),
        (
            "three",
            3,
            0,
            [0, 3, 22, 0, 0],
            [(1, 0, 1)],
            "then the others in turn order after the MANGUNO (seat 4 before seat 0)",
        ),
        ("three", 3, 0, [0, 0, 25, 0, 0], [(2, 0, 1)], "the last MATTIKKENG in turn order"),
        ("three", 3, 0, [0, 0, 0, 0, 25], [], "only MATTIKKENG give; they hold nothing"),
    ],
)
def test_block_ending_givers(
    kind: str,
    starter: int,
    table: int,
    stones: list[int],
    moved: list[tuple[int | None, int, int]],
    note: str,
) -> None:
    """``stones`` and the givers/receivers of ``moved`` are relative to the starter (the
    MANGUNO); block passes free, so only the ending's stones move."""
    r = block_round(kind, starter, stones=by_rel(stones, starter), table=table, variants=FREE_BLOCK)
    play(r, BLOCK_MOVES)
    reason = Reason.MANGUNO if kind == "none" else Reason.MATTIKKENG

    def seat(rel: int | None) -> int | None:
        return None if rel is None else (starter + rel) % 5

    assert after_end(r.events) == [
        StonesMoved(seat(g), (starter + to) % 5, a, reason) for g, to, a in moved
    ]
    expected = list(stones)
    for g, to, a in moved:
        if g is not None:
            expected[g] -= a
        expected[to] += a
    assert r.stones == by_rel(expected, starter), note
    assert r.table == table - sum(a for g, _, a in moved if g is None)
    assert min(r.stones) >= 0 and r.table + sum(r.stones) == 25
    assert r.camat is None


@pytest.mark.parametrize(
    ("stones", "table"),
    [
        ([0, 0, 0, 0, 0], 24),
        ([0, 0, 0, 0, 0], 26),
        ([-1, 1, 0, 0, 0], 25),
        ([0, 0, 0, 0, 26], -1),
    ],
)
def test_a_round_refuses_stones_not_25_in_all_or_negative(stones: list[int], table: int) -> None:
    with pytest.raises(ValueError, match="25"):
        make_round(RETURN_DEAL, starter=0, stones=stones, table=table)


def test_reasons_and_endings_are_in_the_games_words() -> None:
    assert [r.value for r in Reason] == [
        "PASS",
        "PASSEBUNGE",
        "FIRST CAPPU",
        "CEKI",
        "POLLO",
        "MANGUNO",
        "MATTIKKENG",
    ]
    assert [e.value for e in RoundEnd] == ["cappu", "block"]
    assert [f.value for f in Finish] == ["plain", "ceki", "pollo"]


def test_the_ending_award_names_its_receiver_and_the_full_amount() -> None:
    hands = (0, 0, 0, 0, 0)
    totals5 = (3, 4, 0, 5, 6)
    cappu = [RoundEnded(RoundEnd.CAPPU, 2, 2, f, None, (), 1, hands, 0, totals5) for f in Finish]
    assert [ending_award(e) for e in cappu] == [(1, 1), (1, 3), (1, 5)]  # plain, CEKI, POLLO
    totals = (9, 4, 7, 7, 12)
    alone = RoundEnded(RoundEnd.BLOCK, 1, None, None, 1, (), 0, hands, 0, totals)
    one_lower = RoundEnded(RoundEnd.BLOCK, 1, None, None, 0, (1,), None, hands, 0, totals)
    one_equal = RoundEnded(RoundEnd.BLOCK, 2, None, None, 3, (2,), None, hands, 0, totals)
    two = RoundEnded(RoundEnd.BLOCK, 1, None, None, 0, (1, 2), None, hands, 0, totals)
    assert ending_award(alone) == (0, 1)  # the CUCUQ of a MANGUNO with no MATTIKKENG
    assert ending_award(one_lower) == (0, 5)
    assert ending_award(one_equal) == (3, 1)
    assert ending_award(two) == (0, 1)


def test_an_ending_gives_only_its_receiver_and_never_more_than_its_award() -> None:
    for seed in range(300):
        rng = random.Random(seed)
        game = Game()
        for _ in range(6):
            game.deal(rng)
            r = game.round
            while not r.finished:
                game.play(rng.choice(game.legal_moves()))
            ended = next(e for e in r.events if isinstance(e, RoundEnded))
            receiver, owed = ending_award(ended)
            after = r.events[r.events.index(ended) + 1 :]
            moved = [e for e in after if isinstance(e, StonesMoved)]
            assert all(e.receiver == receiver for e in moved)
            assert sum(e.amount for e in moved) <= owed
