"""Playing at the browser table by clicking: a whole round against four computer
players, choosing an end, the keyboard, a reload in the middle of a round, and an
error from the service shown to the player."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import TimeoutError as PlaywrightTimeout

from .playing import new_game, play_round, step


def test_a_person_plays_a_whole_round_by_clicking(page: Any, service: Any) -> None:
    table_id = new_game(page, service.base)
    moves = play_round(page)
    assert "played" in moves or "ended" in moves or service.get(f"/api/tables/{table_id}")

    summary = page.locator("[data-round-summary]")
    assert summary.is_visible()
    text = summary.inner_text()
    assert "Round 1 is over" in text
    assert "The 3 unused tiles" in text
    assert "Standings" in text
    # every hand and the unused tiles are shown as tiles
    assert summary.locator(".unused svg.tile-icon").count() == 3
    view = service.get(f"/api/tables/{table_id}/view")["view"]
    left = sum(len(h) for h in view["summary"]["hands"])
    assert summary.locator(".hands svg.tile-icon").count() == left
    # the running account told the round in the game's words
    account = page.locator(".account li")
    assert account.count() >= len(view["plays"])
    assert "opens with" in account.first.inner_text()

    page.click("[data-next-round]")
    page.wait_for_selector("[data-round-summary]", state="detached")
    page.wait_for_function("document.querySelector('.account-title').textContent === 'Round 2'")
    assert service.get(f"/api/tables/{table_id}")["round"] == 2


def test_only_legal_tiles_are_offered_and_the_keyboard_plays(page: Any, service: Any) -> None:
    table_id = new_game(page, service.base)
    for _ in range(2000):
        if page.locator("[data-round-summary]").count():
            # over before seat 0 had a tile to play (it never held one that fits: about one
            # first round in 3,000): a new game, for a first round again (its LEMPA)
            table_id = new_game(page, service.base)
            continue
        playable = page.locator('[data-playable="true"]')
        if not playable.count():
            page.wait_for_timeout(30)
            continue
        # every tile offered fits an open end of the line
        view = service.get(f"/api/tables/{table_id}/view")["view"]
        offered = [t.get_attribute("data-tile") for t in playable.all()]
        ends = view["ends"]
        if ends is None:
            # the first round opens with its LEMPA (variant double): only that one
            assert offered == [view["opening_tile"]]
        for name in offered if ends is not None else []:
            a, b = (int(x) for x in name.split("-"))
            assert a in ends or b in ends, (name, ends)
        unplayable = page.locator('[data-playable="false"]')
        for t in unplayable.all() if ends is not None else []:
            a, b = (int(x) for x in t.get_attribute("data-tile").split("-"))
            assert a not in ends and b not in ends
        # the keyboard alone: focus the first playable tile, Enter plays it
        before = page.locator("[data-line-tile]").count()
        playable.first.focus()
        page.keyboard.press("Enter")
        if page.locator("[data-end]").count():
            page.locator("[data-end]").first.focus()
            page.keyboard.press("Enter")
        page.wait_for_function(
            f"document.querySelectorAll('[data-line-tile]').length > {before}"
            " || !!document.querySelector('[data-round-summary]')"
        )
        return
    raise AssertionError("never had a tile to play")


def both_ends_tile(service: Any, table_id: str) -> str | None:
    """The one tile that fits both ends of the line now, when they differ.

    Only the tile [L|R] fits ends L and R both, so a player holding it is offered
    a choice of end.
    """
    ends = service.get(f"/api/tables/{table_id}/view")["view"]["ends"]
    if not ends or ends[0] == ends[1]:
        return None
    return f"{max(ends)}-{min(ends)}"


def test_choosing_an_end_of_the_line(page: Any, service: Any) -> None:
    # The service deals at random, so play rounds until seat 0 holds the one tile
    # that fits both ends when it is in turn (about one round in three); thirty
    # rounds make missing it vanishingly unlikely (about (2/3) ** 30, 5 in a million).
    table_id = new_game(page, service.base)
    what = ""
    for _round in range(30):
        for _ in range(2000):
            if page.locator("[data-round-summary]").count():
                what = "summary"
                break
            both = both_ends_tile(service, table_id)
            ready = '.table-page:not([data-pending="true"])'
            if both and page.locator(f'{ready} [data-tile="{both}"][data-playable="true"]').count():
                try:
                    page.click(f'[data-tile="{both}"]', timeout=3000)
                    page.wait_for_selector("[data-end]", timeout=3000)
                except PlaywrightTimeout:
                    continue  # the table moved on between looking and clicking
                what = "ends"
                break
            what = step(page, choose="left")
        if what == "ends":
            break
        page.click("[data-next-round]")
        page.wait_for_selector("[data-round-summary]", state="detached")
    else:
        raise AssertionError("no tile fitting both ends came up in thirty rounds")

    tile = page.locator(".hand-tile.selected").get_attribute("data-tile")
    assert page.locator('[data-end="left"]').is_visible()
    assert page.locator('[data-end="right"]').is_visible()
    assert "Choose an end" in page.locator(".status").inner_text()
    # Escape puts the tile back; choosing again lights the ends up again
    page.keyboard.press("Escape")
    assert page.locator("[data-end]").count() == 0
    page.dblclick(f'[data-tile="{tile}"]')  # a double-click leaves the choice open
    assert page.locator('[data-end="left"]').is_visible()
    page.wait_for_timeout(500)
    page.click(f'[data-tile="{tile}"]')  # another click on it, later, puts it back
    assert page.locator("[data-end]").count() == 0
    page.click(f'[data-tile="{tile}"]')
    page.click('[data-end="right"]')
    page.wait_for_selector(f'[data-line-tile="{tile}"]')
    plays = service.get(f"/api/tables/{table_id}/view")["view"]["plays"]
    mine = [p for p in plays if p["tile"] == tile]
    assert mine == [{"seat": 0, "tile": tile, "end": "right"}]


def test_a_reload_in_the_middle_of_a_round_puts_the_person_back(page: Any, service: Any) -> None:
    table_id = new_game(page, service.base)
    page.wait_for_selector("[data-tile]")
    for _ in range(200):
        if step(page) in ("played", "ended"):
            break
    page.wait_for_timeout(100)
    page.wait_for_selector("[data-tile]")
    hand = sorted(t.get_attribute("data-tile") for t in page.locator("[data-tile]").all())
    lines = page.locator("[data-line-tile]").count()
    page.reload()
    page.wait_for_selector("[data-tile]")
    assert page.evaluate("location.hash") == f"#/table/{table_id}"
    again = sorted(t.get_attribute("data-tile") for t in page.locator("[data-tile]").all())
    assert again == hand
    assert page.locator("[data-line-tile]").count() >= lines
    assert page.locator(".seat.self .seat-name").text_content() == "Andi"
    # and the round can be played on to its end
    play_round(page)


def test_an_error_from_the_service_is_shown(page: Any, service: Any, console: Any) -> None:
    console.allow("status of 409")
    computer = {"kind": "computer", "level": "basic"}
    table = service.post(
        "/api/tables", {"seats": [{"kind": "person", "open": True}, *[computer] * 4]}
    )
    page.goto(f"{service.base}/?table={table['id']}&seat=0")
    page.wait_for_selector("[data-join]")
    # someone else is quicker: the service refuses the seat, and the page says so
    service.post(f"/api/tables/{table['id']}/seats/0", {"name": "Dewi"})
    page.fill("[data-join-name]", "Cicci")
    page.click("[data-join]")
    toast = page.locator(".toast")
    toast.first.wait_for()
    assert "Someone has already taken that seat" in toast.first.inner_text()
    assert "seat_taken" not in toast.first.inner_text()  # said in words, the code kept aside
    assert toast.first.get_attribute("data-code") == "seat_taken"
    assert page.locator('[data-join-error="seat_taken"]').is_visible()
    assert page.locator("[data-join]").count() == 0


def test_leaving_the_seat_keeps_it_for_someone_the_host_invites(page: Any, service: Any) -> None:
    table_id = new_game(page, service.base)
    page.wait_for_selector("[data-tile]")
    page.once("dialog", lambda d: d.accept())
    page.click(".side-actions .leave")
    page.wait_for_url("**/#/")
    seat = service.get(f"/api/tables/{table_id}")["seats"][0]
    assert seat["taken"] is False and seat["invited"] is True
    assert page.evaluate("localStorage.getItem('domeng.seats')").find(table_id) == -1
    # this browser created the table: it is among its own, and its host shares the seat
    item = page.locator(".tables.mine .table-item", has_text=table_id)
    item.get_by_role("link", name="Open the table").click()
    page.wait_for_url(f"**/#/table/{table_id}")
    link = page.locator('[data-share-seat="0"] [data-share-link]')
    link.wait_for()
    assert f"table={table_id}&seat=0&invite=" in (link.get_attribute("href") or "")


def test_the_address_domeng_serve_opens_deals_a_new_table(page: Any, service: Any) -> None:
    before = len(service.get("/api/tables")["tables"])
    page.goto(service.base + "/?new=1")
    page.wait_for_url("**/#/table/*")
    page.wait_for_selector("[data-tile]")
    assert "new=1" not in page.url
    tables = service.get("/api/tables")["tables"]
    assert len(tables) == before + 1
    seats = tables[-1]["seats"]
    assert seats[0]["kind"] == "person" and seats[0]["taken"]
    assert [s["kind"] for s in seats[1:]] == ["computer"] * 4
