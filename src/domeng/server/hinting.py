"""Hints at the table: the coach's judgement for the person in turn.

``{"type": "hint"}`` from the seat in turn, at a table created with ``hints`` on, is
answered by a ``hint`` message to that connection alone: every legal move with the
coach's value (:func:`domeng.bots.coach.judge_position`, at :data:`HINT_LEVEL`, from
the seat's view only), the best move, the reasons (:func:`domeng.bots.reasons.reasons`)
and the coach's beliefs about the numbers the others hold. The coach thinks in the
coach's own worker processes, off the event loop, so a hint never holds up another
table nor a computer player's move; each connection's share of hints is limited
(:data:`domeng.server.limits.MESSAGE_SHARES`). Each hint answered is counted for the
seat (stored, shown in the table's seats and the final standings).

Refusals: ``hints_off`` (the table's ``hints`` setting is off), ``not_seated`` (a
spectator), ``not_your_turn`` (another seat is in turn, or no round is being played),
``busy`` (the coach is still thinking about this seat's last hint, asked from any of
its connections, or the client's address has :data:`~domeng.server.work.IN_FLIGHT`
hints under way). The coach has workers of its own (:mod:`.work`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from domeng.bots.coach import COACH_LEVEL, MoveValue, judge_position
from domeng.bots.expert import LEVELS
from domeng.bots.reasons import reasons
from domeng.engine import SeatView

from .connection import Connection
from .documents import CoachSaysDoc, ReasonDoc, ValuedMoveDoc
from .errors import TableError
from .players import BotRunner
from .work import BUSY_RETRY, InFlight

if TYPE_CHECKING:
    from .tables import Table

HINT_LEVEL = COACH_LEVEL
"""How long the coach thinks for a hint (about half a second of a worker's time): the
level of the round's review too, so that both give the same values."""


def _valued(mv: MoveValue) -> ValuedMoveDoc:
    return {
        "tile": mv.tile,
        "end": mv.move.end.word,
        "value": round(mv.value, 3),
        "error": round(mv.error, 3),
    }


def hint_body(v: SeatView, level: str = HINT_LEVEL) -> CoachSaysDoc:
    """What the coach says from view ``v`` at ``level`` (runs in a worker process): the
    ``hint`` message's moves, best move, reasons and beliefs. The judgement is seeded from
    the view alone, so the review of this decision at the same level gives the same
    values."""
    j = judge_position(v, LEVELS[level])
    return {
        "moves": [_valued(mv) for mv in j.moves],
        "best": _valued(j.best),
        "reasons": [cast(ReasonDoc, w.to_json()) for w in reasons(v, j)],  # bots': untyped
        "numbers": [[round(p, 3) for p in row] for row in j.beliefs.numbers],
        "level": level,
    }


class Hints:
    """One table's hints: which of its seats the coach is thinking for (one hint at a
    time per seat), and the refusals; the table stores each hint's count and answers
    (:meth:`~domeng.server.tables.Table.hint`)."""

    def __init__(self, t: Table, runner: BotRunner, in_flight: InFlight) -> None:
        self.t = t
        self.runner = runner
        self.in_flight = in_flight
        self.thinking: set[int] = set()
        """The seats whose hint the coach is thinking about: one at a time."""
        self.counted: dict[int, int] = {}
        """Per seat, the state its last counted hint was asked at: a hint asked again for the
        same decision (after a reload) is not counted again."""

    async def think(self, c: Connection) -> tuple[int, int, CoachSaysDoc]:
        """What the coach says for ``c``'s seat: the seat, the state it was asked at,
        and the hint's body; refuses a hint ``c`` may not have now."""
        t = self.t
        if c.seat is None:
            raise TableError("not_seated", "a spectator has no seat to ask a hint for")
        seat = c.seat
        if not t.settings.hints:
            raise TableError("hints_off", "this table was created without hints")
        if not t.started or t.finished or t.game.round.finished:
            raise TableError("not_your_turn", "no round is being played")
        if t.game.turn != seat or t.waiting(seat):
            raise TableError("not_your_turn", f"it is seat {t.game.turn}'s turn, not yours")
        if seat in self.thinking:
            message = "the coach is still thinking about this seat's hint: wait for it"
            raise TableError("busy", message, 429, retry_after=BUSY_RETRY)
        state = t.state
        v = t.game.view(seat)
        with self.in_flight.hold(c.address, "hint"):  # refuses one too many from there
            self.thinking.add(seat)
            try:
                level = t.services.coach_level
                body = await self.runner.think(hint_body, v, level)  # off the loop
            finally:
                self.thinking.discard(seat)
        return seat, state, body
