"""The service killed and started again in the middle of a round: the page comes back
by itself, the person in their seat with the same tiles, and plays the round on."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout


def hand(page: Any) -> list[str]:
    return sorted(t.get_attribute("data-tile") for t in page.locator("[data-tile]").all())


def test_a_restarted_service_puts_the_person_back_at_the_table(
    page: Any, service: Any, console: Any
) -> None:
    # while the service is down, the page's attempts to reconnect may fail aloud
    console.allow("WebSocket connection to")
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.evaluate("localStorage.setItem('domeng.pace', '20')")
    page.click("[data-new-game]")
    page.wait_for_selector("[data-tile]")
    table_id = page.evaluate("location.hash.split('/')[2]")
    # wait for the person's turn, so that nothing moves while the service is down
    page.wait_for_selector('[data-playable="true"]')
    tiles = hand(page)
    state = service.get(f"/api/tables/{table_id}")["state"]

    service.restart()
    assert service.get(f"/api/tables/{table_id}")["state"] == state
    page.wait_for_function(
        "!document.querySelector('.status').textContent.includes('Connecting')", timeout=15_000
    )
    page.wait_for_selector('[data-playable="true"]')
    assert hand(page) == tiles
    assert page.evaluate("location.hash") == f"#/table/{table_id}"

    # and the round plays on to its end
    for _ in range(2000):
        if page.locator("[data-round-summary]").count():
            break
        playable = page.locator('.table-page:not([data-pending="true"]) [data-playable="true"]')
        if playable.count():
            try:
                playable.first.click(timeout=2000)
            except PlaywrightTimeout:
                continue
            if page.locator("[data-end]").count():
                page.click('[data-end="left"]')
        else:
            page.wait_for_timeout(30)
    page.wait_for_selector("[data-round-summary]")
