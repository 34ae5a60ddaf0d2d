"""Where tables are kept: the storage interface, its backends, and the thread that
keeps storage off the event loop.

- :mod:`.base`: :class:`Storage`, the stored shapes and :class:`StorageError`;
- :mod:`.sqlite`: :class:`SQLiteStorage`, one file (the service's default), shared with
  ``domeng stats`` and ``domeng play``, one service at a time (:mod:`.servicelock`);
- :mod:`.postgres`: ``PostgresStorage``, a PostgreSQL database (imported only when one
  is named: :func:`open_storage`);
- :mod:`.sql`, :mod:`.sql_club` and :mod:`.sql_history`: the queries both SQL
  backends share, and :mod:`.schema`, their one schema history;
- :mod:`.history`: what is kept about players who come back (profiles, figures), and
  the part of a backend that keeps it;
- :mod:`.club`: what a club keeps (members, links, sessions, audit, reports), and the
  part of a backend that keeps it;
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
    StoredTournament,
    TournamentChanged,
)
from .club import (
    ADMIN,
    GUEST,
    MEMBER,
    OWNER,
    ROLES,
    AuditEntry,
    ChatReport,
    StoredGuesses,
    StoredLink,
    StoredMember,
    StoredSession,
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
from .opening import is_postgres, open_storage
from .schema import NewerSchema
from .servicelock import DatabaseServed
from .sqlite import SQLiteStorage
from .writer import StorageWriter

__all__ = [
    "ADMIN",
    "CHAT_KEPT",
    "COMPUTER",
    "GUEST",
    "MEMBER",
    "OWNER",
    "PERSON",
    "ROLES",
    "AuditEntry",
    "ChatReport",
    "DatabaseServed",
    "Figures",
    "HeadToHead",
    "MemoryStorage",
    "NewerSchema",
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
    "StoredGuesses",
    "StoredLink",
    "StoredMember",
    "StoredPlay",
    "StoredProfile",
    "StoredSeat",
    "StoredSession",
    "StoredTable",
    "StoredTournament",
    "TournamentChanged",
    "is_postgres",
    "open_storage",
]
