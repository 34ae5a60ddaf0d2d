"""The living table (issue 14), in real Chromium at desktop size and on a 390x844 phone:
tiles travel and a redraw never starts a movement again, the last plays stay marked,
a plate shows its moves, the tracker counts what the seat has seen (checked against
the true deal once the round is over), the plates' figures in words, the mute switch,
"confirm my play", the round's "Next round" in view and first for Tab, reconnecting,
"watch again", the custom table's name and labels that fit on a phone."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import _start
from .playing import PLAYABLE, click_new_game, my_turn, next_round, step

WEB = Path(__file__).resolve().parents[2] / "src" / "domeng" / "web"
PACE = "300"
AUDIO_STATES = """
const Audio = window.AudioContext;
window.audioStates = [];
window.AudioContext = class extends Audio {
  constructor(...args) {
    super(...args);
    this.addEventListener("statechange", () => window.audioStates.push(this.state));
  }
};
"""
"""The states the page's audio goes through, in ``window.audioStates``."""
"""Slow enough for the tiles to travel (their 300 ms), quick enough for a round."""

SIZES = {
    "desktop": {"viewport": {"width": 1280, "height": 720}},
    "phone": {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True},
}


class Pages:
    """New browser contexts whose console errors fail the test."""

    def __init__(self, browser: Any) -> None:
        self.browser = browser
        self.contexts: list[Any] = []
        self.errors: list[str] = []
        self.allowed: list[str] = []

    def open(self, size: str = "desktop", **options: Any) -> Any:
        context = self.browser.new_context(**SIZES[size], **options)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(20_000)
        page.on(
            "console",
            lambda m: (
                self.errors.append(f"{m.type}: {m.text}")
                if m.type in ("error", "warning")
                else None
            ),
        )
        page.on("pageerror", lambda e: self.errors.append(f"page error: {e}"))
        return page


@pytest.fixture
def pages(browser: Any) -> Iterator[Pages]:
    p = Pages(browser)
    yield p
    for c in p.contexts:
        c.close()
    assert [e for e in p.errors if not any(a in e for a in p.allowed)] == [], (
        "the browser console reported problems"
    )


def start(page: Any, base: str, lang: str = "en") -> None:
    page.goto(base + "/")
    page.wait_for_selector("body[data-ready=true]")
    if lang != "en":
        page.evaluate(f"localStorage.setItem('domeng.lang', '{lang}')")
        page.reload()
        page.wait_for_selector("body[data-ready=true]")


def new_game(page: Any, base: str, pace: str = PACE) -> str:
    start(page, base)
    return click_new_game(page, pace)


def shows(tile: str | list[int], n: int) -> bool:
    a, b = (int(x) for x in tile.split("-")) if isinstance(tile, str) else tile
    return n in (a, b)


def expected_marks(events: list[dict[str, Any]]) -> tuple[dict[str, int], str | None, set[int]]:
    """Each seat's last tile laid (tile -> seat), the last of all, and the seats whose
    last move was a PASS."""
    last: dict[int, str] = {}
    passed: set[int] = set()
    latest = None
    for e in events:
        if e["kind"] == "played":
            last[e["seat"]] = e["tile"]
            passed.discard(e["seat"])
            latest = e["tile"]
        elif e["kind"] == "passed":
            passed.add(e["seat"])
    return {tile: seat for seat, tile in last.items()}, latest, passed


def tracker(page: Any) -> dict[str, list[int]]:
    rows: dict[str, list[int]] = page.evaluate(
        """() => Object.fromEntries(
             [...document.querySelectorAll('[data-tracker] tr[data-tracker-row]')].map((r) => [
               r.dataset.trackerRow,
               [...r.querySelectorAll('[data-tracker-number]')].map((c) => Number(c.textContent)),
             ]))"""
    )
    return rows


FLIGHTS = """() => Object.fromEntries(document.getAnimations()
  .filter((a) => a.effect && a.effect.target && a.effect.target.dataset.flight)
  .filter((a) => a.playState === 'running')
  .map((a) => [a.effect.target.dataset.flight + '/' + a.effect.target.tagName, a.startTime]))"""

REDRAW_WHILE_MOVING = f"""(how) => {{
  const flights = {FLIGHTS};
  const before = flights();
  if (!Object.keys(before).length) return null;
  if (how === 'mute') {{
    // the mute switch twice: two drawings, the sound as it was
    document.querySelector('[data-sound-toggle]').click();
    document.querySelector('[data-sound-toggle]').click();
  }} else {{
    document.querySelector(how).dispatchEvent(new MouseEvent('click', {{ bubbles: true }}));
  }}
  return {{ before, after: flights(), fresh: document.querySelectorAll('.fresh').length }};
}}"""


def check_redraw(page: Any, how: str) -> bool:
    """A drawing while tiles or stones move keeps every movement where it was (the same
    start time): none starts again. Answers whether something was moving."""
    seen = page.evaluate(REDRAW_WHILE_MOVING, how)
    if seen is None:
        return False
    assert seen["fresh"] == 0
    for flight, started in seen["after"].items():
        assert flight in seen["before"], (flight, seen)
        assert abs(started - seen["before"][flight]) < 0.01, (
            flight,
            seen,
        )  # (ms; the clock rounds to µs)
    return True


def check_turn(page: Any, service: Any, table_id: str, size: str) -> dict[str, Any]:
    """Everything the table shows when it waits for seat 0, against the service's view."""
    view = service.get(f"/api/tables/{table_id}/view")["view"]
    assert view["turn"] == 0
    page.wait_for_function(
        f"document.querySelectorAll('[data-line-tile]').length === {len(view['line'])}"
    )
    tiles, latest, passed = expected_marks(view["events"])
    marks = page.evaluate(
        """() => [...document.querySelectorAll('[data-last-play]')]
             .map((e) => [e.dataset.lineTile, Number(e.dataset.lastPlay)])"""
    )
    assert dict(marks) == tiles
    latest_shown = page.evaluate(
        """() => [...document.querySelectorAll('[data-last-play-latest]')]
             .map((e) => e.dataset.lineTile)"""
    )
    assert latest_shown == ([latest] if latest else [])
    badges = page.evaluate(
        """() => [...document.querySelectorAll('[data-pass-badge]')]
             .map((e) => Number(e.dataset.passBadge))"""
    )
    assert set(badges) == passed - {view["turn"]}  # until the seat is in turn again
    # the numbers each seat showed it lacks, on its plate
    for seat in range(1, 5):
        lacking = page.locator(f'svg.board .seat[data-seat="{seat}"]').get_attribute("data-lacking")
        assert lacking == " ".join(str(n) for n in view["lacking"][seat])
        if view["lacking"][seat]:
            assert (
                "lacks"
                in page.locator(f'svg.board .seat[data-seat="{seat}"] .seat-lack').text_content()
            )
    # the plates' figures in words: tiles left, STONES, CAMAT titles
    for seat in range(1, 5):
        plate = page.locator(f'svg.board .seat[data-seat="{seat}"]')
        n = view["hand_counts"][seat]
        assert plate.locator("[data-tiles-left]").text_content() == (
            f"{n} tile" if n == 1 else f"{n} tiles"
        )
        stones = view["stones"][seat]
        assert plate.locator("[data-seat-stones] text").text_content() == (
            f"{stones} STONE" if stones == 1 else f"{stones} STONES"
        )
        titles = view["titles"][seat]
        words = plate.locator("[data-seat-titles]").evaluate(
            "(e) => e.firstChild.textContent"
        )  # without its <title>
        assert words == f"★ {titles} title{'' if titles == 1 else 's'}"
    # the tracker: the line, this hand, and the rest unseen
    hand = [t.get_attribute("data-tile") for t in page.locator("[data-tile]").all()]
    rows = tracker(page)
    for n in range(7):
        on_line = sum(shows(tl, n) for tl in view["line"])
        in_hand = sum(shows(tl, n) for tl in hand)
        assert (rows["line"][n], rows["hand"][n], rows["unseen"][n]) == (
            on_line,
            in_hand,
            7 - on_line - in_hand,
        ), n
    # Tab visits the tiles that can be played, only those
    tabbable = page.evaluate(
        """() => [...document.querySelectorAll('[data-tile][tabindex="0"]')]
             .map((e) => e.dataset.tile)"""
    )
    playable = page.evaluate(
        """() => [...document.querySelectorAll('[data-playable="true"]')]
             .map((e) => e.dataset.tile)"""
    )
    assert tabbable == playable and playable
    status = page.locator(".status").inner_text()
    if size == "phone":
        assert "tap" in status and "click" not in status, status
    else:
        assert "click" in status, status
    return view


def play_turn(page: Any, size: str) -> bool:
    """Seat 0 plays its first playable tile; on a phone ("confirm my play" is on there) the
    first tap chooses it and a second plays it. Answers whether a redraw was checked."""
    checked = False
    line = page.locator("[data-line-tile]").count()
    tile = page.locator('[data-playable="true"]').first.get_attribute("data-tile")
    if size == "phone":
        # the first tap only chooses the tile (a drawing: no movement starts again)
        checked = check_redraw(page, f'[data-tile="{tile}"]')
        if not checked:
            page.tap(f'[data-tile="{tile}"]')
        page.wait_for_selector(f'[data-tile="{tile}"][data-selected="true"]')
        assert page.locator("[data-line-tile]").count() == line
        if page.locator("[data-end]").count() < 2:
            assert page.locator("[data-confirm-play]").is_visible()
            assert "again" in page.locator(".status").inner_text()
            page.tap(f'[data-tile="{tile}"]')
    else:
        page.click(f'[data-tile="{tile}"]')
    if page.locator("[data-end]").count() >= 2:
        # both ends: nothing half-transparent on the line beside the choice
        ghosts = page.evaluate(
            """() => [...document.querySelectorAll('[data-line-tile]')]
                 .filter((e) => !e.dataset.flight)
                 .filter((e) => [e, ...e.querySelectorAll('*')]
                   .some((x) => Number(getComputedStyle(x).opacity) < 1)).length"""
        )
        assert ghosts == 0
        if size == "phone":
            page.tap('[data-end="left"]')
        else:
            page.click('[data-end="left"]')
    page.wait_for_function(
        f"document.querySelectorAll('[data-line-tile]').length > {line}"
        " || !!document.querySelector('[data-round-summary]')"
    )
    return checked


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_a_round_at_the_living_table(pages: Pages, service: Any, size: str) -> None:
    page = pages.open(size)
    table_id = new_game(page, service.base)
    turns = 0
    redraws = 0
    flights_seen = 0
    for _ in range(3000):
        if page.locator("[data-round-summary]").count():
            if turns and flights_seen and redraws:
                break
            # a round with no turn of seat 0's (it never held a tile that fits: about one
            # first round in 3,000), or with no movement seen: the next round
            next_round(page)
            continue
        if page.evaluate(f"Object.keys(({FLIGHTS})()).length"):
            flights_seen += 1
            redraws += check_redraw(page, "mute")
        if page.locator(PLAYABLE).count():
            check_turn(page, service, table_id, size)
            redraws += play_turn(page, size)
            turns += 1
        page.wait_for_timeout(20)
    assert page.locator("[data-round-summary]").count(), "the round did not end"
    assert turns >= 1 and flights_seen >= 1 and redraws >= 1, (turns, flights_seen, redraws)

    # the round is over: the tracker's counts against the true deal
    view = service.get(f"/api/tables/{table_id}/view")["view"]
    summary = view["summary"]
    page.wait_for_function(
        f"document.querySelectorAll('[data-line-tile]').length === {len(view['line'])}"
    )
    rows = tracker(page)
    for n in range(7):
        unseen = sum(shows(tl, n) for seat in range(1, 5) for tl in summary["hands"][seat])
        unseen += sum(shows(tl, n) for tl in summary["unused"])
        assert rows["line"][n] == sum(shows(tl, n) for tl in view["line"]), n
        assert rows["hand"][n] == sum(shows(tl, n) for tl in summary["hands"][0]), n
        assert rows["unseen"][n] == unseen, n

    # "Next round" is in view without scrolling, and first for Tab (the terms after it)
    nxt = page.locator("[data-next-round]")
    box = nxt.bounding_box()
    height = SIZES[size]["viewport"]["height"]  # type: ignore[index]
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height, box
    assert page.evaluate("document.activeElement.hasAttribute('data-next-round')")
    first = page.evaluate(
        """() => [...document.querySelector('.summary-layer')
               .querySelectorAll("button:not([disabled]), a[href], [tabindex='0']")]
             .map((e) => e.hasAttribute('data-next-round') ? 'next'
               : e.classList.contains('term') ? 'term' : 'other')"""
    )
    assert first[0] == "next" and "term" in first and first.index("term") > 0

    # a plate shows that seat's plays and passes of this round
    page.click("text=Look at the table") if size == "desktop" else page.tap(
        "text=Look at the table"
    )
    moves = [e for e in view["events"] if e["kind"] in ("played", "passed") and e["seat"] == 2]
    plate = 'svg.board .seat[data-seat="2"]'
    if size == "phone":
        page.tap(plate)
    else:
        page.hover(plate)
    pop = page.locator('[data-history="2"]')
    pop.wait_for()
    assert pop.locator("li[data-move]").count() == len(moves)
    assert [m.get_attribute("data-move") for m in pop.locator("li[data-move]").all()] == [
        m["kind"] for m in moves
    ]


def test_the_mute_switch_is_remembered_and_a_spectator_starts_muted(
    pages: Pages, service: Any
) -> None:
    page = pages.open()
    page.add_init_script(AUDIO_STATES)
    new_game(page, service.base)
    switch = page.locator("[data-sound-toggle]")
    assert switch.get_attribute("data-sound-toggle") == "on"
    # a seat hears the table (the page was clicked: the browser lets it sound)
    page.wait_for_function(
        "Number(document.querySelector('[data-settings]').dataset.sounds || 0) > 0"
    )
    # between sounds the audio rests (a running context keeps the browser's audio
    # thread busy in silence), and the next sound wakes it
    my_turn(page)
    page.wait_for_function("window.audioStates.at(-1) === 'suspended'")
    rested = page.evaluate("window.audioStates.length")
    for _ in range(600):
        if step(page) == "summary" or page.evaluate("window.audioStates.length") > rested:
            break
    assert page.evaluate(f"window.audioStates[{rested}]") == "running"
    page.click("[data-sound-toggle]")
    assert page.locator("[data-sound-toggle]").get_attribute("data-sound-toggle") == "off"
    assert page.locator("[data-sound-toggle]").get_attribute("aria-pressed") == "true"
    assert json.loads(page.evaluate("localStorage.getItem('domeng.settings')"))["sound"] is False
    page.reload()
    page.wait_for_selector("svg.board .seat")
    assert page.locator("[data-sound-toggle]").get_attribute("data-sound-toggle") == "off"
    # muted: several moves later (the others' and this seat's), not one sound
    line = page.locator("[data-line-tile]").count()
    for _ in range(600):
        if step(page) == "summary" or page.locator("[data-line-tile]").count() > line + 5:
            break
    assert (
        page.locator("[data-line-tile]").count() > line
        or page.locator("[data-round-summary]").count()
    )
    assert page.evaluate("document.querySelector('[data-settings]').dataset.sounds") is None

    # a spectator of a table of computer players: off until they switch it on
    computers = {"seats": [{"kind": "computer", "level": "random"}] * 5, "pace_ms": 300}
    watched = service.post("/api/tables", computers)["id"]
    viewer = pages.open()
    start(viewer, service.base)
    viewer.goto(f"{service.base}/#/watch/{watched}")
    viewer.wait_for_selector("svg.board [data-line-tile]")
    assert viewer.locator("[data-sound-toggle]").get_attribute("data-sound-toggle") == "off"
    viewer.wait_for_timeout(700)
    assert viewer.evaluate("document.querySelector('[data-settings]').dataset.sounds") is None
    viewer.click("[data-sound-toggle]")
    viewer.wait_for_function(
        "Number(document.querySelector('[data-settings]').dataset.sounds || 0) > 0"
    )


def test_confirm_my_play_and_the_speed_are_settings_of_this_browser(
    pages: Pages, service: Any
) -> None:
    page = pages.open()
    new_game(page, service.base)
    page.click(".settings summary")
    confirm = page.locator('[data-setting="confirm"]')
    assert not confirm.is_checked()  # a mouse: off by default
    confirm.check()
    page.select_option('[data-setting="speed"]', "off")
    assert json.loads(page.evaluate("localStorage.getItem('domeng.settings')")) == {
        "confirm": True,
        "speed": "off",
    }
    # what moved before the setting ends its way; from now on nothing travels
    page.wait_for_function(f"Object.keys(({FLIGHTS})()).length === 0")
    for _ in range(400):
        if page.locator(PLAYABLE).count():
            break
        # movement off: nothing travels
        assert page.evaluate(f"Object.keys(({FLIGHTS})()).length") == 0
        if page.locator("[data-next-round]:not([disabled])").count():
            next_round(page)  # over before seat 0 had a tile to play (one in 3,000)
        page.wait_for_timeout(25)
    tile = page.locator('[data-playable="true"]').first.get_attribute("data-tile")
    line = page.locator("[data-line-tile]").count()
    page.click(f'[data-tile="{tile}"]')
    page.wait_for_selector(f'[data-tile="{tile}"][data-selected="true"]')
    assert page.locator("[data-line-tile]").count() == line
    if page.locator("[data-end]").count() < 2:
        assert "Click" in page.locator(".status").inner_text()
        page.click("[data-confirm-play]")
    else:
        page.click('[data-end="right"]')
    page.wait_for_function(f"document.querySelectorAll('[data-line-tile]').length > {line}")


def test_watch_again_only_once_a_round_is_over_and_the_custom_table_takes_the_typed_name(
    pages: Pages, service: Any
) -> None:
    over = service.post(
        "/api/tables", {"seats": [{"kind": "computer"}] * 5, "pace_ms": 0, "end": {"rounds": 1}}
    )["id"]
    service.wait_for(lambda: service.get(f"/api/tables/{over}")["status"] == "finished")
    person = [{"kind": "person", "name": "Tamu"}] + [{"kind": "computer"}] * 4
    playing = service.post("/api/tables", {"seats": person})["id"]
    page = pages.open()
    start(page, service.base)
    item_of = (
        "(id) => [...document.querySelectorAll('.table-item')]"
        ".find((e) => e.textContent.includes(id))"
    )
    page.wait_for_function(f"!!({item_of})('{playing}') && !!({item_of})('{over}')")
    links = page.evaluate(
        f"""() => Object.fromEntries(['{playing}', '{over}'].map((id) =>
             [id, !!({item_of})(id).querySelector('a[href^="#/replay/"]')]))"""
    )
    assert links == {playing: False, over: True}

    page.fill("#my-name", "Sitti")
    before = service.get("/api/tables?order=newest&limit=1")["tables"][0]["id"]
    page.click("#create")
    service.wait_for(
        lambda: service.get("/api/tables?order=newest&limit=1")["tables"][0]["id"] != before
    )
    created = service.get("/api/tables?order=newest&limit=1")["tables"][0]
    assert created["seats"][0]["name"] == "Sitti"


SELECTS_CUT = """() => [...document.querySelectorAll('select')]
  .filter((s) => s.offsetParent).filter((s) => {
  const c = s.cloneNode(true);
  c.value = s.value;
  c.style.cssText = 'position:absolute;left:0;top:0;max-width:none;width:auto;visibility:hidden';
  s.parentNode.appendChild(c);
  const natural = c.offsetWidth;
  c.remove();
  return natural > s.offsetWidth + 1;
}).map((s) => s.options[s.selectedIndex].text)"""

PLATE_TEXT_OUT = """() => [...document.querySelectorAll('svg.board .seat')].flatMap((g) => {
  const plate = g.querySelector('.plate').getBoundingClientRect();
  const texts = [...g.querySelectorAll('text')].filter((t) => !t.classList.contains('seat-lack'));
  return texts.filter((t) => {
    const r = t.getBoundingClientRect();
    return r.left < plate.left - 0.5 || r.right > plate.right + 0.5;
  }).map((t) => t.textContent);
})"""


@pytest.mark.parametrize("lang", ["en", "tr", "nl"])
def test_on_a_phone_every_label_fits(pages: Pages, service: Any, lang: str) -> None:
    page = pages.open("phone")
    start(page, service.base, lang)
    assert page.evaluate(SELECTS_CUT) == []  # "First tile of the game": the largest LEMPA …
    page.click("[data-new-game]")
    page.wait_for_selector("svg.board .seat [data-seat-stones]")
    assert page.evaluate(PLATE_TEXT_OUT) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def test_a_replay_on_a_phone_shows_the_hands_large_enough(pages: Pages, service: Any) -> None:
    over = service.post(
        "/api/tables", {"seats": [{"kind": "computer"}] * 5, "pace_ms": 0, "end": {"rounds": 1}}
    )["id"]
    service.wait_for(lambda: service.get(f"/api/tables/{over}")["status"] == "finished")
    page = pages.open("phone")
    start(page, service.base)
    page.goto(f"{service.base}/#/replay/{over}")
    page.wait_for_selector("[data-replay-hands] svg.tile-icon")
    sizes = page.evaluate(
        """() => [...document.querySelectorAll('[data-replay-hands] svg.tile-icon')]
             .map((s) => s.getBoundingClientRect()).map((r) => Math.min(r.width, r.height))"""
    )
    assert len(sizes) == 25 and min(sizes) >= 24, sizes  # step 0: five tiles in each hand
    assert page.locator("svg.board .seat .tile").count() == 0  # not also tiny on the plates


def test_every_language_has_every_text_of_the_living_table() -> None:
    en = json.loads((WEB / "i18n" / "en.json").read_text(encoding="utf-8"))["living"]
    for lang in ("id", "tr", "pt", "nl", "hi"):
        group = json.loads((WEB / "i18n" / f"{lang}.json").read_text(encoding="utf-8"))["living"]
        assert set(group) == set(en), lang
        for key, text in en.items():
            assert set(re.findall(r"\{\w+\}", group[key])) == set(re.findall(r"\{\w+\}", text)), (
                lang,
                key,
            )


def test_a_lost_connection_shows_the_hand_unplayable_and_comes_back(
    pages: Pages, service: Any
) -> None:
    pages.allowed.append("WebSocket connection to")  # the attempts while the service is down
    page = pages.open()
    new_game(page, service.base)
    # the waits grow 1, 2, 4 … up to 15 seconds, with jitter
    waits = page.evaluate(
        """async () => {
             const { retryDelay } = await import('/web/js/reconnect.js');
             return [0, 1, 2, 3, 4, 5, 9]
               .map((n) => [retryDelay(n, () => 0), retryDelay(n, () => 0.999)]);
           }"""
    )
    expected = [1000, 2000, 4000, 8000, 15000, 15000, 15000]
    for (low, high), base in zip(waits, expected, strict=True):
        assert base * 0.8 <= low <= high <= min(15000, base * 1.2) and (low < high or base == 15000)
    my_turn(page, timeout=30_000)
    service.stop(kill=True)
    try:
        page.wait_for_selector('.hand[data-offline="true"]')
        assert page.locator('[data-playable="true"].my-turn').count() == 0
        assert "reconnecting" in page.locator(".status").inner_text()
    finally:
        service.process = _start(service.port, service.tmp)
        service.wait_started()
    page.wait_for_selector('.hand:not([data-offline]) [data-playable="true"]', timeout=30_000)
    assert "reconnecting" not in page.locator(".status").inner_text()


def test_a_system_that_asks_for_less_motion_gets_none(pages: Pages, service: Any) -> None:
    page = pages.open(reduced_motion="reduce")
    new_game(page, service.base)
    page.click(".settings summary")
    assert page.locator('[data-setting="speed"]').is_disabled()
    line = page.locator("[data-line-tile]").count()
    for _ in range(400):
        assert page.evaluate(f"Object.keys(({FLIGHTS})()).length") == 0
        if page.locator("[data-line-tile]").count() > line + 2:
            break
        step(page)
    assert page.locator("[data-line-tile]").count() > line  # the table moved on, nothing travelled


def test_the_settings_panel_closes_on_escape_and_on_a_tap_elsewhere(
    pages: Pages, service: Any
) -> None:
    """The panel lies over the table (a plate, the pile of STONES on a phone): a tap
    anywhere else or Escape closes it, as a player expects of a menu (a tester's find)."""
    page = pages.open()
    new_game(page, service.base)
    panel = page.locator("details.settings")
    page.click(".settings summary")
    assert panel.get_attribute("open") is not None
    page.focus('[data-setting="speed"]')
    page.keyboard.press("Escape")
    assert panel.get_attribute("open") is None
    assert page.evaluate("document.activeElement.tagName") == "SUMMARY"  # back on its button
    page.click(".settings summary")
    page.locator('[data-setting="confirm"]').check()  # inside: it stays open
    assert panel.get_attribute("open") is not None
    page.click(".chat-box")  # anywhere else on the page
    assert panel.get_attribute("open") is None
