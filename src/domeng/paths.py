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
