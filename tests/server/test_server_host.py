"""The host's say (domeng.server.host), on a fake clock: only with the host's token; a
game in progress is never removed and a finished one never ended, replaced or invited
at again; only a person's seat is handed to a computer and only a computer's invited
to a person, who plays from the next round; the seat in turn loses its clock when it
changes hands; "again" keeps every setting and gives a token to the connected alone.
Every refusal changes nothing."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from domeng.server.bodies import NewTable
from domeng.server.clock import FakeClock
from domeng.server.host import HostAction, act
from domeng.server.hub import Hub
from domeng.server.tables import Connection, Table, TableError
from domeng.storage import MemoryStorage

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle

ANN: dict[str, Any] = {"kind": "person", "name": "Ann"}
COMPUTER: dict[str, Any] = {"kind": "computer", "level": "random"}


async def _table(**settings: Any) -> tuple[Hub, FakeClock, Table, Any]:
    """Ann at seat 0 (connected), an invited seat 1, three computer players."""
    clock = FakeClock()
    hub = Hub(MemoryStorage(), InlineRunner(), clock, deals=random.Random(6))
    seats = [ANN, {"kind": "person"}] + [COMPUTER] * 3
    body = NewTable.model_validate({"seats": seats, "pace_ms": 800, **settings})
    created = await hub.create_table(body)
    hub.hello(created.table, Connection(), created.tokens[0])
    return hub, clock, created.table, created


def _host(created: Any, action: str, **fields: Any) -> HostAction:
    return HostAction.model_validate({"token": created.host_token, "action": action, **fields})


async def _refused(hub: Hub, t: Table, body: HostAction, code: str, status: int) -> None:
    seats = [dataclasses.replace(s.stored) for s in t.seats]
    ended, tables = t.ended, set(hub.tables)
    with pytest.raises(TableError) as refused:
        await act(hub, t, body)
    assert (refused.value.code, refused.value.status) == (code, status)
    assert [s.stored for s in t.seats] == seats
    assert (t.ended, set(hub.tables)) == (ended, tables)


def test_only_the_hosts_token_has_a_say() -> None:
    async def main() -> None:
        hub, _, t, created = await _table()
        for action in ("invites", "end", "remove", "again"):
            body = HostAction.model_validate({"token": created.tokens[0], "action": action})
            await _refused(hub, t, body, "not_host", 403)
        await _refused(hub, t, _host(created, "replace"), "bad_body", 422)  # which seat?
        answer = await act(hub, t, _host(created, "invites"))
        assert list(answer["invites"]) == ["1"]
        await hub.close()

    run_apart(main)


def test_a_game_in_progress_is_not_removed_and_a_finished_one_not_changed() -> None:
    async def main() -> None:
        hub, _, t, created = await _table()
        await _refused(hub, t, _host(created, "remove"), "not_finished", 409)
        await act(hub, t, _host(created, "end"))
        assert t.finished and t.why_ended == "host"
        await _refused(hub, t, _host(created, "end"), "game_over", 409)
        await _refused(hub, t, _host(created, "replace", seat=0), "game_over", 409)
        await _refused(hub, t, _host(created, "invite", seat=2), "game_over", 409)
        await act(hub, t, _host(created, "remove"))
        assert t.id not in hub.tables
        await hub.close()

    run_apart(main)


def test_only_a_persons_seat_is_replaced_and_only_a_computers_invited() -> None:
    async def main() -> None:
        hub, _, t, created = await _table()
        await _refused(hub, t, _host(created, "replace", seat=2), "computer_seat", 409)
        await _refused(hub, t, _host(created, "invite", seat=0), "person_seat", 409)
        await _refused(hub, t, _host(created, "invite", seat=1), "person_seat", 409)
        await act(hub, t, _host(created, "replace", seat=1, level="random"))
        s = t.seats[1].stored
        assert (s.kind, s.level, s.invite, s.token_hash) == ("computer", "random", None, None)
        await hub.close()

    run_apart(main)


def test_a_person_invited_during_a_round_plays_from_the_next() -> None:
    async def main() -> None:
        hub, clock, t, created = await _table()
        await act(hub, t, _host(created, "replace", seat=1, level="random"))  # the game starts
        await settle(hub, clock)
        assert t.in_round and len(t.game.rounds) == 1
        answer = await act(hub, t, _host(created, "invite", seat=3))
        s = t.seats[3].stored
        assert s.kind == "person" and s.sits_from == 2 and s.invite
        assert answer["invites"]["3"].endswith(f"invite={s.invite}")
        assert t.computer_level(3) is not None  # the round under way is played on for it
        await hub.close()

    run_apart(main)


def test_the_seat_in_turn_handed_to_a_computer_loses_its_clock() -> None:
    async def main() -> None:
        hub, clock, t, created = await _table(turn_seconds=15, stand_in=None)
        await act(hub, t, _host(created, "replace", seat=1, level="random"))
        for _ in range(400):
            await settle(hub, clock)
            if t.game.turn == 0:
                break
            clock.advance(0.8)
        assert t.game.turn == 0 and t.public_json()["clock"]["seat"] == 0
        await act(hub, t, _host(created, "replace", seat=0, level="random"))
        assert t.public_json()["clock"] is None and t.deadline is None
        clock.advance(15)
        await settle(hub, clock)
        assert t.seats[0].stored.timeouts == 0
        await hub.close()

    run_apart(main)


def test_again_keeps_every_setting_and_gives_tokens_to_the_connected_alone() -> None:
    async def main() -> None:
        settings = {
            "turn_seconds": 20,
            "spectator_chat": True,
            "hints": True,  # not the default for two people
            "end": {"rounds": 3},
            "stand_in": None,
            "replace_after_ms": 5000,
        }
        hub, _, t, created = await _table(**settings)
        answer = await act(hub, t, _host(created, "again"))
        assert answer["tokens"] == {}  # each comes to its own connection
        new = hub.tables[answer["id"]]
        old_settings = dataclasses.asdict(t.settings)
        assert dataclasses.asdict(new.settings) == old_settings
        assert [s.stored.kind for s in new.seats] == [s.stored.kind for s in t.seats]
        assert new.seats[0].stored.token_hash is not None  # Ann was connected
        invited = new.seats[1].stored
        assert invited.token_hash is None and invited.invite and not invited.open
        await hub.close()

    run_apart(main)


def test_again_keeps_an_open_seat_open() -> None:
    async def main() -> None:
        clock = FakeClock()
        hub = Hub(MemoryStorage(), InlineRunner(), clock)
        seats = [ANN, {"kind": "person", "open": True, "name": None}] + [COMPUTER] * 3
        created = await hub.create_table(NewTable.model_validate({"seats": seats}))
        t = created.table
        hub.hello(t, Connection(), created.tokens[0])
        answer = await act(hub, t, _host(created, "again"))
        s = hub.tables[answer["id"]].seats[1].stored
        assert s.open and s.token_hash is None and s.invite is None
        await hub.close()

    run_apart(main)
