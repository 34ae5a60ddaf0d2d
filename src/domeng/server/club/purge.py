"""Taking out of a club's storage what is over, at the start and every
:data:`EVERY` seconds after: the sessions that ended (their time is over), the one-time
links spent or not that expired more than :data:`LINKS_KEPT_DAYS` ago (until then a
spent or expired link is still answered ``spent_link`` / ``expired_link``, not
``unknown_link``), and the counts of wrong guesses after a long quiet (a new guess would
count afresh anyway: :data:`.throttle.LONGEST`). A signed-out, suspended or removed
member's sessions are deleted at once already (:meth:`Storage.end_sessions`).
"""

from __future__ import annotations

import logging

from domeng.storage.writer import StorageWriter

from ..clock import Clock
from .members import DAY
from .throttle import LONGEST

EVERY = 3600.0
"""Seconds between two purges."""
LINKS_KEPT_DAYS = 30
"""Days a link is kept after it expired (spent or not)."""

log = logging.getLogger(__name__)


async def purge(store: StorageWriter, clock: Clock) -> int:
    """One purge now; answers how many rows went."""
    now = clock.wall()
    return await store.call(lambda s: s.purge_club(now, now - LINKS_KEPT_DAYS * DAY, now - LONGEST))


async def keep_purging(store: StorageWriter, clock: Clock) -> None:
    """Purge every :data:`EVERY` seconds, for as long as the service runs (a purge that
    fails is logged and tried again at the next)."""
    while True:
        await clock.sleep(EVERY)
        try:
            await purge(store, clock)
        except Exception:
            log.exception("could not purge the club's ended sessions and old links")
