"""Talk at the table: a few words or a quick phrase, from a seat (or a spectator, where
the table allows it), heard by everyone at the table.

:class:`Chat` (one per table) checks what a connection says (its length, its phrase,
who may talk, how fast) and words it as the message everyone gets; the table stores
it, then sends it (:meth:`~domeng.server.tables.Table.say`). Quick phrases are sent as
their key and shown in each reader's own language by the browser.
"""

from __future__ import annotations

from collections import deque
from typing import TYPE_CHECKING

from domeng.storage import StoredChat

from .clock import Clock
from .connection import Connection
from .errors import TableError
from .messages import Chat as ChatMessage

if TYPE_CHECKING:
    from .tables import Table

MAX_TEXT = 200
"""The longest message, in characters."""
RATE = (5, 10.0)
"""At most 5 messages in 10 seconds from one seat (whichever of its connections says
them), or from the spectators of one client address."""
PHRASES = (
    "hello",
    "good_luck",
    "well_played",
    "pass",
    "ceki",
    "pollo",
    "camat",
    "hurry_up",
    "oops",
    "thanks",
    "good_game",
    "again",
)
"""The quick phrases, by key (their words are the browser's, in every language)."""
SPECTATOR = "Spectator"
"""The name a spectator's messages carry."""


class Chat:
    """What is said at one table, checked; see the module docstring."""

    def __init__(self, clock: Clock) -> None:
        self.clock = clock
        self._said: dict[object, deque[float]] = {}
        """Per seat (or spectators' address): when its last messages were said. A share
        per connection let a seat with N connections talk N times as fast."""

    def check(self, t: Table, c: Connection, msg: ChatMessage) -> StoredChat:
        """What ``c`` says, as it is kept; refuses what it may not say."""
        if c.seat is None and not t.settings.spectator_chat:
            raise TableError("not_seated", "spectators do not talk at this table")
        text, phrase = msg.text, msg.phrase
        if text is not None:
            text = text.strip()
            if not text or not text.isprintable():
                raise TableError("bad_field", "text must be printable words, not empty")
            if len(text) > MAX_TEXT:
                raise TableError("too_long", f"a message is at most {MAX_TEXT} characters")
        elif phrase not in PHRASES:
            raise TableError(
                "bad_field", f"unknown phrase {phrase!r} (known: {', '.join(PHRASES)})"
            )
        now = self.clock.now()
        who: object = c.seat if c.seat is not None else ("spectators", c.address or id(c))
        said = self._said.setdefault(who, deque())
        count, seconds = RATE
        while said and said[0] <= now - seconds:
            said.popleft()
        if len(said) >= count:
            wait = said[0] + seconds - now
            raise TableError(
                "rate_limited", f"at most {count} messages in {seconds:g} s: wait {wait:.1f} s"
            )
        said.append(now)
        name = t.seats[c.seat].stored.name if c.seat is not None else SPECTATOR
        return StoredChat(c.seat, name, text, phrase if text is None else None, self.clock.wall())
