"""A seat opened on a second page or device lets the first go (issue 31, "another
device": the old page let go): the older connection is told ``seat_elsewhere`` and
closed with code 4409; the newest plays the seat, and the old one may come back to
watch. A spectator's connections are never let go so."""

from __future__ import annotations

from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed

from domeng.server.socket import SEAT_ELSEWHERE

Json = dict[str, Any]


def ann_table(service: Any) -> Json:
    seats = [{"kind": "person", "name": "Ann"}]
    seats += [{"kind": "computer", "level": service.level()}] * 4
    table: Json = service.new_table(seats, pace_ms=60_000)
    return table


def test_the_newest_page_of_a_seat_plays_it_and_the_older_is_let_go(service: Any) -> None:
    t = ann_table(service)
    token = t["tokens"]["0"]
    first = service.socket(t["id"])
    second = service.socket(t["id"])
    try:
        first.hello(token)
        second.hello(token)
        told = first.until(lambda m: m["type"] == "error")
        assert told["code"] == "seat_elsewhere" and told["reply_to"] is None
        with pytest.raises(ConnectionClosed) as closed:
            first.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == SEAT_ELSEWHERE == 4409
        second.send({"type": "ping", "id": "p"})
        assert second.until(lambda m: m["type"] == "pong")["reply_to"] == "p"
        assert not any(m["type"] == "error" for m in second.received)
        seat = service.http.get(f"/api/tables/{t['id']}").json()["seats"][0]
        assert seat["connected"] is True
        again = service.socket(t["id"])  # the page let go watches
        try:
            again.hello()
            again.send({"type": "ping", "id": "w"})
            assert again.until(lambda m: m["type"] == "pong")["reply_to"] == "w"
        finally:
            again.close()
    finally:
        first.close()
        second.close()


def test_spectators_and_other_seats_are_not_let_go(service: Any) -> None:
    seats = [{"kind": "person", "name": "Ann"}, {"kind": "person", "name": "Budi"}]
    seats += [{"kind": "computer", "level": service.level()}] * 3
    t = service.new_table(seats, pace_ms=60_000)
    watching = [service.socket(t["id"]) for _ in range(2)]
    ann, budi = service.socket(t["id"]), service.socket(t["id"])
    everyone = [*watching, ann, budi]
    try:
        for w in watching:
            w.hello()
        ann.hello(t["tokens"]["0"])
        budi.hello(t["tokens"]["1"])
        for s in everyone:
            s.send({"type": "ping", "id": "p"})
            s.until(lambda m: m["type"] == "pong")
            assert not any(m["type"] == "error" for m in s.received)
    finally:
        for s in everyone:
            s.close()
