"""Spectators' updates are gathered, at most one every 100 ms, and no event is lost,
doubled or put out of order; a person at the table gets every change at once."""

from __future__ import annotations

from domeng.server.clock import FakeClock
from domeng.server.connection import Connection
from domeng.server.fanout import BATCH, Fanout

from .conftest import drain


def update(state: int, *events: str) -> dict[str, object]:
    return {"type": "update", "state": state, "events": list(events), "table": {}, "view": {}}


def test_updates_in_a_burst_go_out_together_after_100_ms() -> None:
    clock = FakeClock()
    fanout = Fanout(clock)
    crowd = [Connection() for _ in range(3)]
    fanout.update("t", crowd, update(1, "a"))  # the first goes out at once
    assert [m["events"] for m in drain(crowd[0])] == [["a"]]
    for n, e in enumerate("bcd", 2):
        clock.advance(0.01)
        fanout.update("t", crowd, update(n, e))
    assert drain(crowd[1])[-1]["events"] == ["a"]  # the rest wait their turn
    clock.advance(BATCH - 0.03 - 0.001)
    assert drain(crowd[0]) == []
    clock.advance(0.001)
    (batch,) = drain(crowd[0])
    assert batch["events"] == ["b", "c", "d"] and batch["state"] == 4
    assert [m["events"] for m in drain(crowd[2])] == [["a"], ["b", "c", "d"]]


def test_rounds_faster_than_a_batch_share_one_in_order_and_it_goes_out_before_anything() -> None:
    clock = FakeClock()
    fanout = Fanout(clock)
    crowd = [Connection()]
    fanout.update("t", crowd, update(1, "a"))
    clock.advance(0.01)
    fanout.update("t", crowd, update(2, "round_ended"))
    clock.advance(0.01)
    fanout.update("t", crowd, update(3, "dealt"))  # the next deal, at a pace under 100 ms
    assert [m["events"] for m in drain(crowd[0])] == [["a"]]  # at most one every 100 ms
    fanout.flush("t", crowd)  # e.g. before a seats message, or a newcomer's state
    (batch,) = drain(crowd[0])
    assert batch["events"] == ["round_ended", "dealt"] and batch["state"] == 3
    fanout.flush("t", crowd)
    assert drain(crowd[0]) == []  # nothing twice
