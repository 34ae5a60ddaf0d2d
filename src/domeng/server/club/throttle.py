"""Sign-in guesses, counted per account and per client address.

A few wrong guesses are free; after them each further one locks the account (or the
address) for a time that doubles, up to :data:`LONGEST`: a guesser gets a handful of
tries an hour, a member who mistyped waits a second. A right password clears its
account's count (not its address's: one member signing in does not free an address
that guesses at others). While locked, a sign-in is refused with ``429
too_many_guesses`` and ``Retry-After`` before its password is even looked at.

The counts are kept in the storage as they change (:class:`~domeng.storage.StoredGuesses`)
and read back at the start (:meth:`Guesses.load`), in Unix time: a restart of the service
forgives no guess. The counts of a long quiet (:data:`LONGEST`) are purged with the
club's other spent rows (:mod:`.purge`).
"""

from __future__ import annotations

from dataclasses import dataclass

from domeng.storage import StoredGuesses

from ..clock import Clock
from ..tables import TableError

ACCOUNT_FREE = 5
"""Wrong guesses at one account before it is locked."""
ADDRESS_FREE = 20
"""Wrong guesses from one client address (at any accounts) before it is locked."""
FIRST = 1.0
"""The first lock, in seconds; each further wrong guess doubles it."""
LONGEST = 900.0
"""The longest lock, in seconds."""
KEPT = 10_000
"""Counts kept at most per kind (the oldest are forgotten first)."""


@dataclass(slots=True)
class _Count:
    wrong: int = 0
    until: float = 0.0
    last: float = 0.0


ACCOUNT, ADDRESS = "account", "address"
"""The kinds of counts kept (:attr:`StoredGuesses.kind`)."""


class Throttle:
    """Wrong guesses per key (an account's name, or an address); see the module."""

    def __init__(self, clock: Clock, free: int, kind: str) -> None:
        self.clock = clock
        self.free = free
        self.kind = kind
        self._counts: dict[str, _Count] = {}

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may guess again (0: now)."""
        c = self._counts.get(key)
        return 0.0 if c is None else max(0.0, c.until - self.clock.wall())

    def load(self, kept: StoredGuesses) -> None:
        """A count read back from the storage."""
        self._counts[kept.name] = _Count(kept.wrong, kept.locked_until, kept.last)

    def wrong(self, key: str) -> StoredGuesses:
        """Count a wrong guess at ``key``; answers the count to keep."""
        now = self.clock.wall()
        c = self._counts.pop(key, None) or _Count()
        if c.last and now - c.last > LONGEST:  # a long quiet: counted afresh
            c = _Count()
        c.wrong += 1
        c.last = now
        if c.wrong > self.free:
            c.until = now + min(LONGEST, FIRST * 2 ** (c.wrong - self.free - 1))
        self._counts[key] = c  # the newest last: the oldest are forgotten first
        while len(self._counts) > KEPT:
            del self._counts[next(iter(self._counts))]
        return StoredGuesses(self.kind, key, c.wrong, c.until, c.last)

    def clear(self, key: str) -> bool:
        """Forget ``key``'s count; answers whether there was one."""
        return self._counts.pop(key, None) is not None


class Guesses:
    """The two throttles of signing in."""

    def __init__(self, clock: Clock) -> None:
        self.accounts = Throttle(clock, ACCOUNT_FREE, ACCOUNT)
        self.addresses = Throttle(clock, ADDRESS_FREE, ADDRESS)

    def load(self, kept: list[StoredGuesses]) -> None:
        """The counts kept in the storage, the oldest first (as :meth:`Storage.guesses`)."""
        for g in kept:
            (self.accounts if g.kind == ACCOUNT else self.addresses).load(g)

    def check(self, name: str, address: str) -> None:
        """Refuse a guess while its account or its address is locked."""
        wait = max(self.accounts.wait(name.casefold()), self.addresses.wait(address))
        if wait > 0:
            raise TableError(
                "too_many_guesses",
                f"too many wrong passwords: try again in {wait:.0f} s",
                429,
                retry_after=wait,
            )

    def wrong(self, name: str, address: str) -> list[StoredGuesses]:
        """Count a wrong guess; answers the two counts to keep."""
        return [self.accounts.wrong(name.casefold()), self.addresses.wrong(address)]

    def right(self, name: str) -> StoredGuesses | None:
        """A right password: its account's count is forgotten (answered, to forget it in
        the storage too; None: there was none)."""
        key = name.casefold()
        return StoredGuesses(ACCOUNT, key, 0, 0.0, 0.0) if self.accounts.clear(key) else None
