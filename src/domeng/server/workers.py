"""Work handed to a pool of worker processes without the event loop waiting on it.

A :class:`~concurrent.futures.ProcessPoolExecutor` starts its worker processes as work
is submitted, in the thread that submits: the first time it starts the forkserver and
waits for it (measured: the first ``submit`` held its thread 82 ms). Made on the event
loop, that held every table up for as long (``benchmarks/stalls.py``: the first replay
of a service stalled it 61 and 93 ms in two runs of five; 2.5-9.3 ms in five since).
So the submit is made in a thread, and the loop awaits the answer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from typing import TypeVar

T = TypeVar("T")


async def in_pool(pool: ProcessPoolExecutor, work: Callable[..., T], *args: object) -> T:
    """``work(*args)`` in one of ``pool``'s processes, submitted from a thread."""
    future = await asyncio.to_thread(pool.submit, work, *args)
    return await asyncio.wrap_future(future)
