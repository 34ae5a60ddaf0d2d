"""Where Domeng keeps the user's data (the table service's database, saved games)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs


def data_dir() -> Path:
    """The user's data folder: ``$DOMENG_DATA_DIR`` if set, else the platform's usual place.

    The folder is not created here; callers create it when they write to it.
    """
    override = os.environ.get("DOMENG_DATA_DIR")
    if override:
        return Path(override)
    return Path(platformdirs.user_data_dir("domeng"))
