"""Work for the worker processes (an expert's move, a hint, a replay) is submitted to
their pool from a thread, never from the event loop: a pool starts a worker in the
thread that submits, and the first one waits for the forkserver (82 ms measured), which
on the loop held every table up."""

from __future__ import annotations

import threading
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any

import pytest

from domeng.server.players import BotRunner
from domeng.server.replays import Replays
from domeng.server.workers import in_pool

from .conftest import run_apart


class Recorded(ProcessPoolExecutor):
    """A pool that does the work at once, noting the thread each submit came from."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.threads: list[int] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.threads.append(threading.get_ident())
        done: Future[Any] = Future()
        done.set_result(fn(*args, **kwargs))
        return done


def test_in_pool_submits_from_a_thread_and_answers_the_work() -> None:
    pool = Recorded()

    async def main() -> tuple[int, int]:
        return threading.get_ident(), await in_pool(pool, pow, 2, 5)

    loop_thread, answer = run_apart(main)
    assert answer == 32
    assert pool.threads and loop_thread not in pool.threads
    pool.shutdown()


def test_the_computer_players_and_the_replays_hand_work_over_off_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    threads: list[int] = []
    submit = ProcessPoolExecutor.submit

    def noted(self: ProcessPoolExecutor, fn: Any, /, *args: Any, **kwargs: Any) -> Any:
        threads.append(threading.get_ident())
        return submit(self, fn, *args, **kwargs)

    monkeypatch.setattr(ProcessPoolExecutor, "submit", noted)
    runner, replays = BotRunner(processes=1), Replays()

    async def main() -> tuple[int, int, int]:
        thought = await runner.think(pow, 3, 3)
        worked = await replays.run(pow, 2, 10)
        return threading.get_ident(), thought, worked

    try:
        loop_thread, thought, worked = run_apart(main)
    finally:
        runner.close()
        replays.close()
    assert (thought, worked) == (27, 1024)
    assert len(threads) == 2 and loop_thread not in threads
