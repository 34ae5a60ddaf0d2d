"""Work handed to a pool of worker processes without the event loop waiting on it.

A :class:`~concurrent.futures.ProcessPoolExecutor` starts its worker processes as work
is submitted, in the thread that submits: the first time it starts the forkserver and
waits for it (measured: the first ``submit`` held its thread 82 ms). Made on the event
loop, that held every table up for as long (``benchmarks/stalls.py``: the first replay
of a service stalled it 61 and 93 ms in two runs of five; 2.5-9.3 ms in five since).
So the submit is made in a thread, and the loop awaits the answer. A task cancelled
while its submit is on its way calls off the work once it is handed over (a hint whose
connection closed, a service that stops), as a task cancelled after a submit on the loop
did: the work does not take a worker's turn for nobody.

The workers end with the service, however it ends: each watches, in a thread of its
own, that the service's process and its own parent (the forkserver) are still there,
and leaves at once when either is gone (a SIGKILLed service left its four workers
running for half an hour, 490 MB).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")

HINT_PROCESSES = 2
"""Workers for hints: one person's hint is never behind another's (:mod:`.work`)."""
HINT_NICE = 2
"""How much lower a hint's worker runs than the service and its computer players."""
RECORD_NICE = 5
"""How much lower the worker of reviews and replays runs."""
WATCH_EVERY = 0.5
"""Seconds between a worker's looks at whether the service is still there."""


IMPORTED_BY = os.getpid()
"""The process that imported this module: in a worker, the forkserver (:data:`PRELOAD`)."""

PRELOAD = ["domeng.server.players", "domeng.server.hinting", "domeng.server.replays"]
"""What the forkserver imports once, before it forks the first worker: the modules of
the work handed to the pools (the service's own package, about 0.8 s of CPU here). Each
worker is forked with them, instead of importing them at its start (four workers a
service on two cores: a computer players', two for hints, one for reviews and replays)."""


def worker_pool(processes: int, *, nice: int = 0) -> ProcessPoolExecutor:
    """A pool of ``processes`` worker processes (started by a forkserver) that end with
    the service; ``nice``: how much lower than the service's their share of the cores
    is (:mod:`.work`: a computer's move before a hint, a hint before a replay)."""
    ctx = multiprocessing.get_context("forkserver")
    ctx.set_forkserver_preload(PRELOAD)  # no effect once the forkserver runs
    return ProcessPoolExecutor(
        max_workers=processes,
        mp_context=ctx,
        initializer=die_with,
        initargs=(os.getpid(), nice),
    )


def die_with(service: int, nice: int = 0) -> None:
    """In a worker: leave as soon as the process ``service`` or this worker's parent is
    gone (a thread that looks every :data:`WATCH_EVERY` seconds); lower this worker's
    priority by ``nice`` first."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    parent = os.getppid()

    def watch() -> None:
        while alive(service) and os.getppid() == parent:
            time.sleep(WATCH_EVERY)
        os._exit(0)  # nothing of a worker's is kept: its work is the service's to redo

    threading.Thread(target=watch, name="domeng-dies-with-the-service", daemon=True).start()


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie, killed and not yet waited for, does not)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's: it exists
        return True
    try:  # Linux: a zombie still answers the signal
        with open(f"/proc/{pid}/stat", "rb") as f:
            return f.read().rsplit(b")", 1)[-1].split()[0] != b"Z"
    except OSError:
        return True


async def in_pool(pool: ProcessPoolExecutor, work: Callable[..., T], *args: object) -> T:
    """``work(*args)`` in one of ``pool``'s processes, submitted from a thread."""
    submitting = asyncio.get_running_loop().run_in_executor(None, pool.submit, work, *args)
    try:
        future = await asyncio.shield(submitting)  # a submit begun is not left unheard
    except asyncio.CancelledError:
        submitting.add_done_callback(_call_off)
        raise
    return await asyncio.wrap_future(future)


def _call_off(submitting: asyncio.Future[Future[Any]]) -> None:
    """Cancel the work a cancelled task's submit handed over (it runs unless it has begun)."""
    if not submitting.cancelled() and submitting.exception() is None:
        submitting.result().cancel()
