"""A seat of a table in play, and the secrets that open it (tokens, invitations).

:class:`Seat` is what a table keeps about one of its five seats besides what is stored
(its connections, the person's time away, the ``back`` taken); who plays each seat now
is the table's rule (:meth:`domeng.server.tables.Table.computer_level`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

from domeng.storage import StoredSeat

SEATS = 5
DEFAULT_NAMES = ("Andi", "Besse", "Cicci", "Daeng", "Emba")
MAX_NAME = 40
TIME_SLACK = 1e-6
"""A microsecond: a wait that is due is not missed by the rounding of the clock's floats."""
CLOCK_OUTS = 2
"""Moves in a row the turn clock makes for a person before a computer plays on for them."""


def hash_token(token: str) -> str:
    # surrogatepass: any text a client sends hashes (and simply matches no seat)
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def same_secret(kept: str, given: str) -> bool:
    """Whether a secret a client gave is the one kept (in constant time)."""
    return hmac.compare_digest(kept.encode(), given.encode("utf-8", "surrogatepass"))


def invite_code() -> str:
    """A new invitation code, for a seat's link."""
    return secrets.token_urlsafe(9)


@dataclass(slots=True, eq=False)
class Seat:
    stored: StoredSeat
    away_since: float
    """When the seat's person was last seen (the clock's time): at a restart, the restart."""
    connections: int = 0
    away_before: float = 0.0
    """Seconds the person was away, in earlier absences, since they last played (or said
    ready, or came back to their seat): coming back for a moment does not start the
    count again; only playing does."""
    backed: bool = False
    """The person took their seat back from the stand-in (``back``) and has not played
    since."""
    back_spent: int = 0
    """The round in which the person took their seat back, then let the clock run out
    again: no more ``back`` in that round."""
    away_shown: tuple[float, float] = (-1.0, 0.0)
    """When the person counts as away, on the clock's scale and as the Unix time told
    to everyone (:func:`~.waits.away_json`): worked out once per absence, so every
    message tells the same deadline."""

    def played(self) -> None:
        """The person played (or said ready, or came back): they are here."""
        self.away_before = 0.0
        self.backed = False
