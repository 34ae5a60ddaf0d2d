"""Where Domeng keeps the user's data: saved games, the table service's database.

The folder is ``platformdirs.user_data_dir("domeng")``, or the folder named by
the environment variable ``DOMENG_DATA_DIR`` when it is set (tests use it).
Folders are created on demand.
"""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

ENV_VAR = "DOMENG_DATA_DIR"


def data_dir() -> Path:
    """The user's Domeng data folder (created if missing)."""
    override = os.environ.get(ENV_VAR)
    path = Path(override) if override else Path(platformdirs.user_data_dir("domeng"))
    path.mkdir(parents=True, exist_ok=True)
    return path


def games_dir() -> Path:
    """Where ``domeng play`` saves its games (created if missing)."""
    path = data_dir() / "games"
    path.mkdir(parents=True, exist_ok=True)
    return path


def database() -> Path:
    """The SQLite file the table service and the terminal share by default: a game played
    in either counts for its players' profiles."""
    return data_dir() / "domeng.sqlite3"


def pending_dir() -> Path:
    """Where the terminal leaves the games it could not record while the table service
    held the database (``domeng.history.pending``); created if missing."""
    path = data_dir() / "pending"
    path.mkdir(parents=True, exist_ok=True)
    return path
