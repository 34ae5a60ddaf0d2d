"""A club tournament in the browser: the director (in Indonesian) makes a duplicate
tournament for two people and eight computer players, hands out the personal links,
starts the round; Andi (on a phone, 390 px wide) and Besse (on a computer) each find
their table from their link and play their deal; the standings, the printable results
and the CSV follow."""

from __future__ import annotations

from typing import Any

from .playing import step
from .test_browser_accessibility import audit, axe_source  # noqa: F401  (the fixture)
from .test_browser_friends import People, people  # noqa: F401  (the fixture)
from .test_browser_table_screens import texts

ID = texts("id")["tournament"]


def test_a_duplicate_tournament_with_people_in_browsers(
    service: Any,
    people: People,  # noqa: F811
    axe_source: str,  # noqa: F811
) -> None:
    director = people.open(lang="id")
    director.goto(service.base + "/#/tournaments")
    director.wait_for_selector("body[data-ready=true]")
    director.evaluate("localStorage.setItem('domeng.pace', '20')")
    form = director.locator("[data-new-tournament]")
    assert form.locator("h1").inner_text() == ID["new_title"]
    form.locator("[name=rounds]").fill("1")
    form.locator("[name=deals]").fill("1")
    form.locator("[name=people]").fill("Andi\nBesse")
    form.locator("[name=computers]").fill("8")
    form.locator("[name=level]").select_option("random")
    audit(director, axe_source, "a new tournament")
    form.locator("button[type=submit]").click()
    director.wait_for_url("**/#/tournament/*")
    tid = director.evaluate("location.hash.split('/')[2]")
    director.wait_for_selector("[data-director]")
    links = director.locator("[data-entrant-link]")
    assert links.count() == 2  # the two people's; computers need none
    andi_link, besse_link = (links.nth(n).get_attribute("href") for n in range(2))
    assert "/me/" in andi_link and andi_link != besse_link
    audit(director, axe_source, "the director's page")
    late = director.locator("[data-late] input[name=name]")
    late.fill("Cicci")
    drawn = director.locator("[data-director]").element_handle()
    director.wait_for_function("(el) => !el.isConnected", arg=drawn)  # the next poll's
    assert late.input_value() == "Cicci"  # what the director typed stays
    late.fill("")
    director.click("[data-start-round]")
    director.wait_for_selector("[data-rounds] [data-table]")
    assert director.locator("[data-rounds] [data-table]").count() == 2

    andi = people.open(phone=True)
    besse = people.open()
    for pg, link in ((andi, andi_link), (besse, besse_link)):
        pg.goto(link)
        pg.wait_for_selector("[data-go-table]")
        if pg is andi:
            audit(pg, axe_source, "an entrant's page, on a phone")
        pg.click("[data-go-table]")
        pg.wait_for_url("**/#/table/*")
    back = besse.locator("[data-tournament-link]")
    back.wait_for()  # the table page's way back to its tournament
    assert back.get_attribute("href") == f"#/tournament/{tid}"
    width = andi.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the phone
    # each plays their deal (the table's end shows its standings, not a round's summary)
    for n in range(3000):
        for pg in (andi, besse):
            step(pg)
        if n % 20 == 0 and service.get(f"/api/tournaments/{tid}")["status"] == "finished":
            break
    service.wait_for(lambda: service.get(f"/api/tournaments/{tid}")["status"] == "finished")
    doc = service.get(f"/api/tournaments/{tid}")
    assert len(doc["standings"]) == 10 and all(s["ranked"] for s in doc["standings"])
    # both tables had the same deal
    records = [service.get(x["links"]["record"]) for x in doc["rounds"][0]["tables"]]
    assert records[0]["rounds"][0]["hands"] == records[1]["rounds"][0]["hands"]
    for name in ("Andi", "Besse"):  # they played their own tiles, not a stand-in for them
        record = next(r for r in records if name in r["players"])
        seat = record["players"].index(name)
        plays = [p for p in record["rounds"][0]["plays"] if p.get("seat") == seat]
        assert plays and not all(p.get("stand_in") for p in plays)
    director.wait_for_selector("[data-status=finished]", timeout=30_000)
    rows = director.locator("[data-tournament-standings] tbody tr")
    assert rows.count() == 10
    assert director.locator("[data-csv]").get_attribute("href") == doc["links"]["csv"]
    director.click(f"a[href='#/tournament/{tid}/print']")
    director.wait_for_selector(".printable [data-tournament-standings]")
    assert director.locator("[data-director]").count() == 0  # results only
    audit(director, axe_source, "the printable results")
    me = andi.evaluate("location.href")
    andi.goto(andi_link)
    andi.wait_for_selector("[data-wait-round]")
    assert me != andi_link
