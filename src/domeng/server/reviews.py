"""The coach's review of one seat's decisions in one finished round, for the browser
(after a round, and in the replay).

``GET /api/tables/{id}/review?seat=N&round=R`` (a table's finished round) and
``POST /api/review?seat=N&round=R`` (a record the browser opened) answer the
document of ``domeng review --json`` for that round only, with the players' names:
every decision of the seat there judged from what it knew then, the loss, the mark,
the reasons, the beliefs and the hindsight. Only finished rounds are reviewed, when
every hand has been shown anyway. The work (seconds) is done in the replay worker
process, one at a time, at :data:`REVIEW_LEVEL`.
"""

from __future__ import annotations

import json

from domeng.bots.expert import LEVELS
from domeng.bots.review import decisions, review_document

from .replays import ReplayFailed, read_record

REVIEW_LEVEL = "expert:fast"
"""How long the coach thinks about each decision of a review in the browser (a round's
review then takes a second or two; ``domeng review`` thinks at ``expert``)."""


def review_text(record: bytes, seat: int, round_number: int) -> bytes:
    """The review of ``seat`` in round ``round_number`` of ``record`` (its text), as JSON
    text (runs in the worker)."""
    got = read_record(record)
    rounds = got.game.rounds
    if not 1 <= round_number <= len(rounds) or not rounds[round_number - 1].finished:
        finished = sum(r.finished for r in rounds)
        message = f"there is no finished round {round_number} (the game has {finished})"
        raise ReplayFailed("bad_round", message)
    found = decisions(got, seat, LEVELS[REVIEW_LEVEL], only_round=round_number)
    answer = review_document(seat, found)
    answer["round"] = round_number
    answer["players"] = got.players
    answer["level"] = REVIEW_LEVEL
    return json.dumps(answer, separators=(",", ":")).encode()
