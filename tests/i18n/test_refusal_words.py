"""Every refusal a player's page can be sent is said in words in every language.

The page shows a refusal by its code's words (``error.<code>`` of the catalogs) and
never the code itself; a code without words would read "the table service refused
this". The codes are read from the service's source, so a new refusal without words
fails here. The few left out are refusals of the protocol that no page of ours causes
(a message out of order, a binary frame, a wrong content type...).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

SRC = Path(__file__).resolve().parents[2] / "src" / "domeng"
I18N = SRC / "web" / "i18n"
LANGUAGES = ("en", "id", "tr", "pt", "nl", "hi")

PATTERNS = (
    r'TableError\(\s*"(\w+)"',
    r'Refused\(\s*"(\w+)"',
    r'ReplayFailed\(\s*"(\w+)"',
    r'Rule\(\s*"(\w+)"',
    r'\bfault\(\s*"(\w+)"',  # not setdefault("...")
    r'"code":\s*"(\w+)"',
)

PROTOCOL_ONLY = {
    "aborted": "a request whose client went away: nobody reads the answer",
    "already_hello": "the page says hello once per connection",
    "bad_content_type": "the page always sends JSON",
    "bad_cursor": "the page sends the cursor the service gave it",
    "bad_json": "the page always sends JSON",
    "bad_message": "the page sends only the protocol's messages",
    "bad_query": "the page's own addresses",
    "bad_status": "the page's own addresses",
    "binary": "the page sends text frames",
    "hello_first": "the page says hello first",
    "method_not_allowed": "the page's own requests",
    "unknown_type": "the page sends only the protocol's messages",
}


def service_codes() -> set[str]:
    codes: set[str] = set()
    for path in (SRC / "server").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        for pattern in PATTERNS:
            codes.update(re.findall(pattern, text))
    return codes


def test_the_codes_are_found() -> None:
    codes = service_codes()
    # a few known ones of every kind: the patterns still read the source as it is written
    assert {"rate_limited", "bad_invite", "not_host", "bad_level", "bad_round"} <= codes
    assert "too_far_behind" in codes and "hints_off" in codes
    assert not set(PROTOCOL_ONLY) - codes, "a code left out that the service no longer sends"


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_refusal_has_words(lang: str) -> None:
    catalog = json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8"))
    missing = sorted(
        code
        for code in service_codes() - set(PROTOCOL_ONLY)
        if not str(catalog.get(f"error.{code}", "")).strip()
    )
    assert not missing, f"{lang}: refusals without words: {missing}"
    assert catalog["error.other"].strip()


def test_the_page_never_shows_a_code() -> None:
    """ui.js says a refusal by its words alone: no "(code)" is put in the toast."""
    ui = (SRC / "web" / "js" / "ui.js").read_text(encoding="utf-8")
    assert "(${escapeHtml(code)})" not in ui
    assert "refusalText(code)" in ui
