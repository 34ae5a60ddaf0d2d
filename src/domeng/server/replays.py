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
at a time, then removes it.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import os
import shutil
import tempfile
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path
from typing import TypeVar

from domeng.engine import Game
from domeng.engine.record import RecordedGame, RecordError, recorded_game

from . import wire
from .workers import in_pool

T = TypeVar("T")

REPLAYS_AT_ONCE = 1
"""How many replays are worked out at the same time; more wait their turn."""
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
    """A record sent as bytes, replayed by the engine (in the worker); or ReplayFailed."""
    try:
        doc = json.loads(record)
    except (ValueError, RecursionError):
        raise ReplayFailed("bad_json", "the body is not valid JSON") from None
    try:
        return recorded_game(doc)
    except RecordError as e:
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
        replay = wire.replay_rounds(got.game.variants, rounds, got.players, marks, after=before)
    else:
        replay = wire.replay_rounds(got.game.variants, rounds, got.players, marks)
    replay["round_count"] = len(got.game.rounds)
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

    async def replay(self, record: bytes, round_number: int | None = None) -> bytes | Path:
        """The replay of ``record`` (its text) worked out in the worker process: the JSON
        text, or a file that holds it (the caller sends it, then removes it)."""
        if self._folder is None:
            self._folder = tempfile.mkdtemp(prefix="domeng-replays-")
        answer = await self.run(replay_answer, record, round_number, self._folder)
        return answer if isinstance(answer, bytes) else Path(answer)

    async def run(self, work: Callable[..., T], *args: object) -> T:
        """``work(*args)`` in the worker process, in its turn (a replay, a review)."""
        async with self._slots:
            if self._pool is None:
                ctx = multiprocessing.get_context("forkserver")
                self._pool = ProcessPoolExecutor(max_workers=1, mp_context=ctx)
            return await in_pool(self._pool, work, *args)

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
        if self._folder is not None:  # what a client that left did not take
            shutil.rmtree(self._folder, ignore_errors=True)
