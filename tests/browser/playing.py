"""Playing at the browser table as a person: the steps the browser tests share."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

FAST = "20"
"""Pace of the computer players in these tests (ms)."""
PLAYABLE = '.table-page:not([data-pending="true"]) [data-playable="true"]'
"""Seat 0's tiles that can be played now."""


def new_game(page: Any, base: str) -> str:
    """One click on the start page: a table of this person and four computer players."""
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")
    return click_new_game(page)


def click_new_game(page: Any, pace: str = FAST) -> str:
    """On the start page already open: the computer players' pace set, "New game"
    clicked; answers the new table's id once its board shows."""
    page.evaluate(f"localStorage.setItem('domeng.pace', '{pace}')")
    page.click("[data-new-game]")
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector("svg.board .seat")
    table_id: str = page.evaluate("location.hash.split('/')[2]")
    return table_id


def step(page: Any, choose: str | None = "left") -> str:
    """Do what the person at seat 0 can do now; answers what happened."""
    if page.locator("[data-round-summary]").count():
        return "summary"
    playable = page.locator(PLAYABLE)
    if playable.count():
        try:
            playable.first.click(timeout=3000)
        except PlaywrightTimeout:
            return "wait"  # the table moved on between looking and clicking
        if page.locator("[data-end]").count():
            if choose is None:
                return "ends"
            page.click(f'[data-end="{choose}"]')
            return "ended"
        return "played"
    page.wait_for_timeout(30)
    return "wait"


def next_round(page: Any) -> None:
    """On a round's summary: "Next round", and wait for it to be dealt."""
    page.click("[data-next-round]")
    page.wait_for_selector("[data-round-summary]", state="detached")


def my_turn(page: Any, timeout: float = 20_000) -> None:
    """Wait until seat 0 has a tile to play. A round can end before that (in about one
    first round in 3,000 seat 0 never holds a tile that fits): then the next is played."""
    while True:
        page.wait_for_selector(f"{PLAYABLE}, [data-next-round]:not([disabled])", timeout=timeout)
        if page.locator(PLAYABLE).count():
            return
        next_round(page)


def play_round(page: Any, choose: str = "left", limit: int = 2000) -> list[str]:
    """Play seat 0's turns (the first playable tile, on end ``choose`` when asked) until
    the round's summary shows; answers what each step did."""
    done = []
    for _ in range(limit):
        what = step(page, choose)
        done.append(what)
        if what == "summary":
            return done
    raise AssertionError("the round did not end")
