"""A round that has had a person at it is hidden from the record until it ends, whatever
the seats become in the middle of it (the host hands a seat to a computer, a person
leaves, the host invites a new person), and after a restart too."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from domeng.server.bodies import LeaveSeat, NewTable
from domeng.server.clock import FakeClock
from domeng.server.host import HostAction, act
from domeng.server.hub import Hub
from domeng.server.tables import Connection, Table
from domeng.storage import MemoryStorage, SQLiteStorage, Storage

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle


def hand_out(t: Table) -> set[str]:
    """Every tile of the live round's deal, as the record would show them."""
    d = t.deals[-1]
    return {tile for hand in d.hands for tile in hand} | set(d.unused)


def record_rounds(t: Table) -> int:
    record: Any = t.record_json()
    return len(record["rounds"])


async def friends(storage: Storage, clock: FakeClock) -> tuple[Hub, Table, str, str]:
    hub = Hub(storage, InlineRunner(), clock)
    await hub.load()
    seats = [{"kind": "person", "name": "Ann"}] + [{"kind": "computer", "level": "basic"}] * 4
    created = await hub.create_table(
        NewTable.model_validate({"seats": seats, "pace_ms": 60_000, "stand_in": None})
    )
    return hub, created.table, created.tokens[0], created.host_token


@pytest.mark.parametrize("change", ["replace", "leave", "replace_then_invite"])
def test_the_live_round_stays_hidden_whatever_the_seats_become(change: str, tmp_path: Path) -> None:
    async def main() -> None:
        storage = SQLiteStorage(str(tmp_path / "domeng.db"))
        clock = FakeClock()
        hub, t, token, host = await friends(storage, clock)
        ann = Connection()
        hub.hello(t, ann, token)
        await settle(hub, clock)
        assert t.status == "playing" and record_rounds(t) == 0
        if change == "leave":
            await hub.leave_seat(t, 0, LeaveSeat.model_validate({"token": token}))
        else:  # the host hands Ann's seat to a computer: no person seat is left
            body = {"token": host, "action": "replace", "seat": 0, "level": "basic"}
            await act(hub, t, HostAction.model_validate(body))
            assert all(s.stored.kind == "computer" for s in t.seats)
            if change == "replace_then_invite":
                body = {"token": host, "action": "invite", "seat": 0}
                await act(hub, t, HostAction.model_validate(body))
        assert t.status == "playing"
        assert record_rounds(t) == 0, "the live round's deal is in the record"
        await hub.close()

        again = Hub(
            SQLiteStorage(str(tmp_path / "domeng.db")), InlineRunner(), clock
        )  # a restart: kept in the storage alone
        await again.load()
        t2 = again.tables[t.id]
        assert t2.status == "playing"
        assert record_rounds(t2) == 0, "the live round's deal is in the record after a restart"
        await again.close()

    run_apart(main)


def test_a_table_of_computers_alone_shows_its_live_round() -> None:
    async def main() -> None:
        clock = FakeClock()
        hub = Hub(MemoryStorage(), InlineRunner(), clock)
        seats = [{"kind": "computer", "level": "basic"}] * 5
        created = await hub.create_table(
            NewTable.model_validate({"seats": seats, "pace_ms": 60_000})
        )
        t = created.table
        await settle(hub, clock)
        assert t.status == "playing"
        assert record_rounds(t) == 1  # nobody's hand to hide: watched live, as before
        await hub.close()

    run_apart(main)
