"""The review of a seat's decisions in a recorded game.

Every decision (a play where the seat had more than one legal move) is rebuilt by
the engine from the record: the round is replayed from its deal up to that play,
and the coach (:func:`~domeng.bots.coach.judge_position`) judges the seat's view
there, from what the seat knew then (never the hidden tiles). The loss is the best
move's value minus the played move's; a loss of :data:`MISTAKE` stones or more is
a mistake, :data:`BLUNDER` or more a blunder, but only when the loss is also clear of
the values' uncertainty (still past the threshold less :data:`CLEAR` paired standard
errors of the gap between the two moves): a loss past :data:`MISTAKE` within that
margin is marked ``close``, since another draw of the guesses could bring it under
(:func:`mark_of`). A move so marked is judged again with other guesses, and the mark
stays only if that second judgement marks it too, else ``close``
(:func:`confirmed_mark`); the values shown stay the first judgement's. Beside it, marked as
such, the hindsight: the same moves valued knowing every hand
(:func:`~domeng.bots.coach.hindsight`).

The judgement is the one a hint of the same decision gives (one judgement per
position: :func:`~domeng.bots.coach.judge_position` seeded from the view alone, at
the same level, :data:`~domeng.bots.coach.COACH_LEVEL` in the browser).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass

from domeng.engine import Game, Move, Round, StonesMoved, view
from domeng.engine.record import RecordedGame
from domeng.engine.tiles import tile_name

from .coach import COACH_LEVEL, Judgement, MoveValue, find, hindsight, judge_position
from .levels import LEVELS, Level
from .reasons import Why, reasons

__all__ = [
    "BLUNDER",
    "CLEAR",
    "CONFIRM_SEED",
    "MISTAKE",
    "Decision",
    "confirmed_mark",
    "decisions",
    "luck_and_skill",
    "mark_of",
    "needs_confirming",
    "review_document",
    "second_opinion",
    "stones_received",
]

MISTAKE = 0.25
"""A loss of this many stones or more is a mistake."""
BLUNDER = 0.75
"""A loss of this many stones or more is a blunder."""
DIGITS = 3
"""Values are given to this many decimals."""
CLEAR = 2.0
"""A loss is a mistake (a blunder) only when, less this many standard errors of the gap
(best minus played, paired), it still passes :data:`MISTAKE` (:data:`BLUNDER`): clear
of the values' uncertainty, so that judged again with other guesses it would pass the
threshold again."""


CONFIRM_SEED = 1_000_003
"""Added to the review's seed for the second judgement of a marked move: a draw of the
guesses independent of the first (:func:`confirmed_mark`)."""


def mark_of(loss: float, gap_error: float = 0.0) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"close"`` or None for a loss in stones whose paired
    standard error is ``gap_error``: the loss less :data:`CLEAR` standard errors decides
    the mark; a loss past :data:`MISTAKE` that is not clear of it by that margin is
    ``"close"``; a loss under :data:`MISTAKE`, None."""
    if loss < MISTAKE:
        return None
    sure = loss - CLEAR * gap_error
    if sure >= BLUNDER:
        return "blunder"
    if sure >= MISTAKE:
        return "mistake"
    return "close"


def needs_confirming(loss: float, gap_error: float) -> bool:
    """Whether one judgement marks the loss a mistake or a blunder: a mark that a second
    judgement, with other guesses, must confirm (:func:`confirmed_mark`)."""
    return mark_of(loss, gap_error) in ("mistake", "blunder")


def confirmed_mark(first: tuple[float, float], again: tuple[float, float]) -> str | None:
    """The mark of a move from two independent judgements of its position, each given as
    (loss, its standard error): a mistake or a blunder only when both judgements mark it
    (the milder of the two marks), else ``close`` (the first found a loss past the
    threshold that the second does not confirm). A mark chosen on one draw of the guesses
    is biased upwards, and the values' standard errors are themselves estimates: an
    independent second draw undoes both (``benchmarks/coach.py``)."""
    marks = (mark_of(*first), mark_of(*again))
    if any(m not in ("mistake", "blunder") for m in marks):
        return None if first[0] < MISTAKE else "close"
    return "mistake" if "mistake" in marks else "blunder"


@dataclass(frozen=True, slots=True)
class Decision:
    """One reviewed decision."""

    round: int
    """The round's number, from 1."""
    index: int
    """The play's position in the round's plays, from 0."""
    seat: int
    played_move: Move
    """The move as the record gives it."""
    played: MoveValue
    judgement: Judgement
    hindsight: tuple[MoveValue, ...]
    """The legal moves valued knowing every hand (best first)."""
    reasons: list[Why]
    """Why the best move beats the one played (empty when the best was played)."""
    stand_in: bool
    """A computer played this move for the person (a stand-in)."""
    again: tuple[float, float] | None = None
    """For a move the first judgement marks a mistake or a blunder: the loss and its
    standard error in a second judgement with other guesses (:data:`CONFIRM_SEED`); the
    mark is then given from both (:func:`confirmed_mark`)."""

    @property
    def best(self) -> MoveValue:
        return self.judgement.best

    @property
    def loss(self) -> float:
        return round(round(self.best.value, DIGITS) - round(self.played.value, DIGITS), DIGITS)

    @property
    def gap_error(self) -> float:
        """The standard error of the loss (paired: both moves in the same guesses)."""
        return round(self.played.gap_error, DIGITS)

    @property
    def mark(self) -> str | None:
        if self.again is not None:
            return confirmed_mark((self.loss, self.gap_error), self.again)
        return mark_of(self.loss, self.gap_error)

    def hindsight_of(self, m: Move) -> MoveValue:
        return find(self.hindsight, m)

    def to_json(self) -> dict[str, object]:
        seen = self.hindsight[0]
        return {
            "round": self.round,
            "index": self.index,
            "played": {"tile": tile_name(self.played_move.tile), "end": self.played_move.end.word},
            "best": _move(self.best),
            "moves": [_valued(mv) for mv in self.judgement.moves],
            "loss": self.loss,
            "loss_error": self.gap_error,
            "mark": self.mark,
            "reasons": [w.to_json() for w in self.reasons],
            "stand_in": self.stand_in,
            "numbers": [[round(p, DIGITS) for p in row] for row in self.judgement.beliefs.numbers],
            "hindsight": {
                "played": round(self.hindsight_of(self.played_move).value, DIGITS),
                "best": _valued(seen),
            },
        }


def _move(mv: MoveValue) -> dict[str, object]:
    return {"tile": mv.tile, "end": mv.end}


def _valued(mv: MoveValue) -> dict[str, object]:
    return {
        "tile": mv.tile,
        "end": mv.end,
        "value": round(mv.value, DIGITS),
        "error": round(mv.error, DIGITS),
    }


def _positions(game: Game, seat: int, only: int | None) -> Iterator[tuple[int, int, Round]]:
    """Every position of ``seat``'s turns, rebuilt by the engine from the deals (in round
    ``only`` when given): (round number, play index, a copy of the round before that
    play)."""
    replay = Game(game.variants)
    for r in game.rounds:
        fresh = replay.start_round(list(r.dealt), r.unused)
        for k, (who, m) in enumerate(r.plays):
            if who == seat and only in (None, r.number):
                yield r.number, k, fresh.clone()
            fresh.play(m)


def decisions(
    recorded: RecordedGame,
    seat: int,
    level: Level = LEVELS[COACH_LEVEL],
    *,
    seed: int = 0,
    with_hindsight: bool = True,
    only_round: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> list[Decision]:
    """Every decision of ``seat`` in the recorded game (in round ``only_round`` when
    given), reviewed (see the module)."""
    if not 0 <= seat < 5:
        raise ValueError(f"no seat {seat} (seats are 0-4)")
    out: list[Decision] = []
    for number, index, r in _positions(recorded.game, seat, only_round):
        if r.turn != seat or len(r.legal_moves()) < 2:
            continue
        played_move = recorded.game.rounds[number - 1].plays[index][1]
        v = view(r, seat)
        j = judge_position(v, level, seed)
        played = j.of(played_move)
        seen = hindsight(r, level, seed) if with_hindsight else j.moves
        again = None
        loss = round(round(j.best.value, DIGITS) - round(played.value, DIGITS), DIGITS)
        if needs_confirming(loss, round(played.gap_error, DIGITS)):
            again = second_opinion(judge_position(v, level, seed + CONFIRM_SEED), played_move)
        out.append(
            Decision(
                round=number,
                index=index,
                seat=seat,
                played_move=played_move,
                played=played,
                judgement=j,
                hindsight=seen,
                reasons=reasons(v, j, played),
                stand_in=recorded.is_stand_in(number - 1, index),
                again=again,
            )
        )
        if progress is not None:
            progress(number, index)
    return out


def second_opinion(j: Judgement, played: Move) -> tuple[float, float]:
    """The loss of ``played`` and its standard error in the judgement ``j``."""
    mv = j.of(played)
    return round(j.best.value - mv.value, DIGITS), round(mv.gap_error, DIGITS)


def stones_received(recorded: RecordedGame, seat: int, only_round: int | None = None) -> int:
    """The stones ``seat`` received in the recorded game (in round ``only_round`` when
    given), from the table or from other seats."""
    total = 0
    for r in recorded.game.rounds:
        if only_round in (None, r.number):
            for e in r.events:
                if type(e) is StonesMoved and e.receiver == seat:
                    total += e.amount
    return total


def luck_and_skill(received: int, found: list[Decision]) -> dict[str, float]:
    """Luck and skill apart: of the stones received, those the decisions cost (the sum of
    the losses) and those the deal brought (what the coach's best play would still have
    received, about: the rest). The losses are in the coach's values, which count the
    CAMAT terms and stones given too, so the deal's part can come out below zero."""
    skill = round(sum(d.loss for d in found), DIGITS)
    return {"received": received, "decisions": skill, "deal": round(received - skill, DIGITS)}


def review_document(
    seat: int, found: list[Decision], received: int | None = None
) -> dict[str, object]:
    """The document of ``domeng review --json``; with ``received`` (the stones the seat
    received, :func:`stones_received`) also luck and skill apart (:func:`luck_and_skill`)."""
    doc: dict[str, object] = {
        "seat": seat,
        "decisions": [d.to_json() for d in found],
        "total_loss": round(sum(d.loss for d in found), DIGITS),
    }
    if received is not None:
        doc["luck_skill"] = luck_and_skill(received, found)
    return doc
