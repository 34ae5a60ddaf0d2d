"""Turns, legal moves, PASS, PASSEBUNGE, LAST DOMINO, LAST MAPPANO, MAPPAKULING,
and illegal moves (rules.md "A round" 3-4, terms 2-5 and 7)."""

from __future__ import annotations

from typing import Any

import pytest

from domeng.engine import (
    End,
    IllegalMoveError,
    Move,
    Passed,
    Played,
    Reason,
    Round,
    StonesMoved,
    move,
    parse_tile,
)
from domeng.engine.tiles import HIGH, LOW

from .deals import (
    RETURN_DEAL,
    RETURN_MOVES,
    by_rel,
    cappu_round,
    make_round,
    mv,
    play,
    rotate,
)

L, R = End.LEFT, End.RIGHT
T = parse_tile
STARTERS = [0, 1, 2, 3, 4]


def moves(*texts: str) -> set[Move]:
    return {mv(t) for t in texts}


def snapshot(r: Round) -> tuple[Any, ...]:
    """Everything a play could change."""
    return (
        list(r.hands),
        r.dealt,
        r.unused,
        r.turn,
        r.ends,
        r.line(),
        list(r.events),
        list(r.stones),
        r.table,
        r.camat,
        list(r.titles),
        r.played_seats,
        r.last_mappano,
        r.result,
        r.legal_moves(),
        r.camat_elected,
        r.plays,
    )


def return_round(starter: int, **kw: Any) -> tuple[Round, list[int]]:
    """The RETURN deal at ``starter``; also the seats of rel 0-4."""
    r = make_round(rotate(RETURN_DEAL, starter), starter=starter, **kw)
    return r, [(starter + k) % 5 for k in range(5)]


@pytest.mark.parametrize("starter", STARTERS)
def test_pass_and_passebunge_and_the_turn_coming_back(starter: int) -> None:
    r, (r0, r1, r2, r3, r4) = return_round(starter)
    # a later round: the starter may open with any tile of theirs
    assert set(r.legal_moves()) == moves("2-1", "0-0", "1-0", "1-1", "2-0")
    play(r, ["2-1"])
    assert r.turn == r1 and r.ends == (2, 1)
    play(r, ["6-1"])
    assert r.turn == r2 and r.ends == (2, 6)
    # 6-2 fits both ends (2 on the left, 6 on the right): two moves
    assert set(r.legal_moves()) == moves("6-2 left", "6-2 right", "6-6", "6-5")
    n = len(r.events)
    play(r, ["6-2 left"])
    # both ends show 6; nobody but rel 2 holds a 6: rel 3 and rel 4 have played no
    # tile (PASSEBUNGE, 2 each), rel 0 and rel 1 have (PASS, 1 each); the turn comes
    # back to rel 2, who plays on: not a block.
    assert r.events[n:] == [
        Played(r2, T("6-2"), L, 6, 6, True, False),
        Passed(r3, True, 2, 6, 6),
        StonesMoved(None, r3, 2, Reason.PASSEBUNGE),
        Passed(r4, True, 2, 6, 6),
        StonesMoved(None, r4, 2, Reason.PASSEBUNGE),
        Passed(r0, False, 1, 6, 6),
        StonesMoved(None, r0, 1, Reason.PASS),
        Passed(r1, False, 1, 6, 6),
        StonesMoved(None, r1, 1, Reason.PASS),
    ]
    assert r.turn == r2 and not r.finished
    assert r.stones == by_rel([1, 1, 0, 2, 2], starter) and r.table == 19
    # equal ends: a fitting tile is one move
    assert set(r.legal_moves()) == moves("6-6", "6-5")
    n = len(r.events)
    play(r, ["6-6"])
    # PASSEBUNGE each time it happens
    assert r.events[n:] == [
        Played(r2, T("6-6"), R, 6, 6, True, False),
        Passed(r3, True, 2, 6, 6),
        StonesMoved(None, r3, 2, Reason.PASSEBUNGE),
        Passed(r4, True, 2, 6, 6),
        StonesMoved(None, r4, 2, Reason.PASSEBUNGE),
        Passed(r0, False, 1, 6, 6),
        StonesMoved(None, r0, 1, Reason.PASS),
        Passed(r1, False, 1, 6, 6),
        StonesMoved(None, r1, 1, Reason.PASS),
    ]
    assert r.stones == by_rel([2, 2, 0, 4, 4], starter) and r.table == 13
    assert r.legal_moves() == (move("6-5", R),)
    n = len(r.events)
    play(r, ["6-5"])
    assert r.events[n:] == [
        Played(r2, T("6-5"), R, 6, 5, False, False),
        Passed(r3, True, 2, 6, 5),
        StonesMoved(None, r3, 2, Reason.PASSEBUNGE),
    ]
    assert r.turn == r4
    assert set(r.legal_moves()) == moves("5-0", "5-1", "5-2", "5-3")
    play(r, ["5-0"])
    assert r.turn == r0 and set(r.legal_moves()) == moves("0-0", "1-0", "2-0")
    play(r, ["2-0"])
    assert r.turn == r1 and set(r.legal_moves()) == moves("2-2", "3-2")
    n = len(r.events)
    play(r, ["2-2"])
    # rel 2 (5-5 5-4) holds nothing for (6,2): an ordinary PASS, for they have played
    assert r.events[n:] == [
        Played(r1, T("2-2"), R, 6, 2, False, False),
        Passed(r2, False, 1, 6, 2),
        StonesMoved(None, r2, 1, Reason.PASS),
    ]
    # rel 3 holds 4-2, which fits: never skipped
    assert r.turn == r3 and r.legal_moves() == (move("4-2", R),)
    play(r, ["4-2"])
    assert r.turn == r4 and r.legal_moves() == (move("4-4", R),)
    assert r.stones == by_rel([2, 2, 1, 6, 4], starter) and r.table == 10
    assert r.line() == [
        (6, 2),
        (2, 1),
        (1, 6),
        (6, 6),
        (6, 5),
        (5, 0),
        (0, 2),
        (2, 2),
        (2, 4),
    ]
    assert r.ends == (6, 4)
    assert [p for p in r.plays] == [
        (r0, mv("2-1")),
        (r1, mv("6-1")),
        (r2, mv("6-2 left")),
        (r2, mv("6-6")),
        (r2, mv("6-5")),
        (r4, mv("5-0")),
        (r0, mv("2-0")),
        (r1, mv("2-2")),
        (r3, mv("4-2")),
    ]


def test_the_seat_in_turn_always_has_a_legal_move_and_every_fitting_tile_is_offered() -> None:
    r, _ = return_round(0)
    for text in RETURN_MOVES:
        assert r.turn is not None
        hand = r.hands[r.turn]
        legal = r.legal_moves()
        assert legal, "nobody passes by choice: a seat in turn has a tile that fits"
        assert r.ends is not None or all(m.end is R for m in legal)
        if r.ends is not None:
            left, right = r.ends
            expected = set()
            for t in range(28):
                if hand >> t & 1:
                    if left == right:
                        if left in (HIGH[t], LOW[t]):
                            expected.add(move(t, R))
                    else:
                        if left in (HIGH[t], LOW[t]):
                            expected.add(move(t, L))
                        if right in (HIGH[t], LOW[t]):
                            expected.add(move(t, R))
            assert set(legal) == expected
            assert len(legal) == len(expected)  # no duplicates
        r.play(mv(text))


@pytest.mark.parametrize("starter", STARTERS)
def test_last_domino_and_last_mappano(starter: int) -> None:
    r, seats = return_round(starter)
    assert r.last_mappano is None and r.plays == []
    for text in RETURN_MOVES:
        seat = r.turn
        r.play(mv(text))
        # LAST DOMINO: the tile played most recently; LAST MAPPANO: who played it
        assert r.plays[-1] == (seat, mv(text))
        last = [e for e in r.events if isinstance(e, Played)][-1]
        assert last.tile == mv(text).tile
        assert r.last_mappano == seat
    assert r.last_mappano == seats[3]


def test_mappakuling_is_judged_after_the_play_and_never_for_the_opening() -> None:
    # opening a LEMPA shows the same number at both ends, but is no MAPPAKULING
    r = make_round(rotate(RETURN_DEAL, 2), starter=2)
    r.play(mv("1-1"))
    assert r.events[-1] == Played(2, T("1-1"), R, 1, 1, False, True)
    # (2,6): 6-2 on the right shows 2 at both ends -> MAPPAKULING
    r3, _ = return_round(0)
    play(r3, ["2-1", "6-1"])
    r3.play(mv("6-2 right"))
    assert r3.events[-1] == Played(2, T("6-2"), R, 2, 2, True, False)
    # rel 2 now holds 6-6 6-5 5-5 5-4, none with a 2; rel 3 holds 4-2: no pass
    assert r3.turn == 3
    assert not [e for e in r3.events if isinstance(e, Passed)]
    # a play leaving different ends is no MAPPAKULING
    r3.play(mv("4-2"))
    assert r3.events[-1] == Played(3, T("4-2"), R, 2, 4, False, False)


def test_equal_ends_accept_either_end_and_the_tile_goes_where_named() -> None:
    r, _ = return_round(0)
    play(r, ["2-1", "6-1", "6-2 left"])
    assert r.ends == (6, 6)
    assert [m.end for m in r.legal_moves() if m.tile == T("6-6")] == [R]  # one play
    before = snapshot(r)
    r.play(move("6-6", L))  # accepted, and laid on the left as named
    assert snapshot(r) != before
    played = [e for e in r.events if isinstance(e, Played)]
    assert played[-1] == Played(2, T("6-6"), L, 6, 6, True, False)
    assert r.line()[0] == (6, 6)


def test_the_opening_tile_is_laid_high_half_left_and_either_end_is_accepted() -> None:
    r, _ = return_round(0)
    r.play(move("2-1", L))
    assert r.ends == (2, 1) and r.line() == [(2, 1)]
    assert r.events == [Played(0, T("2-1"), R, 2, 1, False, True)]


@pytest.mark.parametrize(
    ("prefix", "bad", "message"),
    [
        ([], "6-1", "does not hold 6-1"),  # another seat's tile (rel 1's)
        ([], "6-0", "does not hold 6-0"),  # an unused tile
        (["2-1"], "1-0", "does not hold 1-0"),  # rel 0's tile, in rel 1's turn
        (["2-1"], "2-1", "does not hold 2-1"),  # a tile on the line
        (["2-1"], "3-0", "does not fit"),  # rel 1's own tile, fitting no end
        (["2-1"], "6-1 left", "does not fit the left end"),  # the wrong end
        (["2-1", "6-1"], "6-6 left", r"does not fit the left end \(2\)"),
        (["2-1", "6-1", "6-2 left"], "5-5", "does not fit"),
    ],
)
def test_an_illegal_move_raises_and_changes_nothing(
    prefix: list[str], bad: str, message: str
) -> None:
    r, _ = return_round(0)
    play(r, prefix)
    before = snapshot(r)
    with pytest.raises(IllegalMoveError, match=message):
        r.play(mv(bad))
    assert snapshot(r) == before
    assert isinstance(IllegalMoveError("x"), ValueError)
    # and the round goes on as before
    r.play(r.legal_moves()[0])


def test_a_tile_number_outside_the_set_is_illegal() -> None:
    r, _ = return_round(0)
    before = snapshot(r)
    with pytest.raises(IllegalMoveError, match="no tile 28"):
        r.play(Move(28, R))
    with pytest.raises(IllegalMoveError):
        r.play(Move(-1, R))
    assert snapshot(r) == before


def test_no_move_after_the_round_is_over() -> None:
    r, moves_ = cappu_round("plain")
    play(r, moves_)
    assert r.finished and r.turn is None and r.legal_moves() == ()
    before = snapshot(r)
    for m in (mv("6-1"), mv("6-2"), mv("3-2"), mv("6-6")):
        with pytest.raises(IllegalMoveError, match="over"):
            r.play(m)
    assert snapshot(r) == before


def test_clone_is_independent() -> None:
    r, _ = return_round(0)
    play(r, RETURN_MOVES[:3])
    c = r.clone()
    before = snapshot(r)
    play(c, RETURN_MOVES[3:])
    assert snapshot(r) == before
    play(r, RETURN_MOVES[3:])
    assert snapshot(r) == snapshot(c)


@pytest.mark.parametrize("end", [0, 1, 2, -1])
def test_an_end_given_as_a_plain_int_is_judged_like_an_end(end: int) -> None:
    # End is an IntEnum: Move(t, 0) equals Move(t, End.LEFT). A wrong end given
    # as a plain int must raise IllegalMoveError too (not an AttributeError).
    r, _ = return_round(0)
    play(r, ["2-1"])  # ends (2,1): rel 1's 6-1 fits the right end only
    before = snapshot(r)
    if end == 1:
        r.play(Move(T("6-1"), end))  # type: ignore[arg-type]
        assert r.events[-1] == Played(1, T("6-1"), R, 2, 6, False, False)
        return
    with pytest.raises(IllegalMoveError):
        r.play(Move(T("6-1"), end))  # type: ignore[arg-type]
    assert snapshot(r) == before
