"""A club on several processes: what an admin did through another process, done here.

A club's mutes, hidden messages and suspensions are written in the database, but each
process also keeps them in memory for its own tables (:class:`~.state.Club`). With
several processes on one database (docs/architecture.md, "Several processes"), an
admin's action reaches only the process that answered it; so every :data:`EVERY`
seconds each process reads them again (:func:`catch_up`): a new mute refuses the muted
member's words here too, a message hidden elsewhere leaves this process's tables (their
connections told ``chat_hidden``), and a member suspended elsewhere loses their sockets
and seats here (:func:`~.moderation.shut_out`). A process alone on its database does not
need it and does not run it.
"""

from __future__ import annotations

import logging

from ..tables import Table
from .state import Club

EVERY = 2.0
"""Seconds between two readings of the club's mutes, hidden messages and suspensions."""

log = logging.getLogger(__name__)


def take_out(t: Table, at: float) -> None:
    """The message said at ``at`` leaves ``t``'s talk, and everyone there is told."""
    rest = [m for m in t.chat if m["at"] != at]
    if len(rest) == len(t.chat):
        return
    t.chat.clear()
    t.chat.extend(rest)
    for connection in list(t.connections):
        connection.send({"type": "chat_hidden", "at": at})


async def catch_up(club: Club) -> None:
    """Read the club's mutes, hidden messages and suspensions, and do here what they ask."""
    from .moderation import shut_out

    members = await club.store.call(lambda s: s.members())
    hidden = set(await club.store.call(lambda s: s.hidden_chat()))
    club.mutes = {m.id: m.muted_until for m in members if m.muted_until}
    for table_id, at in sorted(hidden - club.hidden):
        club.hidden.add((table_id, at))
        t = club.hub.tables.get(table_id)
        if t is not None:
            take_out(t, at)
    for m in members:
        if not m.suspended:
            club.shut.discard(m.id)
        elif m.id not in club.shut:
            club.shut.add(m.id)
            await shut_out(club, m.id)


async def keep_in_step(club: Club) -> None:
    """:func:`catch_up` every :data:`EVERY` seconds for as long as the service runs (a
    reading that fails is logged and tried again at the next)."""
    while True:
        await club.clock.sleep(EVERY)
        try:
            await catch_up(club)
        except Exception:
            log.exception("could not read the club's moderation again")
