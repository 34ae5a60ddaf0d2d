"""The coach's review of one seat's decisions in one finished round, for the browser
(after a round, and in the replay).

``GET /api/tables/{id}/review?seat=N&round=R`` (a table's finished round) and
``POST /api/review?seat=N&round=R`` (a record the browser opened) answer the
document of ``domeng review --json`` for that round only, with the players' names:
every decision of the seat there judged from what it knew then, the loss, the mark,
the reasons, the beliefs and the hindsight, and luck and skill apart (``luck_skill``).
Only finished rounds are reviewed, when every hand has been shown anyway. The work
(seconds) is done in the replay worker process, one at a time, at :data:`REVIEW_LEVEL`.
"""

from __future__ import annotations

import json
from typing import cast

from domeng.bots.coach import COACH_LEVEL
from domeng.bots.expert import LEVELS
from domeng.bots.review import decisions, review_document, stones_received

from .documents import DecisionDoc, LuckSkillDoc, ReviewDoc
from .replays import ReplayFailed, read_record

REVIEW_LEVEL = COACH_LEVEL
"""How long the coach thinks about each decision of a review in the browser: the hints'
level, so that a hint and the review of the same decision give the same values (a
round's review takes a few seconds of the worker; ``domeng review`` thinks at
``expert`` too)."""


def review_text(record: bytes, seat: int, round_number: int, level: str = REVIEW_LEVEL) -> bytes:
    """The review of ``seat`` in round ``round_number`` of ``record`` (its text), judged
    at ``level`` (the service's ``coach_level``), as JSON text (runs in the worker)."""
    got = read_record(record)
    rounds = got.game.rounds
    if not 1 <= round_number <= len(rounds) or not rounds[round_number - 1].finished:
        finished = sum(r.finished for r in rounds)
        message = f"there is no finished round {round_number} (the game has {finished})"
        raise ReplayFailed("bad_round", message)
    found = decisions(got, seat, LEVELS[level], only_round=round_number)
    received = stones_received(got, seat, round_number)
    reviewed = review_document(seat, found, received)
    answer: ReviewDoc = {  # the coach's part is the bots' document, typed there as objects
        "seat": cast(int, reviewed["seat"]),
        "decisions": cast(list[DecisionDoc], reviewed["decisions"]),
        "total_loss": cast(float, reviewed["total_loss"]),
        "luck_skill": cast(LuckSkillDoc, reviewed["luck_skill"]),
        "round": round_number,
        "players": got.players,
        "level": level,
    }
    return json.dumps(answer, separators=(",", ":")).encode()
