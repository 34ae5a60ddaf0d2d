"""What one seat may know (rules.md, "What players know"): view(seat) and determinize."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Iterator

import pytest

from domeng.engine import (
    Round,
    RoundEnded,
    SeatView,
    Variants,
    determinize,
    own,
    view,
)
from domeng.engine.tiles import FULL_SET, NUMBER_MASK

from .deals import (
    BLOCK_MOVES,
    RETURN_DEAL,
    RETURN_MOVES,
    block_round,
    cappu_round,
    make_round,
    mv,
    play,
    tiles,
)


def walk(value: object, path: str = "view") -> Iterator[tuple[str, object]]:
    """Every value reachable from a view: dataclass fields, NamedTuple fields, tuples."""
    yield path, value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            yield from walk(getattr(value, f.name), f"{path}.{f.name}")
    elif isinstance(value, tuple):
        names = getattr(value, "_fields", None)
        for i, item in enumerate(value):
            label = names[i] if names else str(i)
            yield from walk(item, f"{path}.{label}")


ALLOWED = (int, str, type(None), enum.Enum, tuple, Variants, SeatView)


def check_holds_nothing_hidden(v: SeatView, r: Round) -> None:
    """The view of a round in play holds no other seat's tile and no unused tile."""
    assert r.result is None
    hidden = r.unused
    for s in range(5):
        if s != v.seat:
            hidden |= r.hands[s]
    for path, value in walk(v):
        # only plain immutable values: no Round, no list, dict or other object
        assert isinstance(value, ALLOWED), (path, type(value))
        assert not isinstance(value, Round)
        assert not isinstance(value, RoundEnded), path
    assert v.hand == r.hands[v.seat]
    assert v.played_tiles & hidden == 0
    assert v.result is None
    # every tile named anywhere (plays, events) is on the line
    for _, m in v.plays:
        assert not hidden >> m.tile & 1
    for e in v.history:
        t = getattr(e, "tile", None)
        if t is not None:
            assert not hidden >> t & 1
    # only the tiles a seat may not see are unseen
    assert v.unseen == hidden


def return_round() -> Round:
    return make_round(RETURN_DEAL, starter=0)


def test_a_seats_view_in_the_middle_of_a_round() -> None:
    r = return_round()
    play(r, RETURN_MOVES[:5])  # ... rel 2's 6-5, rel 3's third PASSEBUNGE
    v = view(r, 3)
    assert v.seat == 3 and v.number == 1 and v.variants == Variants()
    assert v.starter == 0 and v.opening_tile is None and v.turn == 4
    assert v.hand == tiles("3-3 4-0 4-1 4-2 4-3")
    assert v.hand_counts == (4, 4, 2, 5, 5)
    assert v.ends == (6, 5)
    assert v.line == ((6, 2), (2, 1), (1, 6), (6, 6), (6, 5))
    assert v.plays == (
        (0, mv("2-1")),
        (1, mv("6-1")),
        (2, mv("6-2 left")),
        (2, mv("6-6")),
        (2, mv("6-5")),
    )
    assert v.history == tuple(r.events)
    assert v.played_tiles == tiles("2-1 6-1 6-2 6-6 6-5")
    assert v.played_seats == 0b00111
    assert v.last_mappano == 2
    # passing shows what a seat lacks: seat 3 passed on (6,6) and on (6,5)
    assert v.lacking == (1 << 6, 1 << 6, 0, 1 << 6 | 1 << 5, 1 << 6)
    assert v.stones == (2, 2, 0, 6, 4) and v.table == 11
    assert v.camat is None and v.titles == (0, 0, 0, 0, 0)
    assert v.legal_moves == ()  # not in turn
    assert v.result is None
    assert v.unseen == FULL_SET & ~v.hand & ~v.played_tiles
    # seat 4 is in turn and sees its moves
    v4 = view(r, 4)
    assert set(v4.legal_moves) == {mv("5-0"), mv("5-1"), mv("5-2"), mv("5-3")}
    assert v4.legal_moves == r.legal_moves()
    # what seat 4 may guess seat 3 holds: unseen, with no 6 and no 5
    expected = v4.unseen & ~NUMBER_MASK[6] & ~NUMBER_MASK[5]
    assert v4.may_hold(3) == expected
    assert v4.may_hold(2) == v4.unseen  # seat 2 never passed
    for seat in range(5):
        check_holds_nothing_hidden(view(r, seat), r)


def test_views_are_frozen_copies() -> None:
    r = return_round()
    play(r, RETURN_MOVES[:3])
    v = view(r, 1)
    history, stones = v.history, v.stones
    play(r, RETURN_MOVES[3:])
    assert v.history == history and len(v.history) < len(r.events)
    assert v.stones == stones != tuple(r.stones)
    with pytest.raises(dataclasses.FrozenInstanceError):
        v.hand = 0  # type: ignore[misc]


def test_no_seat_outside_0_to_4() -> None:
    r = return_round()
    for bad in (-1, 5):
        with pytest.raises(ValueError):
            view(r, bad)


def test_what_only_a_seat_sees_is_its_views_hand_and_legal_moves() -> None:
    r = return_round()
    for m in [None, *RETURN_MOVES]:
        if m is not None:
            play(r, [m])
        for seat in range(5):
            v = view(r, seat)
            assert own(r, seat) == (v.hand, v.legal_moves)
    with pytest.raises(ValueError):
        own(r, 5)


def test_a_view_does_not_depend_on_what_the_seat_cannot_see() -> None:
    # the same plays in another world: rel 0's 0-0 and rel 4's 4-4 swapped, and
    # rel 1's 3-0 and rel 3's 3-3 swapped. Seat 2 cannot tell the worlds apart.
    other = list(RETURN_DEAL)
    other[0] = "2-1 4-4 1-0 1-1 2-0"
    other[4] = "0-0 5-0 5-1 5-2 5-3"
    other[1] = "6-1 2-2 3-3 3-1 3-2"
    other[3] = "3-0 4-0 4-1 4-2 4-3"
    a, b = make_round(RETURN_DEAL, starter=0), make_round(other, starter=0)
    assert view(a, 2) == view(b, 2)
    for text in RETURN_MOVES[:5]:
        a.play(mv(text))
        b.play(mv(text))
        assert a.events == b.events
        assert view(a, 2) == view(b, 2)
        assert view(a, 0) != view(b, 0)  # seat 0's own hand differs


def test_once_the_round_is_over_everyone_shows_their_tiles() -> None:
    r = block_round("lower", 1)
    play(r, BLOCK_MOVES)
    v = view(r, 0)
    assert v.result is not None and v.result == r.result
    assert v.result.hands == tuple(r.hands)
    assert v.result.unused == r.unused
    assert v.turn is None and v.legal_moves == ()


def test_determinize_with_the_true_hands_reproduces_the_continuation() -> None:
    for split in range(len(RETURN_MOVES)):
        for seat in range(5):
            r = return_round()
            play(r, RETURN_MOVES[:split])
            v = view(r, seat)
            d = determinize(v, list(r.hands), r.unused)
            assert view(d, seat) == v
            assert d.legal_moves() == r.legal_moves() and d.turn == r.turn
            assert d.ends == r.ends and d.line() == r.line()
            play(r, RETURN_MOVES[split:])
            play(d, RETURN_MOVES[split:])
            assert d.events == r.events
            assert d.stones == r.stones and d.table == r.table
            assert d.hands == r.hands and d.dealt == r.dealt


def test_determinize_reaches_the_same_ending() -> None:
    r, moves = cappu_round("pollo", 3, stones=[22, 0, 0, 2, 0], table=1)
    play(r, moves[:15])
    d = determinize(view(r, 0), list(r.hands), r.unused)
    play(r, moves[15:])
    play(d, moves[15:])
    assert d.result == r.result and d.events == r.events
    assert d.camat == r.camat == 3 and d.titles == r.titles


def test_determinize_with_a_guess_keeps_the_position() -> None:
    r = return_round()
    play(r, RETURN_MOVES[:3])
    v = view(r, 2)
    # a guess consistent with the counts: swap two hidden tiles of seats 0 and 4
    hands = list(r.hands)
    hands[0] = hands[0] ^ tiles("0-0") | tiles("4-4")
    hands[4] = hands[4] ^ tiles("4-4") | tiles("0-0")
    d = determinize(v, hands, r.unused)
    assert view(d, 2) == v
    assert d.hands == hands


def test_determinize_refuses_a_guess_that_does_not_fit_the_view() -> None:
    r = return_round()
    play(r, RETURN_MOVES[:3])
    v = view(r, 2)
    hands = list(r.hands)
    with pytest.raises(ValueError, match="own hand"):
        determinize(v, [hands[0], hands[1], hands[3], hands[2], hands[4]], r.unused)
    with pytest.raises(ValueError, match="count"):
        bad = list(hands)
        bad[0] |= tiles("6-0")
        determinize(v, bad, r.unused & ~tiles("6-0"))
    with pytest.raises(ValueError, match="twice"):
        bad = list(hands)
        bad[0] = bad[0] ^ tiles("0-0") | tiles("5-0")
        determinize(v, bad, r.unused)
    with pytest.raises(ValueError, match="exactly once"):
        bad = list(hands)
        bad[0] = bad[0] ^ tiles("0-0") | tiles("6-1")  # a tile on the line
        determinize(v, bad, r.unused)
    done = block_round("none", 0)
    play(done, BLOCK_MOVES)
    with pytest.raises(ValueError, match="over"):
        determinize(view(done, 0), list(done.hands), done.unused)
