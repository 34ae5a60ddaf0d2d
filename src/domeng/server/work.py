"""Fair work: what runs outside the event loop, and how much of it one client may have
under way at once.

Work that takes a worker process's time comes in four kinds, and each kind has a pool
of its own, so that none waits in another's queue:

- a computer player's move (:class:`~domeng.server.players.BotRunner`): cores - 1
  workers, at the service's own priority;
- a hint, the coach for the person in turn (:mod:`.hinting`): :data:`HINT_PROCESSES`
  workers, :data:`HINT_NICE` lower;
- a round's review and a replay (:class:`~domeng.server.replays.Replays`): one worker,
  :data:`RECORD_NICE` lower.

The lower priorities let the system give a computer's move the cores first while a
flood of hints, reviews or replays keeps the other workers busy, and a hint before
a replay.

Each client address has at most :data:`IN_FLIGHT` of each kind under way at once,
counted across its connections and requests (and a seat at most one hint): beyond it
the request is refused with ``busy`` (HTTP 429, ``retry_after_ms``), so that one
person's flood never fills a queue that another person waits in. A connection from
this computer counts too: these caps are about sharing the workers, not about trust.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

from .errors import TableError
from .workers import HINT_NICE, HINT_PROCESSES, RECORD_NICE

__all__ = ["HINT_NICE", "HINT_PROCESSES", "IN_FLIGHT", "RECORD_NICE", "InFlight"]

IN_FLIGHT: dict[str, int] = {"hint": 1, "review": 1, "replay": 1}
"""Per client address, how many of each kind may be under way at once."""
BUSY_RETRY = 1.0
"""The seconds a ``busy`` refusal says to wait."""


class InFlight:
    """How many of each kind of work each client address has under way."""

    def __init__(self, caps: dict[str, int] | None = None) -> None:
        self.caps = IN_FLIGHT if caps is None else caps
        self._under_way: dict[tuple[str, str], int] = {}

    def under_way(self, address: str, kind: str) -> int:
        return self._under_way.get((address, kind), 0)

    def take(self, address: str, kind: str) -> None:
        """Count one more ``kind`` under way for ``address``; refuses one too many."""
        n = self.under_way(address, kind)
        cap = self.caps[kind]
        if n >= cap:
            at_once = "one" if cap == 1 else str(cap)
            message = f"{at_once} {kind} at a time from {address}: wait for the one under way"
            raise TableError("busy", message, 429, retry_after=BUSY_RETRY)
        self._under_way[(address, kind)] = n + 1

    def release(self, address: str, kind: str) -> None:
        n = self.under_way(address, kind) - 1
        if n > 0:
            self._under_way[(address, kind)] = n
        else:
            self._under_way.pop((address, kind), None)

    @contextlib.contextmanager
    def hold(self, address: str, kind: str) -> Iterator[None]:
        """One ``kind`` under way for ``address`` while the block runs."""
        self.take(address, kind)
        try:
            yield
        finally:
            self.release(address, kind)
