"""A seat's count of hints, kept by the table (domeng.server.tables, .hinting): once a
decision however often asked, again at the next decision, and counted when asked again
after a count that could not be stored; no hint for a seat whose person sits from the
next round. In the event loop's own process, on a fake clock, the coach's answer stubbed
(what is counted, not what the coach says)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import pytest

from domeng.server.bodies import LeaveSeat, NewTable, TakeSeat
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.messages import Hint, Play
from domeng.server.tables import Connection, Table, TableError
from domeng.storage import MemoryStorage, StoredSeat

from .conftest import drain, run_apart
from .test_server_clock import InlineRunner, settle

COMPUTER: dict[str, Any] = {"kind": "computer", "level": "random"}


class StubCoach(InlineRunner):
    """The computer players on the loop, and a coach that answers at once."""

    async def think(self, work: Callable[..., Any], *args: object) -> Any:
        return {"moves": [], "best": None, "reasons": [], "numbers": [], "level": "stub"}


class FailingStorage(MemoryStorage):
    """A memory storage whose seats cannot be saved while ``fail``."""

    fail = False

    def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
        if self.fail:
            raise OSError("disk full")
        super().save_seat(table_id, seat, data)


async def _hint(hub: Hub, t: Table, c: Connection) -> int:
    """Ask a hint from ``c``: the count of hints it answers with."""
    await hub.hint(t, c, Hint.model_validate({"type": "hint", "id": "h"}))
    (answer,) = [m for m in drain(c) if m["type"] == "hint"]
    count: int = answer["hints"]
    return count


async def _my_turn(hub: Hub, t: Table, clock: FakeClock, seat: int) -> None:
    """Until ``seat`` is in turn (the computers paced by the fake clock)."""
    for _ in range(200):
        await settle(hub, clock)
        if t.game.turn == seat and not t.game.round.finished:
            return
        clock.advance(1.0)
    raise AssertionError(f"seat {seat} never came in turn")


def test_a_seat_s_hints_are_counted_once_a_decision_and_counted_when_stored(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        clock, storage = FakeClock(), FailingStorage()
        hub = Hub(storage, StubCoach(), clock, deals=random.Random(10))
        seats = [{"kind": "person", "name": "Ann"}] + [COMPUTER] * 4
        body = {"seats": seats, "pace_ms": 500, "hints": True, "stand_in": None}
        created = await hub.create_table(NewTable.model_validate(body))
        t, ann = created.table, Connection()
        hub.hello(t, ann, created.tokens[0])
        await _my_turn(hub, t, clock, 0)
        # a count that could not be stored is not kept: the hint is still answered, and
        # asked again for the same decision it is counted then
        storage.fail = True
        assert await _hint(hub, t, ann) == 0
        assert "could not store a hint's count" in caplog.text  # a fault of the service
        caplog.clear()
        storage.fail = False
        assert await _hint(hub, t, ann) == 1
        assert await _hint(hub, t, ann) == 1  # the same decision: counted once
        assert t.seats[0].stored.hints == 1
        # the next decision's hint is counted too
        move = t.game.legal_moves()[0]
        play = {"type": "play", "tile": str(move).split()[0], "end": move.end.word}
        await hub.play(t, ann, Play.model_validate({**play, "state": t.state}))
        await _my_turn(hub, t, clock, 0)
        assert await _hint(hub, t, ann) == 2
        assert await _hint(hub, t, ann) == 2
        kept = await hub.store.load_table(t.id)
        assert kept is not None and kept.seats[0].hints == 2
        await hub.close()

    run_apart(main)


def test_no_hint_for_a_seat_whose_person_sits_from_the_next_round() -> None:
    """Taken during a round, the seat is a computer's until the round is over: in turn
    there, the person who took it is refused a hint (not_your_turn), and nothing counted."""

    async def main() -> None:
        clock = FakeClock()
        hub = Hub(MemoryStorage(), StubCoach(), clock, deals=random.Random(4))
        seats = [{"kind": "person", "open": True}] + [COMPUTER] * 4
        body = {"seats": seats, "pace_ms": 500, "hints": True}
        t = (await hub.create_table(NewTable.model_validate(body))).table
        budi = await hub.take_seat(t, 0, TakeSeat(name="Budi"))  # the last seat: a deal
        await settle(hub, clock)
        await hub.leave_seat(t, 0, LeaveSeat(token=budi))
        ciccio, c = await hub.take_seat(t, 0, TakeSeat(name="Ciccio")), Connection()
        hub.hello(t, c, ciccio)
        assert t.waiting(0)
        await _my_turn(hub, t, clock, 0)
        with pytest.raises(TableError) as refused:
            await hub.hint(t, c, Hint.model_validate({"type": "hint"}))
        assert refused.value.code == "not_your_turn"
        assert t.seats[0].stored.hints == 0
        await hub.close()

    run_apart(main)
