"""What a club keeps (``domeng serve --club``): its members, their one-time links and
sessions, the admins' audit log, the chat's reports and hidden messages, and the wrong
sign-in guesses counted (so that a restart does not forgive them).

:class:`ClubStorage` is what keeps them: a part each backend holds (the SQL backends'
queries, :mod:`.sql_club`; the memory backend's dicts, :mod:`.memory_club`) and to
which the :class:`~domeng.storage.base.Storage` interface's club methods go. Nothing
here knows a password: a member's password is kept as its Argon2id hash, a link's code
and a session's token as their SHA-256.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass

OWNER, ADMIN, MEMBER, GUEST = "owner", "admin", "member", "guest"
ROLES = (OWNER, ADMIN, MEMBER, GUEST)
"""A member's roles, the highest first (a guest plays at one table only)."""


@dataclass(slots=True)
class StoredMember:
    """One member of the club (a member's id is their profile's; a guest has none)."""

    id: str
    name: str
    role: str
    created: float
    password: str | None = None
    """The Argon2id hash of their password (None until they set it by their link)."""
    suspended: bool = False
    muted_until: float = 0.0
    """Until when (Unix time) they may not talk at a table (0: never muted)."""
    table: str | None = None
    """A guest's one table (None for members)."""


@dataclass(slots=True)
class StoredLink:
    """A one-time link with which a member sets their password."""

    code_hash: str
    member: str
    expires: float
    spent: bool = False


@dataclass(slots=True)
class StoredSession:
    """A signed-in browser: the SHA-256 of its cookie's token."""

    token_hash: str
    member: str
    created: float
    expires: float


@dataclass(slots=True)
class AuditEntry:
    """One admin action: who did what to whom, and when."""

    at: float
    actor: str
    action: str
    target: str
    detail: str = ""


@dataclass(slots=True)
class ChatReport:
    """A chat message a player reported (``said_at``: the message's ``at``)."""

    table_id: str
    said_at: float
    reporter: str
    seat: int | None
    name: str
    text: str | None
    phrase: str | None
    at: float
    settled: bool = False


@dataclass(slots=True)
class StoredGuesses:
    """The wrong sign-in guesses counted at one account or from one address."""

    kind: str
    """``account`` (``name`` a member's name, folded) or ``address`` (a client's)."""
    name: str
    wrong: int
    locked_until: float
    """Until when (Unix time) no guess is taken (0: not locked)."""
    last: float
    """When (Unix time) the last wrong guess was made."""


class NoClub(Exception):
    """A storage without the club's part was asked for it."""


class ClubStorage(ABC):
    """The club's part of a storage (see the module docstring). Every backend of Domeng
    holds one (the contract: tests/server/test_storage_club_contract.py); a storage
    written for something else (a test's wrapper) may hold none, and then answers
    :class:`NoClub` when asked."""

    @abstractmethod
    def create_member(self, member: StoredMember) -> None:
        """Store a new member (StorageError when its id, or its name in any case, is
        taken)."""

    @abstractmethod
    def member(self, *, id: str | None = None, name: str | None = None) -> StoredMember | None:
        """The member with that id, or that name (case aside)."""

    @abstractmethod
    def members(self) -> list[StoredMember]:
        """Every member and guest, by name (case aside)."""

    @abstractmethod
    def save_member(self, member: StoredMember) -> None:
        """Replace a stored member (StorageError when there is none)."""

    @abstractmethod
    def remove_member(self, member_id: str) -> None:
        """Take a member out, with their links and sessions (StorageError: none)."""

    @abstractmethod
    def add_link(self, link: StoredLink) -> None:
        """Keep a new one-time link; the member's older links are spent by it."""

    @abstractmethod
    def link(self, code_hash: str) -> StoredLink | None:
        """The link of that code's hash."""

    @abstractmethod
    def spend_link(self, code_hash: str) -> None:
        """Spend a link (StorageError when there is none, or it is spent: a link sets a
        password once, also when two use it at once)."""

    @abstractmethod
    def add_session(self, session: StoredSession) -> None:
        """Keep a new session."""

    @abstractmethod
    def session(self, token_hash: str) -> StoredSession | None:
        """The session of that token's hash."""

    @abstractmethod
    def end_sessions(self, member_id: str, token_hash: str | None = None) -> int:
        """End one of a member's sessions, or all of them (``token_hash`` None); answers
        how many ended."""

    @abstractmethod
    def add_audit(self, entry: AuditEntry) -> None:
        """Keep an admin action."""

    @abstractmethod
    def audit(self, limit: int) -> list[AuditEntry]:
        """The last ``limit`` admin actions, newest first."""

    @abstractmethod
    def add_report(self, report: ChatReport) -> None:
        """Keep a report (StorageError when that player reported that message already)."""

    @abstractmethod
    def reports(self) -> list[ChatReport]:
        """The reports not yet settled, oldest first."""

    @abstractmethod
    def settle_reports(self, table_id: str, said_at: float) -> None:
        """Mark every report of one message settled."""

    @abstractmethod
    def hide_chat(self, table_id: str, said_at: float) -> None:
        """Hide a message for everyone, for good."""

    @abstractmethod
    def hidden_chat(self) -> set[tuple[str, float]]:
        """Every hidden message, as (table, ``at``)."""

    @abstractmethod
    def club_setting(self, name: str) -> str | None:
        """A setting of the club (None: never set)."""

    @abstractmethod
    def set_club_setting(self, name: str, value: str) -> None:
        """Set a setting of the club (replacing its value)."""

    @abstractmethod
    def guesses(self) -> list[StoredGuesses]:
        """Every count of wrong sign-in guesses kept, the oldest last guess first."""

    @abstractmethod
    def save_guesses(self, guesses: StoredGuesses) -> None:
        """Keep a count of wrong guesses (replacing the one of its kind and name)."""

    @abstractmethod
    def forget_guesses(self, kind: str, name: str) -> None:
        """Forget a count of wrong guesses (none: nothing happens)."""

    @abstractmethod
    def purge_club(self, now: float, links_before: float, guesses_before: float) -> int:
        """Remove what is over: the sessions that ended by ``now``, the links (spent or
        not) that expired by ``links_before``, the counts of guesses last made by
        ``guesses_before``; answers how many rows went."""
