"""The director's word and an entrant's page, rule by rule (docs/tournaments.md,
"Running an evening", "Seating"), on the fake clock: what a tournament over refuses,
a no-show is a person at a table still playing, every entrant withdrawn starts no
round, an entrant's page shows this round's table (none once withdrawn), the
computers filling the last table are the same every round, the standings list every
entrant from the start, a table game's record is not hidden, and the deals come from
the seed asked for."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domeng.engine.tiles import names
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.tables import TableError
from domeng.server.tournament_bodies import ComputerEntrant, NewTournament, PersonEntrant
from domeng.server.tournaments import Tournaments
from domeng.storage import SQLiteStorage
from domeng.tournament.plan import round_deals

from .conftest import run_apart
from .test_server_clock import InlineRunner
from .test_tournament_duplicate import play_tournament_round

BOT = {"kind": "computer", "level": "random"}
ANDI = {"kind": "person", "name": "Andi"}


def _body(entrants: list[dict[str, Any]], **more: Any) -> NewTournament:
    return NewTournament.model_validate(
        {"name": "Malam", "entrants": entrants, "deals": 1, "table": {"pace_ms": 0}, **more}
    )


async def _refused(code: str, said: Any) -> None:
    with pytest.raises(TableError) as refused:
        await said
    assert refused.value.code == code


def _hub(tmp_path: Path) -> tuple[Hub, FakeClock, Tournaments]:
    clock = FakeClock()
    hub = Hub(SQLiteStorage(tmp_path / "t.sqlite3"), InlineRunner(), clock)
    return hub, clock, Tournaments(hub)


def test_once_over_a_tournament_takes_no_late_arrival_no_withdrawal_no_round(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        hub, clock, ts = _hub(tmp_path)
        t, director, _ = await ts.create(_body([BOT] * 5, rounds=1))
        await ts.next_round(t.id, director)
        await play_tournament_round(hub, clock, ts, t.id)
        assert (await ts.read(t.id)).status == "finished"  # its one round played
        late = ComputerEntrant(kind="computer", level="random", name="Late")
        await _refused("tournament_over", ts.add(t.id, director, late))
        await _refused("tournament_over", ts.withdraw(t.id, director, "e1"))
        await _refused("tournament_over", ts.next_round(t.id, director))
        t = await ts.read(t.id)
        assert [e.key for e in t.entrants] == ["e1", "e2", "e3", "e4", "e5"]
        assert all(e.active for e in t.entrants)  # the final standings as they were
        await hub.close()

    run_apart(main)


def test_a_tournament_ended_before_its_first_round_is_over(tmp_path: Path) -> None:
    async def main() -> None:
        hub, _, ts = _hub(tmp_path)
        t, director, _ = await ts.create(_body([BOT] * 5))
        t, _ = await ts.end(t.id, director)
        assert t.status == "finished" and ts.json(await ts.read(t.id))["status"] == "finished"
        await _refused("tournament_over", ts.next_round(t.id, director))
        await _refused("tournament_over", ts.end(t.id, director))
        assert not hub.tables  # no round was made
        await hub.close()

    run_apart(main)


def test_a_no_show_is_a_person_at_a_table_still_playing(tmp_path: Path) -> None:
    async def main() -> None:
        hub, clock, ts = _hub(tmp_path)
        t, director, _ = await ts.create(_body([ANDI, *[BOT] * 4], rounds=2))
        await _refused("not_seated", ts.replace(t.id, director, "e1", None))  # no round yet
        t = await ts.next_round(t.id, director)
        await _refused("computer_entrant", ts.replace(t.id, director, "e2", "random"))
        (rt,) = t.played[0].tables
        assert hub.tables[rt.id].seats[rt.seats.index("e2")].stored.level == "random"
        await ts.replace(t.id, director, "e1", "random")
        assert hub.tables[rt.id].seats[rt.seats.index("e1")].stored.kind == "computer"
        await play_tournament_round(hub, clock, ts, t.id)
        assert (await ts.read(t.id)).status == "between"
        await _refused("game_over", ts.replace(t.id, director, "e1", "random"))  # too late
        await hub.close()

    run_apart(main)


def test_with_every_entrant_withdrawn_no_round_is_started(tmp_path: Path) -> None:
    async def main() -> None:
        hub, _, ts = _hub(tmp_path)
        t, director, _ = await ts.create(_body([BOT] * 2))
        await ts.withdraw(t.id, director, "e1")
        await ts.withdraw(t.id, director, "e2")
        await _refused("no_entrants", ts.next_round(t.id, director))
        t = await ts.read(t.id)
        assert t.status == "waiting" and t.played == [] and not hub.tables
        await hub.close()

    run_apart(main)


def test_an_entrant_s_page_shows_this_round_s_table_and_none_once_withdrawn(
    tmp_path: Path,
) -> None:
    async def main() -> None:
        hub, clock, ts = _hub(tmp_path)
        t, director, tokens = await ts.create(_body([ANDI, *[BOT] * 4], rounds=3))
        mine = tokens["e1"]
        assert (await ts.me(t.id, mine))["table"] is None  # no round yet
        seen = []
        for number in (1, 2):
            t = await ts.next_round(t.id, director)
            rt = t.played[-1].tables[0]
            me = await ts.me(t.id, mine)
            assert me["table"] == {
                "id": rt.id, "seat": rt.seats.index("e1"), "finished": False, "round": number
            }  # fmt: skip
            seen.append(rt.id)
            await ts.replace(t.id, director, "e1", "random")  # away: a computer plays
            await play_tournament_round(hub, clock, ts, t.id)
            between = await ts.me(t.id, mine)  # their last table, over, till the next
            assert between["status"] == "between" and between["table"] is not None
            assert (between["table"]["id"], between["table"]["finished"]) == (rt.id, True)
        assert seen[0] != seen[1]
        await ts.withdraw(t.id, director, "e1")
        me = await ts.me(t.id, mine)
        assert me["entrant"]["active"] is False and me["table"] is None  # no next table
        t = await ts.next_round(t.id, director)
        assert all("e1" not in rt.seats for rt in t.played[-1].tables)
        await hub.close()

    run_apart(main)


def test_the_computers_filling_the_last_table_are_the_same_every_round(tmp_path: Path) -> None:
    async def main() -> None:
        hub, clock, ts = _hub(tmp_path)
        t, director, _ = await ts.create(_body([BOT] * 7, format="games", rounds=2))
        filled = []
        for _ in (1, 2):
            t = await ts.next_round(t.id, director)
            seated = {k for rt in t.played[-1].tables for k in rt.seats}
            filled.append({k for k in seated if t.entrant(k).fill})
            await play_tournament_round(hub, clock, ts, t.id)
        t = await ts.read(t.id)
        assert filled[0] == filled[1] == {"c1", "c2", "c3"}
        assert len(t.entrants) == 10
        standings = ts.json(t)["standings"]
        assert len(standings) == 10 and sum(s["ranked"] for s in standings) == 7
        assert sum(s["score"] for s in standings) == 2 * 2 * 10  # two tables, two rounds
        await hub.close()

    run_apart(main)


def test_before_any_round_the_standings_list_every_entrant_equal(tmp_path: Path) -> None:
    async def main() -> None:
        hub, _, ts = _hub(tmp_path)
        t, director, _ = await ts.create(_body([ANDI, BOT, BOT]))
        standings = ts.json(t)["standings"]
        assert [(s["key"], s["place"], s["score"], s["deals"]) for s in standings] == [
            ("e1", 1, 0, 0), ("e2", 1, 0, 0), ("e3", 1, 0, 0)
        ]  # fmt: skip
        late = PersonEntrant(kind="person", name="Late")
        added, _ = await ts.add(t.id, director, late)
        standings = ts.json(await ts.read(t.id))["standings"]
        assert [s["name"] for s in standings][-1] == "Late" and added.key == "e4"
        assert [s["place"] for s in standings] == [1, 1, 1, 1]
        await hub.close()

    run_apart(main)


def test_a_table_game_s_record_is_not_hidden_while_the_round_plays_on(tmp_path: Path) -> None:
    async def main() -> None:
        hub, _, ts = _hub(tmp_path)
        body = _body([BOT] * 10, format="games", table={"pace_ms": 800})
        t, director, _ = await ts.create(body)
        t = await ts.next_round(t.id, director)
        one, two = t.played[0].tables
        assert not one.finished and not two.finished  # the clock stands still
        await ts.check_record(hub.tables[one.id])  # no deal of it is played elsewhere
        await hub.close()

    run_apart(main)


def test_the_rounds_deals_are_dealt_from_the_seed_asked_for(tmp_path: Path) -> None:
    async def main() -> None:
        hub, _, ts = _hub(tmp_path)
        body = _body([BOT] * 5, deals=2, seed=11, table={"pace_ms": 800})
        t, director, _ = await ts.create(body)
        t = await ts.next_round(t.id, director)
        (rt,) = t.played[0].tables
        first = hub.tables[rt.id].game.rounds[0]
        hands, unused = round_deals(11, 1, 2)[0]
        assert [names(h) for h in first.dealt] == hands and names(first.unused) == unused
        await hub.close()

    run_apart(main)
