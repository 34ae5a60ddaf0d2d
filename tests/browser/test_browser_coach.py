"""The coach in the browser: a Hint marks the best tile and says why, the round's review
after it, the hints in the standings, the replay from one seat with the coach's beliefs;
and the "coach" texts in every language."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from domeng.bots.reasons import KEYS as REASONS

from .playing import new_game, play_round, step

WEB = Path(__file__).resolve().parents[2] / "src" / "domeng" / "web"
LANGS = ("en", "id", "tr", "pt", "nl", "hi")


def coach_texts(lang: str) -> dict[str, str]:
    doc = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))
    group: dict[str, str] = doc["coach"]
    return group


def test_every_language_has_every_coach_text_and_placeholder() -> None:
    en = coach_texts("en")
    for lang in LANGS[1:]:
        doc = coach_texts(lang)
        assert set(doc) == set(en), lang
        for key, value in en.items():
            holes = set(re.findall(r"\{\w+\}", value))
            assert set(re.findall(r"\{\w+\}", doc[key])) == holes, (lang, key)
        # the game's words stay as they are
        for key, value in en.items():
            for term in re.findall(r"\b[A-Z][A-Z ]{2,}[A-Z]\b", value):
                assert term in doc[key], (lang, key, term)


def test_every_coach_text_the_pages_ask_for_exists() -> None:
    en = coach_texts("en")
    asked: set[str] = set()
    for path in (WEB / "js").glob("*.js"):
        asked |= set(re.findall(r'\bct\(\s*"([\w.:-]+)"', path.read_text(encoding="utf-8")))
    source = (WEB / "js" / "coach.js").read_text(encoding="utf-8")
    assert "ct(`reason.${r.key}`" in source and "ct(`mark_${d.mark}`)" in source
    asked |= {f"reason.{k}" for k in REASONS} | {"mark_mistake", "mark_blunder"}
    asked |= {"move_left", "move_right", "end_left", "end_right"}
    asked |= {"setting_auto", "setting_on", "setting_off"}
    assert asked and sorted(asked - set(en)) == []


def test_a_hint_the_review_and_the_replay_from_one_seat(page: Any, service: Any) -> None:
    table_id = new_game(page, service.base)
    # wait for a turn with a choice, and ask for a hint
    played = 0  # rounds over before Andi had a choice (it happens): the next one, then
    for _ in range(2000):
        if page.locator("[data-next-round]:not([disabled])").count():
            page.click("[data-next-round]")
            page.wait_for_selector("[data-round-summary]", state="detached")
            played += 1
            continue
        playable = page.locator('.table-page:not([data-pending="true"]) [data-playable="true"]')
        if playable.count() > 1:
            page.click("[data-hint]")
            page.wait_for_selector("[data-hint-text]", timeout=60_000)
            break
        if playable.count() == 1:
            # its one tile played; on an end, when it fits both (a click only chooses it,
            # and clicked again within 400 ms it stays chosen: it was never played)
            step(page)
        page.wait_for_timeout(30)
    else:
        raise AssertionError("no turn with a choice came")
    assert page.locator("[data-hint-text]").count(), "the round ended before a choice"
    marked = page.locator('[data-hinted="true"]')
    assert marked.count() == 1
    assert marked.get_attribute("data-playable") == "true"
    said = page.locator("[data-hint-text]").inner_text()
    tile = marked.get_attribute("data-tile")
    assert tile and f"[{tile.replace('-', '|')}]" in said
    assert page.locator("[data-hint]").is_disabled()  # one hint a position
    marked.click()
    if page.locator("[data-end]").count():
        page.locator("[data-end]").first.click()
    assert service.get(f"/api/tables/{table_id}")["seats"][0]["hints"] == 1
    play_round(page)
    page.click("[data-review-open]")
    page.wait_for_selector(
        "[data-review] [data-review-total], [data-review] p.muted", timeout=60_000
    )
    review = page.locator("[data-review]").inner_text()
    assert f"Round {played + 1}" in review
    # the replay from Andi's seat: at a decision, the review's values and the beliefs
    page.goto(f"{service.base}/#/replay/{table_id}")
    page.wait_for_selector("svg.board")
    page.select_option(".round-select", str(played))  # the round of the hint
    page.select_option("[data-view-from]", "0")
    # the review of the round comes (worked out by the service), then its decisions show
    page.wait_for_selector(
        "[data-coach-panel] > p:not([data-reviewing]), [data-coach-panel] [data-decision]",
        timeout=60_000,
    )
    for _ in range(40):
        if page.locator("[data-coach-panel] [data-decision]").count():
            break
        page.click('[data-step="next"]')
    assert page.locator("[data-coach-panel] [data-decision]").count()
    assert page.locator("[data-beliefs-seat]").count() == 4
    assert page.locator('[data-beliefs-seat="0"]').count() == 0
    # and the tile tracker as it stood for Andi: the line, Andi's hand, the unseen
    tracker = page.locator("[data-coach-panel] [data-tracker]")
    rows = tracker.locator("tr[data-tracker-row]")
    assert [rows.nth(i).get_attribute("data-tracker-row") for i in range(rows.count())] == [
        "line",
        "hand",
        "unseen",
    ]
    # only the seat's own tiles are face up: the others' hands are backs
    assert page.locator("svg.board .hand [data-tile]").count() >= 1
