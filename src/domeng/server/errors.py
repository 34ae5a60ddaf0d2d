"""A request the service refuses: :class:`TableError`, with its code, words and status."""

from __future__ import annotations

import math

from .documents import ErrorBody


class TableError(Exception):
    """A request the service refuses; nothing changed. ``status`` is the HTTP status."""

    def __init__(
        self, code: str, message: str, status: int = 400, *, retry_after: float | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        """For ``rate_limited``: the seconds until the request would be let through."""

    def json(self) -> ErrorBody:
        d: ErrorBody = {"code": self.code, "message": self.message}
        if self.retry_after is not None:
            d["retry_after_ms"] = math.ceil(self.retry_after * 1000)
        return d
