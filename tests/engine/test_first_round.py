"""Who starts: a game's first round by 6-6, 5-5, 4-4, 3-3 (opening with that LEMPA,
or any tile in variant ``opening: free``); every later round the CAMAT, else the
winner of the round before, with any tile (rules.md, "A round" 2)."""

from __future__ import annotations

import random

import pytest

from domeng.engine import (
    FIRST_ROUND_LEMPA,
    End,
    Game,
    IllegalMoveError,
    Opening,
    Passed,
    Played,
    Reason,
    RoundEnd,
    RoundEnded,
    StonesMoved,
    Variants,
    first_starter,
    move,
    parse_tile,
)
from domeng.engine.tiles import tiles_of

from .deals import (
    BLOCK_MOVES,
    LEMPA_BLOCK_DEAL,
    LEMPA_BLOCK_MOVES,
    block_deal,
    by_rel,
    deal_of,
    mv,
    play,
    rotate,
    tiles,
)

L, R = End.LEFT, End.RIGHT
T = parse_tile
FREE_OPENING = Variants(opening=Opening.FREE)

# 6-6 among the unused: 5-5 (seat 3) opens, though 4-4 (seat 1) and 3-3 (seat 4) are dealt
NO_66 = [
    "1-1 2-0 2-1 2-2 3-0",
    "3-1 3-2 4-4 4-0 4-1",
    "4-2 4-3 5-0 5-1 5-2",
    "5-3 5-4 5-5 6-0 6-1",
    "6-2 6-3 6-4 6-5 3-3",
]
# 6-6 and 5-5 unused: 4-4 (seat 4) opens, though 3-3 (seat 1) is dealt
NO_66_55 = [
    "1-0 1-1 2-0 2-1 2-2",
    "3-0 3-1 3-2 3-3 4-0",
    "4-1 4-2 4-3 5-0 5-1",
    "5-2 5-3 5-4 6-0 6-1",
    "6-2 6-3 6-4 6-5 4-4",
]
# 6-6, 5-5 and 4-4 unused: 3-3 (seat 2) opens
NO_66_55_44 = [
    "0-0 1-0 1-1 2-0 2-1",
    "2-2 3-0 3-1 3-2 4-0",
    "3-3 4-1 4-2 4-3 5-0",
    "5-1 5-2 5-3 5-4 6-0",
    "6-1 6-2 6-3 6-4 6-5",
]
CASES = [
    *((rotate(LEMPA_BLOCK_DEAL, k), k, "6-6") for k in range(5)),
    (NO_66, 3, "5-5"),
    (NO_66_55, 4, "4-4"),
    (NO_66_55_44, 2, "3-3"),
]


@pytest.mark.parametrize(("hands", "starter", "lempa"), CASES)
def test_first_round_starter_opens_with_the_highest_lempa_dealt(
    hands: list[str], starter: int, lempa: str
) -> None:
    masks, unused = deal_of(hands)
    assert first_starter(masks) == (starter, T(lempa))
    g = Game()
    r = g.start_round(masks, unused)
    assert r.number == 1 and r.starter == starter and g.turn == starter
    assert r.opening_tile == T(lempa)
    assert r.legal_moves() == (move(lempa, R),)
    assert r.stones == [0] * 5 and r.table == 25 and r.camat is None


@pytest.mark.parametrize(("hands", "starter", "lempa"), CASES)
def test_first_round_variant_free_opens_with_any_tile(
    hands: list[str], starter: int, lempa: str
) -> None:
    masks, unused = deal_of(hands)
    r = Game(FREE_OPENING).start_round(masks, unused)
    assert r.starter == starter and r.opening_tile is None
    assert set(r.legal_moves()) == {move(t, R) for t in tiles_of(masks[starter])}
    assert len(r.legal_moves()) == 5


def test_variant_double_refuses_another_opening_tile() -> None:
    masks, unused = deal_of(NO_66)
    r = Game().start_round(masks, unused)
    for bad in ("6-1", "5-3"):
        with pytest.raises(IllegalMoveError, match="must open with 5-5"):
            r.play(mv(bad))
    with pytest.raises(IllegalMoveError, match="does not hold 1-1"):
        r.play(mv("1-1"))
    assert r.events == [] and r.hands == masks and r.turn == 3
    r.play(mv("5-5"))
    assert r.events[0] == Played(3, T("5-5"), R, 5, 5, False, True)


def test_variant_free_opens_with_a_tile_that_is_not_the_lempa() -> None:
    masks, unused = deal_of(NO_66)
    r = Game(FREE_OPENING).start_round(masks, unused)
    r.play(mv("6-1"))
    assert r.events == [Played(3, T("6-1"), R, 6, 1, False, True)]
    assert r.ends == (6, 1) and r.turn == 4  # seat 4 holds 6-2 6-3 6-4 6-5


def test_first_starter_needs_one_of_the_four_lempa() -> None:
    assert tuple(T(n) for n in ("6-6", "5-5", "4-4", "3-3")) == FIRST_ROUND_LEMPA
    with pytest.raises(ValueError):
        first_starter([tiles("0-0 1-1 2-2"), 0, 0, 0, 0])


@pytest.mark.parametrize("seed", range(60))
def test_dealt_games_start_with_the_holder_of_the_first_lempa_dealt(seed: int) -> None:
    for variants in (Variants(), FREE_OPENING):
        g = Game(variants)
        r = g.deal(random.Random(seed))
        dealt = [t for t in FIRST_ROUND_LEMPA if not r.unused >> t & 1]
        assert dealt, "with 3 unused tiles one of the four is always dealt"
        assert r.dealt[r.starter] >> dealt[0] & 1
        if variants.opening is Opening.DOUBLE:
            assert r.opening_tile == dealt[0]
            assert r.legal_moves() == (move(dealt[0], R),)
        else:
            assert r.opening_tile is None


@pytest.mark.parametrize("k", range(5))
def test_later_rounds_the_winner_of_the_round_before_starts_with_any_tile(k: int) -> None:
    s = [(k + i) % 5 for i in range(5)]
    g = Game()
    r1 = g.start_round(*deal_of(rotate(LEMPA_BLOCK_DEAL, k)))
    assert r1.starter == k and r1.opening_tile == T("6-6")
    play(r1, LEMPA_BLOCK_MOVES)
    passes: list[object] = []
    for i in (2, 3, 4, 0, 1):
        passes += [Passed(s[i], False, 1, 6, 6), StonesMoved(None, s[i], 1, Reason.PASS)]
    assert r1.events == [
        Played(s[0], T("6-6"), R, 6, 6, False, True),
        Played(s[1], T("6-2"), R, 6, 2, False, False),
        Played(s[2], T("6-3"), L, 3, 2, False, False),
        Played(s[3], T("2-1"), R, 3, 1, False, False),
        Played(s[4], T("4-3"), L, 4, 1, False, False),
        Played(s[0], T("6-1"), R, 4, 6, False, False),
        Played(s[1], T("6-4"), L, 6, 6, True, False),
        *passes,
        RoundEnded(
            RoundEnd.BLOCK,
            winner=s[1],
            first_cappu=None,
            finish=None,
            manguno=s[1],
            mattikkeng=(),
            cucuq=s[0],
            hands=tuple(
                by_rel(
                    [
                        tiles("2-2 3-0 3-1"),
                        tiles("1-0 1-1 2-0"),
                        tiles("3-2 3-3 4-0 4-1"),
                        tiles("4-2 4-4 5-0 5-1"),
                        tiles("5-2 5-3 5-4 5-5"),
                    ],
                    k,
                )
            ),
            unused=tiles("0-0 6-0 6-5"),
            pip_totals=tuple(by_rel([11, 5, 20, 25, 34], k)),
        ),
        StonesMoved(None, s[0], 1, Reason.MANGUNO),
    ]
    assert g.stones == by_rel([2, 1, 1, 1, 1], k) and g.table == 19
    assert g.next_starter() == s[1]

    # round 2: the winner (the MANGUNO, s[1]) opens, any tile, even with opening: double
    hands, unused = deal_of(rotate(block_deal("lower"), s[1]))
    r2 = g.start_round(hands, unused)
    assert r2.number == 2 and r2.starter == s[1] and r2.opening_tile is None
    assert set(r2.legal_moves()) == {move(t, R) for t in tiles_of(hands[s[1]])}
    assert r2.stones == by_rel([2, 1, 1, 1, 1], k) and r2.table == 19
    play(r2, BLOCK_MOVES)
    winner = (s[1] + 2) % 5  # the MATTIKKENG of the "lower" deal
    assert r2.result is not None and r2.result.winner == winner

    # round 3: that MATTIKKENG opens
    r3 = g.start_round(*deal_of(rotate(block_deal("none"), winner)))
    assert r3.starter == winner and g.turn == winner and r3.number == 3
    assert len(g.rounds) == 3 and g.round is r3


def test_a_round_starts_only_after_the_one_before_ended() -> None:
    g = Game()
    assert g.turn is None and g.next_starter() is None
    assert g.stones == [0] * 5 and g.table == 25 and g.camat is None and g.titles == [0] * 5
    with pytest.raises(LookupError):
        _ = g.round
    g.start_round(*deal_of(LEMPA_BLOCK_DEAL))
    assert g.next_starter() is None
    with pytest.raises(ValueError, match="not finished"):
        g.start_round(*deal_of(LEMPA_BLOCK_DEAL))
    assert len(g.rounds) == 1


def test_game_drives_its_current_round() -> None:
    g = Game()
    g.start_round(*deal_of(LEMPA_BLOCK_DEAL))
    assert g.legal_moves() == (mv("6-6"),)
    for text in LEMPA_BLOCK_MOVES:
        g.play(mv(text))
    assert g.round.finished and g.turn is None and g.legal_moves() == ()
    assert g.events is g.round.events
    assert g.view(1).result == g.round.result


def test_a_game_without_a_round_has_no_moves() -> None:
    g = Game()
    with pytest.raises(LookupError):
        g.legal_moves()
    with pytest.raises(LookupError):
        g.play(mv("6-6"))
    assert g.rounds == []


def test_dealing_waits_for_the_round_before_to_end() -> None:
    g = Game()
    rng = random.Random(3)
    r = g.deal(rng)
    with pytest.raises(ValueError, match="not finished"):
        g.deal(rng)
    assert g.rounds == [r]
    while not r.finished:
        g.play(r.legal_moves()[0])
    r2 = g.deal(rng)
    assert g.rounds == [r, r2] and r2.number == 2
