"""The page does not jump on a phone while it fills in: what comes after the first
drawing (a replay's game, the profiles) has its place kept beforehand. Each answer is
held back by the test until the page has drawn without it, so the order is the same on
every run; the layout shifts are the browser's own (a PerformanceObserver), summed as
Lighthouse's Cumulative Layout Shift does within one burst."""

from __future__ import annotations

import time
from typing import Any

PHONE = {"viewport": {"width": 412, "height": 823}, "device_scale_factor": 1.75}
SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const e of list.getEntries()) {
    if (!e.hadRecentInput) window.__shifts.push({ value: e.value,
      nodes: e.sources.map((s) => s.node && s.node.className ? String(s.node.className) : "") });
  }
}).observe({ type: "layout-shift", buffered: true });
"""
HEADER_ONLY = 0.01
"""The header's own shift when its words come (its nav links take their height): 0.006
on this screen; a board drawn without its place kept shifts the page by 0.3 or more,
the profile box by 0.1."""
WITH_PICKER = 0.05
"""The header's shift, and the profile picker put into the form's row once the profiles
come and there are some to pick (it takes a line of its own on a phone): 0.03 in all."""


class Held:
    """Requests to a route, held until :meth:`release`."""

    def __init__(self, page: Any, pattern: str) -> None:
        self.routes: list[Any] = []
        page.route(pattern, self.hold)

    def hold(self, route: Any) -> None:
        self.routes.append(route)

    def release(self) -> None:
        for r in self.routes:
            r.continue_()


def shifted(page: Any) -> tuple[float, list[Any]]:
    page.wait_for_timeout(300)  # the observer's last entries
    shifts: list[Any] = page.evaluate("window.__shifts")
    return sum(s["value"] for s in shifts), shifts


def finished_table(service: Any) -> str:
    seats = [{"kind": "computer", "level": "random"}] * 5
    table = service.post("/api/tables", {"seats": seats, "pace_ms": 0, "end": {"rounds": 1}})
    service.wait_for(lambda: service.get(f"/api/tables/{table['id']}")["status"] == "finished")
    table_id: str = table["id"]
    return table_id


def test_a_replay_keeps_the_place_of_its_bar_and_board_while_its_game_comes(
    browser: Any, service: Any
) -> None:
    table_id = finished_table(service)
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.add_init_script(SHIFTS)
        held = Held(page, "**/api/tables/*/replay*")
        page.goto(f"{service.base}/?lang=en#/replay/{table_id}")
        page.wait_for_selector(".board-wrap .board-space")  # drawn without its game
        deadline = time.monotonic() + 10
        while not held.routes and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        assert held.routes, "the replay was never asked for"
        held.release()
        page.wait_for_selector(".replay-page svg.board .seat")
        total, shifts = shifted(page)
        assert total < HEADER_ONLY, shifts
    finally:
        context.close()


def test_the_start_page_keeps_the_profile_boxs_place_while_the_profiles_come(
    browser: Any, service: Any
) -> None:
    service.post("/api/profiles", {"name": "Rani", "mark": "teal", "language": "en"})
    context = browser.new_context(**PHONE)
    try:
        page = context.new_page()
        page.add_init_script(SHIFTS)
        held = Held(page, "**/api/profiles")
        page.goto(f"{service.base}/?lang=en")
        page.wait_for_selector("[data-profile-create]")  # the form, before the profiles
        page.fill("[data-profile-name]", "Sul")
        deadline = time.monotonic() + 10
        while not held.routes and time.monotonic() < deadline:
            page.wait_for_timeout(50)
        held.release()
        page.wait_for_selector("[data-profile-pick]")  # Rani is there to pick
        total, shifts = shifted(page)
        assert total < WITH_PICKER, shifts
        # what was typed while the profiles came is kept
        assert page.input_value("[data-profile-name]") == "Sul"
    finally:
        context.close()
