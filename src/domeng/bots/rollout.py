"""Fast play-outs for search players: a cheap heuristic policy and a round's value.

Both work on a :class:`~domeng.engine.Round` directly (never through a view),
because a search plays thousands of rounds to their end for every move. The
policy looks only at the hand of the seat in turn and the line's ends, so a
play-out from a guessed deal never uses anything a seat could not know in that
guessed world.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domeng.engine import Move, Passed, Round, StonesMoved
from domeng.engine.events import CUCUQ_STONES_ON, is_mattikkeng
from domeng.engine.moves import NEXT_SEAT
from domeng.engine.tiles import ENDS_MASK, HIGH, LOW, OTHER_HALF, PIPS, TILE_COUNT

_OTHER = OTHER_HALF
_LEMPA = tuple(HIGH[t] == LOW[t] for t in range(TILE_COUNT))


_NUMS = tuple((1 << HIGH[t]) | (1 << LOW[t]) for t in range(TILE_COUNT))
"""``_NUMS[t]``: the numbers tile t shows, as a 7-bit mask."""
_NEXT = NEXT_SEAT
_VARIETY: dict[int, int] = {}
"""How many different numbers the tiles of a set show, by set (filled as met)."""


def _variety(tiles: int) -> int:
    nums = 0
    x = tiles
    while x:
        low = x & -x
        nums |= _NUMS[low.bit_length() - 1]
        x ^= low
    _VARIETY[tiles] = count = nums.bit_count()
    return count


@dataclass(frozen=True, slots=True)
class Weights:
    """What the play-out policy likes in a move (the rules of thumb of ``basic``)."""

    pips: float = 0.1
    """Pips of the tile played (shed heavy tiles: they count against a MANGUNO)."""
    numbers: float = 1.0
    """Different numbers left in hand (variety: fewer PASSes)."""
    lempa: float = 3.0
    """Playing a LEMPA (it fits only one number, so it is hard to place later)."""
    fit: float = 2.5
    """Keeping a tile that fits the new ends (minus ``nofit`` when none does)."""
    nofit: float = 2.0
    fitcount: float = 0.4
    """Per tile left in hand that fits the new ends."""
    allpass: float = 4.0
    """Nobody else can play on the new ends but this seat can."""
    nextpass: float = 3.0
    """The next seat cannot play on the new ends."""
    danger: float = 4.0
    """Per stone this seat would receive as CUCUQ if the next seat finished on the new ends."""
    epsilon: float = 0.05
    """Chance of a uniformly random legal move instead."""


DEFAULT_WEIGHTS = Weights()


def heuristic_move(
    r: Round,
    rng: random.Random,
    w: Weights = DEFAULT_WEIGHTS,
    excluded: list[int] | None = None,
) -> Move:
    """A quick, sensible move for the seat in turn (the round must not be over).

    The rules of thumb of ``basic``. With ``excluded`` (per seat, the tiles its
    passes ruled out) the seat reasons only from what it could know, as
    ``basic`` does; without it, it looks at the (guessed) world's hands.
    """
    ms = r.legal_moves()
    if len(ms) == 1:
        return ms[0]
    rnd = rng.random
    if rnd() < w.epsilon:
        return ms[int(rnd() * len(ms))]
    seat = r.turn
    assert seat is not None
    hands = r.hands
    hand = hands[seat]
    nxt_seat = _NEXT[seat]
    if excluded is None:
        others = r.in_hands & ~hand
        nxt = hands[nxt_seat]
    else:
        others = (r.in_hands | r.unused) & ~hand  # what this seat cannot see
        nxt = others & ~excluded[nxt_seat]  # what the next seat may hold
    left, right = r.left, r.right
    best = ms[0]
    best_score = -1e9
    for m in ms:
        t = m[0]
        rest = hand & ~(1 << t)
        if not rest:
            return m  # FIRST CAPPU
        if left < 0:
            nl, nr = HIGH[t], LOW[t]
        elif m[1]:
            nl, nr = left, _OTHER[t * 7 + right]
        else:
            nl, nr = _OTHER[t * 7 + left], right
        fit = ENDS_MASK[nl * 7 + nr]
        variety = _VARIETY.get(rest)
        if variety is None:
            variety = _variety(rest)
        mine = rest & fit
        score = w.pips * PIPS[t] + w.numbers * variety + rnd() * 1e-3
        if _LEMPA[t]:
            score += w.lempa
        if mine:
            score += w.fit + w.fitcount * mine.bit_count()
        else:
            score -= w.nofit
        if not others & fit:
            if mine:
                score += w.allpass
            else:
                score += _block_value(r, seat, rest)
        elif not nxt & fit:
            score += w.nextpass
        elif excluded is not None:
            count = hands[nxt_seat].bit_count()
            if count <= 2:
                score -= w.danger * _danger(nxt & fit, nl, nr, count) * count / nxt.bit_count()
        elif nxt.bit_count() == 1:
            # the next seat's last tile fits: it finishes, this seat is CUCUQ
            score -= w.danger * CUCUQ_STONES_ON[(nxt.bit_length() - 1) * 49 + nl * 7 + nr]
        if score > best_score:
            best_score = score
            best = m
    return best


def _danger(may_fit: int, nl: int, nr: int, count: int) -> float:
    """Stones this seat may receive as CUCUQ if the next seat finishes (as ``basic``)."""
    danger = 0.0
    while may_fit:
        low = may_fit & -may_fit
        may_fit ^= low
        stones = CUCUQ_STONES_ON[(low.bit_length() - 1) * 49 + nl * 7 + nr]
        danger += stones if count == 1 else 0.3 * stones
    return danger


def _block_value(r: Round, seat: int, rest: int) -> float:
    """Blocking the line as MANGUNO: good when no other seat has as few pips."""
    mine = 0
    x = rest
    while x:
        low = x & -x
        mine += PIPS[low.bit_length() - 1]
        x ^= low
    for s, h in enumerate(r.hands):
        if s == seat:
            continue
        total = 0
        while h:
            low = h & -h
            total += PIPS[low.bit_length() - 1]
            h ^= low
        if is_mattikkeng(total, mine):
            return -10.0
    return 8.0


def play_out(
    r: Round,
    rng: random.Random,
    w: Weights = DEFAULT_WEIGHTS,
    excluded: list[int] | None = None,
) -> None:
    """Play the round to its end with :func:`heuristic_move` for every seat.

    With ``excluded`` (per seat, tiles ruled out by its passes so far; updated
    here as new passes happen) every seat plays from what it could know.
    """
    if excluded is None:
        while r.turn is not None:
            r.play(heuristic_move(r, rng, w))
        return
    excluded = excluded[:]
    events = r.events
    while r.turn is not None:
        n = len(events)
        r.play(heuristic_move(r, rng, w, excluded))
        for i in range(n + 1, len(events)):
            e = events[i]
            if type(e) is Passed:
                excluded[e[0]] |= ENDS_MASK[e[3] * 7 + e[4]]


def excluded_by_passes(r: Round) -> list[int]:
    """Per seat, the tiles its passes in ``r`` so far rule out."""
    excluded = [0] * 5
    for e in r.events:
        if type(e) is Passed:
            excluded[e.seat] |= ENDS_MASK[e.left * 7 + e.right]
    return excluded


@dataclass(frozen=True, slots=True)
class Objective:
    """How a seat values a finished round (higher is better).

    ``-(stones received - given * stones given)``, plus ``camat`` when the seat
    is elected CAMAT, minus ``other_camat`` when another seat is. With
    ``given = 1`` the first part is the net change of the seat's own stones.
    The default counts a stone given at a tenth of a stone received: receiving
    always costs, while giving (only possible when the table is empty, out of
    the seat's own stones) helps only towards an election that may not come.
    The table's state enters through the play-outs: an election can only
    happen in one once the table is empty, so the CAMAT terms weigh in as the
    table runs low. ``from_player`` adds to the cost of each stone received
    from another player rather than from the table (that player's count
    shrinks, nearer to a CAMAT election of its own).

    The weights were chosen in paired trials against four ``basic``
    (docs/bots.md): a large CAMAT bonus (12) or a stone given at half a stone
    received made the player take risks that cost it more stones than the
    elections they won were worth.
    """

    camat: float = 4.0
    other_camat: float = 1.0
    from_player: float = 0.0
    given: float = 0.1


DEFAULT_OBJECTIVE = Objective()


def round_value(r: Round, seat: int, since: int, obj: Objective = DEFAULT_OBJECTIVE) -> float:
    """The worth to ``seat`` of what happened in the finished (or not) round ``r``
    after its first ``since`` events."""
    value = 0.0
    events = r.events
    fp = obj.from_player
    given = obj.given
    for i in range(since, len(events)):
        e = events[i]
        if type(e) is StonesMoved:
            if e[1] == seat:
                value -= e[2]
                if e[0] is not None:
                    value -= fp * e[2]
            elif e[0] == seat:
                value += given * e[2]
    if r.camat_elected:
        value += obj.camat if r.camat == seat else -obj.other_camat
    return value
