"""What the SQLite storage does beyond the contract every storage keeps
(test_storage_contract.py): one file serves one service at a time."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from domeng.server.storage import SQLiteStorage


def test_one_file_serves_one_service_at_a_time(tmp_path: Path) -> None:
    first = SQLiteStorage(tmp_path / "one.sqlite3")
    with pytest.raises(sqlite3.OperationalError, match="locked"):
        SQLiteStorage(tmp_path / "one.sqlite3")
    first.close()
    SQLiteStorage(tmp_path / "one.sqlite3").close()
