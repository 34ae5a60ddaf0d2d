"""Work for the worker processes (an expert's move, a hint, a replay) is submitted to
their pool from a thread, never from the event loop: a pool starts a worker in the
thread that submits, and the first one waits for the forkserver (82 ms measured), which
on the loop held every table up."""

from __future__ import annotations

import asyncio
import contextlib
import subprocess
import sys
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


class Held(ProcessPoolExecutor):
    """A pool whose submit takes its time (the first one waits for the forkserver) and
    whose work waits its turn (the workers are busy): nothing runs."""

    def __init__(self) -> None:
        super().__init__(max_workers=1)
        self.entered, self.go = threading.Event(), threading.Event()
        self.handed: list[Future[Any]] = []

    def submit(self, fn: Any, /, *args: Any, **kwargs: Any) -> Future[Any]:
        self.entered.set()
        self.go.wait(10)
        waiting: Future[Any] = Future()
        self.handed.append(waiting)
        return waiting


def test_work_asked_for_by_a_task_cancelled_during_its_submit_is_called_off() -> None:
    """A hint whose connection closes, a service that stops: the task is cancelled while
    its submit is still on its way in the thread; the work it hands over then is called
    off too, as it was when the loop submitted (not left to take a worker's turn)."""
    pool = Held()

    async def main() -> bool:
        task = asyncio.ensure_future(in_pool(pool, pow, 2, 5))
        while not pool.entered.is_set():
            await asyncio.sleep(0.001)
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        pool.go.set()
        for _ in range(1000):
            if pool.handed:
                await asyncio.sleep(0.01)  # the loop hears the submit is done
                break
            await asyncio.sleep(0.001)
        return task.cancelled()

    try:
        assert run_apart(main)
    finally:
        pool.go.set()
        pool.shutdown()
    (handed,) = pool.handed
    assert handed.cancelled()


def test_a_pool_s_workers_are_forked_with_the_work_s_modules_already_imported() -> None:
    """The forkserver imports the service's modules once (workers.PRELOAD): a worker
    does not import them again at its start (0.8 s of CPU each, up to four a service).
    In a fresh interpreter: this one's forkserver may have started without them."""
    code = (
        "from domeng.server.workers import worker_pool\n"
        "pool = worker_pool(2)\n"
        "ask = \"__import__('domeng.server.workers').server.workers.IMPORTED_BY"
        " != __import__('os').getpid()\"\n"
        "print([pool.submit(eval, ask).result() for _ in range(4)])\n"
        "pool.shutdown()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[True, True, True, True]", done.stdout


def test_a_workers_forkserver_imports_its_work_not_the_whole_service() -> None:
    # the forkserver of each service imports PRELOAD before its first worker: the
    # service's application (its routes, pages, club, uvicorn) is not part of that
    # work, and took 0.6 s of CPU a service when the package imported it
    from domeng.server.workers import PRELOAD

    program = (
        "import importlib, sys\n"
        f"for name in {PRELOAD!r}: importlib.import_module(name)\n"
        "print(sorted(n for n in ('domeng.server.app', 'uvicorn', 'starlette', "
        "'domeng.server.club') if n in sys.modules))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )
    assert done.stdout.strip() == "[]"
    # the package still answers its names, each imported when first asked for
    import domeng.server as package

    assert package.create_app.__module__ == "domeng.server.app"
    assert package.Registry.__name__ == "Registry"
    with pytest.raises(AttributeError, match="no_such_name"):
        package.no_such_name  # noqa: B018
