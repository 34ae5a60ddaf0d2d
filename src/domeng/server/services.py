"""What every table in play stands on, shared by them all: the storage, the computer
players' workers, the clock, the deals' shuffle, the computers' share of the loop and
the work each client address has under way.

The :class:`~domeng.server.registry.Registry` makes one :class:`Services` and hands it to
each :class:`~domeng.server.tables.Table` it creates or loads; a table reaches nothing
else of the service (not the registry, not another table). When a table has nothing
left to do in memory it says so through :attr:`Services.release`.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from domeng.bots.coach import COACH_LEVEL
from domeng.storage import StorageWriter

from .chat import Chat
from .clock import Clock
from .pacing import Pacing
from .players import BotRunner
from .work import InFlight

if TYPE_CHECKING:
    from .tables import Table

log = logging.getLogger("domeng.server")


def _keep(t: Table) -> None:
    """A table nobody registered: kept wherever it is."""


def _unheard(table_id: str) -> None:
    """Nobody keeps the tables' summaries (one process alone)."""


def _shown(table_id: str, at: float) -> bool:
    """Every kept message of a table is shown (a club hides some: :mod:`.club`)."""
    return True


@dataclass(slots=True, eq=False)
class Services:
    """Every table's shared ground; see the module docstring."""

    store: StorageWriter
    runner: BotRunner
    clock: Clock
    deals: random.Random
    """Where every deal's shuffle comes from (a seeded one makes a test's games fixed)."""
    pacing: Pacing = field(default_factory=Pacing)
    in_flight: InFlight = field(default_factory=InFlight)
    """The work each client address has under way (hints, reviews, replays)."""
    chores: set[asyncio.Task[None]] = field(default_factory=set)
    """Work started that no connection waits for (a wait's end, the look for idle
    games): awaited, or cancelled, when the service stops."""
    release: Callable[[Table], None] = _keep
    """A finished table nobody is at: the registry takes it out of memory."""
    on_finished: list[Callable[[Table], None]] = field(default_factory=list)
    """Called with every table whose game is over, once kept (a tournament listens)."""
    talk: Callable[[Clock], Chat] = Chat
    """Each table's talk (:mod:`.chat`; a club's refuses its muted members)."""
    coach_level: str = COACH_LEVEL
    """The level at which the coach judges, for every hint and review (``domeng serve
    --coach-level``): ``expert`` by default; ``expert:fast`` thinks a third as long."""
    changed: Callable[[str], None] = _unheard
    """Called with a table that changed (as its people are told), for a service of
    several to keep its summary for the others' list (:mod:`.listing`)."""
    shown: Callable[[str, float], bool] = _shown
    """Whether the kept message said at a table (its id) at a time is shown when the
    table is read (a club's hidden messages are not)."""

    def chore(self, work: asyncio.Task[None]) -> None:
        """Keep ``work`` among the chores until it is done."""
        self.chores.add(work)
        work.add_done_callback(self.chores.discard)
