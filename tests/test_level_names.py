"""The terminal's names for the computer levels (domeng.terminal.render): a level the
ladder names by that name (docs/bots.md, "The ladder"), beside its technical name where
it is chosen or ranked, and every other level by its own name; a seat as a record keeps
it, told with the ladder's name, and its name alone after that. In every language."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from domeng.bots.levels import LADDER
from domeng.i18n import LANGUAGES, Words, current, set_language
from domeng.terminal.render import bare_name, level_label, level_words, seat_label

UNNAMED = ("review:test", "expert:custom")
"""Levels the ladder has no name for (a test's, a benchmark's)."""


@pytest.fixture(params=LANGUAGES)
def w(request: pytest.FixtureRequest) -> Iterator[Words]:
    previous = current()
    set_language(request.param)
    try:
        yield current()
    finally:
        set_language(previous.code)


def test_a_ladder_level_by_the_ladder_s_name(w: Words) -> None:
    for level in LADDER:
        name = w(f"ladder.{level}")
        assert name != level
        assert level_words(level) == name
        assert level_label(level) == f"{name} ({level})"
        assert seat_label(f"Besse ({level})") == f"Besse ({name})"
        assert bare_name(f"Besse ({level})") == "Besse"


def test_a_level_the_ladder_does_not_name_by_its_own_name(w: Words) -> None:
    for level in UNNAMED:
        assert level_words(level) == level
        assert level_label(level) == level  # not "review:test (review:test)"
        assert seat_label(f"Besse ({level})") == f"Besse ({level})"
        assert bare_name(f"Besse ({level})") == "Besse"


def test_a_person_s_name_is_told_as_it_is(w: Words) -> None:
    for name in ("Andi", "Daeng R.", "आप"):
        assert seat_label(name) == name and bare_name(name) == name
