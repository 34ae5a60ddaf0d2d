"""A whole duplicate tournament of ten computer entrants over two rounds, on the fake
clock: from the stored records alone, every table of a round had the same deals, and
the standings are the scores worked out from those records by hand here."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any

import pytest

from domeng.engine.record import game_from_record
from domeng.engine.standings import Tally
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.tables import TableError
from domeng.server.tournament_bodies import NewTournament
from domeng.server.tournaments import Tournaments
from domeng.storage import SQLiteStorage

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle

Json = dict[str, Any]


async def play_tournament_round(hub: Hub, clock: FakeClock, ts: Tournaments, tid: str) -> None:
    """Until the tournament's round under way has ended (its tables played at full speed
    on the fake clock)."""
    for _ in range(2000):
        await settle(hub, clock)
        if (await ts.read(tid)).status != "playing":
            return
        clock.advance(0.05)
    raise AssertionError("the round did not end")


async def _records(hub: Hub, clock: FakeClock, ids: list[str]) -> list[Json]:
    out = []
    for table_id in ids:
        stored = await hub.store.load_table(table_id)
        assert stored is not None
        out.append(hub.table_of(stored).record_json())
    return out


def _hands(record: Json) -> list[Any]:
    return [(r["hands"], r["unused"]) for r in record["rounds"]]


def duplicate_scores(
    records: list[list[Json]], seated: dict[tuple[int, int], list[str]]
) -> tuple[dict[str, float], dict[str, int]]:
    """Each player's duplicate score and rounds won, worked out from the tables' records
    alone by a plain reading of the rule: ``records`` by round, then by table;
    ``seated[(round, table)]`` who held each seat there (both numbered from 1)."""
    received: dict[tuple[int, int, int], dict[int, int]] = defaultdict(dict)
    won: dict[str, int] = defaultdict(int)
    for n, round_records in enumerate(records, 1):
        for tn, record in enumerate(round_records, 1):
            game, _ = game_from_record(record)
            assert game.variants.rounds.value == "fresh"
            for d, r in enumerate(game.rounds, 1):
                assert r.finished
                assert r.table + sum(r.stones) == 25
                tally = Tally()
                tally.add(r)
                for seat in range(5):
                    received[(n, d, seat)][tn] = tally.received[seat]
                    won[seated[(n, tn)][seat]] += tally.won[seat]
    score: dict[str, float] = defaultdict(float)
    for (n, _d, seat), by_table in received.items():
        for tn, mine in by_table.items():
            others = [v for other, v in by_table.items() if other != tn]
            score[seated[(n, tn)][seat]] += sum(others) / len(others) - mine
    return score, won


def test_ten_computers_two_rounds_standings_from_the_records(tmp_path: Any) -> None:
    async def main() -> tuple[Json, list[list[Json]], list[Json]]:
        clock = FakeClock()
        hub = Hub(SQLiteStorage(tmp_path / "t.sqlite3"), InlineRunner(), clock)
        ts = Tournaments(hub)
        body = NewTournament.model_validate(
            {
                "name": "Club evening",
                "entrants": [
                    {"kind": "computer", "level": "random", "name": f"Bot {n}"} for n in range(10)
                ],
                "format": "duplicate",
                "rounds": 2,
                "deals": 3,
                "table": {"pace_ms": 0},
                "seed": 11,
            }
        )
        t, director, tokens = await ts.create(body)
        assert tokens == {} and t.status == "waiting"
        with pytest.raises(TableError) as refused:
            await ts.next_round(t.id, "not the token")
        assert refused.value.code == "not_director"
        records: list[list[Json]] = []
        for number in (1, 2):
            t = await ts.next_round(t.id, director)
            assert t.status == "playing"
            with pytest.raises(TableError) as early:
                await ts.next_round(t.id, director)
            assert early.value.code == "round_in_play"
            ids = [rt.id for rt in t.played[number - 1].tables]
            with pytest.raises(TableError) as hidden:  # its deals are still being played
                await ts.check_record(hub.tables[ids[0]])
            assert hidden.value.code == "round_in_play"
            await play_tournament_round(hub, clock, ts, t.id)
            await ts.check_record(await hub.find(ids[0]))  # the round is over: shown
            records.append(await _records(hub, clock, ids))
        t = await ts.read(t.id)
        assert t.status == "finished"
        with pytest.raises(TableError) as over:
            await ts.next_round(t.id, director)
        assert over.value.code == "tournament_over"
        doc = ts.json(t)
        await hub.close()
        # what a restart reads back is the same tournament, its standings from the records
        hub = Hub(SQLiteStorage(tmp_path / "t.sqlite3"), InlineRunner(), clock)
        again = Tournaments(hub)
        assert again.json(await again.read(t.id)) == doc
        await hub.close()
        return doc, records, doc["rounds"]

    doc, records, rounds = run_apart(main)
    assert doc["status"] == "finished"
    assert [len(r["tables"]) for r in rounds] == [2, 2]
    # every table of a round had the same deals; the two rounds had different ones
    for round_records in records:
        assert len(round_records) == 2
        assert all(len(r["rounds"]) == 3 for r in round_records)
        assert _hands(round_records[0]) == _hands(round_records[1])
    assert _hands(records[0][0]) != _hands(records[1][0])
    # reseated: the two tables of round 2 each mix both tables of round 1
    first = [{s["key"] for s in t["seats"]} for t in rounds[0]["tables"]]
    for t in rounds[1]["tables"]:
        keys = {s["key"] for s in t["seats"]}
        assert all(keys & old for old in first)
    # the scores worked out from the records alone, by a plain reading of the rule
    seated = {
        (n, tn): game_from_record(record)[1]
        for n, round_records in enumerate(records, 1)
        for tn, record in enumerate(round_records, 1)
    }
    score, won = duplicate_scores(records, seated)
    standings = {s["name"]: s["score"] for s in doc["standings"]}
    assert set(standings) == {f"Bot {n}" for n in range(10)}
    for name, value in standings.items():
        assert value == pytest.approx(score[name], abs=0.006)
    assert sum(standings.values()) == pytest.approx(0, abs=0.06)  # the field is the measure
    assert [s["place"] for s in doc["standings"]] == sorted(s["place"] for s in doc["standings"])
    values = [s["score"] for s in doc["standings"]]
    assert values == sorted(values, reverse=True)
    assert {s["name"]: s["won"] for s in doc["standings"]} == dict(won)
    assert asyncio  # the module's loop is run_apart's


def test_a_round_that_cannot_be_made_whole_keeps_nothing(tmp_path: Any) -> None:
    async def main() -> None:
        clock = FakeClock()
        storage = SQLiteStorage(tmp_path / "t.sqlite3")
        hub = Hub(storage, InlineRunner(), clock)
        ts = Tournaments(hub)
        entrants = [{"kind": "computer", "level": "random"}] * 7  # two tables, three fills
        body = NewTournament.model_validate({"name": "x", "entrants": entrants, "deals": 1})
        t, director, _ = await ts.create(body)
        made: list[str] = []
        put = storage._put_table

        def second_fails(db: Any, table: Any) -> None:  # the round's tables, one by one
            if made:
                raise RuntimeError("the disk is full")
            put(db, table)
            made.append(table.id)

        storage._put_table = second_fails  # type: ignore[method-assign]
        with pytest.raises(RuntimeError):
            await ts.next_round(t.id, director)
        t = await ts.read(t.id)
        assert t.status == "waiting" and t.played == [] and len(t.entrants) == 7
        assert t.version == 1  # the tournament unchanged
        assert made and await hub.store.load_table(made[0]) is None  # nor its first table
        assert not hub.tables
        storage._put_table = put  # type: ignore[method-assign]
        t = await ts.next_round(t.id, director)
        assert [len(r.tables) for r in t.played] == [2]
        assert sum(e.fill for e in t.entrants) == 3
        assert {rt.id for rt in t.played[0].tables} == set(hub.tables)
        await hub.close()

    run_apart(main)


def test_two_processes_told_next_at_once_start_one_round(tmp_path: Any) -> None:
    """Two services on one database (two processes, here two hubs on one file) are told
    ``next`` at once: the second has read the tournament and made its tables when the
    first's round is kept; its own is then not kept at all, and it is refused as the
    round is in play."""

    async def main() -> None:
        clock = FakeClock()
        one = Hub(SQLiteStorage(tmp_path / "t.sqlite3"), InlineRunner(), clock)
        two = Hub(SQLiteStorage(tmp_path / "t.sqlite3"), InlineRunner(), clock)
        first, second = Tournaments(one), Tournaments(two)
        entrants = [{"kind": "computer", "level": "random"}] * 10
        body = NewTournament.model_validate({"name": "x", "entrants": entrants, "deals": 1})
        t, director, _ = await first.create(body)
        plan = second._plan_round
        kept: list[Any] = []

        async def meanwhile(t: Any) -> Any:
            made = await plan(t)  # read and planned from the version before...
            kept.append(await first.next_round(t.id, director))  # ...when the other's is kept
            return made

        second._plan_round = meanwhile  # type: ignore[method-assign]
        with pytest.raises(TableError) as refused:
            await second.next_round(t.id, director)
        assert refused.value.code == "round_in_play"
        (won,) = kept
        ids = {rt.id for rt in won.played[0].tables}
        assert len(ids) == 2 and set(one.tables) == ids and not two.tables
        assert set(await one.store.tables_in_progress()) == ids  # none of the refused round
        t = await second.read(t.id)  # both read the one round
        assert [rt.id for rt in t.played[0].tables] == [rt.id for rt in won.played[0].tables]
        assert t.version == 2 and t.status == "playing"
        await one.close()
        await two.close()

    run_apart(main)
