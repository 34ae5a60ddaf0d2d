"""The memory backend's part for a club (storage/club.py): the same contract as
:mod:`.sql_club`, in dicts."""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable

from . import club
from .base import StorageError
from .club import AuditEntry, ChatReport, StoredGuesses, StoredLink, StoredMember, StoredSession


@dataclasses.dataclass
class _Club:
    members: dict[str, StoredMember] = dataclasses.field(default_factory=dict)
    links: dict[str, StoredLink] = dataclasses.field(default_factory=dict)
    sessions: dict[str, StoredSession] = dataclasses.field(default_factory=dict)
    audit: list[AuditEntry] = dataclasses.field(default_factory=list)
    reports: dict[tuple[str, float, str], ChatReport] = dataclasses.field(default_factory=dict)
    hidden: set[tuple[str, float]] = dataclasses.field(default_factory=set)
    settings: dict[str, str] = dataclasses.field(default_factory=dict)
    guesses: dict[tuple[str, str], StoredGuesses] = dataclasses.field(default_factory=dict)


class MemoryClub(club.ClubStorage):
    """The club of a :class:`~domeng.storage.memory.MemoryStorage`, which holds one and
    gives it its ``check_open`` (StorageError once the storage is closed)."""

    def __init__(self, check_open: Callable[[], None]) -> None:
        self._check_open = check_open
        self._club_kept = _Club()

    def _club(self) -> _Club:
        self._check_open()
        return self._club_kept

    def create_member(self, member: StoredMember) -> None:
        c = self._club()
        if member.id in c.members:
            raise StorageError(f"member {member.id!r} is stored already")
        if any(m.name.casefold() == member.name.casefold() for m in c.members.values()):
            raise StorageError(f"the name {member.name!r} is taken")
        c.members[member.id] = copy.copy(member)

    def member(self, *, id: str | None = None, name: str | None = None) -> StoredMember | None:
        for m in self._club().members.values():
            if (id is not None and m.id == id) or (
                id is None and name is not None and m.name.casefold() == name.casefold()
            ):
                return copy.copy(m)
        return None

    def members(self) -> list[StoredMember]:
        kept = self._club().members.values()
        return [copy.copy(m) for m in sorted(kept, key=lambda m: (m.name.casefold(), m.id))]

    def save_member(self, member: StoredMember) -> None:
        c = self._club()
        if member.id not in c.members:
            raise StorageError(f"there is no member {member.id!r}")
        c.members[member.id] = copy.copy(member)

    def remove_member(self, member_id: str) -> None:
        c = self._club()
        if c.members.pop(member_id, None) is None:
            raise StorageError(f"there is no member {member_id!r}")
        c.links = {k: v for k, v in c.links.items() if v.member != member_id}
        c.sessions = {k: v for k, v in c.sessions.items() if v.member != member_id}

    def add_link(self, link: StoredLink) -> None:
        c = self._club()
        if link.member not in c.members:
            raise StorageError(f"there is no member {link.member!r}")
        if link.code_hash in c.links:
            raise StorageError("that link is stored already")
        for other in c.links.values():
            if other.member == link.member:
                other.spent = True
        c.links[link.code_hash] = copy.copy(link)

    def link(self, code_hash: str) -> StoredLink | None:
        found = self._club().links.get(code_hash)
        return copy.copy(found) if found is not None else None

    def spend_link(self, code_hash: str) -> None:
        found = self._club().links.get(code_hash)
        if found is None or found.spent:
            raise StorageError("there is no such link to spend")
        found.spent = True

    def add_session(self, session: StoredSession) -> None:
        c = self._club()
        if session.member not in c.members:
            raise StorageError(f"there is no member {session.member!r}")
        if session.token_hash in c.sessions:
            raise StorageError("that session is stored already")
        c.sessions[session.token_hash] = copy.copy(session)

    def session(self, token_hash: str) -> StoredSession | None:
        found = self._club().sessions.get(token_hash)
        return copy.copy(found) if found is not None else None

    def end_sessions(self, member_id: str, token_hash: str | None = None) -> int:
        c = self._club()
        ending = [
            k
            for k, v in c.sessions.items()
            if v.member == member_id and (token_hash is None or k == token_hash)
        ]
        for k in ending:
            del c.sessions[k]
        return len(ending)

    def add_audit(self, entry: AuditEntry) -> None:
        self._club().audit.append(copy.copy(entry))

    def audit(self, limit: int) -> list[AuditEntry]:
        kept = self._club().audit
        return [copy.copy(e) for e in reversed(kept[-limit:] if limit > 0 else [])]

    def add_report(self, report: ChatReport) -> None:
        c = self._club()
        key = (report.table_id, report.said_at, report.reporter)
        if key in c.reports:
            raise StorageError("that player reported that message already")
        c.reports[key] = copy.copy(report)

    def reports(self) -> list[ChatReport]:
        kept = (r for r in self._club().reports.values() if not r.settled)
        return [copy.copy(r) for r in sorted(kept, key=lambda r: (r.at, r.table_id, r.said_at))]

    def settle_reports(self, table_id: str, said_at: float) -> None:
        for r in self._club().reports.values():
            if r.table_id == table_id and r.said_at == said_at:
                r.settled = True

    def hide_chat(self, table_id: str, said_at: float) -> None:
        self._club().hidden.add((table_id, said_at))

    def hidden_chat(self) -> set[tuple[str, float]]:
        return set(self._club().hidden)

    def club_setting(self, name: str) -> str | None:
        return self._club().settings.get(name)

    def set_club_setting(self, name: str, value: str) -> None:
        self._club().settings[name] = value

    def guesses(self) -> list[StoredGuesses]:
        kept = self._club().guesses.values()
        return [copy.copy(g) for g in sorted(kept, key=lambda g: (g.last, g.kind, g.name))]

    def save_guesses(self, guesses: StoredGuesses) -> None:
        self._club().guesses[guesses.kind, guesses.name] = copy.copy(guesses)

    def forget_guesses(self, kind: str, name: str) -> None:
        self._club().guesses.pop((kind, name), None)

    def purge_club(self, now: float, links_before: float, guesses_before: float) -> int:
        c = self._club()
        before = len(c.sessions) + len(c.links) + len(c.guesses)
        c.sessions = {k: v for k, v in c.sessions.items() if v.expires > now}
        c.links = {k: v for k, v in c.links.items() if v.expires > links_before}
        c.guesses = {k: v for k, v in c.guesses.items() if v.last > guesses_before}
        return before - len(c.sessions) - len(c.links) - len(c.guesses)
