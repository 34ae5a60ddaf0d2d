"""On a phone the talk is below the board, one tap away: its button counts what was said
since the talk was last in sight, and a reload does not count again what was seen
before it (a player-tester found "Chat 1" back after a reload)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

TIMEOUT = 30.0
"""Seconds for a message from the service."""


def _until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        m: dict[str, Any] = json.loads(ws.recv(timeout=TIMEOUT))
        assert m["type"] != "error", m
        if m["type"] == kind:
            return m


@pytest.fixture
def phone(browser: Any) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        yield context.new_page()
    finally:
        context.close()


def _badge(page: Any) -> str:
    """The count on the talk's button ("" when it is hidden)."""
    return str(
        page.evaluate(
            "(() => { const b = document.querySelector('[data-unread]');"
            " return b && !b.hidden ? b.textContent : ''; })()"
        )
    )


def _out_of_sight(page: Any) -> None:
    """Back to the top: the board in sight, the talk below it out of sight."""
    page.evaluate("window.scrollTo(0, 0)")
    page.wait_for_function(
        "document.querySelector('[data-chat]').getBoundingClientRect().top > window.innerHeight"
    )


def test_on_a_phone_what_was_said_is_counted_until_seen_and_not_again_after_a_reload(
    phone: Any, service: Any
) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Budi"}]
    seats += [{"kind": "computer", "level": "basic"}] * 3
    t = service.post("/api/tables", {"seats": seats, "pace_ms": 60_000})
    page = phone
    page.goto(f"{service.base}/?lang=en")
    page.evaluate(
        "([id, tok]) => localStorage.setItem('domeng.seats', JSON.stringify({[id]: {0: tok}}))",
        [t["id"], t["tokens"]["0"]],
    )
    page.goto(f"{service.base}/?lang=en#/table/{t['id']}")
    page.wait_for_selector("[data-chat]")
    _out_of_sight(page)
    url = f"{service.base.replace('http', 'ws', 1)}/ws/tables/{t['id']}"
    with connect(url, open_timeout=TIMEOUT, ping_interval=None) as budi:
        budi.send(json.dumps({"type": "hello", "token": t["tokens"]["1"]}))
        _until(budi, "state")
        budi.send(json.dumps({"type": "chat", "text": "Halo semua"}))
        _until(budi, "chat")
        page.wait_for_function("document.querySelector('[data-unread]').textContent === '1'")
        assert _badge(page) == "1"
        page.reload()  # not seen yet: still counted
        page.wait_for_selector("[data-chat-log] li")
        _out_of_sight(page)
        page.wait_for_function("document.querySelector('[data-unread]').textContent === '1'")
        assert _badge(page) == "1"
        page.click("[data-jump=chat]")  # seen
        page.wait_for_function("document.querySelector('[data-unread]').hidden")
        _out_of_sight(page)
        page.reload()  # seen before the reload: not counted again
        page.wait_for_selector("[data-chat-log] li")
        _out_of_sight(page)
        page.wait_for_timeout(300)  # a render after the talk's history came
        assert _badge(page) == ""
        budi.send(json.dumps({"type": "chat", "text": "Lagi"}))  # said since: counted
        page.wait_for_function("document.querySelector('[data-unread]').textContent === '1'")
        assert _badge(page) == "1"
        # a seat muted here: its words are not counted (not even those said before)
        page.evaluate(
            "async (id) => (await import('/web/js/api.js')).setMuted(id, 1, true)", t["id"]
        )
        budi.send(json.dumps({"type": "chat", "text": "Ssst"}))
        _until(budi, "chat")
        page.wait_for_function("document.querySelector('[data-unread]').hidden")
        assert _badge(page) == ""
        page.click("[data-jump=chat]")  # all seen; heard again from now on
        page.evaluate(
            "async (id) => (await import('/web/js/api.js')).setMuted(id, 1, false)", t["id"]
        )
        _out_of_sight(page)
    # this screen's own words are never news to it
    page.fill("[data-chat-input]", "Saya di sini")
    page.click("[data-chat-send]")
    page.wait_for_selector("[data-chat-log] li:has-text('Saya di sini')")
    _out_of_sight(page)
    page.wait_for_timeout(300)
    assert _badge(page) == ""
    # the browser closed and opened again (a tab of its own, the storage kept): what was
    # seen is not counted again (a tester found all seven messages counted back)
    again = page.context.new_page()
    page.close()
    again.goto(f"{service.base}/?lang=en#/table/{t['id']}")
    again.wait_for_selector("[data-chat-log] li:has-text('Saya di sini')")
    _out_of_sight(again)
    again.wait_for_timeout(300)
    assert _badge(again) == ""
    # on another device, where nothing was seen yet: the others' words are new, her own
    # words are not ("Saya di sini" is Ann's)
    other = again.context.browser.new_context(viewport={"width": 390, "height": 844})
    try:
        device = other.new_page()
        device.goto(f"{service.base}/?lang=en")
        device.evaluate(
            "([id, tok]) => localStorage.setItem('domeng.seats', JSON.stringify({[id]: {0: tok}}))",
            [t["id"], t["tokens"]["0"]],
        )
        device.goto(f"{service.base}/?lang=en#/table/{t['id']}")
        device.wait_for_selector("[data-chat-log] li:has-text('Saya di sini')")
        _out_of_sight(device)
        device.wait_for_function("document.querySelector('[data-unread]').textContent === '3'")
    finally:
        other.close()
