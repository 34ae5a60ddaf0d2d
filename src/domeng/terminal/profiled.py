"""``domeng play --player NAME``: the terminal game counts for a profile.

The session is :class:`~domeng.terminal.session.PlaySession` with one thing more:
whenever it saves a finished round, it opens the database the table service shares
(``domeng.paths.database``), records the rounds not yet recorded (the engine works
the figures out from the record just saved) and closes it again, also while
``domeng serve`` runs on it (the file is shared: :mod:`domeng.storage.sqlite`). Only
when the database cannot be opened for a lock (the service of an older Domeng, which
held the file alone) is a note left instead (:mod:`domeng.history.pending`), and the
game counts the next time the service or the terminal opens it.

Its sentences are the catalogs' ``play.playing_as``, ``play.counted``, ``play.db_held``
and ``play.computer_profile`` (``architecture.md``, "Languages").
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from rich.text import Text

from domeng.commands.invocation import command_line
from domeng.history.pending import game_id, leave_note, record_pending
from domeng.i18n import current

from .session import PlaySession


class DatabaseHeld(Exception):
    """Another process holds the database locked (an older Domeng's table service)."""


def open_database(where: Path | str) -> Any:
    """The shared database (a SQLite file, or a PostgreSQL database's URL), or
    :class:`DatabaseHeld` while another process holds it locked."""
    from domeng.storage import open_storage

    try:
        return open_storage(where)
    except Exception as e:
        if "locked" in str(e):
            raise DatabaseHeld(str(e)) from None
        raise


def start(database: Path, pending: Path, player: str) -> str | None:
    """Make or find ``player``'s profile and record what waits; answers the sentence to
    print (None: nothing to say). ValueError for a computer level's name."""
    from domeng.bots import player_names
    from domeng.history.calibration import load
    from domeng.history.ratings import Rating
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
        rating = rating_words(Rating(me.figures.mu, me.figures.sigma))
        page = command_line("stats", me.name)
        return current()("play.playing_as", name=me.name, rating=rating, command=page)
    finally:
        storage.close()


def rating_words(r: Any) -> str:
    """A rating as one number with its uncertainty (``ratings.shown``), with the
    language's decimal sign: ``25,0 ± 16,7``."""
    w = current()
    return f"{w.number(r.mu, 1)} ± {w.number(2 * r.sigma, 1)}"


class ProfiledSession(PlaySession):
    """A terminal game whose finished rounds count for ``player``'s profile."""

    def __init__(self, *args: Any, player: str, database: Path, pending: Path, **kw: Any):
        super().__init__(*args, **kw)
        self.player = player
        self.database = database
        self.pending = pending
        self._held_told = False
        self._to_say: list[Text] = []
        """What recording said, kept until the round's end has been shown."""

    def save(self) -> None:
        super().save()
        if self.game.rounds and self.game.round.finished:
            self.record()

    def after_round(self) -> None:
        """Say what recording the round said (its rating), now that its end is shown: the
        round is recorded as soon as it is saved, but told after its winning play."""
        super().after_round()
        for text in self._to_say:
            self.say(text)
        self._to_say.clear()

    def record(self) -> None:
        """Record the finished rounds not yet recorded (or leave a note)."""
        from domeng.engine.record import loads_recorded_game
        from domeng.history.ratings import Rating
        from domeng.history.recorder import record_terminal_game

        text = self.path.read_text(encoding="utf-8")
        try:
            storage = open_database(self.database)
        except DatabaseHeld:
            leave_note(self.pending, self.path, self.player)
            if not self._held_told:
                self._held_told = True
                said = current()("play.db_held", name=self.player)
                self._to_say.append(Text(said, style="yellow"))
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
            rating = rating_words(Rating(me.figures.mu, me.figures.sigma))
            said = current()("play.counted", name=me.name, rating=rating)
            self._to_say.append(Text(said, style="dim"))
