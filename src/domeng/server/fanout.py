"""Spectators' updates, batched: at most one message every :data:`BATCH` seconds.

A table played at full speed changes hundreds of times a second; a person at the
table gets every change at once, but a crowd of spectators gets them gathered —
the events of several moves in one ``update``, with the table and view as they
are after the last, encoded and framed once for them all (compressed, for the
clients that agreed to it: :mod:`.frames`). A batch goes out before
anything else a spectator is sent (a ``seats`` message, the ``state`` of a
``sync``), so every spectator's running account stays whole and in order. At a
table whose rounds follow each other faster than :data:`BATCH` (computer players at
a pace under 100 ms), one batch may hold the end of a round and the next deal: its
events are in order, and a client starts the round's account again when the
view's round changes.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .clock import Clock, Timer
from .connection import Connection, encode
from .documents import EventDoc, Update
from .frames import Framed

BATCH = 0.1
"""The shortest time between two updates to a table's spectators, in seconds."""


@dataclass(slots=True)
class Batch:
    """What a table's spectators have not been sent yet."""

    events: list[EventDoc] = field(default_factory=list)
    message: Update | None = None
    """The update they would be sent now (its events aside)."""
    sent_at: float = -math.inf
    timer: Timer | None = None


class Fanout:
    """The spectators' batches of every table."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._batches: dict[str, Batch] = {}

    def update(self, table_id: str, spectators: list[Connection], message: Update) -> None:
        """An update for the spectators (``message`` with its new ``events``)."""
        b = self._batches.setdefault(table_id, Batch())
        b.events.extend(message["events"])
        b.message = message
        now = self.clock.now()
        if now - b.sent_at >= BATCH:
            self.flush(table_id, spectators)
        elif b.timer is None:

            def later() -> None:
                b.timer = None
                self.flush(table_id, [c for c in spectators if not c.closed])

            b.timer = self.clock.call_at(b.sent_at + BATCH, later)

    def flush(self, table_id: str, spectators: list[Connection]) -> None:
        """Send the table's spectators what is waiting for them, now."""
        b = self._batches.get(table_id)
        if b is None or b.message is None:
            return
        if b.timer is not None:
            b.timer.cancel()
            b.timer = None
        text = encode({**b.message, "events": b.events})
        framed = Framed(text, shared=len(spectators) > 1)
        for c in spectators:
            c.send_framed(framed)
        b.events, b.message, b.sent_at = [], None, self.clock.now()

    def forget(self, table_id: str) -> None:
        b = self._batches.pop(table_id, None)
        if b is not None and b.timer is not None:
            b.timer.cancel()
