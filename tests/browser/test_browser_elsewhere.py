"""What players expect and missed (issue 31, section 2): called back when their turn
comes while the page is hidden (the tab's title and icon, a sound, a vibration), their
seat taken to another device by a QR code (the old page let go), emoji reactions."""

from __future__ import annotations

from typing import Any

from .conftest import Service
from .playing import PLAYABLE, click_new_game

HIDE = """(hidden) => {
  Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
  Object.defineProperty(document, "visibilityState",
                        { value: hidden ? "hidden" : "visible", configurable: true });
  document.dispatchEvent(new Event("visibilitychange"));
}"""


def test_a_hidden_page_calls_its_player_back_when_it_is_their_turn(
    page: Any, service: Service
) -> None:
    page.add_init_script(
        "window.buzzed = []; navigator.vibrate = (p) => { window.buzzed.push(p); return true; };"
    )
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    click_new_game(page, pace="300")
    shown = page.title()
    for _ in range(400):
        if page.locator("[data-round-summary]").count():
            click_new_game(page, pace="300")
        if page.locator(PLAYABLE).count():
            break
        page.wait_for_timeout(50)
    assert not page.evaluate("document.title").startswith("●")  # seen: no call
    page.evaluate(HIDE, True)
    before = page.locator("[data-line-tile]").count()
    page.locator(PLAYABLE).first.click()
    if page.locator("[data-end]").count():
        page.locator("[data-end]").first.click()
    page.wait_for_function(f"document.querySelectorAll('[data-line-tile]').length > {before}")
    # the others play; then it is this player's turn (or the round's end waits for them)
    page.wait_for_function("document.title.startsWith('●')", timeout=30_000)
    kind = page.evaluate("document.documentElement.dataset.attention")
    assert kind in ("turn", "round")
    words = "Your turn" if kind == "turn" else "The next round waits for you"
    assert words in page.title()
    icon = page.evaluate("document.querySelector('link[rel~=icon]').getAttribute('href')")
    assert icon.startswith("data:image/svg+xml")
    assert page.evaluate("window.buzzed.length") == 1
    # back on the page: the title and the icon as they were
    page.evaluate(HIDE, False)
    assert page.title() == shown
    icon = page.evaluate("document.querySelector('link[rel~=icon]').getAttribute('href')")
    assert not icon.startswith("data:")
    assert page.evaluate("document.documentElement.dataset.attention") is None


def test_a_seat_moves_to_another_device_and_the_old_page_lets_it_go(
    browser: Any, page: Any, service: Service
) -> None:
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    table_id = click_new_game(page, pace="300")
    page.click("[data-handoff]")
    dialog = page.locator("[data-handoff-dialog]")
    dialog.wait_for()
    page.wait_for_function(
        "(() => { const i = document.querySelector('[data-handoff-dialog] img[data-qr]');"
        " return i && i.complete && i.naturalWidth > 0; })()"
    )
    link = page.locator("[data-handoff-link]").get_attribute("href")
    assert f"table={table_id}" in link and "seat=0" in link and "handoff=" in link
    # the phone opens the link: the same seat, its tiles, and no token left in the address
    phone = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        other = phone.new_page()
        other.goto(link)
        other.wait_for_url(f"**/#/table/{table_id}")
        other.wait_for_selector("[data-tile]")
        assert "handoff" not in other.url
        # the old page lets it go: it watches, and keeps no token of the seat
        page.click("[data-handoff-done]")
        page.wait_for_function("!document.querySelector('[data-tile]')")
        seats = page.evaluate("JSON.parse(localStorage.getItem('domeng.seats') || '{}')")
        assert str(0) not in seats.get(table_id, {})
        assert other.locator("[data-tile]").count() > 0
    finally:
        phone.close()


def test_emoji_reactions_beside_the_quick_phrases(page: Any, service: Service) -> None:
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    click_new_game(page, pace="300")
    thumbs = page.locator('[data-reaction="thumbs_up"]')
    assert thumbs.inner_text() == "👍" and thumbs.get_attribute("aria-label") == "Thumbs up"
    thumbs.click()
    page.wait_for_function("document.querySelector('[data-chat-log]').innerText.includes('👍')")
    page.wait_for_selector("[data-bubble]")
    page.select_option("[data-language-menu]", "tr")
    page.wait_for_function("document.documentElement.lang === 'tr'")
    assert thumbs.get_attribute("aria-label") == "Beğendim"


def test_a_seat_opened_on_a_second_page_lets_the_first_go_and_it_says_so(
    browser: Any, page: Any, service: Service
) -> None:
    """No handoff dialog: the same seat simply opened in a second browser. The service
    lets the first page's connection go (seat_elsewhere); that page says so, watches, and
    takes the seat back when it is reloaded (which lets the second go in turn)."""
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    table_id = click_new_game(page, pace="300")
    page.wait_for_selector("[data-tile]")
    seats = page.evaluate("localStorage.getItem('domeng.seats')")
    second = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True)
    try:
        other = second.new_page()
        other.goto(service.base + "/?lang=id")
        other.evaluate("(s) => localStorage.setItem('domeng.seats', s)", seats)
        other.goto(f"{service.base}/?lang=id#/table/{table_id}")
        other.wait_for_selector("[data-tile]")
        notice = page.locator("[data-notice][data-elsewhere]")
        notice.wait_for(state="visible")
        assert "open on another page or device" in notice.inner_text()
        page.wait_for_function("!document.querySelector('[data-tile]')")  # it watches
        assert other.locator("[data-notice][data-elsewhere]").count() == 0
        service.wait_for(
            lambda: service.get(f"/api/tables/{table_id}")["seats"][0]["connected"] is True
        )
        # the first page reloaded plays again; the second is let go and says so, in its
        # own language
        page.reload()
        page.wait_for_selector("[data-tile]")
        there = other.locator("[data-notice][data-elsewhere]")
        there.wait_for(state="visible")
        assert "halaman atau perangkat lain" in there.inner_text()
        other.wait_for_function("!document.querySelector('[data-tile]')")
    finally:
        second.close()
