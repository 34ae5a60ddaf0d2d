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
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from typing import Any, TypeVar

T = TypeVar("T")


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
