"""The ladder's names for players beside the levels' technical names, where a level is
chosen (the start page's level, a new table's computer seats) and where it is ranked
(the leaderboard, a computer player's page), in every language."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from domeng.bots.levels import LADDER

from .conftest import Service

WEB = Path(__file__).resolve().parents[2] / "src" / "domeng" / "web"
LANGS = ("en", "id", "tr", "pt", "nl", "hi")


def catalog(lang: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    return doc


def shown(lang: str, level: str) -> str:
    """What a level is called where it is chosen or ranked, in ``lang``."""
    return f"{catalog(lang)[f'ladder.{level}']} ({level})"


def test_every_language_names_every_rung_of_the_ladder_apart() -> None:
    for lang in LANGS:
        names = [catalog(lang)[f"ladder.{level}"] for level in LADDER]
        assert all(n.strip() for n in names), lang
        assert len(set(names)) == len(names), (lang, names)


def test_the_level_choosers_show_the_ladder_beside_the_level(
    browser: Any, service: Service
) -> None:
    for lang in LANGS:
        context = browser.new_context()
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('domeng.lang', '{lang}')")
        page.goto(service.base + "/")
        page.wait_for_selector("body[data-ready=true]")
        options = page.locator("#level option")
        values = [options.nth(i).get_attribute("value") for i in range(options.count())]
        assert values and set(values) <= set(LADDER), values
        texts = [options.nth(i).inner_text().strip() for i in range(options.count())]
        assert texts == [shown(lang, v) for v in values if v], lang
        context.close()


def test_the_leaderboard_and_a_computer_players_page_say_the_ladder_name(
    browser: Any, service: Service
) -> None:
    board = service.get("/api/leaderboard")
    computers = [p for p in board["players"] if p["kind"] == "computer"]
    assert computers, "a new database lists the computer levels"
    for lang in ("en", "tr", "hi"):
        context = browser.new_context()
        page = context.new_page()
        page.add_init_script(f"localStorage.setItem('domeng.lang', '{lang}')")
        page.goto(service.base + "/#/leaderboard")
        page.wait_for_selector("[data-board-player]")
        for p in computers:
            row = page.locator(f'[data-board-player="{p["id"]}"] td.who a')
            assert row.inner_text().strip() == shown(lang, p["name"]), (lang, p["name"])
        first = computers[0]
        page.goto(f"{service.base}/#/player/{first['id']}")
        page.wait_for_selector("[data-player-page] .player-head h1")
        head = page.locator("[data-player-page] .player-head h1").inner_text().strip()
        assert head == shown(lang, first["name"]), (lang, head)
        # its rounds count every seat it sat at, and its page says so
        note = page.locator("[data-player-page] [data-level-seats]").inner_text()
        assert note == catalog(lang)["players"]["level_seats"], (lang, note)
        context.close()
