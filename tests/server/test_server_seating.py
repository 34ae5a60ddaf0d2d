"""Seats and tables as the table and the registry change them (domeng.server.tables,
domeng.server.registry), on a fake clock: a seat taken once, only by the invited or by
anyone when open, never at a finished game and never for the round under way; a seat
left is invited anew (or open again); the host's seat is the first person named; a game
nobody played at for 30 days is closed one millisecond past them, never while someone is
there (seated or watching). Every refusal changes nothing."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from domeng.server.bodies import LeaveSeat, NewTable, TakeSeat
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.registry import IDLE_DAYS
from domeng.server.tables import Connection, Table, TableError
from domeng.storage import MemoryStorage

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle

DAY = 86_400
PERSON: dict[str, Any] = {"kind": "person"}
COMPUTER: dict[str, Any] = {"kind": "computer", "level": "random"}


async def _hub() -> tuple[Hub, FakeClock]:
    clock = FakeClock()
    return Hub(MemoryStorage(), InlineRunner(), clock, deals=random.Random(4)), clock


async def _table(hub: Hub, seats: list[dict[str, Any]], **settings: Any) -> tuple[Table, Any]:
    created = await hub.create_table(NewTable.model_validate({"seats": seats, **settings}))
    return created.table, created


async def _refused(hub: Hub, t: Table, code: str, status: int, step: Any, *args: Any) -> None:
    """``step(*args)`` is refused with ``code`` and changes no seat, here or stored."""
    seats = [dataclasses.replace(s.stored) for s in t.seats]
    with pytest.raises(TableError) as refused:
        await step(*args)
    assert (refused.value.code, refused.value.status) == (code, status)
    assert [s.stored for s in t.seats] == seats
    kept = await hub.store.load_table(t.id)
    assert kept is not None and kept.seats == seats


def test_a_seat_is_taken_once() -> None:
    async def main() -> None:
        hub, _ = await _hub()
        t, _ = await _table(
            hub, [{"kind": "person", "name": "Ann"}, {**PERSON, "open": True}] + [COMPUTER] * 3
        )
        token = await hub.take_seat(t, 1, TakeSeat(name="Budi"))
        assert t.seat_of_token(token) == 1 and t.seats[1].stored.name == "Budi"
        await _refused(hub, t, "seat_taken", 409, hub.take_seat, t, 1, TakeSeat(name="Cicci"))
        await _refused(hub, t, "seat_taken", 409, hub.take_seat, t, 0, TakeSeat(name="Cicci"))
        await _refused(hub, t, "computer_seat", 409, hub.take_seat, t, 2, TakeSeat(name="Cicci"))
        await hub.close()

    run_apart(main)


def test_an_invited_seat_is_taken_with_its_code_alone() -> None:
    async def main() -> None:
        hub, _ = await _hub()
        t, created = await _table(hub, [{"kind": "person", "name": "Ann"}, PERSON] + [COMPUTER] * 3)
        code = t.seats[1].stored.invite
        assert code and created.invites[1].endswith(f"invite={code}")
        for wrong in (None, "", code[:-1], code + "x"):
            body = TakeSeat(name="Budi", invite=wrong)
            await _refused(hub, t, "bad_invite", 403, hub.take_seat, t, 1, body)
        await hub.take_seat(t, 1, TakeSeat(name="Budi", invite=code))
        assert t.seats[1].stored.invite is None  # the code is used up
        await hub.close()

    run_apart(main)


def test_a_seat_taken_during_a_round_plays_from_the_next() -> None:
    async def main() -> None:
        hub, clock = await _hub()
        seats = [{"kind": "person", "name": "Ann"}, {**PERSON, "open": True}] + [COMPUTER] * 3
        t, _ = await _table(hub, seats)
        budi = await hub.take_seat(t, 1, TakeSeat(name="Budi"))  # the last seat: a deal
        await settle(hub, clock)
        assert t.in_round and len(t.game.rounds) == 1
        assert t.seats[1].stored.sits_from == 1 and not t.waiting(1)
        await hub.leave_seat(t, 1, LeaveSeat(token=budi))
        await hub.take_seat(t, 1, TakeSeat(name="Ciccio"))  # in the round Budi left
        assert t.seats[1].stored.sits_from == 2
        assert t.waiting(1) and t.computer_level(1) is not None  # not Ciccio's round yet
        await hub.close()

    run_apart(main)


def test_no_seat_is_taken_at_a_finished_game() -> None:
    async def main() -> None:
        hub, _ = await _hub()
        t, _ = await _table(
            hub, [{"kind": "person", "name": "Ann"}, {**PERSON, "open": True}] + [COMPUTER] * 3
        )
        await hub.end_table(t, "host")
        await _refused(hub, t, "game_over", 409, hub.take_seat, t, 1, TakeSeat(name="Budi"))
        await hub.close()

    run_apart(main)


def test_a_seat_left_is_invited_anew_or_open_again() -> None:
    async def main() -> None:
        hub, _ = await _hub()
        seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Budi"}]
        seats += [{**PERSON, "open": True}, COMPUTER, COMPUTER]
        t, created = await _table(hub, seats)
        await _refused(
            hub, t, "bad_token", 403, hub.leave_seat, t, 0, LeaveSeat(token=created.tokens[1])
        )
        old = t.seats[0].stored.invite
        await hub.leave_seat(t, 0, LeaveSeat(token=created.tokens[0]))
        left = t.seats[0].stored
        assert left.token_hash is None and left.name == "Seat 0"
        assert left.invite and left.invite != old and not left.open
        assert t.seat_of_token(created.tokens[0]) is None
        token = await hub.take_seat(t, 2, TakeSeat(name="Cicci"))
        await hub.leave_seat(t, 2, LeaveSeat(token=token))
        assert t.seats[2].stored.open and t.seats[2].stored.invite is None
        await hub.close()

    run_apart(main)


@pytest.mark.parametrize(("named", "host"), [((1, 3), 1), ((4,), 4), ((), None)])
def test_the_hosts_seat_is_the_first_person_named(named: tuple[int, ...], host: int | None) -> None:
    async def main() -> None:
        hub, _ = await _hub()
        seats = [{"kind": "person", "name": f"P{n}"} if n in named else COMPUTER for n in range(5)]
        t, _ = await _table(hub, seats)
        assert t.host_seat == host
        kept = await hub.store.load_table(t.id)
        assert kept is not None and kept.host_seat == host
        await hub.close()

    run_apart(main)


async def _waiting_table(hub: Hub) -> Table:
    """A table whose seats all wait for invited people: nothing moves at it."""
    t, _ = await _table(hub, [PERSON] * 5)
    assert not t.started
    return t


def test_a_game_is_closed_one_millisecond_past_thirty_idle_days() -> None:
    async def main() -> None:
        hub, clock = await _hub()
        assert IDLE_DAYS == 30
        t = await _waiting_table(hub)
        t.last_active = clock.wall() - 30 * DAY  # exactly 30 days ago
        await hub.close_idle()
        assert not t.finished
        t.last_active -= 0.001
        await hub.close_idle()
        assert t.finished and t.why_ended == "idle"
        await hub.close()

    run_apart(main)


@pytest.mark.parametrize("who", ["watching", "seated"])
def test_a_game_someone_is_at_is_never_closed_as_idle(who: str) -> None:
    async def main() -> None:
        hub, clock = await _hub()
        seats = [{"kind": "person", "name": "Ann"}] + [PERSON] * 4
        t, created = await _table(hub, seats)
        c = Connection()
        hub.hello(t, c, created.tokens[0] if who == "seated" else None)
        t.last_active = clock.wall() - 365 * DAY
        await hub.close_idle()
        assert not t.finished
        hub.disconnect(t, c)  # gone: the next look closes it
        await hub.close_idle()
        assert t.finished and t.why_ended == "idle"
        await hub.close()

    run_apart(main)


def test_the_look_for_idle_games_comes_again_every_hour() -> None:
    async def main() -> None:
        hub, clock = await _hub()
        t = await _waiting_table(hub)
        await hub.close_idle()
        assert not t.finished
        t.last_active = clock.wall() - 31 * DAY
        clock.advance(3599.999)
        await settle(hub, clock)
        assert not t.finished
        clock.advance(0.001)
        await settle(hub, clock)
        assert t.finished
        await hub.close()

    run_apart(main)
