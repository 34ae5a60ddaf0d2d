"""A connection that falls too far behind is told why, then closed with code 1008."""

from __future__ import annotations

import json

from domeng.server.tables import QUEUE_LIMIT, Connection


def test_a_connection_too_far_behind_gets_an_error_then_is_closed() -> None:
    c = Connection()
    for n in range(QUEUE_LIMIT + 5):
        c.send({"type": "pong", "reply_to": n, "state": 0})
    queued = [c.outbox.get_nowait() for _ in range(c.outbox.qsize())]
    assert queued[-1] is None  # the writer closes after what is queued
    error = json.loads(queued[-2] or "")
    assert error["type"] == "error"
    assert error["code"] == "too_far_behind"
    assert str(QUEUE_LIMIT) in error["message"]
    assert error["reply_to"] is None
    assert [json.loads(q or "")["reply_to"] for q in queued[:-2]] == list(range(QUEUE_LIMIT))
    assert c.closed
    assert c.close_code == 1008
    c.send({"type": "pong"})  # nothing more once closed
    assert c.outbox.empty()
