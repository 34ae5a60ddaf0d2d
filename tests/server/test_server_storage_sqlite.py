"""What the SQLite storage does beyond the contract every storage keeps
(test_storage_contract.py): one file serves one service at a time, and is shared with
whoever else opens it (``domeng stats``, ``domeng play --player``) while it does."""

from __future__ import annotations

import sqlite3
import threading
from pathlib import Path

import pytest

from domeng.storage import DatabaseServed, SQLiteStorage, StoredChat, StoredDeal, StoredPlay
from domeng.storage.schema import VERSION, NewerSchema
from domeng.storage.servicelock import lock_path

from .test_storage_contract import table


def test_one_file_serves_one_service_at_a_time(tmp_path: Path) -> None:
    first = SQLiteStorage(tmp_path / "one.sqlite3", service=True)
    with pytest.raises(DatabaseServed, match="another domeng serve is using the database"):
        SQLiteStorage(tmp_path / "one.sqlite3", service=True)
    other = SQLiteStorage(tmp_path / "other.sqlite3", service=True)  # another file: its own
    other.close()
    first.close()
    SQLiteStorage(tmp_path / "one.sqlite3", service=True).close()
    assert lock_path(tmp_path / "one.sqlite3").exists()


def test_two_files_of_the_same_stem_are_served_at_once_each_by_its_own_service(
    tmp_path: Path,
) -> None:
    first = SQLiteStorage(tmp_path / "one.sqlite3", service=True)
    second = SQLiteStorage(tmp_path / "one.db", service=True)  # another file: its own lock
    assert lock_path(tmp_path / "one.db") == tmp_path / "one.db.service.lock"
    second.close()
    first.close()


def test_a_refused_service_changes_nothing_and_holds_nothing(tmp_path: Path) -> None:
    first = SQLiteStorage(tmp_path / "one.sqlite3", service=True)
    first.create_table(table())
    with pytest.raises(DatabaseServed):
        SQLiteStorage(tmp_path / "one.sqlite3", service=True)
    first.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))  # the service goes on
    first.close()
    again = SQLiteStorage(tmp_path / "one.sqlite3", service=True)
    (kept,) = again.load_tables()
    assert len(kept.deals) == 1
    again.close()


def test_others_read_and_write_the_file_while_the_service_has_it(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    service = SQLiteStorage(db, service=True)
    service.create_table(table())
    service.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
    stats = SQLiteStorage(db)  # as domeng stats and domeng play --player open it
    (seen,) = stats.load_tables()
    assert len(seen.deals) == 1
    service.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
    assert [len(p) for p in stats.load_tables()[0].plays] == [1]  # seen at once
    stats.add_chat("t1", StoredChat(1, "Bo", "hi", None, 2.0))  # and writes alongside
    service.add_play("t1", 1, 1, StoredPlay(1, "6-5", "left"))
    assert service.load_tables()[0].chat[-1].text == "hi"
    stats.close()
    service.close()


def test_a_write_waits_for_another_processs_write_to_end(tmp_path: Path) -> None:
    db = tmp_path / "shared.sqlite3"
    service = SQLiteStorage(db, service=True)
    service.create_table(table())
    other = sqlite3.connect(db, isolation_level=None, check_same_thread=False)
    other.execute("BEGIN IMMEDIATE")  # another process's write, under way
    other.execute("UPDATE tables SET settings = settings")
    timer = threading.Timer(0.2, lambda: other.execute("COMMIT"))
    timer.start()
    service.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))  # waits, then is kept
    timer.join()
    other.close()
    assert len(service.load_tables()[0].deals) == 1
    service.close()


def test_a_file_of_a_newer_domeng_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    db = tmp_path / "newer.sqlite3"
    SQLiteStorage(db).close()
    raw = sqlite3.connect(db)
    raw.execute(f"PRAGMA user_version = {VERSION + 1}")
    raw.close()
    with pytest.raises(NewerSchema, match="newer Domeng"):
        SQLiteStorage(db, service=True)
    raw = sqlite3.connect(db)
    assert raw.execute("PRAGMA user_version").fetchone() == (VERSION + 1,)
    raw.close()
    with pytest.raises(NewerSchema):  # its lock was let go: refused again for its schema
        SQLiteStorage(db, service=True)
