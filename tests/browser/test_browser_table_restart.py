"""The service killed and started again in the middle of a round: the page comes back
by itself, the person in their seat with the same tiles, and plays the round on."""

from __future__ import annotations

from typing import Any

from .playing import my_turn, new_game, play_round


def hand(page: Any) -> list[str]:
    return sorted(t.get_attribute("data-tile") for t in page.locator("[data-tile]").all())


def test_a_restarted_service_puts_the_person_back_at_the_table(
    page: Any, service: Any, console: Any
) -> None:
    # while the service is down, the page's attempts to reconnect may fail aloud
    console.allow("WebSocket connection to")
    table_id = new_game(page, service.base)
    page.wait_for_selector("[data-tile]")
    # wait for the person's turn, so that nothing moves while the service is down
    my_turn(page)
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
    play_round(page, "left")
