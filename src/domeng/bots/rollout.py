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

from domeng.engine import Move, Round, StonesMoved
from domeng.engine.tiles import ENDS_MASK, HIGH, LOW, PIPS, TILE_COUNT

_OTHER: tuple[int, ...] = tuple(
    (LOW[t] if HIGH[t] == n else HIGH[t]) if n in (HIGH[t], LOW[t]) else -1
    for t in range(TILE_COUNT)
    for n in range(7)
)
"""``_OTHER[t * 7 + n]``: the half of tile t that is not n."""
_LEMPA = tuple(HIGH[t] == LOW[t] for t in range(TILE_COUNT))


@dataclass(frozen=True, slots=True)
class Weights:
    """What the play-out policy likes in a move (all per unit)."""

    pips: float = 1.0
    """Pips of the tile played (shed heavy tiles: they count against a MANGUNO)."""
    lempa: float = 4.0
    """Playing a LEMPA (it fits only one number, so it is hard to place later)."""
    follow: float = 2.5
    """Tiles left in hand that fit the new ends (keep a way to play next turn)."""
    epsilon: float = 0.1
    """Chance of a uniformly random legal move instead."""


DEFAULT_WEIGHTS = Weights()


def heuristic_move(r: Round, rng: random.Random, w: Weights = DEFAULT_WEIGHTS) -> Move:
    """A quick, sensible move for the seat in turn (the round must not be over)."""
    ms = r.legal_moves()
    if len(ms) == 1:
        return ms[0]
    if rng.random() < w.epsilon:
        return ms[int(rng.random() * len(ms))]
    seat = r.turn
    assert seat is not None
    hand = r.hands[seat]
    left, right = r.left, r.right
    best = ms[0]
    best_score = -1e9
    wp, wl, wf = w.pips, w.lempa, w.follow
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
        score = wp * PIPS[t] + wf * (rest & ENDS_MASK[nl * 7 + nr]).bit_count() + rng.random()
        if _LEMPA[t]:
            score += wl
        if score > best_score:
            best_score = score
            best = m
    return best


def play_out(r: Round, rng: random.Random, w: Weights = DEFAULT_WEIGHTS) -> None:
    """Play the round to its end with :func:`heuristic_move` for every seat."""
    while r.turn is not None:
        r.play(heuristic_move(r, rng, w))


@dataclass(frozen=True, slots=True)
class Objective:
    """How a seat values a finished round (higher is better).

    ``-(stones received - stones given)`` (the net change of the seat's own
    stones), plus ``camat`` when the seat is elected CAMAT, minus ``other_camat``
    when another seat is. ``from_player`` adds to the cost of each stone
    received from another player rather than from the table (it makes that
    player's own count smaller, nearer to a CAMAT election), and ``table_empty``
    is the worth of each stone the table holds (a stone taken from the table
    brings everyone nearer to an election).
    """

    camat: float = 12.0
    other_camat: float = 3.0
    from_player: float = 0.0
    given: float = 1.0


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
