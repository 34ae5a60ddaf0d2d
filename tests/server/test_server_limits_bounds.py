"""The fair shares' bounds (domeng.server.limits), on a fake clock: a bucket never holds
more than its burst however long it rested, its last token is taken and the wait is to
the part of a token; unknown kinds share one bucket; the WebSockets open are counted at
their limits and one past them; Retry-After is rounded up."""

from __future__ import annotations

import pytest

from domeng.server.clock import FakeClock
from domeng.server.connection import Connection
from domeng.server.limits import (
    ADDRESS_SHARES,
    IN_ALL,
    MESSAGE_SHARES,
    OTHER,
    PER_ADDRESS,
    SPECTATORS_IN_ALL,
    SPECTATORS_PER_ADDRESS,
    Connections,
    Limits,
    Share,
    retry_after,
)
from domeng.server.tables import TableError


def _taken(limits: Limits, c: Connection, kind: str, most: int = 10_000) -> int:
    """How many messages of ``kind`` pass now, one after the other."""
    for n in range(most):
        try:
            limits.message(c, kind)
        except TableError as e:
            assert e.code == "rate_limited" and e.status == 400
            return n
    return most


DOCUMENTED = {
    "play": (30, 10.0),
    "hello": (10, 1.0),
    "back": (10, 1.0),
    "chat": (10, 1.0),
    "ready": (10, 2.0),
    "sync": (10, 2.0),
    "ping": (10, 2.0),
    "hint": (3, 0.2),
    "other": (20, 2.0),
}
"""Each kind's burst and rate a second, as docs/protocol.md ("Fair shares") says."""
DOCUMENTED_HTTP = {
    "create": (20, 1 / 3),
    "seat": (30, 1.0),
    "host": (30, 1.0),
    "replay": (5, 0.2),
    "table_replay": (30, 1.0),  # a table's replay, a round at a time (issue 26)
    "review": (10, 0.2),
}


def test_the_shares_are_the_documented_ones() -> None:
    shares = {k: (s.burst, s.rate) for k, s in MESSAGE_SHARES.items()}
    assert {**shares, "other": (OTHER.burst, OTHER.rate)} == DOCUMENTED
    assert {k: (s.burst, s.rate) for k, s in ADDRESS_SHARES.items()} == DOCUMENTED_HTTP


@pytest.mark.parametrize("kind", sorted(DOCUMENTED))
def test_a_rested_bucket_holds_its_burst_and_no_more(kind: str) -> None:
    clock = FakeClock()
    limits = Limits(clock)
    c = Connection()
    burst, rate = DOCUMENTED[kind]
    asked = kind if kind != "other" else "no-such-kind"
    assert _taken(limits, c, asked) == burst
    clock.advance(1 / rate - 0.001)  # a token comes back after 1 / rate seconds, not before
    assert _taken(limits, c, asked) == 0
    clock.advance(0.001)
    assert _taken(limits, c, asked) == 1
    clock.advance(3600.0)  # an hour's rest refills the bucket, up to its burst
    assert _taken(limits, c, asked) == burst


def test_an_address_bucket_holds_its_burst_after_a_rest() -> None:
    clock = FakeClock()
    limits = Limits(clock)
    share = ADDRESS_SHARES["seat"]
    for _ in range(share.burst):
        limits.change("10.0.0.7", "seat")
    clock.advance(86_400.0)
    for _ in range(share.burst):
        limits.change("10.0.0.7", "seat")
    with pytest.raises(TableError) as refused:
        limits.change("10.0.0.7", "seat")
    assert refused.value.status == 429


def test_the_last_token_is_taken_and_the_wait_is_for_the_part_missing() -> None:
    clock = FakeClock()
    limits = Limits(clock, messages={"ping": Share(2, 4.0)})
    c = Connection()
    assert _taken(limits, c, "ping") == 2
    clock.advance(0.25)  # exactly one token back
    limits.message(c, "ping")
    clock.advance(0.125)  # half a token: the rest comes in 0.125 s
    with pytest.raises(TableError) as refused:
        limits.message(c, "ping")
    assert refused.value.retry_after == pytest.approx(0.125)
    clock.advance(0.125)
    limits.message(c, "ping")


def test_kinds_not_named_share_one_bucket() -> None:
    limits = Limits(FakeClock())
    c = Connection()
    for n in range(OTHER.burst):
        limits.message(c, f"nonsense-{n}")
    with pytest.raises(TableError) as refused:
        limits.message(c, "yet-another")
    assert "other messages" in refused.value.message


def test_connections_at_the_limit_per_address_and_one_past_it() -> None:
    caps = Connections()
    assert (PER_ADDRESS, IN_ALL) == (50, 4000)  # as docs/protocol.md says
    places = []
    for _ in range(50):
        places.append(p := caps.open("192.168.1.9"))
        caps.seat(p)  # said hello: no longer greeting
    with pytest.raises(TableError) as refused:
        caps.open("192.168.1.9")
    assert (refused.value.code, refused.value.status) == ("too_many_connections", 429)
    assert caps.total == 50  # a refusal counts nothing
    caps.closed(places.pop())
    caps.open("192.168.1.9")  # one closed, one more may open
    for _ in range(55):
        caps.seat(caps.open("::1"))  # this computer's seats are not limited per address


def test_connections_at_the_limit_in_all_and_one_past_it() -> None:
    caps = Connections(per_address=3, in_all=4)
    first = caps.open("10.0.0.1")
    for a in ("10.0.0.2", "127.0.0.1", "127.0.0.1"):
        caps.open(a)
    for a in ("10.0.0.3", "127.0.0.1"):  # loopback too: the service in all is full
        with pytest.raises(TableError) as refused:
            caps.open(a)
        assert refused.value.status == 503
    caps.closed(first)
    assert caps.total == 3
    caps.open("10.0.0.3")
    assert caps.total == 4


def test_the_spectators_share_in_all_at_its_bound_and_one_past_and_the_seated_still_come() -> None:
    assert (SPECTATORS_IN_ALL, SPECTATORS_PER_ADDRESS) == (3000, 20)  # docs/protocol.md
    assert IN_ALL - SPECTATORS_IN_ALL == 1000  # the places kept for the seated
    caps = Connections(in_all=6, spectators_in_all=3)
    watching = []
    for a in ("10.0.0.1", "10.0.0.2", "10.0.0.3"):
        watching.append(p := caps.open(a))
        caps.watch(p)
    assert caps.spectators == 3
    late = caps.open("10.0.0.4")
    with pytest.raises(TableError) as refused:
        caps.watch(late)
    assert (refused.value.code, refused.value.status) == ("too_many_spectators", 503)
    assert caps.spectators == 3 and late.kind == "greeting"  # a refusal counts nothing
    seated = caps.open("10.0.0.5")
    caps.seat(seated)  # a seat's connection has its place whatever the spectators
    assert (caps.total, caps.spectators) == (5, 3)
    caps.closed(watching[0])
    caps.watch(late)  # one spectator gone: one more may watch
    assert caps.spectators == 3


def test_the_spectators_of_one_address_at_their_bound_and_one_past_this_computer_counted() -> None:
    caps = Connections(spectators_per_address=2)
    for a in ("127.0.0.1", "::1"):  # every loopback address is this computer's
        caps.watch(caps.open(a))
    for a in ("127.0.0.1", "127.0.0.2", "::1"):
        p = caps.open(a)
        with pytest.raises(TableError) as refused:
            caps.watch(p)
        assert (refused.value.code, refused.value.status) == ("too_many_spectators", 429)
        caps.closed(p)
    caps.watch(caps.open("192.168.1.7"))  # another address watches on its own share
    for _ in range(60):  # this computer's seated: no bound of their own
        caps.seat(caps.open("127.0.0.1"))
    assert caps.spectators == 3 and caps.total == 63


def test_connections_that_never_say_hello_hold_few_places_this_computer_counted() -> None:
    caps = Connections(greeting_per_address=2)
    waiting = [caps.open("127.0.0.1"), caps.open("127.0.0.9")]
    with pytest.raises(TableError) as refused:
        caps.open("::1")
    assert (refused.value.code, refused.value.status) == ("too_many_connections", 429)
    caps.open("192.168.1.7")  # another address greets on its own share
    caps.seat(waiting[0])  # said hello: its greeting place is free again
    caps.open("::1")
    assert caps.total == 4


@pytest.mark.parametrize(
    ("wait", "header"), [(None, None), (0.01, "1"), (1.0, "1"), (1.01, "2"), (2.5, "3")]
)
def test_retry_after_is_whole_seconds_rounded_up(wait: float | None, header: str | None) -> None:
    assert retry_after(TableError("rate_limited", "wait", 429, retry_after=wait)) == header


def test_the_buckets_of_the_past_are_forgotten_past_ten_thousand_addresses() -> None:
    clock = FakeClock()
    limits = Limits(clock, addresses={"seat": Share(2, 1.0)}, trust_loopback=False)
    busy = "192.168.0.1"
    limits.change(busy, "seat")
    limits.change(busy, "seat")  # empty
    for i in range(9_999):  # with the busy one, 10,000 addresses: none forgotten yet
        limits.change(f"10.0.{i // 256}.{i % 256}", "seat")
    clock.advance(1.0)  # every other bucket is full again; the busy one holds 1
    limits.change("10.1.0.1", "seat")
    assert len(limits._addresses) == 10_001
    limits.change("10.1.0.2", "seat")  # one past: the full buckets are forgotten
    assert set(limits._addresses) == {(busy, "seat"), ("10.1.0.1", "seat"), ("10.1.0.2", "seat")}
    limits.change(busy, "seat")  # the busy one is not a new, full bucket
    with pytest.raises(TableError):
        limits.change(busy, "seat")
