"""The review of a seat's decisions in a recorded game.

Every decision (a play where the seat had more than one legal move) is rebuilt by
the engine from the record: the round is replayed from its deal up to that play,
and the coach (:func:`~domeng.bots.coach.judge_position`) judges the seat's view
there, from what the seat knew then (never the hidden tiles). The loss is the best
move's value minus the played move's; a loss of :data:`MISTAKE` stones or more is
a mistake, :data:`BLUNDER` or more a blunder. Beside it, marked as such, the
hindsight: the same moves valued knowing every hand
(:func:`~domeng.bots.coach.hindsight`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace

from domeng.engine import Game, Move, Round, view
from domeng.engine.record import RecordedGame
from domeng.engine.tiles import tile_name

from .coach import Judgement, MoveValue, find, hindsight, judge_position
from .expert import LEVELS, Level
from .reasons import Why, reasons

__all__ = ["BLUNDER", "MISTAKE", "Decision", "decisions", "mark_of", "review_document"]

MISTAKE = 0.25
"""A loss of this many stones or more is a mistake."""
BLUNDER = 0.75
"""A loss of this many stones or more is a blunder."""
DIGITS = 3
"""Values are given to this many decimals."""
REVIEW_CAP = 30.0
"""The time cap on each judgement of a review, in seconds: far above the level's own, so
that a busy machine does not cut a review's play-outs short and the same record always
gets the same review (a review is not played against a clock)."""


def mark_of(loss: float) -> str | None:
    """``"blunder"``, ``"mistake"`` or None for a loss in stones."""
    if loss >= BLUNDER:
        return "blunder"
    if loss >= MISTAKE:
        return "mistake"
    return None


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

    @property
    def best(self) -> MoveValue:
        return self.judgement.best

    @property
    def loss(self) -> float:
        return round(round(self.best.value, DIGITS) - round(self.played.value, DIGITS), DIGITS)

    @property
    def mark(self) -> str | None:
        return mark_of(self.loss)

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
    level: Level = LEVELS["expert"],
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
    level = replace(level, max_seconds=max(level.max_seconds, REVIEW_CAP))
    out: list[Decision] = []
    for number, index, r in _positions(recorded.game, seat, only_round):
        if r.turn != seat or len(r.legal_moves()) < 2:
            continue
        played_move = recorded.game.rounds[number - 1].plays[index][1]
        v = view(r, seat)
        j = judge_position(v, level, seed)
        played = j.of(played_move)
        seen = hindsight(r, level, seed) if with_hindsight else j.moves
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
            )
        )
        if progress is not None:
            progress(number, index)
    return out


def review_document(seat: int, found: list[Decision]) -> dict[str, object]:
    """The document of ``domeng review --json``."""
    return {
        "seat": seat,
        "decisions": [d.to_json() for d in found],
        "total_loss": round(sum(d.loss for d in found), DIGITS),
    }
