"""What the hub's parts share: its storage, clock, computer players and tables, and the
steps each part calls on the others (see :mod:`.hub`)."""

from __future__ import annotations

import asyncio
import logging
import random
from abc import ABC, abstractmethod

from domeng.engine import Move

from .chat import Chat
from .clock import Clock, Timer
from .documents import Json
from .fanout import Fanout
from .pacing import Pacing
from .players import BotRunner
from .storage import StorageWriter
from .tables import Seat, Table
from .turnclock import TurnClock

log = logging.getLogger("domeng.server")


class HubBase(ABC):
    """The hub's state, and the steps its parts (:class:`~domeng.server.seating.Seating`,
    :class:`~domeng.server.moving.MovingOn`, :class:`~domeng.server.hub.Hub`) call on
    each other."""

    store: StorageWriter
    runner: BotRunner
    clock: Clock
    deals: random.Random
    tables: dict[str, Table]
    turn_clock: TurnClock
    chat: Chat
    fanout: Fanout
    pacing: Pacing
    chores: set[asyncio.Task[None]]
    _timers: set[Timer]
    _wakes: dict[tuple[str, int], Timer]

    @abstractmethod
    def seat(self, t: Table, seat: int) -> Seat: ...

    @abstractmethod
    def broadcast(self, t: Table, *, events: list[Json], kind: str = "update") -> None: ...

    @abstractmethod
    async def apply(
        self, t: Table, seat: int, m: Move, *, stand_in: bool = False
    ) -> list[Json]: ...

    @abstractmethod
    def advance(self, t: Table) -> None: ...

    @abstractmethod
    def arm_clock(self, t: Table) -> None: ...

    @abstractmethod
    def _seats_changed(self, t: Table) -> None: ...

    @abstractmethod
    async def finish_if_over(self, t: Table) -> None: ...

    @abstractmethod
    def let_go(self, t: Table) -> None: ...
