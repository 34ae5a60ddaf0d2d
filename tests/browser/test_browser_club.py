"""A club in the browser (``domeng serve --club``), at 1280 px in English and on a
390 px phone in Indonesian: the owner adds an admin by the command line, the admin sets
a password by the link and adds a member from the members page (a link and its QR
code), the member sets theirs, signs out and in again (a wrong password said in words),
and is muted and suspended by the admin; every page's words in the reader's language."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from tests.ports import free_port

from .conftest import Console, Service, _start
from .playing import click_new_game

PASSWORD = "kapal-pinisi-7"


WIDER = """(w) => [...document.querySelectorAll('body *')]
  .filter((e) => e.getBoundingClientRect().right > w + 1).slice(0, 8)
  .map((e) => `${e.tagName}.${e.className} ${(e.innerText || '').slice(0, 40)}`)"""
"""What sticks out past a screen ``w`` wide (for the message of a failed test)."""


@pytest.fixture(scope="module")
def club(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[Service]:
    tmp = tmp_path_factory.mktemp("club")
    port = free_port()
    s = Service(port, tmp, _start(port, tmp, "--club", db="club.sqlite3"))
    s.wait_started()
    yield s
    s.stop()


def add_member(club: Service, name: str, *more: str) -> str:
    """``domeng members add`` on the club's database: the link it prints."""
    out = subprocess.run(
        [
            *(sys.executable, "-m", "domeng", "members", "add", name, *more, "--lang", "en"),
            *("--db", str(club.tmp / "club.sqlite3"), "--address", club.base),
        ],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    found = re.search(r"https?://\S+\?claim=\S+", out)
    assert found, out
    return found.group(0)


def browser_page(browser: Any, console: Console, width: int, lang: str) -> Any:
    context = browser.new_context(viewport={"width": width, "height": 800}, locale=lang)
    pg = context.new_page()
    pg.set_default_timeout(20_000)
    pg.on(
        "console",
        lambda m: console.errors.append(f"{m.type}: {m.text}") if m.type in ("error",) else None,
    )
    pg.on("pageerror", lambda e: console.errors.append(f"page error: {e}"))
    return pg


def claim(pg: Any, link: str, lang: str) -> None:
    pg.goto(f"{link}&lang={lang}")
    form = pg.locator("[data-claim]")
    form.locator("input[name=password]").fill(PASSWORD)
    form.locator("input[name=again]").fill(PASSWORD)
    form.locator("button[type=submit]").click()
    pg.locator("[data-club-bar]").wait_for()


@pytest.mark.parametrize(("width", "lang"), [(1280, "en"), (390, "id")])
def test_a_club_from_the_owners_line_to_a_suspension(
    browser: Any, club: Service, width: int, lang: str
) -> None:
    console = Console()
    console.allow("401")  # the refused sign-in and the checks of a stranger's session
    console.allow("403")
    console.allow("422")  # the common password refused
    admin_name, member_name = f"Ani {width}", f"Besse {width}"
    link = add_member(club, admin_name, "--admin")
    admin = browser_page(browser, console, 1280, "en")
    claim(admin, link, "en")
    assert admin.locator("[data-signed-in]").inner_text() == admin_name
    admin.locator("[data-members-link]").click()
    form = admin.locator("[data-add-member]")
    form.locator("input[name=name]").fill(member_name)
    form.locator("button[type=submit]").click()
    box = admin.locator("[data-member-link], .toast.error").first
    try:  # the members' lists come again first: slow on a busy CI
        box.wait_for(timeout=60_000)
    except PlaywrightTimeout:  # what the page showed, said and asked, for the failure
        shown = admin.locator("main, body").first.inner_text()[:600]
        log = (club.tmp / "serve.log").read_text()[-2000:]
        pytest.fail(f"no link and no refusal in 60 s; page: {shown!r}\n{console.errors}\n{log}")
    assert box.get_attribute("data-member-link") is not None, box.inner_text()  # no refusal
    box = admin.locator("[data-member-link]")
    member_link = box.locator("input").input_value()
    assert "?claim=" in member_link
    qr = box.locator("img")
    qr.wait_for()
    admin.wait_for_function(
        "(img) => img.complete && img.naturalWidth > 0", arg=qr.element_handle()
    )

    member = browser_page(browser, console, width, lang)
    member.goto(f"{member_link}&lang={lang}")
    title = member.locator("[data-club-card] h1").inner_text()
    assert title == {"en": "Welcome to the club: choose your password",
                     "id": "Selamat datang di klub: buat kata sandi Anda"}[lang]  # fmt: skip
    form = member.locator("[data-claim]")
    form.locator("input[name=password]").fill("password123")
    form.locator("input[name=again]").fill("password123")
    form.locator("button[type=submit]").click()
    member.locator(".toast.error").wait_for()  # a common password, refused in words
    claim(member, member_link, lang)
    scroll = member.evaluate("document.documentElement.scrollWidth")
    wide = member.evaluate(WIDER, width)
    assert scroll <= width, ("the page is wider than the screen", wide)
    member.locator("[data-sign-out]").click()
    member.locator("[data-sign-in]").wait_for()
    sign_in = member.locator("[data-sign-in]")
    sign_in.locator("input[name=name]").fill(member_name)
    sign_in.locator("input[name=password]").fill("not-the-password")
    sign_in.locator("button[type=submit]").click()
    toast = member.locator(".toast.error")
    toast.wait_for()
    assert toast.inner_text().startswith(
        {"en": "That is not the password.", "id": "Kata sandinya salah."}[lang]
    )
    sign_in.locator("input[name=password]").fill(PASSWORD)
    sign_in.locator("button[type=submit]").click()
    member.locator("[data-club-bar]").wait_for()
    assert member.locator("[data-members-link]").count() == 0  # not an admin

    # the member plays, and says something rude at the table; the admin, watching,
    # reports it and hides it for everyone
    table_id = click_new_game(member)
    member.locator("[data-chat-input]").fill("rude words")
    member.locator("[data-chat-form] button[type=submit]").click()
    said = member.locator("[data-chat-log] li", has_text="rude words")
    said.wait_for()
    assert member.locator("[data-invite-guest]").is_hidden()  # an admin's button only
    admin.goto(f"{club.base}/#/watch/{table_id}")
    line = admin.locator("[data-chat-log] li", has_text="rude words")
    line.locator("[data-report-chat]").click()
    admin.locator(".toast.note").wait_for()
    admin.locator("[data-invite-guest]").click()  # the guest form, with this table in it
    guest_table = admin.locator("[data-add-guest] input[name=table]")
    assert guest_table.input_value() == table_id
    admin.goto(f"{club.base}/#/members")
    report = admin.locator(f'[data-report="{member_name}"]')
    report.locator("[data-hide]").click()
    said.wait_for(state="detached")  # gone from the member's own screen

    admin.reload()
    row = admin.locator(f'[data-member="{member_name}"]')
    row.locator("[data-mute-member]").click()
    admin.locator(f'[data-member="{member_name}"]:has-text("muted")').wait_for()
    row.locator("[data-suspend]").click()
    admin.locator(f'[data-member="{member_name}"]:has-text("suspended")').wait_for()
    audit = admin.locator("[data-audit]").inner_text()
    assert "suspended" in audit and "muted" in audit and "added" in audit
    member.reload()
    member.locator("[data-sign-in]").wait_for()  # the suspended member's session ended

    # the admin opens sign-up: a newcomer joins from the sign-in page
    toggle = admin.locator("[data-signup-toggle]")
    if toggle.get_attribute("aria-pressed") == "false":
        toggle.click()
        admin.locator('[data-signup-toggle][aria-pressed="true"]').wait_for()
    newcomer = browser_page(browser, console, width, lang)
    newcomer.goto(f"{club.base}/?lang={lang}")
    join = newcomer.locator("[data-join]")
    join.locator("input[name=name]").fill(f"Cici {width}")
    join.locator("input[name=password]").fill(PASSWORD)
    join.locator("button[type=submit]").click()
    newcomer.locator("[data-club-bar]").wait_for()
    assert newcomer.locator("[data-signed-in]").inner_text() == f"Cici {width}"
    for pg in (admin, member, newcomer):
        pg.context.close()
    assert console.problems() == [], console.problems()


def _members_page_lists_held(
    browser: Any, club: Service, console: Console, admin_name: str
) -> tuple[Any, list[Any]]:
    """An admin signed in and on the members page, whose lists (their audit log) are
    held back until :func:`_lists_come`: the page and the held requests."""
    link = add_member(club, admin_name, "--admin")
    admin = browser_page(browser, console, 1280, "en")
    claim(admin, link, "en")
    held: list[Any] = []
    admin.route("**/api/audit", lambda route: held.append(route))  # held back: the lists wait
    admin.locator("[data-members-link]").click()
    return admin, held


def _lists_come(admin: Any, held: list[Any]) -> None:
    """The held lists let through, and drawn."""
    for _ in range(200):
        if held:
            break
        admin.wait_for_timeout(50)
    assert held, "the members page asked for no audit log"
    held[0].continue_()
    admin.locator("[data-members] .club-list li").first.wait_for()  # the lists came


def test_what_an_admin_types_stays_when_the_lists_come(browser: Any, club: Service) -> None:
    # the members page is drawn at once and again when its lists come: on a busy
    # computer the admin had typed a name by then, and the form was drawn anew, empty
    console = Console()
    admin, held = _members_page_lists_held(browser, club, console, "Ani typing")
    admin.locator("[data-add-member] input[name=name]").fill("Cicci typing")
    _lists_come(admin, held)
    assert admin.locator("[data-add-member] input[name=name]").input_value() == "Cicci typing"
    admin.context.close()
    assert console.problems() == [], console.problems()


def test_an_admin_typing_when_the_lists_come_types_on(browser: Any, club: Service) -> None:
    # the lists' drawing took the form out of the page and put it back: the name box
    # lost the keyboard, and what was typed next went nowhere (in test_a_club_from_the_
    # owners_line_to_a_suspension, a name typed as the lists came was left empty, and
    # the form, its name required, was never sent)
    console = Console()
    admin, held = _members_page_lists_held(browser, club, console, "Ani keyboard")
    name = admin.locator("[data-add-member] input[name=name]")
    name.click()
    admin.keyboard.type("Cic")
    _lists_come(admin, held)
    admin.unroute("**/api/audit")  # the lists after the form is sent come at once
    admin.keyboard.type("ci")
    assert name.input_value() == "Cicci"
    assert name.evaluate("(box) => document.activeElement === box")
    admin.keyboard.press("Enter")  # the form is sent: the link for Cicci comes
    admin.locator("[data-member-link]").wait_for()
    assert "Cicci" in admin.locator("[data-member-link] p").first.inner_text()
    admin.context.close()
    assert console.problems() == [], console.problems()
