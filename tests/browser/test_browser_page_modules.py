"""Each page fetches its own scripts, not every page's (issue 32: a module's whole static
graph comes before it runs, so a replay waited for the start page's and the table's
files): the start page does not fetch the table's or the replay's module, a replay not
the start page's nor the players'; going from one page to another fetches the next
page's module then, and draws it."""

from __future__ import annotations

import re
from typing import Any

from .conftest import Service


def scripts(page: Any) -> set[str]:
    """The names of the page's modules fetched so far."""
    names = page.evaluate(
        "performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname)"
        ".filter((p) => p.endsWith('.js')).map((p) => p.split('/').pop())"
    )
    return set(names)


def test_a_page_fetches_its_own_modules_and_the_next_page_its_own_when_shown(
    page: Any, service: Service
) -> None:
    seats = [{"kind": "computer", "level": "random"}] * 5
    done = service.post("/api/tables", {"seats": seats, "pace_ms": 0, "end": {"rounds": 1}})
    service.wait_for(lambda: service.get(f"/api/tables/{done['id']}")["status"] == "finished")
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("#create")
    start = scripts(page)
    assert {"main.js", "lobby.js"} <= start
    assert not {"table.js", "replay.js", "player.js", "leaderboard.js"} & start
    page.goto(f"{service.base}/#/replay/{done['id']}")  # the same document: a new page
    page.wait_for_selector(".replay-page")
    assert "replay.js" in scripts(page)
    # a replay opened first fetches neither the start page's nor the players' modules
    fresh = page.context.new_page()
    try:
        fresh.goto(f"{service.base}/#/replay/{done['id']}")
        fresh.wait_for_selector("body[data-ready=true]")
        fresh.wait_for_selector(".replay-page")
        alone = scripts(fresh)
        assert "replay.js" in alone
        assert not {"lobby.js", "player.js", "leaderboard.js", "rules.js"} & alone
    finally:
        fresh.close()


def test_the_page_module_is_asked_for_before_the_service_answers(
    page: Any, service: Service
) -> None:
    """index.html runs pages.js on its own, which asks at once for the module of the page
    the address shows: a watched table's module comes while the service's info is still
    on its way (held here), not after it, the language file and main.js's imports."""
    seats = [{"kind": "computer", "level": "random"}] * 5
    table = service.post("/api/tables", {"seats": seats, "pace_ms": 1500})
    held: list[Any] = []
    page.route(re.compile(r"/api$"), lambda route: held.append(route))  # and its preload
    try:
        with page.expect_request(lambda r: r.url.endswith("/js/table.js")):
            page.goto(f"{service.base}/#/watch/{table['id']}", wait_until="commit")
        assert held, "the service's info was asked for"
        assert page.evaluate("document.body.dataset.ready") is None  # not routed yet
        assert page.evaluate("document.querySelector('.table-page')") is None
    finally:
        for route in held:
            route.continue_()
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("svg.board .seat")
