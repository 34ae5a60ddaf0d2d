"""A table anyone can play: an automated accessibility audit (axe-core, in the real
browser) of every kind of page, and a whole round played by keyboard alone with what a
screen reader hears: the live account, named tile buttons, whose turn it is.

axe-core comes from the Node packages of package.json (``npm ci``); without them the
audit is skipped with the reason, except when the environment variable CI is set.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from .conftest import Service
from .playing import click_new_game, play_round

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
BLOCKING = ("serious", "critical")


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.is_file():
        reason = f"axe-core is not installed ({AXE} is missing): run `npm ci` in {ROOT}"
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI is set: the accessibility audit must run)")
        pytest.skip(reason)
    return AXE.read_text(encoding="utf-8")


def audit(page: Any, axe: str, what: str) -> None:
    """axe-core over the page as it is: no serious or critical violation."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.add_script_tag(content=axe)
    found: list[dict[str, Any]] = page.evaluate(
        """async () => {
          const r = await axe.run(document, { resultTypes: ["violations"] });
          return r.violations.map((v) => ({
            id: v.id, impact: v.impact, help: v.help,
            nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ") + " :: " + n.failureSummary),
          }));
        }"""
    )
    blocking = [v for v in found if v["impact"] in BLOCKING]
    assert blocking == [], f"{what}: {json.dumps(blocking, indent=1, ensure_ascii=False)}"


def test_every_kind_of_page_passes_the_audit(page: Any, service: Service, axe_source: str) -> None:
    # the start page
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    audit(page, axe_source, "the start page")
    # a table in play, then the round's summary
    click_new_game(page)
    page.wait_for_selector('[data-playable="true"], [data-round-summary]')
    audit(page, axe_source, "a table in play")
    play_round(page)
    audit(page, axe_source, "the round's summary")
    # the final standings: the host (this browser) ends the game
    table_id = page.evaluate("location.hash.split('/')[2]")
    tokens = page.evaluate("JSON.parse(localStorage.getItem('domeng.hosts'))")
    service.post(f"/api/tables/{table_id}/host", {"token": tokens[table_id], "action": "end"})
    page.wait_for_selector("[data-standings]")
    page.wait_for_selector("[data-stones-chart] svg")
    audit(page, axe_source, "the final standings")
    # the replay of that game
    page.goto(f"{service.base}/#/replay/{table_id}")
    page.wait_for_selector("svg.board .seat")
    page.click('[data-step="next"]')
    audit(page, axe_source, "the replay")
    # the leaderboard (the computer levels from the start) and a player's page
    page.goto(service.base + "/#/leaderboard")
    page.wait_for_selector("[data-board-player]")
    audit(page, axe_source, "the leaderboard")
    page.locator("[data-board-player] a").first.click()
    page.wait_for_selector("[data-player-page]")
    audit(page, axe_source, "a player's page")
    # the rules
    page.goto(service.base + "/#/rules")
    page.wait_for_selector(".rules h1")
    audit(page, axe_source, "the rules")


def test_a_whole_round_by_keyboard_with_what_a_screen_reader_hears(
    page: Any, service: Service
) -> None:
    """No mouse: Tab to "go to my tiles", Enter; every tile a named button; the table in
    words (whose turn, the line's ends, the hand); each play said in the live log."""
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    click_new_game(page)
    announced: set[str] = set()
    for _ in range(3000):
        announced.update(page.locator("[data-announce] p").all_inner_texts())
        if page.locator("[data-round-summary]").count():
            break
        playable = page.locator('.table-page:not([data-pending="true"]) [data-playable="true"]')
        if not playable.count():
            page.wait_for_timeout(30)
            continue
        # every tile of the hand is a button with a name in words
        tiles = page.locator("[data-tile]")
        for tile in tiles.all():
            assert tile.get_attribute("role") == "button"
            a, b = tile.get_attribute("data-tile").split("-")
            assert tile.get_attribute("aria-label").startswith(f"{a} and {b}")
        first = playable.first.get_attribute("data-tile")
        a, b = first.split("-")
        assert page.get_by_role("button", name=f"{a} and {b} — can be played").count() == 1
        # the table in words says it is my turn, the ends and what I may play
        words = page.locator("[data-sr-table]").inner_text()
        assert "Your turn" in words and "You can play:" in words and f"{a} and {b}" in words
        ends = page.locator("[data-sr-line]").inner_text()
        assert ends.startswith("The line") or ends == "The line is empty"
        # the keyboard: from the top of the page, Tab reaches "go to my tiles" first
        page.locator("#view").focus()
        page.keyboard.press("Tab")
        focused = page.evaluate("document.activeElement.dataset.toTiles !== undefined")
        assert focused, "the first stop of the table page is 'go to my tiles'"
        page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.dataset.playable") == "true"
        before = page.locator("[data-line-tile]").count()
        page.keyboard.press("Enter")
        if page.locator("[data-end]").count():  # both ends fit: the choice has the focus
            assert page.evaluate("document.activeElement.dataset.end") in ("left", "right")
            page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.querySelectorAll('[data-line-tile]').length > {before}"
            " || !!document.querySelector('[data-round-summary]')"
        )
    else:
        raise AssertionError("the round did not end")
    # the summary takes the keyboard: its first button is focused
    assert page.evaluate("document.activeElement.dataset.nextRound") is not None
    said = " ".join(announced)
    assert "plays" in said or "opens" in said, said
    assert page.locator(".account").get_attribute("aria-live") is None  # said once, by the log


def test_seats_are_told_apart_without_colour(page: Any, service: Service) -> None:
    """Each seat's colour comes with a shape of its own, on its plate and on its last tile."""
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    click_new_game(page)
    for _ in range(400):  # this seat may open the round: it plays, and its tile is marked
        if page.locator("[data-last-play]").count():
            break
        playable = page.locator('[data-playable="true"]')
        if playable.count():
            playable.first.click()
            if page.locator("[data-end]").count():
                page.locator("[data-end]").first.click()
        page.wait_for_timeout(50)
    page.wait_for_selector("[data-last-play]")
    plates: dict[str, str] = page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll("svg.board [data-seat]")]
             .map((g) => [g.dataset.seat,
                          g.querySelector("[data-seat-shape]")?.dataset.seatShape]))"""
    )
    assert sorted(plates.values()) == ["0", "1", "2", "3", "4"], plates
    marks: list[list[str]] = page.evaluate(
        """() => [...document.querySelectorAll("[data-last-play]")].map((g) =>
             [g.dataset.lastPlay, g.querySelector("[data-seat-shape]")?.dataset.seatShape])"""
    )
    assert marks and all(plates[seat] == shape for seat, shape in marks), (plates, marks)


def test_at_200_percent_zoom_nothing_needs_a_sideways_scroll(
    browser: Any, service: Service
) -> None:
    """1280x800 at 200% is a 640x400 page of CSS pixels: every page fits its width, and
    the hand can be scrolled to and played."""
    ctx = browser.new_context(viewport={"width": 640, "height": 400}, device_scale_factor=2)
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    try:
        wide = "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        page.goto(service.base + "/")
        page.wait_for_selector("body[data-ready=true]")
        assert page.evaluate(wide) <= 0, "the start page"
        click_new_game(page)
        page.wait_for_selector('[data-playable="true"], [data-round-summary]')
        assert page.evaluate(wide) <= 0, "the table"
        play_round(page)
        assert page.evaluate(wide) <= 0, "the round's summary"
        for address in ("/#/rules", "/#/leaderboard"):
            page.goto(service.base + address)
            page.wait_for_selector("#view h1")
            assert page.evaluate(wide) <= 0, address
    finally:
        ctx.close()


def test_the_audit_on_a_phone_in_hindi(browser: Any, service: Service, axe_source: str) -> None:
    """The same audit at 390 px, in Hindi: an invitation, a table in play with its
    dialog to another device, a replay seen from one seat with the coach's panel."""
    body = {
        "seats": [{"kind": "person", "name": "Ana"}, {"kind": "person"}]
        + [{"kind": "computer", "level": "basic"}] * 3,
        "pace_ms": 0,
        "end": {"rounds": 1},
    }
    table = service.post("/api/tables", body)
    ctx = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    ctx.add_init_script("localStorage.setItem('domeng.lang', 'hi')")
    page = ctx.new_page()
    page.set_default_timeout(20_000)
    try:
        page.goto(service.base + table["invites"]["1"])
        page.wait_for_selector("[data-join-name]")
        audit(page, axe_source, "an invitation, on a phone")
        page.fill("[data-join-name]", "हसन")
        page.click("[data-join]")
        page.wait_for_selector("svg.board .seat")
        page.click("[data-handoff]")
        page.wait_for_selector("[data-handoff-dialog]")
        audit(page, axe_source, "a table in play with the dialog to another device, on a phone")
        page.click("[data-handoff-cancel]")
        # Ana never comes: the host ends the game
        token = table["host_token"]
        service.post(f"/api/tables/{table['id']}/host", {"token": token, "action": "end"})
        page.wait_for_selector("[data-standings]")
        audit(page, axe_source, "the final standings, on a phone")
        # a game of computer players seen again from one seat, with the coach's panel
        computers = {"seats": [{"kind": "computer", "level": "basic"}] * 5, "pace_ms": 0}
        done = service.post("/api/tables", {**computers, "end": {"rounds": 1}})["id"]
        service.wait_for(lambda: service.get(f"/api/tables/{done}")["status"] == "finished")
        page.goto(f"{service.base}/#/replay/{done}")
        page.wait_for_selector("svg.board .seat")
        page.select_option("[data-view-from]", "1")
        page.click('[data-step="next"]')
        page.wait_for_selector("[data-coach-panel]")
        audit(page, axe_source, "a replay seen from one seat, on a phone")
    finally:
        ctx.close()


NAMES = """() => [...document.querySelectorAll("input:not([type=hidden])")]
  .filter((box) => box.offsetParent !== null)
  .map((box) => box.getAttribute("aria-label") || (box.labels[0] || {}).textContent || "")
  .map((name) => name.trim())"""


def test_each_name_box_of_the_start_page_says_whose_name_it_asks_for(
    page: Any, service: Service
) -> None:
    # a screen reader heard "Your name" two or three times on one page (the new game's,
    # a seat of the custom table's, an invitation's): each box now says which it is
    body = {"seats": [{"kind": "person", "name": "Ani"}, {"kind": "person"}]
            + [{"kind": "computer", "level": "basic"}] * 3}  # fmt: skip
    table = service.post("/api/tables", body)
    page.goto(f"{service.base}/?table={table['id']}&seat=1")
    page.locator("[data-join-name]").wait_for()
    page.locator("[data-seat-name]").first.wait_for()
    names = page.evaluate(NAMES)
    assert len(names) >= 2, names  # the invitation's and a seat's of the custom table
    assert "" not in names, names
    assert len(set(names)) == len(names), names
    assert (
        page.locator("[data-seat-name]").first.get_attribute("aria-label") == "Your name at seat 1"
    )
    join = page.locator("[data-join-name]").get_attribute("aria-label")
    assert join == f"Your name at table {table['id']}"
    page.goto(f"{service.base}/")  # no invitation: the new game's own box is there
    page.locator("#my-name").wait_for()
    names = page.evaluate(NAMES)
    assert len(set(names)) == len(names), names
    assert {"Your name", "Your name at seat 1"} <= set(names), names
