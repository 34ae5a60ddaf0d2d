"""Replays worked out in a worker process, so that no replay stalls the tables.

A replay is every step of every round with every hand: for a long game, seconds of
work and many times the record's size. It is worked out in a process of its own
(one at a time; a second request waits for the first), from the record's text, so
the service's event loop only hands the text over and the answer back. A replay
may be asked for one round (``?round=N``, from 1): the browser asks for the round
it shows. A long answer (over :data:`INLINE_LIMIT`: a whole game's is tens of
megabytes) is not sent back through the pipe, whose reading in the service would
hold its interpreter for tens of milliseconds: the worker writes it to a file in
the service's own temporary folder, and the service sends it from there, a piece
at a time with write deadlines (:mod:`.streams`), then removes it. The folder holds
at most :data:`KEPT_LIMIT` bytes of such answers: beyond it a replay is refused until
some are sent.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

from domeng.engine import Game
from domeng.engine.record import RecordedGame, RecordError, loads_recorded_game

from . import wire
from .errors import TableError
from .work import BUSY_RETRY
from .workers import RECORD_NICE, in_pool, worker_pool

T = TypeVar("T")

REPLAYS_AT_ONCE = 1
"""How many replays are worked out at the same time; more wait their turn."""
JSON_KEYS = ("record.json", "record.not_utf8")
"""The engine's reasons (:class:`RecordError` keys) that are about the text, not the record."""
KEPT_LIMIT = 256 << 20
"""The bytes of long answers the folder may hold at once, waiting to be sent; a replay
asked for beyond it is refused (``busy``, 503) until some are sent."""
INLINE_LIMIT = 1 << 20
"""The longest answer the worker sends back itself (bytes); a longer one comes as a file."""


class ReplayFailed(ValueError):
    """The record cannot be replayed: ``code`` is the refusal's (``bad_json``,
    ``bad_record``, ``bad_round``), the message its reason."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code

    def __reduce__(self) -> tuple[object, ...]:  # it comes back from the worker process
        return (ReplayFailed, (self.code, str(self)))


def read_record(record: bytes) -> RecordedGame:
    """A record sent as bytes, read and replayed by the engine's own loader (in the
    worker), so the service refuses what ``domeng replay`` refuses: text that is not
    UTF-8 or not JSON, a key written twice (record.md: a record never has one); or
    ReplayFailed (``bad_json`` for the text, ``bad_record`` for the record)."""
    try:
        return loads_recorded_game(record)
    except RecordError as e:
        if e.key is not None and e.key.startswith(JSON_KEYS):
            raise ReplayFailed("bad_json", f"the body is not valid JSON: {e}") from None
        raise ReplayFailed("bad_record", str(e)) from None


def replay_text(record: bytes, round_number: int | None) -> bytes:
    """A record's replay as JSON text, all of it or one round (runs in the worker)."""
    got = read_record(record)
    rounds, marks = got.game.rounds, list(got.stand_ins)
    if round_number is not None:
        if not 1 <= round_number <= len(rounds):
            message = f"there is no round {round_number} (the game has {len(rounds)})"
            raise ReplayFailed("bad_round", message)
        # the rounds before it are played again to know the stones it starts from
        before = Game(got.game.variants)
        before.rounds = rounds[: round_number - 1]
        rounds, marks = rounds[round_number - 1 : round_number], marks[round_number - 1 :]
    else:
        before = None
    replay = wire.replay_rounds(
        got.game.variants,
        rounds,
        got.players,
        marks,
        after=before,
        round_count=len(got.game.rounds),
    )
    return json.dumps(replay, separators=(",", ":")).encode()


def replay_answer(record: bytes, round_number: int | None, folder: str) -> bytes | str:
    """:func:`replay_text`, or for a long one the path of a file in ``folder`` that holds
    it (runs in the worker)."""
    text = replay_text(record, round_number)
    if len(text) <= INLINE_LIMIT:
        return text
    fd, path = tempfile.mkstemp(prefix="replay-", suffix=".json", dir=folder)
    with os.fdopen(fd, "wb") as f:
        f.write(text)
    return path


class Replays:
    """The worker process, the turn replays take in it, and the folder of long answers."""

    def __init__(self) -> None:
        self._pool: ProcessPoolExecutor | None = None
        self._slots = asyncio.Semaphore(REPLAYS_AT_ONCE)
        self._folder: str | None = None
        self._files: dict[Path, int] = {}
        """The long answers waiting to be sent, with their sizes."""
        self.kept_limit = KEPT_LIMIT

    @property
    def kept(self) -> int:
        """The bytes of the long answers waiting to be sent."""
        return sum(self._files.values())

    def forget(self, path: Path) -> None:
        """The long answer at ``path`` was sent (or given up) and removed."""
        self._files.pop(path, None)

    async def replay(self, record: bytes, round_number: int | None = None) -> bytes | Path:
        """The replay of ``record`` (its text) worked out in the worker process: the JSON
        text, or a file that holds it (the caller sends it, then removes it)."""
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="domeng-replays-")
        if self.kept >= self.kept_limit:
            message = "too many long replays are waiting to be read: try again in a moment"
            raise TableError("busy", message, 503, retry_after=BUSY_RETRY * 5)
        answer = await self.run(replay_answer, record, round_number, self._folder)
        if isinstance(answer, bytes):
            return answer
        path = Path(answer)
        self._files[path] = path.stat().st_size
        return path

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in the worker process, in its turn (a replay, a review)."""
        async with self._slots:
            if self._pool is None:
                self._pool = worker_pool(1, nice=RECORD_NICE)
            return await in_pool(self._pool, work, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self._folder is not None:  # what a client that left did not take
            shutil.rmtree(self._folder, ignore_errors=True)
