"""Lists that come a page at a time, and the whole numbers of a query.

``GET /api/tables`` and ``GET /api/profiles`` answer at most ``?limit=`` items (1 to
:data:`MAX_PAGE`, :data:`DEFAULT_PAGE` when not said) and a ``next`` cursor, the last
item's id, that ``?cursor=`` goes on from (null on the last page).
"""

from __future__ import annotations

from starlette.requests import Request

from .errors import TableError

MAX_PAGE = 500
DEFAULT_PAGE = 100
"""The most items, and the items by default, in one page of a list."""


def whole_query(text: str | None, name: str, low: int, high: int, default: int) -> int:
    """A query's whole number from ``low`` to ``high`` (``default`` when not given);
    ``400 bad_query`` for anything else."""
    if not text:
        return default
    if not (text.isascii() and text.isdigit()) or not low <= int(text) <= high:
        message = f"{name} must be a whole number from {low} to {high}"
        raise TableError("bad_query", message, 400)
    return int(text)


def page_limit(request: Request) -> int:
    """The ``?limit=`` of a list's page."""
    return whole_query(request.query_params.get("limit"), "limit", 1, MAX_PAGE, DEFAULT_PAGE)
