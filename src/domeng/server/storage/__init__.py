"""Where tables are kept: the storage interface, its backends, and the thread that
keeps storage off the event loop.

- :mod:`.base`: :class:`Storage`, the stored shapes and :class:`StorageError`;
- :mod:`.sqlite`: :class:`SQLiteStorage`, one file (the service's default);
- :mod:`.history`: what is kept about players who come back (profiles, figures);
- :mod:`.memory`: :class:`MemoryStorage`, nothing on disk (tests, throwaway tables);
- :mod:`.writer`: :class:`StorageWriter`, which runs a backend's calls in one thread
  of their own so that a slow disk or a network database never stalls the tables.
"""

from .base import (
    CHAT_KEPT,
    Storage,
    StorageError,
    StoredChat,
    StoredDeal,
    StoredPlay,
    StoredSeat,
    StoredTable,
)
from .history import (
    COMPUTER,
    PERSON,
    Figures,
    HeadToHead,
    PlayedGame,
    RecordedRound,
    RoundPart,
    SeriesPoint,
    StoredProfile,
)
from .memory import MemoryStorage
from .sqlite import SQLiteStorage
from .writer import StorageWriter

__all__ = [
    "CHAT_KEPT",
    "COMPUTER",
    "PERSON",
    "Figures",
    "HeadToHead",
    "MemoryStorage",
    "PlayedGame",
    "RecordedRound",
    "RoundPart",
    "SQLiteStorage",
    "SeriesPoint",
    "Storage",
    "StorageError",
    "StorageWriter",
    "StoredChat",
    "StoredDeal",
    "StoredPlay",
    "StoredProfile",
    "StoredSeat",
    "StoredTable",
]
