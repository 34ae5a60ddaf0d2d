"""A service app run by uvicorn in a thread of the test, with the service's protocols and
the options of ``domeng serve`` (``trusted_proxies`` among them), on a loopback port."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

from .conftest import TIMEOUT, serve_in_thread


@contextlib.contextmanager
def running(app: Any, **options: Any) -> Iterator[str]:
    """Serve ``app`` on 127.0.0.1 at a port the system chooses; yields its base URL."""
    server, thread, base = serve_in_thread(app, **options)
    try:
        yield base
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
