"""The schema of the storage, step by step: one history for SQLite and PostgreSQL.

:data:`STEPS` are the steps from an empty database to the current schema, written
once, in SQLite's words; :func:`for_postgres` says the same step in PostgreSQL's. Step
N brings a database from version N-1 to N: each is run once, in order, in one
transaction with the new version number, so a database made by an older Domeng opens
in place and keeps everything (SQLite keeps the number in its ``user_version``,
PostgreSQL in the one row of the table ``domeng_schema``). A new step is added at the
end, never changed once released: the old files have run it already.

PostgreSQL is given the same types SQLite stores: 64-bit integers (``BIGINT``), double
precision for the times, and text compared byte by byte (``COLLATE "C"``, as SQLite
compares), so both order ids alike and fold only ASCII letters for a profile's name
(SQLite's ``NOCASE``; in PostgreSQL a unique index on ``lower(name)``).
"""

from __future__ import annotations

import re

STEPS: tuple[str, ...] = (
    # 1: tables, seats, and the record (deals and plays)
    """
    CREATE TABLE IF NOT EXISTS tables (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        settings TEXT NOT NULL
    );
    CREATE TABLE IF NOT EXISTS seats (
        table_id TEXT NOT NULL REFERENCES tables(id),
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL,
        level TEXT,
        name TEXT NOT NULL,
        token_hash TEXT,
        ready INTEGER NOT NULL,
        seed INTEGER NOT NULL,
        PRIMARY KEY (table_id, seat)
    );
    CREATE TABLE IF NOT EXISTS deals (
        table_id TEXT NOT NULL REFERENCES tables(id),
        number INTEGER NOT NULL,
        hands TEXT NOT NULL,
        unused TEXT NOT NULL,
        PRIMARY KEY (table_id, number)
    );
    CREATE TABLE IF NOT EXISTS plays (
        table_id TEXT NOT NULL REFERENCES tables(id),
        number INTEGER NOT NULL,
        idx INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        tile TEXT NOT NULL,
        end_ TEXT NOT NULL,
        PRIMARY KEY (table_id, number, idx)
    );
    """,
    # 2: playing with friends: the host, invitations, a seat's first round, the turn
    # clock, stand-in plays, the end of a game, removed tables, talk at the table.
    # The seats open before invitations existed stay open to anyone.
    """
    ALTER TABLE tables ADD COLUMN host_hash TEXT;
    ALTER TABLE tables ADD COLUMN host_seat INTEGER;
    ALTER TABLE tables ADD COLUMN ended TEXT;
    ALTER TABLE tables ADD COLUMN removed INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN invite TEXT;
    ALTER TABLE seats ADD COLUMN open INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN sits_from INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE seats ADD COLUMN timeouts INTEGER NOT NULL DEFAULT 0;
    UPDATE seats SET open = 1 WHERE kind = 'person';
    ALTER TABLE deals ADD COLUMN at REAL NOT NULL DEFAULT 0;
    ALTER TABLE plays ADD COLUMN stand_in INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE plays ADD COLUMN at REAL NOT NULL DEFAULT 0;
    CREATE TABLE chat (
        table_id TEXT NOT NULL REFERENCES tables(id),
        n INTEGER NOT NULL,
        seat INTEGER,
        name TEXT NOT NULL,
        text TEXT,
        phrase TEXT,
        at REAL NOT NULL,
        PRIMARY KEY (table_id, n)
    );
    """,
    # 3: the tables in progress alone are read at a start; a finished one keeps the
    # summary its lists show
    """
    ALTER TABLE tables ADD COLUMN summary TEXT;
    CREATE INDEX tables_in_progress ON tables (ended, removed, created, id);
    """,
    # 4: players who come back: profiles, their figures and ratings, a seat's profile
    """
    CREATE TABLE profiles (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        language TEXT NOT NULL,
        mark TEXT NOT NULL,
        kind TEXT NOT NULL,
        token TEXT UNIQUE,
        created REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        games INTEGER NOT NULL DEFAULT 0,
        rounds INTEGER NOT NULL DEFAULT 0,
        received INTEGER NOT NULL DEFAULT 0,
        camat INTEGER NOT NULL DEFAULT 0,
        won INTEGER NOT NULL DEFAULT 0,
        ceki INTEGER NOT NULL DEFAULT 0,
        pollo INTEGER NOT NULL DEFAULT 0,
        manguno INTEGER NOT NULL DEFAULT 0,
        mattikkeng INTEGER NOT NULL DEFAULT 0,
        passebunge INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX profiles_by_rating ON profiles (games, mu);
    CREATE TABLE history_games (
        id TEXT PRIMARY KEY,
        source TEXT NOT NULL,
        rounds INTEGER NOT NULL,
        record TEXT
    );
    CREATE TABLE played_games (
        profile_id TEXT NOT NULL REFERENCES profiles(id),
        game_id TEXT NOT NULL REFERENCES history_games(id),
        seat INTEGER NOT NULL,
        rounds INTEGER NOT NULL,
        received INTEGER NOT NULL,
        camat INTEGER NOT NULL,
        won INTEGER NOT NULL,
        first REAL NOT NULL,
        last REAL NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        n INTEGER NOT NULL,
        PRIMARY KEY (profile_id, game_id)
    );
    CREATE INDEX played_games_newest ON played_games (profile_id, last, game_id);
    CREATE UNIQUE INDEX played_games_in_order ON played_games (profile_id, n, received, rounds);
    CREATE TABLE head_to_head (
        profile_id TEXT NOT NULL REFERENCES profiles(id),
        opponent_id TEXT NOT NULL REFERENCES profiles(id),
        rounds INTEGER NOT NULL,
        received INTEGER NOT NULL,
        seats INTEGER NOT NULL,
        opponent_received INTEGER NOT NULL,
        opponent_seats INTEGER NOT NULL,
        PRIMARY KEY (profile_id, opponent_id)
    );
    ALTER TABLE seats ADD COLUMN profile TEXT;
""",
    # 5: the coach's hints a seat's person asked for
    """
    ALTER TABLE seats ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
    """,
    # 6: a club (serve --club): members and their one-time links and sessions, the
    # admins' audit log, the chat's reports and hidden messages, the club's settings
    """
    CREATE TABLE members (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL UNIQUE COLLATE NOCASE,
        role TEXT NOT NULL,
        created REAL NOT NULL,
        password TEXT,
        suspended INTEGER NOT NULL DEFAULT 0,
        muted_until REAL NOT NULL DEFAULT 0,
        guest_table TEXT
    );
    CREATE TABLE member_links (
        code_hash TEXT PRIMARY KEY,
        member_id TEXT NOT NULL REFERENCES members(id),
        expires REAL NOT NULL,
        spent INTEGER NOT NULL DEFAULT 0
    );
    CREATE TABLE member_sessions (
        token_hash TEXT PRIMARY KEY,
        member_id TEXT NOT NULL REFERENCES members(id),
        created REAL NOT NULL,
        expires REAL NOT NULL
    );
    CREATE INDEX member_sessions_by_member ON member_sessions (member_id);
    CREATE TABLE audit (
        n INTEGER PRIMARY KEY,
        at REAL NOT NULL,
        actor TEXT NOT NULL,
        action TEXT NOT NULL,
        target TEXT NOT NULL,
        detail TEXT NOT NULL
    );
    CREATE TABLE chat_reports (
        table_id TEXT NOT NULL,
        said_at REAL NOT NULL,
        reporter TEXT NOT NULL,
        seat INTEGER,
        name TEXT NOT NULL,
        text TEXT,
        phrase TEXT,
        at REAL NOT NULL,
        settled INTEGER NOT NULL DEFAULT 0,
        PRIMARY KEY (table_id, said_at, reporter)
    );
    CREATE TABLE hidden_chat (
        table_id TEXT NOT NULL,
        said_at REAL NOT NULL,
        PRIMARY KEY (table_id, said_at)
    );
    CREATE TABLE club_settings (
        name TEXT PRIMARY KEY,
        value TEXT NOT NULL
    );
    """,
    # 7: club tournaments, each one JSON document (domeng.server.tournaments)
    """
    CREATE TABLE tournaments (
        id TEXT PRIMARY KEY,
        created REAL NOT NULL,
        doc TEXT NOT NULL
    );
    """,
    # 8: a club's wrong sign-in guesses, counted per account and per address (a restart
    # does not forgive them)
    """
    CREATE TABLE sign_in_guesses (
        kind TEXT NOT NULL,
        name TEXT NOT NULL,
        wrong INTEGER NOT NULL,
        locked_until REAL NOT NULL,
        last_guess REAL NOT NULL,
        PRIMARY KEY (kind, name)
    );
    """,
    # 9: several service processes on one database (PostgreSQL; storage/leases.py): each
    # process's lease, renewed by it, and each table in play's owner and epoch. SQLite
    # keeps one service per file, and leaves both empty
    """
    CREATE TABLE processes (
        id TEXT PRIMARY KEY,
        address TEXT NOT NULL,
        expires REAL NOT NULL
    );
    CREATE TABLE leases (
        table_id TEXT PRIMARY KEY REFERENCES tables(id),
        owner TEXT,
        epoch INTEGER NOT NULL
    );
    CREATE INDEX leases_by_owner ON leases (owner);
    """,
    # 10: a tournament is changed by any process of several: each change is made from
    # the version it read and counts one more (two changes at once: one is kept, the
    # other refused, storage.base.TournamentChanged). Those kept before count as one
    """
    ALTER TABLE tournaments ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
    """,
    # 11: the club member or guest a seat's token was handed to (a guest's seat counts
    # for no profile): a suspension passes it to the stand-in after a restart too, and
    # in every process of a club, without a list of handed seats kept in memory
    """
    ALTER TABLE seats ADD COLUMN member TEXT;
    """,
)
"""The schema, step by step: step N brings a database from version N-1 to N."""

VERSION = len(STEPS)
"""The schema's version this Domeng makes and reads."""

_POSTGRES_TYPES = {
    "INTEGER": "BIGINT",
    "REAL": "DOUBLE PRECISION",
    "TEXT": 'TEXT COLLATE "C"',
    " COLLATE NOCASE": "",
}
_WORDS = re.compile(r"\bINTEGER\b|\bREAL\b|\bTEXT\b| COLLATE NOCASE")

_POSTGRES_MORE = {
    4: "CREATE UNIQUE INDEX profiles_by_name ON profiles (lower(name));",
    6: "CREATE UNIQUE INDEX members_by_name ON members (lower(name));",
}
"""What a step needs more in PostgreSQL: SQLite's ``NOCASE`` column is unique in any
case of its ASCII letters; PostgreSQL's is made so by an index."""


def statements(sql: str) -> list[str]:
    """The statements of a step's text (no statement of the schema holds a ``;``)."""
    return [s.strip() for s in sql.split(";") if s.strip()]


def for_postgres(number: int) -> list[str]:
    """Step ``number`` (from 1) in PostgreSQL's words, statement by statement."""
    sql = _WORDS.sub(lambda m: _POSTGRES_TYPES[m.group(0)], STEPS[number - 1])
    return statements(sql + _POSTGRES_MORE.get(number, ""))


class NewerSchema(Exception):
    """The database was made by a newer Domeng (its schema's version is higher than
    :data:`VERSION`): it is not opened, so that nothing of it is changed or lost."""

    def __init__(self, version: int) -> None:
        super().__init__(
            f"the database's schema is version {version}, made by a newer Domeng "
            f"(this one knows versions up to {VERSION}): upgrade Domeng to open it"
        )
        self.version = version
