"""Fair shares: a token bucket for every kind of message a connection sends, and for
every kind of change a client address makes over HTTP.

A bucket holds up to ``burst`` tokens and gains ``rate`` a second; each message
takes one. An empty bucket refuses with ``rate_limited`` and says when to try
again (over HTTP a ``429`` with ``Retry-After``). The shares are far above what a
person playing needs — a hot-seat screen's five seats each have their own
connection — so only a flood meets them. Time is the service's clock, so the limits
are tested to the millisecond without sleeping.
"""

from __future__ import annotations

import ipaddress
import math
import weakref
from dataclasses import dataclass
from typing import Literal

from .clock import Clock
from .connection import Connection
from .errors import TableError


@dataclass(frozen=True, slots=True)
class Share:
    burst: int
    """How many at once."""
    rate: float
    """How many a second, over time."""


MESSAGE_SHARES: dict[str, Share] = {
    "hello": Share(10, 1.0),
    "play": Share(30, 10.0),
    "ready": Share(10, 2.0),
    "sync": Share(10, 2.0),
    "ping": Share(10, 2.0),
    "back": Share(10, 1.0),
    "chat": Share(10, 1.0),  # and at most 5 in 10 s (domeng.server.chat)
    "hint": Share(3, 0.2),  # the coach thinks about half a second of a worker's time
}
"""Per connection, per kind of message; any other kind (a refused one) shares ``other``."""
OTHER = Share(20, 2.0)
ADDRESS_SHARES: dict[str, Share] = {
    "create": Share(20, 1 / 3),
    "seat": Share(30, 1.0),
    "host": Share(30, 1.0),
    "replay": Share(5, 0.2),
    "table_replay": Share(30, 1.0),  # a table's replay, a round at a time as it is watched
    "review": Share(10, 0.2),  # the coach's review of a round: seconds of the worker's time
}
"""Per client address, per kind of change over HTTP."""


@dataclass(slots=True)
class Bucket:
    share: Share
    tokens: float
    at: float

    def take(self, now: float) -> float:
        """Take a token: 0 when there was one, else the seconds until there is."""
        self.tokens = min(self.share.burst, self.tokens + (now - self.at) * self.share.rate)
        self.at = now
        if self.tokens >= 1:
            self.tokens -= 1
            return 0.0
        return (1 - self.tokens) / self.share.rate


class Limits:
    """Every connection's and every client address's buckets."""

    def __init__(
        self,
        clock: Clock,
        messages: dict[str, Share] | None = None,
        addresses: dict[str, Share] | None = None,
        *,
        trust_loopback: bool = True,
    ) -> None:
        self.clock = clock
        self.messages = MESSAGE_SHARES if messages is None else messages
        """Per kind of message (``"other"``: any kind not named)."""
        self.addresses = ADDRESS_SHARES if addresses is None else addresses
        self.trust_loopback = trust_loopback
        """Requests from this computer itself are not limited per address (its pages are
        the service's own, by the Origin check; its programs are the player's)."""
        self._connections: weakref.WeakKeyDictionary[Connection, dict[str, Bucket]] = (
            weakref.WeakKeyDictionary()
        )
        self._addresses: dict[tuple[str, str], Bucket] = {}

    def _take(self, bucket: Bucket, what: str, status: int) -> None:
        wait = bucket.take(self.clock.now())
        if wait:
            message = f"too many {what}: try again in {wait:.1f} s"
            raise TableError("rate_limited", message, status, retry_after=wait)

    def message(self, c: Connection, kind: str) -> None:
        """Take a share for a message of ``kind`` from ``c``; refuses when there is none."""
        key = kind if kind in self.messages else "other"
        share = self.messages.get(key, OTHER)
        buckets = self._connections.setdefault(c, {})
        bucket = buckets.get(key)
        if bucket is None:
            bucket = buckets[key] = Bucket(share, share.burst, self.clock.now())
        self._take(bucket, f"{key} messages", 400)

    def change(self, address: str, kind: str) -> None:
        """Take a share for an HTTP change of ``kind`` from ``address``."""
        if self.trust_loopback and _loopback(address):
            return
        share = self.addresses[kind]
        now = self.clock.now()
        if len(self._addresses) > 10_000:  # forget the full buckets of the past
            self._addresses = {
                k: b for k, b in self._addresses.items()
                if b.tokens + (now - b.at) * b.share.rate < b.share.burst
            }  # fmt: skip
        bucket = self._addresses.get((address, kind))
        if bucket is None:
            bucket = self._addresses[(address, kind)] = Bucket(share, share.burst, now)
        self._take(bucket, f"requests to {kind}", 429)


PER_ADDRESS = 50
"""WebSockets open at once from one client address (this computer's own are not counted)."""
IN_ALL = 4000
"""WebSockets open at once in all (the service raises its open-files limit above it)."""
SPECTATORS_IN_ALL = 3000
"""Spectators' WebSockets at once in all: the other 1,000 places are kept for the seated,
so that a seat's connection always finds one however many watch."""
SPECTATORS_PER_ADDRESS = 20
"""Spectators' WebSockets at once from one client address, this computer's own counted
(every loopback address as one)."""
GREETING_PER_ADDRESS = 20
"""WebSockets from one client address that have not said hello yet (this computer's own
counted as one address): they hold a place for at most the hello's few seconds."""

Kind = Literal["greeting", "seated", "watching"]


@dataclass(slots=True)
class Place:
    """One WebSocket's place: the address it is counted under and what it is, a
    connection that has not said hello yet (``greeting``), a seat's or a spectator's."""

    address: str
    key: str
    """The address it is counted under for its kind (every loopback address is one)."""
    kind: Kind = "greeting"


class Connections:
    """The WebSockets' places: how many each client address has open, and the service in
    all; the spectators' share of them, and the places kept for the seated.

    A new connection is ``greeting`` until its hello says what it is: a seat's
    (:meth:`seat`) or a spectator's (:meth:`watch`, refused when the spectators' share,
    in all or of its address, is full). Spectators never hold more than
    :data:`SPECTATORS_IN_ALL` places, nor those still greeting more than
    :data:`GREETING_PER_ADDRESS` per address, so one process, even on this computer,
    cannot take the places of the seated.
    """

    def __init__(
        self,
        per_address: int = PER_ADDRESS,
        in_all: int = IN_ALL,
        *,
        spectators_in_all: int = SPECTATORS_IN_ALL,
        spectators_per_address: int = SPECTATORS_PER_ADDRESS,
        greeting_per_address: int = GREETING_PER_ADDRESS,
    ) -> None:
        self.per_address = per_address
        self.in_all = in_all
        self.spectators_in_all = spectators_in_all
        self.spectators_per_address = spectators_per_address
        self.greeting_per_address = greeting_per_address
        self._open: dict[str, int] = {}
        """Every address's connections (whatever their kind)."""
        self._kinds: dict[tuple[str, Kind], int] = {}
        """Each address key's connections of a kind."""
        self.total = 0
        self.spectators = 0

    def open(self, address: str) -> Place:
        """Count a new connection from ``address`` (greeting); refuses one too many."""
        mine = self._open.get(address, 0)
        key = "loopback" if _loopback(address) else address
        if self.total >= self.in_all:
            message = f"the service has {self.in_all} connections open: try again later"
            raise TableError("too_many_connections", message, 503, retry_after=5.0)
        if mine >= self.per_address and not _loopback(address):
            message = f"{self.per_address} connections are open from {address} already"
            raise TableError("too_many_connections", message, 429, retry_after=5.0)
        if self._kinds.get((key, "greeting"), 0) >= self.greeting_per_address:
            message = f"{self.greeting_per_address} connections from {address} have not said hello"
            raise TableError("too_many_connections", message, 429, retry_after=5.0)
        self._open[address] = mine + 1
        self.total += 1
        place = Place(address, key)
        self._count(place, 1)
        return place

    def seat(self, place: Place) -> None:
        """A greeting connection said hello with a seat's token: a seated one."""
        if place.kind == "greeting":
            self._count(place, -1)
            place.kind = "seated"
            self._count(place, 1)

    def watch(self, place: Place) -> None:
        """A greeting connection says hello to watch: a spectator's place, or
        ``too_many_spectators`` when their share is full (in all: 503; from this
        address: 429)."""
        if place.kind != "greeting":
            return
        if self.spectators >= self.spectators_in_all:
            message = f"{self.spectators_in_all} spectators are watching: try again later"
            raise TableError("too_many_spectators", message, 503, retry_after=5.0)
        if self._kinds.get((place.key, "watching"), 0) >= self.spectators_per_address:
            message = f"{self.spectators_per_address} spectators watch from {place.address}"
            raise TableError("too_many_spectators", message, 429, retry_after=5.0)
        self._count(place, -1)
        place.kind = "watching"
        self._count(place, 1)

    def held(self, kind: Kind) -> int:
        """How many places of ``kind`` are held now."""
        return sum(n for (_, k), n in self._kinds.items() if k == kind)

    def closed(self, place: Place) -> None:
        left = self._open.get(place.address, 0) - 1
        if left > 0:
            self._open[place.address] = left
        else:
            self._open.pop(place.address, None)
        self.total -= 1
        self._count(place, -1)

    def _count(self, place: Place, step: int) -> None:
        k = (place.key, place.kind)
        n = self._kinds.get(k, 0) + step
        if n > 0:
            self._kinds[k] = n
        else:
            self._kinds.pop(k, None)
        if place.kind == "watching":
            self.spectators += step


def _loopback(address: str) -> bool:
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def generous(factor: int = 1000) -> tuple[dict[str, Share], dict[str, Share]]:
    """Every share ``factor`` times the service's (for test suites that make many tables
    and messages from one address in a moment)."""
    scale = {k: Share(s.burst * factor, s.rate * factor) for k, s in MESSAGE_SHARES.items()}
    scale["other"] = Share(OTHER.burst * factor, OTHER.rate * factor)
    wide = {k: Share(s.burst * factor, s.rate * factor) for k, s in ADDRESS_SHARES.items()}
    return scale, wide


def retry_after(e: TableError) -> str | None:
    """The ``Retry-After`` header of a refusal (whole seconds, rounded up), if it has one."""
    wait = e.retry_after
    return None if wait is None else str(max(1, math.ceil(wait)))
