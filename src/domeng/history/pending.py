"""Terminal games waiting to be recorded: when the shared database cannot be opened for
a lock (the table service of an older Domeng held it alone; today's shares it),
``domeng play --player NAME`` leaves a note in the data folder's ``pending`` folder
naming the game's record and the player; whoever opens the database next (the service
at its start and when its players' pages are asked for, ``domeng stats``, the next
``domeng play``) records the game's rounds from the record, each once, and removes the
note once the game is recorded.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

from domeng.engine.record import RecordError, loads_recorded_game
from domeng.storage import Storage

from .recorder import record_terminal_game

FORMAT = "domeng.pending/1"


def game_id(record: Path) -> str:
    """A terminal game's id in the history: ``terminal-`` and its record's name."""
    return "terminal-" + record.stem


def leave_note(folder: Path, record: Path, player: str) -> Path:
    """Note that the game saved in ``record`` waits to be recorded for ``player``."""
    note = folder / f"{game_id(record)}.json"
    doc = {"format": FORMAT, "record": str(record.resolve()), "player": player}
    fd, tmp = tempfile.mkstemp(dir=folder, suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        json.dump(doc, f)
    os.replace(tmp, note)
    return note


def record_pending(storage: Storage, folder: Path) -> int:
    """Record every noted game's rounds not yet recorded; answers how many rounds. A
    note whose record is gone or broken is removed (there is nothing to record)."""
    done = 0
    for note in sorted(folder.glob("terminal-*.json")):
        try:
            doc = json.loads(note.read_text(encoding="utf-8"))
            if doc.get("format") != FORMAT:
                raise ValueError("not a note")
            record, player = Path(doc["record"]), str(doc["player"])
            text = record.read_text(encoding="utf-8")
            got = loads_recorded_game(text)
            done += record_terminal_game(
                storage, game_id(record), got, player, record.stat().st_mtime, text
            )
        except (OSError, ValueError, KeyError, TypeError, RecordError):
            pass  # nothing to record from it
        with contextlib.suppress(OSError):
            note.unlink()
    return done
