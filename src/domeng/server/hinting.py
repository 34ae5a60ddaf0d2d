"""Hints at the table: the coach's judgement for the person in turn.

``{"type": "hint"}`` from the seat in turn, at a table created with ``hints`` on, is
answered by a ``hint`` message to that connection alone: every legal move with the
coach's value (:func:`domeng.bots.coach.judge_position`, at :data:`HINT_LEVEL`, from
the seat's view only), the best move, the reasons (:func:`domeng.bots.reasons.reasons`)
and the coach's beliefs about the numbers the others hold. The coach thinks in the
computer players' process pool, off the event loop, as a computer's move does, so a
hint never holds up another table; each connection's share of hints is limited
(:data:`domeng.server.limits.MESSAGE_SHARES`). Each hint answered is counted for the
seat (stored, shown in the table's seats and the final standings).

Refusals: ``hints_off`` (the table's ``hints`` setting is off), ``not_seated`` (a
spectator), ``not_your_turn`` (another seat is in turn, or no round is being played).
"""

from __future__ import annotations

import dataclasses

from domeng.bots.coach import MoveValue, judge_position
from domeng.bots.expert import LEVELS
from domeng.bots.reasons import reasons
from domeng.engine import SeatView

from .documents import Json
from .hubbase import HubBase, log
from .messages import Hint
from .tables import Connection, Table, TableError

HINT_LEVEL = "expert"
"""How long the coach thinks for a hint (about half a second of a worker's time)."""


def _valued(mv: MoveValue) -> Json:
    return {
        "tile": mv.tile,
        "end": mv.end,
        "value": round(mv.value, 3),
        "error": round(mv.error, 3),
    }


def hint_body(seed: int, v: SeatView) -> Json:
    """What the coach says from view ``v`` (runs in a worker process): the ``hint``
    message's moves, best move, reasons and beliefs."""
    j = judge_position(v, LEVELS[HINT_LEVEL], seed)
    return {
        "moves": [_valued(mv) for mv in j.moves],
        "best": _valued(j.best),
        "reasons": [w.to_json() for w in reasons(v, j)],
        "numbers": [[round(p, 3) for p in row] for row in j.beliefs.numbers],
    }


class Hinting(HubBase):
    """The hub's part that answers hints; see the module docstring."""

    async def hint(self, t: Table, c: Connection, msg: Hint) -> None:
        if c.seat is None:
            raise TableError("not_seated", "a spectator has no seat to ask a hint for")
        seat = c.seat
        if not t.settings.hints:
            raise TableError("hints_off", "this table was created without hints")
        if not t.started or t.finished or t.game.round.finished:
            raise TableError("not_your_turn", "no round is being played")
        if t.game.turn != seat or t.waiting(seat):
            raise TableError("not_your_turn", f"it is seat {t.game.turn}'s turn, not yours")
        state = t.state
        v = t.game.view(seat)
        seed = hash((t.seats[seat].stored.seed, state, "hint")) & (2**63 - 1)
        body = await self.runner.think(hint_body, seed, v)  # off the event loop
        async with t.lock:
            s = t.seats[seat]
            counted = dataclasses.replace(s.stored, hints=s.stored.hints + 1)
            try:
                await self.store.save_seat(t.id, seat, counted)
                s.stored = counted
            except Exception:  # the hint is still given; only its count is not kept
                log.exception("could not store a hint's count at table %s", t.id)
            c.send(
                {
                    "type": "hint",
                    "reply_to": msg.id,
                    "state": state,
                    "seat": seat,
                    **body,
                    "hints": s.stored.hints,
                }
            )
            self._seats_changed(t)
