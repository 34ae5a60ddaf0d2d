"""``domeng play --player NAME``: the terminal game counts for a profile.

The session is :class:`~domeng.terminal.session.PlaySession` with one thing more:
whenever it saves a finished round, it opens the database the table service shares
(``domeng.paths.database``), records the rounds not yet recorded (the engine works
the figures out from the record just saved) and closes it again. While ``domeng serve``
holds the database, a note is left instead (:mod:`domeng.history.pending`) and the
game counts the next time the service or the terminal opens it.

Its sentences are the catalogs' ``play.playing_as``, ``play.counted``, ``play.db_held``
and ``play.computer_profile`` (``architecture.md``, "Languages").
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.text import Text

from domeng.history.pending import game_id, leave_note, record_pending
from domeng.i18n import current

from .session import PlaySession


class DatabaseHeld(Exception):
    """The database is open in another process (the table service)."""


def open_database(path: Path) -> Any:
    """The shared database, or :class:`DatabaseHeld` while the service holds it."""
    from domeng.server.storage import SQLiteStorage

    try:
        return SQLiteStorage(path)
    except Exception as e:
        if "locked" in str(e):
            raise DatabaseHeld(str(e)) from None
        raise


def start(database: Path, pending: Path, player: str) -> str | None:
    """Make or find ``player``'s profile and record what waits; answers the sentence to
    print (None: nothing to say). ValueError for a computer level's name."""
    from domeng.bots import player_names
    from domeng.history.calibration import load
    from domeng.history.ratings import Rating, shown
    from domeng.history.recorder import computer_profiles, person_profile

    try:
        storage = open_database(database)
    except DatabaseHeld:
        return current()("play.db_held", name=player)
    try:
        record_pending(storage, pending)
        computer_profiles(storage, player_names(for_people=True), load(), time.time())
        try:
            me = person_profile(storage, player, time.time())
        except ValueError:
            raise ValueError(current()("play.computer_profile", name=player)) from None
        rating = shown(Rating(me.figures.mu, me.figures.sigma))
        return current()("play.playing_as", name=me.name, rating=rating)
    finally:
        storage.close()


class ProfiledSession(PlaySession):
    """A terminal game whose finished rounds count for ``player``'s profile."""

    def __init__(self, *args: Any, player: str, database: Path, pending: Path, **kw: Any):
        super().__init__(*args, **kw)
        self.player = player
        self.database = database
        self.pending = pending
        self._held_told = False

    def save(self) -> None:
        super().save()
        if self.game.rounds and self.game.round.finished:
            self.record()

    def record(self) -> None:
        """Record the finished rounds not yet recorded (or leave a note)."""
        from domeng.engine.record import loads_recorded_game
        from domeng.history.ratings import Rating, shown
        from domeng.history.recorder import record_terminal_game

        text = self.path.read_text(encoding="utf-8")
        try:
            storage = open_database(self.database)
        except DatabaseHeld:
            leave_note(self.pending, self.path, self.player)
            if not self._held_told:
                self._held_told = True
                self.say(Text(current()("play.db_held", name=self.player), style="yellow"))
            return
        try:
            record_pending(storage, self.pending)
            got = loads_recorded_game(text)
            gid = game_id(self.path)
            done = record_terminal_game(storage, gid, got, self.player, time.time(), text)
            me = storage.profile(name=self.player)
        finally:
            storage.close()
        if done and me is not None:
            rating = shown(Rating(me.figures.mu, me.figures.sigma))
            self.say(Text(current()("play.counted", name=me.name, rating=rating), style="dim"))
