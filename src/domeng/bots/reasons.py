"""Why the coach prefers one move to another, in the game's words.

:func:`reasons` compares the coach's best move with another (the runner-up for a
hint, the move played for a review) and says what decided the difference. Each
reason is built from the part of the value that differs between the two moves
(:class:`~domeng.bots.coach.MoveValue`: the stones the seat expects to receive
for its own PASSes, as CUCUQ, as MANGUNO; the chance of its FIRST CAPPU, of a
CAMAT election; the chance that another seat PASSes straight away) and from what
the position shows (the numbers left in hand, a LEMPA, a seat that showed it
lacks a number, a seat with one tile left).

A reason is data (:class:`Why`): a key and the seat, number or tile it names.
Interfaces turn it into a sentence in the reader's language, the browser's hint and
``domeng review`` from the same catalog texts (the ``coach`` group's ``reason.<key>``,
which the terminal reads as ``coach.reason.<key>``). The largest parts come first; at
most two are given.
"""

from __future__ import annotations

from dataclasses import dataclass

from domeng.engine import Passed, SeatView
from domeng.engine.events import finish_on, finish_stones
from domeng.engine.moves import NEXT_SEAT, SEATS
from domeng.engine.tiles import HIGH, LOW, NUMBER_MASK, PIPS, numbers_shown, tile_name

from .basic import ends_after
from .coach import Judgement, MoveValue
from .rollout import DEFAULT_OBJECTIVE, Objective

__all__ = ["KEYS", "Why", "reasons"]

KEYS = (
    "cappu",
    "ceki",
    "pollo",
    "keeps_number",
    "keeps_unseen",
    "keeps_unseen_one",
    "makes_pass",
    "passed_on",
    "likely_pass",
    "one_tile",
    "one_tile_both",
    "cucuq",
    "lempa",
    "pips",
    "camat",
    "close",
    "better",
)
"""Every reason's key. Its sentence, in each language, is the catalogs' ``coach`` text
``reason.<key>`` (``web/i18n/en.json`` has the English; docs/bots.md, "The coach", says
when each is given), with the placeholders ``{seat}`` (a name), ``{number}``,
``{other}`` (the other number; for ``keeps_unseen`` how many tiles with ``{number}``
the seat has not seen, two or more: ``keeps_unseen_one`` says one), ``{tile}``,
``{end}`` ("on the left"), ``{stones}`` and ``{finish}``: the game's word for the
finish that weighs most (FIRST CAPPU, CEKI, POLLO), the same in every language.

Where it can, a reason names what the seat saw: ``passed_on`` (a seat passed on two
numbers, so it holds neither) rather than ``makes_pass``, ``keeps_unseen`` (how many
tiles with the number kept are still unseen) rather than ``keeps_number``.
"""

_FINISH_WORD = {"plain": "FIRST CAPPU", "ceki": "CEKI", "pollo": "POLLO"}

_MIN = 0.03
"""The smallest part (in stones) worth naming."""
_PASS_CHANCE = 0.15
"""The smallest rise in another seat's chance to PASS worth naming."""


@dataclass(frozen=True, slots=True)
class Why:
    """One reason: its key (:data:`KEYS`) and what it names."""

    key: str
    weight: float
    """The stones this part of the value is worth (it orders the reasons)."""
    seat: int | None = None
    number: int | None = None
    other: int | None = None
    tile: str | None = None
    end: str | None = None
    finish: str | None = None
    stones: float | None = None

    def to_json(self) -> dict[str, object]:
        """The reason as the protocol and ``domeng review --json`` give it."""
        out: dict[str, object] = {"key": self.key}
        for name in ("seat", "number", "other", "tile", "end", "finish"):
            value = getattr(self, name)
            if value is not None:
                out[name] = value
        if self.stones is not None:
            out["stones"] = round(self.stones, 2)
        return out


def reasons(
    v: SeatView,
    judgement: Judgement,
    other: MoveValue | None = None,
    *,
    better: MoveValue | None = None,
    objective: Objective = DEFAULT_OBJECTIVE,
    most: int = 2,
) -> list[Why]:
    """Why ``better`` (default: the best move of ``judgement``) beats ``other`` (default:
    the runner-up). ``better`` should be valued higher than ``other``.

    With one legal move there is nothing to compare: no reasons.
    """
    best = judgement.best if better is None else better
    if other is None:
        if len(judgement.moves) < 2:
            return []
        other = judgement.moves[1]
    if other.move == best.move:
        return []
    me = v.seat
    t, u = best.move.tile, other.move.tile
    hand = v.hand
    found: list[Why] = []
    if hand.bit_count() == 1:
        left, right = v.ends if v.ends is not None else (HIGH[t], LOW[t])
        finish = finish_on(t, left, right).value
        key = {"plain": "cappu", "ceki": "ceki", "pollo": "pollo"}[finish]
        return [Why(key, 10.0, tile=tile_name(t))]
    gap = best.value - other.value
    # Within twice the paired standard error of the gap (known against the best move only)
    # the two moves are close, and the coach says so rather than name a reason.
    margin = 2 * other.gap_error if best is judgement.best else 0.0
    if gap < max(_MIN, margin):
        return [Why("close", 0.0, stones=gap)]

    d_pass = other.received["pass"] - best.received["pass"]
    if d_pass >= _MIN:
        kept = numbers_shown(hand & ~(1 << t)) & ~numbers_shown(hand & ~(1 << u))
        if kept:
            n = max(range(7), key=lambda k: (kept >> k & 1, k))
            unseen = (v.unseen & NUMBER_MASK[n]).bit_count()
            if unseen:
                key = "keeps_unseen_one" if unseen == 1 else "keeps_unseen"  # "1 tiles"
                found.append(Why(key, d_pass, number=n, other=unseen))
            else:
                found.append(Why("keeps_number", d_pass, number=n))
        elif HIGH[t] == LOW[t] and HIGH[u] != LOW[u]:
            found.append(Why("lempa", d_pass, tile=tile_name(t)))

    ends = ends_after(v.ends, best.move)
    for s in range(SEATS):
        if s == me:
            continue
        rise = best.passes[s] - other.passes[s]
        if rise < _PASS_CHANCE:
            continue
        # The end this move makes first: that is the one the seat cannot answer.
        new = ends[best.move.end] if v.ends is not None else ends[0]
        lacked = [n for n in (new, *ends) if v.lacking[s] >> n & 1]
        weight = rise * 0.5
        if lacked:
            n = lacked[0]
            also = [k for k in _passed_with(v, s, n) if k != n]
            if also:
                found.append(Why("passed_on", weight, seat=s, number=n, other=also[0]))
            else:
                found.append(Why("makes_pass", weight, seat=s, number=n))
        else:
            numbers = judgement.beliefs.numbers[s]
            n = min(sorted(set(ends)), key=lambda k: numbers[k])
            found.append(Why("likely_pass", weight, seat=s, number=n))

    d_cucuq = other.received["cucuq"] - best.received["cucuq"]
    if d_cucuq >= _MIN:
        nxt = NEXT_SEAT[me]
        if v.hand_counts[nxt] == 1:
            found.append(_one_tile(v, judgement, other, nxt, d_cucuq))
        else:
            found.append(Why("cucuq", d_cucuq))

    d_manguno = other.received["manguno"] - best.received["manguno"]
    if d_manguno >= _MIN and PIPS[t] > PIPS[u]:
        found.append(Why("pips", d_manguno, tile=tile_name(t)))

    d_camat = objective.camat * (best.camat - other.camat) + objective.other_camat * (
        other.other_camat - best.other_camat
    )
    if d_camat >= _MIN:
        found.append(Why("camat", d_camat))

    if not found:
        found.append(Why("better", gap, tile=tile_name(t), end=best.end, stones=gap))
    found.sort(key=lambda w: -w.weight)
    return found[:most]


def _passed_with(v: SeatView, s: int, n: int) -> list[int]:
    """The ends of the first PASS of seat ``s`` that showed ``n``: what it saw then."""
    for e in v.history:
        if type(e) is Passed and e.seat == s and n in (e.left, e.right):
            return [e.left, e.right]
    return []


def _one_tile(v: SeatView, judgement: Judgement, other: MoveValue, s: int, weight: float) -> Why:
    """The risk ``other`` leaves: seat ``s``, the next, holds one tile and may finish on
    the ends ``other`` leaves, this seat its CUCUQ. Named by the finish that weighs most
    in the beliefs (a POLLO, a CEKI, or a plain FIRST CAPPU)."""
    a, b = ends_after(v.ends, other.move)
    at_stake = dict.fromkeys(("plain", "ceki", "pollo"), 0.0)
    fits = NUMBER_MASK[a] | NUMBER_MASK[b]
    for u, where in judgement.beliefs.tiles.items():
        if fits >> u & 1:
            finish = finish_on(u, a, b)
            at_stake[finish.value] += where[s] * finish_stones(finish)
    worst = max(at_stake, key=lambda k: at_stake[k])
    word = _FINISH_WORD[worst]
    if a == b:
        return Why("one_tile_both", weight, seat=s, number=a, finish=word)
    return Why("one_tile", weight, seat=s, number=a, other=b, finish=word)
