"""The sampler of hidden tiles: every guess agrees with all the seat has seen."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from domeng.bots.sampling import DealSampler, NoConsistentDeal, opening_options
from domeng.engine import (
    FIRST_ROUND_LEMPA,
    Game,
    Opening,
    Round,
    SeatView,
    Variants,
    determinize,
    first_starter,
    parse_tile,
    view,
)
from domeng.engine.tiles import NUMBER_MASK, mask_of, tiles_of


def play_randomly(r: Round, rng: random.Random, plays: int) -> None:
    for _ in range(plays):
        if r.finished:
            return
        r.play(rng.choice(r.legal_moves()))


def random_position(seed: int, opening: Opening, plays: int, rounds_before: int = 0) -> Round:
    rng = random.Random(seed)
    g = Game(Variants(opening=opening))
    for _ in range(rounds_before):
        g.deal(rng)
        play_randomly(g.round, rng, 99)
    g.deal(rng)
    play_randomly(g.round, rng, plays)
    return g.round


def check_guess(v: SeatView, hands: list[int], unused: int) -> None:
    """Everything a guess must respect."""
    assert hands[v.seat] == v.hand
    assert [h.bit_count() for h in hands] == list(v.hand_counts)
    assert unused.bit_count() == 3
    placed = unused
    for h in hands:
        assert not placed & h, "a tile placed twice"
        placed |= h
    assert placed == v.unseen | v.hand
    assert not placed & v.played_tiles
    for seat in range(5):
        for n in range(7):
            if v.lacking[seat] >> n & 1:
                assert not hands[seat] & NUMBER_MASK[n], f"seat {seat} passed on {n}"
    if v.number == 1:
        # The first round's starter held the first LEMPA of 6-6, 5-5, 4-4, 3-3 dealt.
        dealt = list(hands)
        for seat, m in v.plays:
            dealt[seat] |= 1 << m.tile
        starter, lempa = first_starter(dealt)
        assert starter == v.starter
        if v.opening_tile is not None:
            assert lempa == v.opening_tile
    determinize(v, hands, unused)  # the engine accepts it


@settings(max_examples=120)
@given(
    seed=st.integers(0, 10**9),
    opening=st.sampled_from([Opening.DOUBLE, Opening.FREE]),
    plays=st.integers(0, 24),
    rounds_before=st.sampled_from([0, 0, 1]),
)
def test_every_guess_agrees_with_the_view(
    seed: int, opening: Opening, plays: int, rounds_before: int
) -> None:
    r = random_position(seed, opening, plays, rounds_before)
    if r.finished:
        return
    rng = random.Random(seed)
    for seat in range(5):
        v = view(r, seat)
        sampler = DealSampler(v)
        assert sampler.count >= 1
        for _ in range(4):
            check_guess(v, *sampler.sample(rng))


def brute_count(v: SeatView) -> int:
    """Placements agreeing with counts and passes, by enumeration seat after seat."""
    others = [s for s in range(5) if s != v.seat]

    def fits(seat: int, t: int) -> bool:
        return not any(v.lacking[seat] >> n & 1 and NUMBER_MASK[n] >> t & 1 for n in range(7))

    def count(i: int, left: list[int]) -> int:
        if i == len(others):
            return 1 if len(left) == 3 else 0
        seat = others[i]
        allowed = [t for t in left if fits(seat, t)]
        total = 0
        for chosen in itertools.combinations(allowed, v.hand_counts[seat]):
            total += count(i + 1, [t for t in left if t not in chosen])
        return total

    return count(0, list(tiles_of(v.unseen)))


# (seed, plays, seat) of small positions (a second round after random play).
SMALL = [(372, 18, 1), (113, 18, 1), (167, 18, 2), (310, 16, 4), (53, 16, 0), (289, 18, 0)]


def test_counts_match_enumeration_on_small_positions() -> None:
    for seed, plays, seat in SMALL:
        r = random_position(seed, Opening.DOUBLE, plays, rounds_before=1)
        v = view(r, seat)
        assert DealSampler(v).count == brute_count(v)
    v = view(random_position(81, Opening.DOUBLE, 16, rounds_before=1), 2)
    assert DealSampler(v).count == brute_count(v) == 1000


def test_draws_are_uniform_over_consistent_placements() -> None:
    seed, plays, seat = SMALL[0]
    v = view(random_position(seed, Opening.DOUBLE, plays, rounds_before=1), seat)
    sampler = DealSampler(v)
    assert sampler.count == 10
    rng = random.Random(5)
    seen: dict[tuple[tuple[int, ...], int], int] = {}
    for _ in range(4000):
        hands, unused = sampler.sample(rng)
        check_guess(v, hands, unused)
        key = (tuple(hands), unused)
        seen[key] = seen.get(key, 0) + 1
    assert len(seen) == 10
    assert min(seen.values()) > 300 and max(seen.values()) < 500


def test_made_up_passes_are_always_respected() -> None:
    # Seat 1 showed it lacks 0, 1 and 2; seat 2 lacks 3 and 4; seat 4 lacks 6.
    lacking = (0, 0b0000111, 0b0011000, 0, 0b1000000)
    rng = random.Random(0)
    for _ in range(100):
        g = Game()
        g.deal(rng)
        v = g.view(0)
        try:
            sampler = DealSampler(SeatView(**{**_fields(v), "lacking": lacking, "number": 2}))
        except NoConsistentDeal:
            continue
        for _ in range(20):
            hands, _unused = sampler.sample(rng)
            assert not hands[1] & (NUMBER_MASK[0] | NUMBER_MASK[1] | NUMBER_MASK[2])
            assert not hands[2] & (NUMBER_MASK[3] | NUMBER_MASK[4])
            assert not hands[4] & NUMBER_MASK[6]
        return
    raise AssertionError("no deal fits the made-up passes")


def _fields(v: SeatView) -> dict[str, object]:
    return {name: getattr(v, name) for name in SeatView.__dataclass_fields__}


def test_an_impossible_view_is_reported() -> None:
    g = Game()
    g.deal(random.Random(2))
    v = g.view(0)
    everything = (1 << 7) - 1
    v2 = SeatView(**{**_fields(v), "lacking": (0, everything, everything, 0, 0), "number": 2})
    with pytest.raises(NoConsistentDeal):
        DealSampler(v2)


def test_opening_double_with_5_5_puts_6_6_among_the_unused() -> None:
    six_six, five_five = parse_tile("6-6"), parse_tile("5-5")
    rng = random.Random(0)
    for _ in range(200):
        g = Game()
        g.deal(rng)
        if g.round.opening_tile == five_five:
            break
    r = g.round
    r.play(r.legal_moves()[0])
    for seat in range(5):
        v = view(r, seat)
        if v.hand >> six_six & 1:
            continue
        sampler = DealSampler(v)
        for _ in range(30):
            _hands, unused = sampler.sample(rng)
            assert unused >> six_six & 1


def test_opening_free_weighs_who_could_have_started() -> None:
    # In a free first round the starter held the first of 6-6, 5-5, 4-4, 3-3 dealt.
    rng = random.Random(3)
    for _ in range(40):
        g = Game(Variants(opening=Opening.FREE))
        g.deal(rng)
        r = g.round
        play_randomly(r, rng, rng.randrange(6))
        if r.finished:
            continue
        for seat in range(5):
            v = view(r, seat)
            options = opening_options(v)
            assert options
            sampler = DealSampler(v)
            for _ in range(10):
                check_guess(v, *sampler.sample(rng))


def test_opening_options_name_only_unseen_tiles() -> None:
    g = Game()
    g.deal(random.Random(4))
    v = g.view(g.round.starter)
    options = opening_options(v)
    assert options is not None
    lempas = mask_of(FIRST_ROUND_LEMPA)
    for forced in options:
        for t in forced:
            assert v.unseen >> t & 1 and lempas >> t & 1
