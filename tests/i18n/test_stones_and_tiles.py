"""An amount is the game's STONES, a tile is the language's tile word, in every catalog
(the browser's texts, the rules, the glossary and the terminal's group alike).

In Dutch and Turkish the everyday word for a stone is the tile ("stenen", "taş"): an
amount said with it ("1 taş") reads as a tile, so every text whose English gives an
amount of STONES says STONES too, every number English counts in STONES is counted in
STONES, and no amount's placeholder is followed by the tile word. The other languages'
everyday words for stones ("stones", "batu", "pedras", "पत्थर") are used nowhere."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest

from domeng.i18n import LANGUAGES, catalog

HOLE = re.compile(r"\{[\w!]+\}")
TILE = {
    "en": r"\btiles?\b",
    "id": r"\bkartu",
    "tr": r"taş",
    "pt": r"\bpeças?\b",
    "nl": r"\bste(?:en|nen)",
    "hi": r"गोटि|गोटी",
}
"""Each language's one word for a tile (a form of it)."""
EVERYDAY = {
    "en": r"\b(?:[Ss]tones?|STONEs)\b",  # STONE and STONES are the game's
    "id": r"\b[Bb]atu\b",
    "pt": r"\b[Pp]edras?\b",
    "hi": r"पत्थर",
}
"""The everyday word for a stone where it is not the tile word: never said."""
AMOUNT = re.compile(r"(\d+) (?:of the )?STONES?\b")
"""An amount English counts in STONES ("3 STONES", "1 of the STONES")."""
AMOUNT_HOLE = re.compile(r"\{(?:stones|loss|received|skill|luck|value)\} (\S+)")
"""A placeholder that holds a bare amount, and the word after it."""


def texts(value: object, key: str = "") -> Iterator[tuple[str, str]]:
    """Every text of a catalog with its key (``rules[9]``, ``coach.reason.better``,
    ``n_stones.one``)."""
    if isinstance(value, str):
        yield key, value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield from texts(v, f"{key}.{k}" if key else k)
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from texts(v, f"{key}[{i}]")


Read = Callable[[str], dict[str, object]]


def amounts_not_in_stones(code: str, read: Read = catalog) -> list[tuple[str, str]]:
    """The texts of ``code`` whose amount is not said in STONES, with what is wrong."""
    english = dict(texts(read("en")))
    wrong: list[tuple[str, str]] = []
    for key, text in texts(read(code)):
        bare = HOLE.sub(" ", text)
        if code in EVERYDAY and re.search(EVERYDAY[code], bare):
            wrong.append((key, "everyday word"))
        for word in AMOUNT_HOLE.findall(text):
            if re.search(TILE[code], word, re.IGNORECASE):
                wrong.append((key, f"tile word after an amount: {word}"))
        if re.search(r"\{loss\}(?! STONES)", text):  # a bare number: its unit follows
            wrong.append((key, "an amount lost without STONES"))
        if key.startswith("n_stones.") and "STONE" not in text:
            wrong.append((key, "a count of STONES"))
        theirs = english.get(key)
        if theirs is None or code == "en":
            continue
        if "STONE" in theirs and "STONES" not in text:
            wrong.append((key, "no STONES where English has"))
        for n in AMOUNT.findall(theirs):
            if not re.search(rf"(?<!\d){n} STONES", text):
                wrong.append((key, f"{n} not counted in STONES"))
    return wrong


def tiles_not_named(code: str, read: Read = catalog) -> list[str]:
    """The keys whose English names a tile and whose text in ``code`` does not."""
    mine = dict(texts(read(code)))
    return [
        key
        for key, text in texts(read("en"))
        if re.search(TILE["en"], HOLE.sub(" ", text), re.IGNORECASE)
        and key in mine
        and not re.search(TILE[code], HOLE.sub(" ", mine[key]), re.IGNORECASE)
    ]


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_amount_is_said_in_stones(code: str) -> None:
    assert amounts_not_in_stones(code) == []


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_every_tile_is_said_with_the_tile_word(code: str) -> None:
    assert tiles_not_named(code) == []


def test_the_checks_find_an_amount_in_tiles_and_a_lost_term() -> None:
    """Each way of getting it wrong is found: an amount in Dutch or Turkish tiles, a
    text that lost its STONES, English's lowercase stones, another language's everyday
    word, a count of STONES without them, and a tile said as a stone."""
    real = {code: catalog(code) for code in LANGUAGES}
    rules_en, rules_nl = real["en"]["rules"], real["nl"]["rules"]
    assert isinstance(rules_en, list) and isinstance(rules_nl, list)
    pollo = rules_nl[15].replace("5 STONES", "5 stenen")
    wrong: dict[str, dict[str, object]] = {
        "nl": {
            **real["nl"],
            "rules": [*rules_nl[:15], pollo, *rules_nl[16:]],
            "coach": {"decision": "Zet {n}: gespeeld {played}, verlies {loss} stenen"},
        },
        "tr": {**real["tr"], "summary": {"stones_moved": "Kim kime taş verdi, neden"}},
        "en": {
            **real["en"],
            "terminal": {
                "play.stones_this_round": "Stones this round:",
                "review.decision": "Round {round}, play {index}: loss {loss}{mark}",
            },
        },
        "id": {**real["id"], "n_stones": {"other": "{n} batu"}},
        "pt": {**real["pt"], "living": {"tiles_other": "{n} pedras"}},
    }

    def read(code: str) -> dict[str, object]:
        return wrong.get(code, real[code])

    assert pollo != rules_nl[15]
    assert ("rules[15]", "5 not counted in STONES") in amounts_not_in_stones("nl", read)
    found = amounts_not_in_stones("nl", read)
    assert ("coach.decision", "tile word after an amount: stenen") in found
    assert ("coach.decision", "no STONES where English has") in found
    assert ("summary.stones_moved", "no STONES where English has") in amounts_not_in_stones(
        "tr", read
    )
    found = amounts_not_in_stones("en", read)
    assert ("terminal.play.stones_this_round", "everyday word") in found
    assert ("terminal.review.decision", "an amount lost without STONES") in found
    assert ("n_stones.other", "a count of STONES") in amounts_not_in_stones("id", read)
    assert ("living.tiles_other", "everyday word") in amounts_not_in_stones("pt", read)
    assert "living.tiles_other" in tiles_not_named("pt", read)
    assert amounts_not_in_stones("hi", read) == []  # untouched
