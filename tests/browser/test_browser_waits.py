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


@pytest.mark.parametrize(
    ("lang", "you", "you_and", "them"),
    [
        ("en", "Waiting for you to be ready", "Waiting for you and Budi", "Waiting for Tess"),
        ("id", "Menunggu Anda siap", "Menunggu Anda dan Budi", "Menunggu Tess"),
    ],
)
def test_a_wait_for_ready_says_you_to_the_one_it_waits_for(
    page: Any, service: Any, lang: str, you: str, you_and: str, them: str
) -> None:
    """The host, Tess, last to say ready: her screen says "you", not her name, and shows
    no "start the next round now" beside her own "Next round" (it would do the same);
    Budi's screen names her; a screen passed round (two seats) names every seat."""
    page.goto(f"{service.base}/?lang={lang}")
    page.wait_for_selector("body[data-ready=true]")
    seen = page.evaluate(
        """async () => {
          const { drawWait } = await import("/web/js/waits.js");
          const names = ["Tess", "Budi", "Bot 1", "Bot 2", "Bot 3"];
          const seats = names.map((name, seat) => ({ seat, name }));
          const at = (waited) => ({
            status: "playing", seats,
            waiting_for: {
              kind: "ready", seats: waited, deadline: Date.now() / 1000 + 40, seconds: 60,
            },
          });
          const draw = (waited, o) => {
            const box = document.createElement("div");
            document.body.append(box);
            drawWait(box, { table: at(waited), names, tableId: "x", done: () => {}, ...o });
            return { text: box.querySelector(".wait-text").textContent,
                     starts: box.querySelectorAll("[data-host=next_round]").length };
          };
          return {
            tess: draw([0], { mine: [0], host: true, nextRound: true }),
            tessAtTable: draw([0], { mine: [0], host: true }),
            budi: draw([0], { mine: [1] }),
            both: draw([0, 1], { mine: [0], host: true, nextRound: true }),
            passedRound: draw([0], { mine: [0, 1], host: true, nextRound: true }),
            watcher: draw([0], {}),
          };
        }"""
    )
    assert seen["tess"]["text"].startswith(you) and "Tess" not in seen["tess"]["text"]
    assert seen["tess"]["starts"] == 0  # her "Next round" starts it
    assert seen["tessAtTable"]["text"].startswith(you) and seen["tessAtTable"]["starts"] == 1
    assert seen["budi"]["text"].startswith(them) and seen["budi"]["starts"] == 0  # not host
    assert seen["both"]["text"].startswith(you_and) and seen["both"]["starts"] == 1
    assert seen["passedRound"]["text"].startswith(them) and seen["passedRound"]["starts"] == 1
    assert seen["watcher"]["text"].startswith(them)
