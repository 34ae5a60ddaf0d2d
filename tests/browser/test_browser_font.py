"""The shipped Devanagari font (fonts/Lohit-Devanagari.woff2, about 40 kB) is fetched only
by a page in Hindi: elsewhere the language menu's one Hindi word is drawn by the system's
fonts (style.css), so an English page fetches no font at all."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests.ports import free_port

from .conftest import Service, _start

FACE = "Domeng Devanagari"
# the face's status once the page is drawn (two frames) and the fonts its text needs
# have loaded or failed
FACE_STATUS = f"""new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))
  .then(() => document.fonts.ready)
  .then(() => [...document.fonts].filter((f) => f.family.replaceAll('"', '') === "{FACE}")
    .map((f) => f.status))"""
# a Devanagari letter drawn in an element's font (its weight, its family) is not the
# empty box drawn for a code point no font has (U+0378 is unassigned)
LETTER_IS_NO_BOX = """(element) => {
  const style = getComputedStyle(element);
  const draw = (text) => {
    const canvas = document.createElement("canvas");
    canvas.width = 120;
    canvas.height = 60;
    const g = canvas.getContext("2d");
    g.font = `${style.fontWeight} 40px ${style.fontFamily}`;
    g.fillText(text, 10, 45);
    return canvas.toDataURL();
  };
  return draw("\\u0915") !== draw("\\u0378");
}"""


def font_requests(page: Any) -> list[str]:
    """The font files the page asks for from now on."""
    asked: list[str] = []
    page.on("request", lambda r: asked.append(r.url) if r.url.endswith(".woff2") else None)
    return asked


def open_page(page: Any, address: str, ready: str = "body[data-ready=true]") -> list[str]:
    """The face's status (one entry: the stylesheet names it once) once the page and its
    fonts have settled."""
    page.goto(address)
    page.wait_for_selector(ready)
    status: list[str] = page.evaluate(FACE_STATUS)
    return status


def test_an_english_page_fetches_no_font(page: Any, service: Any) -> None:
    asked = font_requests(page)
    assert open_page(page, f"{service.base}/?lang=en#/") == ["unloaded"]
    computer = {"kind": "computer", "level": "basic"}
    table_id = service.post("/api/tables", {"seats": [computer] * 5, "pace_ms": 0})["id"]
    watching = f"{service.base}/?lang=en#/watch/{table_id}"
    assert open_page(page, watching, "svg.board .seat") == ["unloaded"]
    # the menu still names Hindi in its own script, and in the page's language for a
    # system that cannot draw Devanagari without the shipped font
    hindi = page.locator("[data-language-menu] option[value=hi]")
    assert hindi.text_content() == "हिन्दी (Hindi)"
    page.select_option("[data-language-menu]", "tr")
    page.wait_for_function("document.documentElement.lang === 'tr'")
    assert hindi.text_content() == "हिन्दी (Hintçe)"
    assert asked == []


def test_a_hindi_page_fetches_the_font_and_draws_bold_hindi(page: Any, service: Any) -> None:
    asked = font_requests(page)
    assert open_page(page, f"{service.base}/?lang=hi#/") == ["loaded"]
    assert [a.rsplit("/", 1)[-1] for a in asked] == ["Lohit-Devanagari.woff2"]
    assert page.locator("[data-language-menu] option[value=hi]").text_content() == "हिन्दी"
    heading = page.locator("h1").first
    assert heading.evaluate("(h) => getComputedStyle(h).fontWeight") == "700"
    assert heading.evaluate(LETTER_IS_NO_BOX)


def test_choosing_hindi_in_the_menu_fetches_the_font(browser: Any, service: Any) -> None:
    context = browser.new_context()  # nothing cached
    try:
        page = context.new_page()
        asked = font_requests(page)
        assert open_page(page, f"{service.base}/?lang=en#/") == ["unloaded"]
        page.select_option("[data-language-menu]", "hi")
        page.wait_for_function("document.documentElement.lang === 'hi'")
        page.wait_for_function(f"{FACE_STATUS}.then((s) => s[0] === 'loaded')")
        assert [a.rsplit("/", 1)[-1] for a in asked] == ["Lohit-Devanagari.woff2"]
    finally:
        context.close()


@pytest.fixture(scope="module")
def named_in_hindi(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Service]:
    """A service of its own for the tables of Hindi names: on the other tests' service
    the start page would list them, and an English page would fetch the face for them."""
    tmp: Path = tmp_path_factory.mktemp("hindi")
    port = free_port()
    s = Service(port, tmp, _start(port, tmp))
    s.wait_started()
    yield s
    s.stop()


@pytest.mark.parametrize("lang", ["hi", "en"])
def test_hindi_names_fit_their_plates(page: Any, named_in_hindi: Service, lang: str) -> None:
    """A seat's name is measured in the font it is drawn in (the shipped face, on a system
    without Devanagari): it is made as small as its plate needs, not smaller (measured in
    the system's fonts, two of these names came out at 13 and 11 px though they fit at
    17). On a page in English the face comes only once the names ask for it: they are
    measured again then (a name's width is kept, board.js, until a font has come)."""
    names = ["अन्नपूर्णा देवी शर्मा", "लक्ष्मीनारायण त्रिपाठी", "राजकुमारी", "सत्यनारायण चौधरी", "ऋषिकेश"]
    seats = [{"kind": "computer", "level": "basic", "name": n} for n in names]
    table_id = named_in_hindi.post("/api/tables", {"seats": seats, "pace_ms": 300})["id"]
    watching = f"{named_in_hindi.base}/?lang={lang}#/watch/{table_id}"
    assert open_page(page, watching, "svg.board .seat")
    state = page.evaluate("document.querySelector('svg.board').innerHTML.length")
    page.wait_for_function(  # drawn again with the face loaded (a move redraws the board)
        f"document.querySelector('svg.board').innerHTML.length !== {state}"
    )
    fits = page.evaluate(
        """() => [...document.querySelectorAll('svg.board .seat')].map((seat) => {
          const plate = Number(seat.querySelector('.plate').getAttribute('width'));
          const label = seat.querySelector('.seat-name');
          const width = label.getComputedTextLength();
          return [label.textContent, width, plate - 14, label.style.fontSize];
        })"""
    )
    assert len(fits) == 5
    for text, width, room, size in fits:
        assert width <= room + 1, (text, width, room)
        px = float(size.removesuffix("px"))
        assert px == 17 or width * 17 / px > room * 0.9, (text, size, width, room)
