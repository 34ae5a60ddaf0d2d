"""What the PostgreSQL storage does beyond the contract every storage keeps
(test_storage_contract.py): a backup made with pg_dump restores into a database the
storage opens with everything, as docs/deploy.md tells; a connection the server
dropped is replaced before it is used; the URL's password is never printed."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from domeng.storage import (
    PERSON,
    Figures,
    RecordedRound,
    RoundPart,
    StoredChat,
    StoredDeal,
    StoredPlay,
    StoredProfile,
)
from domeng.storage.opening import is_postgres, shown

from .postgres import client_program
from .test_storage_contract import table


def _filled(conninfo: str) -> None:
    from domeng.storage.postgres import PostgresStorage

    s = PostgresStorage(conninfo)
    s.create_table(table())
    s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"], at=5.0))
    s.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right", at=6.0))
    s.add_chat("t1", StoredChat(0, "Ann", "selamat malam", None, 7.0))
    s.create_profile(StoredProfile("p-1", "Ann", "id", "blue", PERSON, "tok", 1.0, Figures(25, 8)))
    part = RoundPart("p-1", 0, 1, 3, True, False, False, False, False, False, 0, 26.5, 7.5)
    s.record_round(RecordedRound("t1", "table", 1, 8.0, [part]))
    s.close()


def test_a_pg_dump_backup_restores_into_a_new_database_with_everything(
    postgres_database: Callable[[], str], tmp_path: Path
) -> None:
    from domeng.storage.postgres import PostgresStorage

    pg_dump, pg_restore = client_program("pg_dump"), client_program("pg_restore")
    if pg_dump is None or pg_restore is None:
        pytest.skip("PostgreSQL's pg_dump and pg_restore are not installed")
    source, target = postgres_database(), postgres_database()
    _filled(source)
    backup = tmp_path / "domeng.dump"
    # the commands of docs/deploy.md, "Backups"
    subprocess.run([pg_dump, "-Fc", "-f", str(backup), "-d", source], check=True, timeout=60)
    subprocess.run([pg_restore, "--no-owner", "-d", target, str(backup)], check=True, timeout=60)
    before, after = PostgresStorage(source), PostgresStorage(target)
    try:
        assert after.version == before.version
        assert after.load_tables() == before.load_tables()
        assert after.profiles() == before.profiles()
        assert after.played_games("p-1") == before.played_games("p-1")
        (kept,) = after.load_tables()
        assert kept.chat[0].text == "selamat malam" and kept.plays[0][0].at == 6.0
        after.add_play("t1", 1, 1, StoredPlay(1, "6-5", "left"))  # and it plays on
    finally:
        before.close()
        after.close()


def test_a_connection_the_server_dropped_is_replaced_before_it_is_used(
    postgres_database: Callable[[], str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import psycopg

    from domeng.storage import postgres
    from domeng.storage.postgres import PostgresStorage

    # a connection that rested at least CHECK_AFTER seconds is checked: here, all of them
    # (the clock is not waited on)
    monkeypatch.setattr(postgres, "CHECK_AFTER", 0.0)

    # a database of its own: every connection to it is cut below, and a schema's
    # database is shared with the tests other workers run meanwhile
    postgres_url = postgres_database()
    s = PostgresStorage(postgres_url)
    s.create_table(table())
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        # every other connection to this database, the storage's pool among them
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))  # on a new connection
    (kept,) = s.load_tables()
    assert len(kept.deals) == 1
    s.close()


def test_a_postgres_url_is_told_from_a_file_and_printed_without_its_password() -> None:
    assert is_postgres("postgresql://club@db.example/domeng")
    assert is_postgres("postgres://club@db.example/domeng")
    assert not is_postgres("postgresql.sqlite3") and not is_postgres(Path("postgres://x"))
    assert (
        shown("postgresql://club:s3cret@db:5433/domeng") == "postgresql://club:***@db:5433/domeng"
    )
    assert shown("postgresql://club@db/domeng") == "postgresql://club@db/domeng"
    assert shown(Path("a.sqlite3")) == "a.sqlite3"


def test_several_services_share_one_database(postgres_url: str) -> None:
    """Several processes on one database are one service (storage/leases.py): a
    second one is not refused, as it was before schema step 9."""
    from domeng.storage.postgres import PostgresStorage

    first = PostgresStorage(postgres_url, service=True)
    second = PostgresStorage(postgres_url, service=True, shown="x")
    alongside = PostgresStorage(postgres_url)  # not a service: shares it (domeng stats)
    first.create_table(table())
    assert [t.id for t in second.load_tables()] == ["t1"]
    assert [t.id for t in alongside.load_tables()] == ["t1"]
    for s in (alongside, second, first):
        s.close()


def test_a_batch_whose_write_failed_without_its_savepoint_keeps_nothing(
    postgres_url: str,
) -> None:
    import psycopg

    from domeng.storage import StorageError
    from domeng.storage.postgres import PostgresStorage

    s = PostgresStorage(postgres_url)
    s.create_table(table())
    with pytest.raises(StorageError, match="none of it is kept"), s.batch():
        s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))  # answered as kept...
        with pytest.raises(psycopg.Error):  # a fault of the database, not a refusal
            s.add_play("t1", 1, 0, StoredPlay(2**70, "6-6", "right"))
    (loaded,) = s.load_tables()
    assert loaded.deals == []  # ...but the batch's end says it is not, and it is not
    s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))  # and the storage goes on
    s.close()
