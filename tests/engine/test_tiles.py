"""The double-six set, moves and variants (domeng.engine.tiles, .moves)."""

from __future__ import annotations

import pytest

from domeng.engine import (
    BlockPasses,
    End,
    Move,
    Opening,
    Round,
    Variants,
    check_deal,
    move,
    parse_tile,
    tile,
    tile_name,
)
from domeng.engine.tiles import (
    ENDS_MASK,
    FULL_SET,
    HIGH,
    LEMPA_MASK,
    LOW,
    NUMBER_MASK,
    PIPS,
    TILE_COUNT,
    count,
    is_lempa,
    mask_of,
    names,
    other_half,
    pip_total,
    tiles_of,
)

from .deals import tiles

ALL_NAMES = [f"{a}-{b}" for a in range(7) for b in range(a + 1)]


def test_the_set_is_the_28_tiles_a_b_with_a_le_b_each_once() -> None:
    assert TILE_COUNT == 28
    assert sorted(names(FULL_SET)) == sorted(ALL_NAMES)
    pairs = {(HIGH[t], LOW[t]) for t in range(TILE_COUNT)}
    assert len(pairs) == 28
    assert all(0 <= LOW[t] <= HIGH[t] <= 6 for t in range(TILE_COUNT))
    assert FULL_SET == (1 << 28) - 1


def test_pips_of_a_tile_are_a_plus_b() -> None:
    assert [PIPS[parse_tile(n)] for n in ("0-0", "1-0", "6-4", "6-6", "5-3")] == [0, 1, 10, 12, 8]
    # every number 0-6 appears 8 times in the set: 8 * 21 pips
    assert pip_total(FULL_SET) == 168


def test_lempa_is_a_tile_with_the_same_number_on_both_halves() -> None:
    assert names(LEMPA_MASK) == ["0-0", "1-1", "2-2", "3-3", "4-4", "5-5", "6-6"]
    assert is_lempa(parse_tile("6-6")) and is_lempa(parse_tile("0-0"))
    assert not is_lempa(parse_tile("6-5")) and not is_lempa(parse_tile("1-0"))
    assert sum(is_lempa(t) for t in range(TILE_COUNT)) == 7


@pytest.mark.parametrize("text", ALL_NAMES)
def test_parse_and_name_round_trip_either_order(text: str) -> None:
    t = parse_tile(text)
    a, b = text.split("-")
    assert parse_tile(f"{b}-{a}") == t
    assert tile_name(t) == text  # the higher number first
    assert tile(int(a), int(b)) == tile(int(b), int(a)) == t
    assert (HIGH[t], LOW[t]) == (int(a), int(b))


def test_tile_name_writes_the_higher_number_first() -> None:
    assert tile_name(parse_tile("4-6")) == "6-4"
    assert tile_name(parse_tile("0-3")) == "3-0"


@pytest.mark.parametrize(
    "bad",
    # the last three are digits to Python's str.isdigit (superscript two, Arabic-Indic
    # three and zero, full-width one), but not how a tile is written
    ["7-1", "6", "6-", "-6", "a-b", "6-6-6", "", "66", "6 - 6", "-1-0", "²-1", "٣-٠", "１-0"],
)
def test_parse_tile_rejects_what_is_not_a_tile(bad: str) -> None:
    with pytest.raises(ValueError):
        parse_tile(bad)


def test_tile_rejects_numbers_outside_0_to_6() -> None:
    with pytest.raises(ValueError):
        tile(7, 0)
    with pytest.raises(ValueError):
        tile(-1, 2)


def test_number_and_ends_masks() -> None:
    assert names(NUMBER_MASK[6]) == ["6-0", "6-1", "6-2", "6-3", "6-4", "6-5", "6-6"]
    assert all(count(NUMBER_MASK[n]) == 7 for n in range(7))
    assert ENDS_MASK[6 * 7 + 6] == NUMBER_MASK[6]
    # two different ends: 7 + 7 tiles, the one showing both counted once
    assert count(ENDS_MASK[6 * 7 + 5]) == 13
    assert ENDS_MASK[2 * 7 + 5] == ENDS_MASK[5 * 7 + 2] == NUMBER_MASK[2] | NUMBER_MASK[5]


def test_sets_as_bitmasks() -> None:
    hand = tiles("6-6 6-4 5-1 3-0 2-2")
    assert count(hand) == 5
    assert names(hand) == ["2-2", "3-0", "5-1", "6-4", "6-6"]  # tile order
    assert mask_of(tiles_of(hand)) == hand
    assert list(tiles_of(0)) == []
    assert pip_total(hand) == 12 + 10 + 6 + 3 + 4
    assert pip_total(0) == 0


def test_other_half() -> None:
    assert other_half(parse_tile("6-4"), 6) == 4
    assert other_half(parse_tile("6-4"), 4) == 6
    assert other_half(parse_tile("3-3"), 3) == 3


def test_moves_ends_and_their_words() -> None:
    assert End.parse("left") is End.LEFT and End.parse("right") is End.RIGHT
    assert End.LEFT.word == "left" and End.RIGHT.word == "right"
    with pytest.raises(ValueError):
        End.parse("middle")
    m = move("4-6", End.LEFT)
    assert m == Move(parse_tile("6-4"), End.LEFT)
    assert m is move(parse_tile("6-4"), End.LEFT)  # interned
    assert str(m) == "6-4 left"
    assert move("2-2") == Move(parse_tile("2-2"), End.RIGHT)  # RIGHT by default


def test_variants_defaults_and_json() -> None:
    v = Variants()
    assert v.opening is Opening.DOUBLE and v.block_passes is BlockPasses.PENALIZED
    assert v.to_json() == {"opening": "double", "block_passes": "penalized"}
    assert Variants.from_json({}) == v
    free = Variants.from_json({"opening": "free", "block_passes": "free"})
    assert free == Variants(Opening.FREE, BlockPasses.FREE)
    assert Variants.from_json(free.to_json()) == free


@pytest.mark.parametrize(
    "bad",
    [
        [],
        "double",
        {"opening": "lempa"},
        {"block_passes": "none"},
        {"passes": "free"},
        {"opening": None},
    ],
)
def test_variants_from_json_rejects_unknown_values(bad: object) -> None:
    with pytest.raises(ValueError):
        Variants.from_json(bad)


def test_check_deal_five_hands_of_five_and_three_unused() -> None:
    hands = [
        tiles("6-6 6-4 5-1 3-0 2-2"),
        tiles("4-4 6-3 2-1 5-5 1-0"),
        tiles("6-5 3-2 4-3 0-0 1-1"),
        tiles("6-2 6-1 5-4 5-3 3-1"),
        tiles("6-0 5-2 5-0 4-2 4-0"),
    ]
    unused = tiles("4-1 3-3 2-0")
    check_deal(hands, unused)  # a proper deal
    with pytest.raises(ValueError, match="5 hands"):
        check_deal(hands[:4], unused)
    with pytest.raises(ValueError, match="3 unused"):
        check_deal(hands, tiles("4-1 3-3"))
    with pytest.raises(ValueError, match="dealt twice"):
        check_deal([hands[0], hands[0], *hands[2:]], unused)
    short = [hands[0] & ~tiles("6-6"), *hands[1:]]
    with pytest.raises(ValueError, match="4 tiles"):
        check_deal(short, unused)


def test_check_deal_refuses_a_tile_outside_the_set() -> None:
    hands = [
        tiles("6-6 6-4 5-1 3-0 2-2"),
        tiles("4-4 6-3 2-1 5-5 1-0"),
        tiles("6-5 3-2 4-3 0-0 1-1"),
        tiles("6-2 6-1 5-4 5-3 3-1"),
        tiles("6-0 5-2 5-0 4-2") | 1 << 28,  # no tile 28
    ]
    with pytest.raises(ValueError, match="all 28 tiles"):
        check_deal(hands, tiles("4-1 3-3 2-0"))


def test_a_round_refuses_an_opening_tile_the_starter_does_not_hold() -> None:
    hands = [
        tiles("6-6 6-4 5-1 3-0 2-2"),
        tiles("4-4 6-3 2-1 5-5 1-0"),
        tiles("6-5 3-2 4-3 0-0 1-1"),
        tiles("6-2 6-1 5-4 5-3 3-1"),
        tiles("6-0 5-2 5-0 4-2 4-0"),
    ]
    unused = tiles("4-1 3-3 2-0")
    with pytest.raises(ValueError, match="seat 1 does not hold 6-6"):
        Round(hands, unused, starter=1, opening_tile=parse_tile("6-6"))
    r = Round(hands, unused, starter=0, opening_tile=parse_tile("6-6"))
    assert r.legal_moves() == (move("6-6"),)
