"""A list's page and a query's whole numbers (:mod:`domeng.server.paging`), as
docs/protocol.md says them: ``?limit=`` from 1 to 500, 100 when not said; anything but
ASCII digits in range refused ``400 bad_query``. The lists' pages themselves are in
test_server_players.py and test_server_friends.py."""

from __future__ import annotations

import pytest
from starlette.requests import Request

from domeng.server.errors import TableError
from domeng.server.paging import page_limit, whole_query


def _limit(query: bytes) -> int:
    return page_limit(Request({"type": "http", "query_string": query, "headers": []}))


@pytest.mark.parametrize(
    ("query", "limit"),
    [(b"", 100), (b"limit=", 100), (b"cursor=x", 100), (b"limit=1", 1), (b"limit=500", 500)],
)
def test_a_page_has_the_limit_said_or_a_hundred(query: bytes, limit: int) -> None:
    assert _limit(query) == limit


@pytest.mark.parametrize(
    "text",
    [
        "0",
        "501",
        "-1",
        "+2",
        " 2",
        "2.0",
        "1e2",
        "\u0662",  # ARABIC-INDIC DIGIT TWO: a digit, and int() reads it, but not ASCII
        "\uff12",  # FULLWIDTH DIGIT TWO
        "\u00b2",  # SUPERSCRIPT TWO: isdigit(), and int() refuses it
    ],
)
def test_anything_but_ascii_digits_in_range_is_refused(text: str) -> None:
    with pytest.raises(TableError) as e:
        whole_query(text, "limit", 1, 500, 100)
    assert e.value.code == "bad_query" and e.value.status == 400
    assert e.value.message == "limit must be a whole number from 1 to 500"


def test_a_whole_number_is_taken_up_to_its_bounds_included() -> None:
    assert whole_query("0", "seat", 0, 4, 9) == 0
    assert whole_query("4", "seat", 0, 4, 9) == 4
    assert whole_query("04", "seat", 0, 4, 9) == 4
    assert whole_query(None, "seat", 0, 4, 9) == 9
    assert whole_query("", "seat", 0, 4, 9) == 9
