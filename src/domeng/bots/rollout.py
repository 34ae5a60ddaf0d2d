"""Fast play-outs for search players: ``basic``'s judgement for every seat, and a round's
value.

Both work on a :class:`~domeng.engine.Round` directly (never through a view),
because a search plays thousands of rounds to their end for every move. The
policy is :func:`domeng.bots.basic.judge` with :data:`DEFAULT_WEIGHTS`: by
default each seat judges from the guessed world's hands (an exact belief); with
``excluded`` it judges, as ``basic`` does, from what it could know there (the
tiles it cannot see and the numbers each seat's passes ruled out).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from domeng.engine import Move, Passed, Round, SeatView, StonesMoved
from domeng.engine.tiles import ENDS_MASK, NUMBER_MASK

from .basic import PLAYOUT_WEIGHTS, Weights, judge

__all__ = [
    "DEFAULT_OBJECTIVE",
    "DEFAULT_WEIGHTS",
    "Objective",
    "Weights",
    "excluded_by_passes",
    "excluded_by_view",
    "heuristic_move",
    "move_values",
    "play_out",
    "round_value",
]

DEFAULT_WEIGHTS = PLAYOUT_WEIGHTS
"""The play-outs' weights (:data:`domeng.bots.basic.PLAYOUT_WEIGHTS`)."""


def heuristic_move(
    r: Round,
    rng: random.Random,
    w: Weights = DEFAULT_WEIGHTS,
    excluded: list[int] | None = None,
) -> Move:
    """The play-out's move for the seat in turn (the round must not be over).

    ``basic``'s judgement, with ``w.epsilon`` of random moves. With ``excluded``
    (per seat, the tiles its passes ruled out) the seat reasons only from what it
    could know, as ``basic`` does; without it, it looks at the (guessed) world's
    hands. :func:`play_out` makes the same moves (it has this function's body
    inline: a call per move cost the play-outs 5% of their speed).
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
    if not hand & (hand - 1):
        return ms[0]  # every move plays the last tile: FIRST CAPPU
    if excluded is None:
        others = r.in_hands & ~hand
        return judge(ms, seat, hand, r.left, r.right, others, hands, None, w, rnd)
    others = (r.in_hands | r.unused) & ~hand  # what this seat cannot see
    may = [others & ~x for x in excluded]
    counts = [h.bit_count() for h in hands]
    return judge(ms, seat, hand, r.left, r.right, others, may, counts, w, rnd)


def play_out(
    r: Round,
    rng: random.Random,
    w: Weights = DEFAULT_WEIGHTS,
    excluded: list[int] | None = None,
    own: tuple[int, Weights] | None = None,
) -> None:
    """Play the round to its end with :func:`heuristic_move` for every seat.

    With ``excluded`` (per seat, tiles ruled out by its passes so far; updated
    here as new passes happen) every seat plays from what it could know. With
    ``own`` (a seat and weights) that seat's moves are judged by those weights, the
    others' by ``w`` (not with ``excluded``).
    """
    rnd = rng.random
    epsilon = w.epsilon
    hands = r.hands
    legal_moves = r.legal_moves
    play = r.play
    if own is not None and excluded is not None:
        raise ValueError("own weights with play-outs from what each seat knows")
    if excluded is None:
        # heuristic_move, inline (seat ``mine`` judged by its own weights, if any)
        mine, ww = own if own is not None else (-1, w)
        while True:
            seat = r.turn
            if seat is None:
                return
            ms = legal_moves()
            if len(ms) > 1:
                x = ww if seat == mine else w
                if rnd() < x.epsilon:
                    play(ms[int(rnd() * len(ms))])
                    continue
                hand = hands[seat]
                if hand & (hand - 1):
                    others = r.in_hands & ~hand
                    play(judge(ms, seat, hand, r.left, r.right, others, hands, None, x, rnd))
                    continue
            play(ms[0])
    # heuristic_move, inline, each seat judging from what it could know
    excluded = excluded[:]
    events = r.events
    unused = r.unused
    counts = [h.bit_count() for h in hands]
    while True:
        turn = r.turn
        if turn is None:
            return
        ms = legal_moves()
        n = len(events)
        if len(ms) == 1:
            m = ms[0]
        elif rnd() < epsilon:
            m = ms[int(rnd() * len(ms))]
        else:
            hand = hands[turn]
            if hand & (hand - 1):
                others = (r.in_hands | unused) & ~hand
                a, b, c, d, e = excluded
                may = [others & ~a, others & ~b, others & ~c, others & ~d, others & ~e]
                m = judge(ms, turn, hand, r.left, r.right, others, may, counts, w, rnd)
            else:
                m = ms[0]
        play(m)
        counts[turn] -= 1
        for i in range(n + 1, len(events)):
            ev = events[i]
            if type(ev) is Passed:
                excluded[ev[0]] |= ENDS_MASK[ev[3] * 7 + ev[4]]


def excluded_by_passes(r: Round) -> list[int]:
    """Per seat, the tiles its passes in ``r`` so far rule out."""
    excluded = [0] * 5
    for e in r.events:
        if type(e) is Passed:
            excluded[e.seat] |= ENDS_MASK[e.left * 7 + e.right]
    return excluded


def excluded_by_view(v: SeatView) -> list[int]:
    """Per seat, the tiles its passes rule out, from what ``v`` shows (``lacking``)."""
    out = []
    for lacking in v.lacking:
        mask = 0
        for n in range(7):
            if lacking >> n & 1:
                mask |= NUMBER_MASK[n]
        out.append(mask)
    return out


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


def move_values(r: Round, seat: int, playouts: int, rng: random.Random) -> dict[Move, float]:
    """Every legal move of ``r`` (in :meth:`~domeng.engine.Round.legal_moves`' order) with
    its mean value to ``seat`` over ``playouts`` play-outs of the true round after it, the
    same random stream for every move: the truth a benchmark judges decisions by (every
    hand in sight, everyone then playing by the play-outs' policy)."""
    since = len(r.events)
    start = rng.getstate()
    values: dict[Move, float] = {}
    for m in r.legal_moves():
        rng.setstate(start)  # the same random stream for every move
        total = 0.0
        for _ in range(playouts):
            c = r.clone()
            c.play(m)
            play_out(c, rng)
            total += round_value(c, seat, since)
        values[m] = total / playouts
    return values
