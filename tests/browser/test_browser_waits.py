"""What a table waits for is on screen with its time left, in the reader's language and
on a phone: the host of a table whose invited seat nobody took sees the countdown and
starts the game at once with a computer in that seat."""

from __future__ import annotations

from typing import Any

import pytest


@pytest.mark.parametrize(
    ("lang", "width", "words"),
    [("id", 390, "Menunggu kursi 2"), ("en", 1280, "Waiting for seat 2")],
)
def test_the_host_sees_the_wait_for_a_seat_and_starts_now(
    page: Any, service: Any, lang: str, width: int, words: str
) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person"}]
    seats += [{"kind": "computer", "level": "basic"}] * 3
    t = service.post("/api/tables", {"seats": seats, "pace_ms": 0})
    assert t["waiting_for"]["kind"] == "seats" and t["waiting_for"]["seats"] == [1]
    page.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
    page.goto(f"{service.base}/?lang={lang}")
    page.evaluate(
        """([id, tok, host]) => {
          localStorage.setItem('domeng.seats', JSON.stringify({[id]: {0: tok}}));
          localStorage.setItem('domeng.hosts', JSON.stringify({[id]: host}));
        }""",
        [t["id"], t["tokens"]["0"], t["host_token"]],
    )
    page.goto(f"{service.base}/?lang={lang}#/table/{t['id']}")
    wait = page.locator(".table-main [data-wait]")
    wait.wait_for(state="visible")
    assert words in wait.inner_text()
    left = wait.locator("[data-wait-left]")
    first = left.inner_text()
    assert first[0] in "45" and ":" in first  # about five minutes
    page.wait_for_function(
        "(first) => document.querySelector('.table-main [data-wait-left]').textContent !== first",
        arg=first,
    )  # it counts down
    box = wait.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # fits
    wait.locator("[data-host=start]").click()
    wait.wait_for(state="hidden")
    service.wait_for(lambda: service.get(f"/api/tables/{t['id']}")["status"] == "playing")
    assert service.get(f"/api/tables/{t['id']}")["waiting_for"] is None


@pytest.mark.parametrize(
    ("lang", "width", "words"),
    [("tr", 390, "Budi masada yok"), ("en", 1280, "Budi is away")],
)
def test_everyone_sees_when_a_computer_takes_the_seat_of_someone_away(
    page: Any, service: Any, lang: str, width: int, words: str
) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Budi"}]
    seats += [{"kind": "computer", "level": "basic"}] * 3
    body = {"seats": seats, "pace_ms": 0, "replace_after_ms": 120_000}
    t = service.post("/api/tables", body)
    page.set_viewport_size({"width": width, "height": 844 if width < 500 else 800})
    page.goto(f"{service.base}/?lang={lang}")
    page.evaluate(
        "([id, tok]) => localStorage.setItem('domeng.seats', JSON.stringify({[id]: {0: tok}}))",
        [t["id"], t["tokens"]["0"]],
    )
    page.goto(f"{service.base}/?lang={lang}#/table/{t['id']}")  # Ann comes; Budi never does
    away = page.locator(".table-main [data-wait] [data-away='1']")
    away.wait_for(state="visible")
    assert words in away.inner_text()
    seat = service.get(f"/api/tables/{t['id']}")["seats"][1]
    assert seat["away"]["seconds"] == 120 and not seat["stand_in"]
    left = away.locator("[data-wait-left]")
    first = left.inner_text()
    assert first[0] in "12" and ":" in first  # about two minutes
    page.wait_for_function(
        "(first) => document.querySelector(\"[data-away='1'] [data-wait-left]\").textContent"
        " !== first",
        arg=first,
    )  # it counts down
    box = page.locator(".table-main [data-wait]").bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width  # fits
    assert page.locator(".table-main [data-away='0']").count() == 0  # Ann is here
