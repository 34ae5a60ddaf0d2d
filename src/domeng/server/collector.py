"""Python's garbage collector, set for a service that keeps many tables in memory.

By default CPython looks for reference cycles after every 700 new objects that are
still alive, going through every young object each time; a service playing a
thousand tables makes that many in a few moves, and spent about a sixth of its time
there (measured in-process with 100 tables at pace 0: 280 young collections in ten
seconds, 0.77 ms of CPU a move; 0.67 ms after :func:`settle`). Once the service has
loaded its tables, :func:`settle` collects once, freezes what is alive then (the
code, the tables and their games, kept for the service's life, are never looked
through again) and looks for young cycles only every :data:`YOUNG` objects.
Memory is not held longer for it: objects without cycles are freed at once as
always, and play makes none (with ``gc.DEBUG_SAVEALL``, two seconds of 100 tables
left no object in a cycle); a cycle made elsewhere waits at most :data:`YOUNG`
objects.

The count is of objects made less objects freed, and a move frees old objects as it
makes new ones (a copy of the round, a timer), so the young generation holds more than
:data:`YOUNG` when it is looked through: at 1,000 tables 23,000-32,000 objects, 17-36
ms, and up to 77,000 (82 ms) just after many rounds ended (the ratings' library leaves
small cycles behind). Collecting the young ones every 0.1 s instead made their pauses
shorter (2-9 ms) but cost more CPU, and the plays waited no less (four runs each with
benchmarks/server.py).
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator

YOUNG = 10_000
"""New objects still alive between two looks for cycles among the young."""


def settle() -> None:
    """Collect, freeze what is alive, and look for young cycles less often."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(YOUNG, middle, old)


@contextlib.contextmanager
def paused() -> Iterator[None]:
    """No look for cycles while the block runs: for a burst of objects made to be kept
    (a batch of tables read at a start, :mod:`.registry`), which the collector would
    otherwise go through again and again as they pile up (at 1,000 tables read, 0.63 s
    without looks against 1.67 s with them)."""
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
