"""A client's faults counted, not logged line by line.

uvicorn logs a warning for each malformed HTTP request and a six-line traceback for
each WebSocket text frame that is not UTF-8: a client sending two hundred of them
wrote 1,200 lines to the service's log in a second and a half. These are the client's
fault, not the service's: :class:`ClientFaults` (a filter on uvicorn's logger) counts
them, and lets one line through at most every :data:`REPORT_EVERY` seconds, saying
how many of each kind came since the last such line. The connection is refused as
before (``400``; close code ``1007``).
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from collections.abc import Callable

REPORT_EVERY = 60.0
"""Seconds between two lines about clients' faults, at the most."""

KINDS = {
    "Invalid HTTP request received.": "malformed HTTP requests",
    "Invalid UTF-8 sequence received from client.": "WebSocket text frames not UTF-8",
}
"""uvicorn's own words for a client's fault, and what the count calls them."""


class ClientFaults(logging.Filter):
    """Counts the log records of :data:`KINDS` and turns the first of each
    :data:`REPORT_EVERY` seconds into one line with the counts; drops the others."""

    def __init__(
        self, clock: Callable[[], float] = time.monotonic, every: float = REPORT_EVERY
    ) -> None:
        super().__init__()
        self.clock = clock
        self.every = every
        self.unsaid: Counter[str] = Counter()
        """The faults counted since the last line that said them."""
        self.total: Counter[str] = Counter()
        """Every fault counted since the service started."""
        self._next = float("-inf")

    def filter(self, record: logging.LogRecord) -> bool:
        kind = KINDS.get(record.msg) if isinstance(record.msg, str) else None
        if kind is None:
            return True
        self.unsaid[kind] += 1
        self.total[kind] += 1
        now = self.clock()
        if now < self._next:
            return False
        self._next = now + self.every
        counts = ", ".join(f"{n} {what}" for what, n in sorted(self.unsaid.items()))
        self.unsaid.clear()
        record.msg = "clients' faults since the last such line (refused, not logged one by one): %s"
        record.args = (counts,)
        record.exc_info = None
        record.exc_text = None
        record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True


def count_faults(logger: logging.Logger | None = None) -> ClientFaults:
    """Put a :class:`ClientFaults` on uvicorn's logger (once) and answer it."""
    logger = logger or logging.getLogger("uvicorn.error")
    for f in logger.filters:
        if isinstance(f, ClientFaults):
            return f
    faults = ClientFaults()
    logger.addFilter(faults)
    return faults
