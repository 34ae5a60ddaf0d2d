"""The start page's list of profiles comes a page at a time: "More players…" at the end
of the list brings the next page's people, until the computer levels (listed after the
people) are reached; a profile kept by this browser but not on the first page is still
found. The service's pages are cut to one profile each here, so that a few profiles
make several pages."""

from __future__ import annotations

import contextlib
import json
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from .conftest import Console, Service

NAMES = ("Paging Ana", "Paging Budi", "Paging Cici")


def one_a_page(page: Any) -> list[str]:
    """Every list of profiles the page asks for is asked with ``limit=1``; answers the
    queries it asked (as they went)."""
    asked: list[str] = []

    def cut(route: Any) -> None:
        parts = urlsplit(route.request.url)
        query = dict(parse_qsl(parts.query)) | {"limit": "1"}
        asked.append(parts.query)
        route.continue_(url=urlunsplit(parts._replace(query=urlencode(query))))

    page.route("**/api/profiles", cut)
    page.route("**/api/profiles?*", cut)
    return asked


def people(service: Service) -> list[dict[str, Any]]:
    listed = service.get("/api/profiles?limit=500")
    assert listed["next"] is None
    return [p for p in listed["profiles"] if p["kind"] == "person"]


def listed_names(page: Any) -> list[str]:
    options = page.locator("[data-profile-pick] option").all_inner_texts()
    return list(options[1:])


def paging_people(service: Service) -> dict[str, dict[str, Any]]:
    """The profiles of :data:`NAMES`, made now unless another test of this module's
    service made them already."""
    for name in NAMES:
        with contextlib.suppress(OSError):  # 409: made already
            service.post("/api/profiles", {"name": name})
    return {p["name"]: p for p in people(service) if p["name"] in NAMES}


def test_more_players_brings_the_next_page_until_every_person_is_listed(
    page: Any, service: Service
) -> None:
    made = paging_people(service)
    everyone = [p["name"] for p in people(service)]
    assert set(NAMES) <= set(everyone)
    asked = one_a_page(page)
    page.goto(service.base + "/")
    page.wait_for_selector("[data-profile-pick]")
    assert listed_names(page) == [everyone[0], "More players…"]
    for n in range(2, len(everyone) + 1):
        page.select_option("[data-profile-pick]", label="More players…")
        page.wait_for_function(
            "n => document.querySelectorAll('[data-profile-pick] option:not([data-profile-more])')"
            + ".length > n",
            arg=n,
        )
        shown = listed_names(page)
        assert shown[:n] == everyone[:n]
    # the last person's page is followed by a computer level's: once it comes, nothing
    # more to bring (a page that ends with the last person cannot know it yet)
    page.select_option("[data-profile-pick]", label="More players…")
    page.wait_for_function("!document.querySelector('[data-profile-more]')")
    assert listed_names(page) == everyone
    assert asked[0] == "" and all("cursor=" in q for q in asked[1:])
    # a person picked from the later pages plays under that profile
    page.select_option("[data-profile-pick]", label=NAMES[-1])
    page.wait_for_selector("[data-profile-now]")
    assert NAMES[-1] in page.inner_text("[data-profile-now]")
    kept = page.evaluate("JSON.parse(localStorage.getItem('domeng.profile'))")
    assert kept["id"] == made[NAMES[-1]]["id"]


def test_a_kept_profile_off_the_first_page_is_found_and_a_gone_one_forgotten(
    page: Any, service: Service, console: Console
) -> None:
    console.allow("status of 404")  # the gone profile, asked for by itself
    paging_people(service)
    last = people(service)[-1]
    picked = service.post(f"/api/profiles/{last['id']}/pick", {})
    one_a_page(page)
    page.goto(service.base + "/")
    kept = {"id": last["id"], "name": last["name"], "mark": last["mark"], "token": picked["token"]}
    page.evaluate(f"localStorage.setItem('domeng.profile', {json.dumps(json.dumps(kept))})")
    page.reload()
    page.wait_for_selector(f"[data-profile-now='{last['id']}']")
    page.wait_for_function(  # its figures come after its name
        "document.querySelector('[data-profile-now]').innerText.includes('Rating')"
    )
    assert "Rating" in page.inner_text("[data-profile-now]")
    gone = kept | {"id": "p-gone"}
    page.evaluate(f"localStorage.setItem('domeng.profile', {json.dumps(json.dumps(gone))})")
    page.reload()
    page.wait_for_selector("[data-profile-pick]")
    assert page.evaluate("localStorage.getItem('domeng.profile')") is None
