"""A table's finished rounds into the history of its players, as each round ends.

Each seat counts for a profile: a computer seat for its level's, a person's seat for
the profile its person sat down with (from the round they sit from; a stand-in's plays
count for the person), an open seat or a person without a profile for no one. The work
runs in the storage's thread (:meth:`~domeng.storage.StorageWriter.call`), so the
service keeps none of the history in memory; a round that could not be recorded is recorded
with the next one (:func:`domeng.history.recorder.record_rounds`).
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from domeng.history.recorder import record_rounds
from domeng.storage import StorageWriter

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("domeng.server")


def seat_profiles(t: Table) -> list[str | None]:
    """The profile each seat of ``t`` counts for in its last round."""
    number = len(t.game.rounds)
    out: list[str | None] = []
    for s in t.seats:
        st = s.stored
        if st.kind == "computer":
            out.append(st.level)
        elif st.profile is not None and st.sits_from <= number:
            out.append(st.profile)
        else:
            out.append(None)
    return out


async def record_finished_rounds(store: StorageWriter, t: Table) -> None:
    """Record ``t``'s finished rounds not yet recorded (under the table's lock). A failure
    is logged, not raised: the move is kept all the same."""
    try:
        rounds = list(t.game.rounds)
        profiles, at = seat_profiles(t), t.clock.wall()
        # a round's worth of work, as small as a write: made with the writes (quick)
        await store.call(record_rounds, t.id, "table", rounds, profiles, at, quick=True)
    except Exception:
        log.exception("could not record the rounds of table %s in the players' history", t.id)
