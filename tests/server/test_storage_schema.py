"""One schema history for SQLite and PostgreSQL (storage/schema.py): a database of every
earlier version opens in place and keeps what it held; each step is applied in one
transaction, all or nothing; a database of a newer Domeng is refused untouched."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from domeng.server.tables import rebuild
from domeng.server.tournaments import Tournament
from domeng.storage import (
    COMPUTER,
    Figures,
    RecordedRound,
    RoundPart,
    SQLiteStorage,
    Storage,
    StoredPlay,
    StoredProfile,
    TournamentChanged,
)
from domeng.storage import schema as schema_module
from domeng.storage.schema import STEPS, VERSION, NewerSchema, for_postgres, statements

# a table of the first schema's shape: five computer seats, a round with one play
OLD_TABLE = [
    "INSERT INTO tables (id, created, settings) VALUES ('t-old', 1.0, '{}')",
    *(
        "INSERT INTO seats (table_id, seat, kind, level, name, token_hash, ready, seed) "
        f"VALUES ('t-old', {n}, 'computer', 'random', 'C{n}', NULL, 0, {n})"
        for n in range(5)
    ),
    "INSERT INTO deals (table_id, number, hands, unused) VALUES ('t-old', 1, "
    """'[["6-6","5-5","4-4","3-3","2-2"],["6-5","5-4","4-3","3-2","2-1"],"""
    """["6-4","5-3","4-2","3-1","2-0"],["6-3","5-2","4-1","3-0","1-1"],"""
    """["6-2","5-1","4-0","6-1","5-0"]]', '["6-0","1-0","0-0"]')""",
    "INSERT INTO plays (table_id, number, idx, seat, tile, end_) "
    "VALUES ('t-old', 1, 0, 0, '6-6', 'right')",
]


class Raw:
    """A backend's database reached without the storage: to make it as an older
    Domeng left it."""

    def __init__(
        self,
        run: Callable[[str], None],
        step: Callable[[int], list[str]],
        set_version: Callable[[int], None],
        get_version: Callable[[], int],
        open: Callable[[], Storage],
        close: Callable[[], None],
    ) -> None:
        self.run, self.step, self.set_version = run, step, set_version
        self.get_version, self.open, self.close = get_version, open, close

    def make(self, version: int) -> None:
        """The database as a Domeng of schema ``version`` left it (0: empty)."""
        for number in range(1, version + 1):
            for statement in self.step(number):
                self.run(statement)
        self.set_version(version)


def _sqlite(tmp_path: Path) -> Raw:
    path = tmp_path / "old.sqlite3"
    db = sqlite3.connect(path, isolation_level=None)

    def get_version() -> int:
        return int(db.execute("PRAGMA user_version").fetchone()[0])

    return Raw(
        lambda sql: db.execute(sql) and None,
        lambda n: statements(STEPS[n - 1]),
        lambda v: db.execute(f"PRAGMA user_version = {v}") and None,
        get_version,
        lambda: SQLiteStorage(path),
        db.close,
    )


def _postgres(url: str) -> Raw:
    import psycopg

    from domeng.storage.postgres import PostgresStorage

    conn = psycopg.connect(url, autocommit=True)

    def set_version(v: int) -> None:
        if v:
            conn.execute("CREATE TABLE domeng_schema (version BIGINT NOT NULL)")
            conn.execute("INSERT INTO domeng_schema VALUES (%s)", (v,))

    def get_version() -> int:
        row = conn.execute("SELECT version FROM domeng_schema").fetchone()
        assert row is not None
        return int(row[0])

    return Raw(
        lambda sql: conn.execute(sql) and None,  # type: ignore[call-overload]
        for_postgres,
        set_version,
        get_version,
        lambda: PostgresStorage(url),
        conn.close,
    )


@pytest.fixture(params=["sqlite", "postgres"])
def raw(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Raw]:
    if request.param == "sqlite":
        r = _sqlite(tmp_path)
    else:
        r = _postgres(request.getfixturevalue("postgres_url"))
    yield r
    r.close()


@pytest.mark.parametrize("version", range(VERSION))
def test_a_database_of_every_earlier_version_opens_in_place_and_keeps_its_tables(
    raw: Raw, version: int
) -> None:
    raw.make(version)
    if version:
        for statement in OLD_TABLE:
            raw.run(statement)
    s = raw.open()
    try:
        assert raw.get_version() == VERSION
        tables = s.load_tables()
        if version:
            (old,) = tables
            assert old.id == "t-old" and old.seats[0].name == "C0"
            assert [len(p) for p in old.plays] == [1] and not old.plays[0][0].stand_in
            assert not any(seat.open for seat in old.seats)  # computer seats stay closed
            s.add_play("t-old", 1, 1, StoredPlay(1, "6-5", "left"))  # and it plays on
            assert len(rebuild(s.load_tables()[0]).round.plays) == 2
        else:
            assert tables == []
        # every later step's part is there: profiles, their history, a seat's hints
        s.create_profile(
            StoredProfile("basic", "basic", "en", "computer", COMPUTER, None, 1.0, Figures(25, 8))
        )
        part = RoundPart("basic", 0, 1, 3, True, False, False, False, False, False, 0, 26, 7)
        s.record_round(RecordedRound("g", "table", 1, 2.0, [part]))
        found = s.profile(name="BASIC")
        assert found is not None and found.figures.rounds == 1
    finally:
        s.close()
    again = raw.open()  # a second opening changes nothing more
    assert raw.get_version() == VERSION
    again.close()


def test_step_11_keeps_every_seat_and_gives_it_no_member_until_one_is_handed_it(
    raw: Raw,
) -> None:
    """From the version before (10): a guest's seat taken then (its token kept, no
    profile) opens with no member, plays on, and is given its member when stored again."""
    assert VERSION >= 11
    raw.make(10)
    for statement in OLD_TABLE:
        raw.run(statement)
    raw.run(
        "UPDATE seats SET kind = 'person', level = NULL, name = 'Tamu', "
        f"token_hash = '{'g' * 64}' WHERE table_id = 't-old' AND seat = 1"
    )
    s = raw.open()
    try:
        assert raw.get_version() == VERSION
        (old,) = s.load_tables()
        guest = old.seats[1]
        assert (guest.name, guest.token_hash, guest.profile) == ("Tamu", "g" * 64, None)
        assert [seat.member for seat in old.seats] == [None] * 5
        guest.member = "g-tamu"
        s.save_seat("t-old", 1, guest)
        (again,) = s.load_tables()
        assert again.seats[1] == guest and again.seats[1].member == "g-tamu"
    finally:
        s.close()


def test_a_step_that_fails_is_applied_not_at_all(raw: Raw, monkeypatch: pytest.MonkeyPatch) -> None:
    raw.make(VERSION)
    broken = "CREATE TABLE half_made (a INTEGER); CREATE TABLE tables (id TEXT)"  # 2nd fails
    monkeypatch.setattr(schema_module, "STEPS", (*STEPS, broken))
    for module in ("sqlite", "postgres"):
        monkeypatch.setattr(f"domeng.storage.{module}.VERSION", VERSION + 1)
    monkeypatch.setattr("domeng.storage.sqlite.MIGRATIONS", (*STEPS, broken))
    with pytest.raises(Exception, match=r"(?i)exists"):
        raw.open()
    assert raw.get_version() == VERSION
    with pytest.raises(Exception, match="half_made"):
        raw.run("SELECT * FROM half_made")


def test_a_database_of_a_newer_domeng_is_refused_untouched(raw: Raw) -> None:
    raw.make(VERSION)
    if raw.step is for_postgres:
        raw.run("UPDATE domeng_schema SET version = 99")
    else:
        raw.set_version(99)
    with pytest.raises(NewerSchema, match="newer Domeng"):
        raw.open()
    assert raw.get_version() == 99


def test_postgres_is_given_sqlites_types_and_byte_order() -> None:
    every = [s for n in range(1, VERSION + 1) for s in for_postgres(n)]
    joined = "\n".join(every)
    assert " REAL" not in joined and " INTEGER" not in joined and "NOCASE" not in joined
    assert 'id TEXT COLLATE "C" PRIMARY KEY' in joined
    assert "CREATE UNIQUE INDEX profiles_by_name ON profiles (lower(name))" in every
    assert "CREATE UNIQUE INDEX members_by_name ON members (lower(name))" in every
    assert len(every) == sum(len(statements(step)) for step in STEPS) + 2


def test_a_tournament_kept_at_version_9_opens_at_its_first_change_and_is_read_again(
    raw: Raw,
) -> None:
    """Step 10 counts the changes of a tournament: one kept before it counts as one,
    the next change is made from that; what a table's record says, which version 9
    also kept in the document, is read again from the records."""
    raw.make(9)
    old = {
        "id": "t-old", "created": 5.0, "name": "Malam", "format": "duplicate", "rounds": 1,
        "deals": 1, "table": {}, "seed": 1, "director_hash": "x", "ended": False,
        "entrants": [{"key": "e1", "kind": "computer", "name": "Bot", "level": "random"}],
        "played": [{"number": 1, "tables": [
            {"id": "gone", "seats": ["e1"], "finished": True, "results": {"deals": []}},
        ]}],
    }  # fmt: skip
    raw.run(
        "INSERT INTO tournaments (id, created, doc) VALUES ('t-old', 5.0, '"
        + json.dumps(old)
        + "')"
    )
    s = raw.open()
    try:
        assert raw.get_version() == VERSION
        kept = s.load_tournament("t-old")
        assert kept is not None and kept.version == 1 and kept.doc == old
        t = Tournament.from_doc(kept.doc, kept.version)
        assert t.played[0].tables[0].results is None  # read again, not taken from the doc
        assert "finished" not in json.dumps(t.doc())
        assert s.save_tournament(t.stored()) == 2
        with pytest.raises(TournamentChanged):
            s.save_tournament(t.stored())  # made from version 1 again
    finally:
        s.close()
