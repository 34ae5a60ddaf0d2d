"""At one table no two seats show the same name (server/names.py): a person taking a
seat with a name another seat shows is refused, a new table naming two seats alike is
refused, and a computer player named by default takes a name nobody shows."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from domeng.engine.seatname import name_key
from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.host import act
from domeng.server.hub import Hub
from domeng.server.names import default_names, first_same, shown
from domeng.server.seats import DEFAULT_NAMES
from domeng.server.tables import Connection
from domeng.storage import MemoryStorage
from domeng.terminal.session import SPARE_NAME, new_seats

from .conftest import run_apart
from .test_server_clock import InlineRunner
from .test_server_host import _host

Json = dict[str, Any]


def refused(r: Any, status: int) -> str:
    assert r.status_code == status, r.text
    code: str = r.json()["error"]["code"]
    return code


def sit(service: Any, t: Json, seat: int, name: str, invite: str | None = None) -> Any:
    body = {"name": name} if invite is None else {"name": name, "invite": invite}
    return service.http.post(f"/api/tables/{t['id']}/seats/{seat}", json=body)


def shown_names(service: Any, t: Json) -> list[str]:
    seats = service.http.get(f"/api/tables/{t['id']}").json()["seats"]
    return [shown(s["kind"], s["level"], s["name"]) for s in seats]


def open_table(service: Any, host: str = "Ann") -> Json:
    """``host`` at seat 0, two seats anyone may take (1, 2), computers at 3 (Daeng) and 4."""
    level = service.level()
    seats = [{"kind": "person", "name": host}, *[{"kind": "person", "open": True}] * 2]
    return service.new_table(seats + [{"kind": "computer", "level": level}] * 2, pace_ms=0)


# -- the rule's words -------------------------------------------------------------------


@pytest.mark.parametrize("other", ["daeng", " DAENG ", "Daeng", "Ｄａｅｎｇ"])
def test_one_name_whatever_its_case_and_spaces(other: str) -> None:
    assert name_key(other) == name_key("Daeng")


@pytest.mark.parametrize("other", ["Daen", "Daeng R.", "Daeng2", "Dae ng"])
def test_a_name_that_only_shares_a_part_is_another(other: str) -> None:
    assert name_key(other) != name_key("Daeng")


def test_a_computer_shows_its_name_without_its_level() -> None:
    assert shown("computer", "basic", "Daeng (basic)") == "Daeng"
    assert shown("person", None, "Daeng (basic)") == "Daeng (basic)"  # a person's whole name
    assert shown("computer", "expert", "Daeng (basic)") == "Daeng (basic)"  # as the page
    assert first_same(["Ann", None, "Bo", None, "ann"]) == (0, 4)
    assert first_same(["Ann", None, "Bo", None, "Anna"]) is None


def test_a_default_name_nobody_shows_is_always_found() -> None:
    """Whatever names the other seats show, each computer named by default gets a name no
    other seat shows: its own seat's default when nobody shows it."""
    pool = [*DEFAULT_NAMES, "ANDI", "Zed", None]
    for wanting in ([3, 4], [1, 3, 4], [0, 1, 2, 3, 4], [4]):
        others = [n for n in range(5) if n not in wanting]
        for chosen in itertools.product(pool, repeat=len(others)):
            keys = [name_key(x) for x in chosen if x is not None]
            if len(keys) != len(set(keys)):
                continue  # the other seats' names are apart already
            names: list[str | None] = [None] * 5
            for n, x in zip(others, chosen, strict=True):
                names[n] = x
            given = default_names(names, wanting)
            assert sorted(given) == wanting
            shown_now = [*(x for x in names if x is not None), *given.values()]
            assert len({name_key(x) for x in shown_now}) == len(shown_now), (names, given)
            for n in wanting:
                if name_key(DEFAULT_NAMES[n]) not in keys:
                    assert given[n] == DEFAULT_NAMES[n], (names, given)


# -- taking a seat ------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["daeng", " DAENG ", "Ｄａｅｎｇ", "ANN", "ann"])
def test_a_seat_taken_with_a_name_another_seat_shows_is_refused(service: Any, name: str) -> None:
    t = open_table(service)
    before = service.http.get(f"/api/tables/{t['id']}").json()
    r = sit(service, t, 1, name)
    assert refused(r, 409) == "same_name"
    message = r.json()["error"]["message"]
    assert "choose another name" in message and ("seat 3" in message or "seat 0" in message)
    after = service.http.get(f"/api/tables/{t['id']}").json()
    assert after["seats"] == before["seats"]  # nothing changed: the seat is still open


@pytest.mark.parametrize("name", ["Daen", "Daeng R.", "Annie", "An", "Seat 2"])
def test_a_name_that_only_shares_a_part_takes_the_seat(service: Any, name: str) -> None:
    t = open_table(service)
    assert sit(service, t, 1, name).status_code == 201


def test_a_second_friend_with_the_first_ones_name_is_refused(service: Any) -> None:
    t = open_table(service)
    assert sit(service, t, 1, "Bo").status_code == 201
    assert refused(sit(service, t, 2, "bo"), 409) == "same_name"
    assert sit(service, t, 2, "Bob").status_code == 201
    assert shown_names(service, t)[:3] == ["Ann", "Bo", "Bob"]


def test_a_person_back_at_their_seat_with_their_own_name_sits(service: Any) -> None:
    t = open_table(service)
    r = sit(service, t, 1, "Bo")
    token = r.json()["token"]
    left = service.http.post(f"/api/tables/{t['id']}/seats/1/leave", json={"token": token})
    assert left.status_code == 200
    assert sit(service, t, 1, "Bo").status_code == 201  # their name is free again
    assert shown_names(service, t)[1] == "Bo"


def test_an_invited_seat_refused_for_its_name_keeps_its_invitation(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person"}]
    t = service.new_table(seats + [{"kind": "computer", "level": level}] * 3, pace_ms=0)
    code = t["invites"]["1"].split("invite=")[1]
    assert refused(sit(service, t, 1, "Cicci", code), 409) == "same_name"
    assert sit(service, t, 1, "Cicci Jr", code).status_code == 201  # the code still works


# -- a new table --------------------------------------------------------------------------


@pytest.mark.parametrize(("first", "second"), [("Ann", "ann"), ("Ann", " ANN"), ("Bo", "Bo")])
def test_a_new_table_naming_two_persons_alike_is_refused(
    service: Any, first: str, second: str
) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": first}, {"kind": "person", "open": True}]
    seats += [{"kind": "person", "name": second}, *[{"kind": "computer", "level": level}] * 2]
    count = len(service.http.get("/api/tables").json()["tables"])
    r = service.http.post("/api/tables", json={"seats": seats})
    assert refused(r, 422) == "same_name"
    assert r.json()["error"]["message"].startswith("seat 2: name ")
    assert len(service.http.get("/api/tables").json()["tables"]) == count  # none made


def test_a_new_table_naming_a_computer_like_a_person_is_refused(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Besse"}]
    seats += [{"kind": "computer", "level": level, "name": f"besse ({level})"}]
    seats += [{"kind": "computer", "level": level}] * 3
    r = service.http.post("/api/tables", json={"seats": seats})
    assert refused(r, 422) == "same_name"
    assert r.json()["error"]["message"].startswith("seat 1: name ")


def test_persons_with_names_apart_make_a_table(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Anna"}]
    t = service.new_table(seats + [{"kind": "computer", "level": level}] * 3, pace_ms=0)
    assert shown_names(service, t) == ["Ann", "Anna", "Cicci", "Daeng", "Emba"]


def test_a_computer_named_by_default_like_a_person_gets_another_name(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "daeng"}, *[{"kind": "computer", "level": level}] * 4]
    t = service.new_table(seats, pace_ms=0)
    assert shown_names(service, t) == ["daeng", "Besse", "Cicci", "Andi", "Emba"]
    assert t["seats"][3]["name"] == f"Andi ({level})"


def test_a_default_name_gives_way_to_a_computer_named_so(service: Any) -> None:
    level = service.level()
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "computer", "level": level}]
    seats += [{"kind": "computer", "level": level, "name": "Besse"}]
    seats += [{"kind": "computer", "level": level}] * 2
    t = service.new_table(seats, pace_ms=0)
    assert shown_names(service, t) == ["Ann", "Andi", "Besse", "Daeng", "Emba"]


# -- the host's computer players ---------------------------------------------------------


def host(service: Any, t: Json, action: str, **body: Any) -> Any:
    return service.http.post(
        f"/api/tables/{t['id']}/host", json={"token": t["host_token"], "action": action, **body}
    )


def test_a_computer_the_host_seats_takes_a_name_nobody_shows(service: Any) -> None:
    t = open_table(service)
    assert sit(service, t, 1, "Cicci").status_code == 201  # seat 2's default name
    r = host(service, t, "replace", seat=2)
    assert r.status_code == 200, r.text
    assert shown_names(service, t) == ["Ann", "Cicci", "Andi", "Daeng", "Emba"]


def test_a_computer_in_a_persons_seat_may_take_that_persons_name(service: Any) -> None:
    """The person replaced no longer shows their name: the computer takes its seat's."""
    t = open_table(service)
    assert sit(service, t, 1, "Besse").status_code == 201
    assert host(service, t, "replace", seat=1).status_code == 200
    assert shown_names(service, t)[1] == "Besse"


# -- the terminal -------------------------------------------------------------------------


def test_the_terminals_computer_named_like_the_person_gets_another_name() -> None:
    names = [s.name for s in new_seats("DAENG", "random", 1)]
    assert names == ["DAENG", "Besse", "Cicci", SPARE_NAME, "Emba"]
    assert [s.name for s in new_seats("Daeng R.", "random", 1)][3] == "Daeng"


def test_again_renames_a_computer_named_like_a_person_of_an_older_table() -> None:
    """A table made before names were kept apart (the registry takes any names): its
    ``again`` gives the computer named like a person coming along another name, and keeps
    every other computer's."""

    async def main() -> None:
        hub = Hub(MemoryStorage(), InlineRunner(), FakeClock())
        seats: list[Json] = [{"kind": "person", "name": "Ann"}, {"kind": "person"}]
        seats += [{"kind": "computer", "level": "random", "name": "ANN (random)"}]
        seats += [{"kind": "computer", "level": "random"}]
        seats += [{"kind": "computer", "level": "random", "name": "Zed"}]
        created = await hub.create_table(NewTable.model_validate({"seats": seats}))
        t = created.table
        assert [s.stored.name for s in t.seats][2] == "ANN (random)"
        hub.hello(t, Connection(), created.tokens[0])
        answer = await act(hub, t, _host(created, "again"))
        names = [s.stored.name for s in hub.tables[answer["id"]].seats]
        assert names[0] == "Ann" and names[2:] == ["Cicci (random)", "Daeng (random)", "Zed"]
        await hub.close()

    run_apart(main)


# -- a tournament's entrants ---------------------------------------------------------------


def tournament(service: Any, entrants: list[Json]) -> Any:
    return service.http.post(
        "/api/tournaments", json={"name": "Names", "entrants": entrants, "rounds": 1, "deals": 1}
    )


def test_a_tournaments_entrants_named_alike_are_refused(service: Any) -> None:
    level = service.level()
    made = tournament(
        service, [{"kind": "person", "name": "Ali"}, {"kind": "person", "name": "ALI"}]
    )
    assert refused(made, 422) == "same_name"
    assert made.json()["error"]["message"].startswith("entrant e2: name 'ALI'")
    named = {"kind": "computer", "level": level, "name": f"ali ({level})"}
    assert (
        refused(tournament(service, [{"kind": "person", "name": "Ali"}, named]), 422) == "same_name"
    )
    made = tournament(
        service, [{"kind": "person", "name": "Ali"}, {"kind": "person", "name": "Alia"}]
    )
    assert made.status_code == 201, made.text


def test_a_late_entrant_named_like_another_is_refused_and_a_computer_renamed(
    service: Any,
) -> None:
    level = service.level()
    made = tournament(service, [{"kind": "person", "name": "Ali"}])
    assert made.status_code == 201, made.text
    t = made.json()
    tid, token = t["id"], t["director_token"]
    assert (
        service.http.post(f"/api/tournaments/{tid}/next", json={"token": token}).status_code == 200
    )
    doc = service.http.get(f"/api/tournaments/{tid}").json()
    fills = [e["name"] for e in doc["entrants"] if e["fill"]]
    assert fills == [f"Computer {n} ({level})" for n in range(1, 5)]

    def add(entrant: Json) -> Any:
        body = {"token": token, "add": entrant}
        return service.http.post(f"/api/tournaments/{tid}/entrants", json=body)

    before = service.http.get(f"/api/tournaments/{tid}").json()["entrants"]
    assert refused(add({"kind": "person", "name": " ali"}), 409) == "same_name"
    assert refused(add({"kind": "person", "name": "computer 2"}), 409) == "same_name"
    assert service.http.get(f"/api/tournaments/{tid}").json()["entrants"] == before
    late = add({"kind": "computer", "level": level})  # e2: Computer 2 is a filler's
    assert late.status_code == 201, late.text
    assert late.json()["added"]["name"] == f"Computer 5 ({level})"
    assert add({"kind": "person", "name": "Ali Baba"}).status_code == 201
