"""The SQL backends' part for a club (storage/club.py), written once for SQLite and
PostgreSQL. The tables are made by the sixth step of :data:`~domeng.storage.schema.STEPS`."""

from __future__ import annotations

from typing import Any

from . import club
from .base import StorageError
from .club import AuditEntry, ChatReport, StoredGuesses, StoredLink, StoredMember, StoredSession
from .sql import Access

_MEMBER = "id, name, role, created, password, suspended, muted_until, guest_table"
_REPORT = "table_id, said_at, reporter, seat, name, text, phrase, at, settled"


def _member(row: tuple[Any, ...]) -> StoredMember:
    mid, name, role, created, password, suspended, muted, table = row
    return StoredMember(mid, name, role, created, password, bool(suspended), muted, table)


def _report(row: tuple[Any, ...]) -> ChatReport:
    table_id, said_at, reporter, seat, name, text, phrase, at, settled = row
    return ChatReport(table_id, said_at, reporter, seat, name, text, phrase, at, bool(settled))


class SQLClub(club.ClubStorage):
    """The club of a SQL backend (each of :class:`~domeng.storage.sql.SQLStorage`'s holds
    one), kept through the backend's :class:`~domeng.storage.sql.Access`."""

    def __init__(self, access: Access) -> None:
        self._access = access

    def create_member(self, member: StoredMember) -> None:
        m = member
        with self._access.tx() as db:
            db.execute(
                f"INSERT INTO members ({_MEMBER}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (m.id, m.name, m.role, m.created, m.password, int(m.suspended),
                 m.muted_until, m.table),
            )  # fmt: skip

    def member(self, *, id: str | None = None, name: str | None = None) -> StoredMember | None:
        if id is not None:
            where, value = "id = ?", id
        elif name is not None:
            where, value = self._access.name_is, name
        else:
            return None
        with self._access.read() as db:
            row = db.execute(f"SELECT {_MEMBER} FROM members WHERE {where}", (value,)).fetchone()
        return None if row is None else _member(tuple(row))

    def members(self) -> list[StoredMember]:
        with self._access.read() as db:
            order = self._access.name_order
            rows = db.execute(f"SELECT {_MEMBER} FROM members ORDER BY {order}, id")
            return [_member(tuple(r)) for r in rows]

    def save_member(self, member: StoredMember) -> None:
        m = member
        with self._access.tx() as db:
            done = db.execute(
                "UPDATE members SET name = ?, role = ?, created = ?, password = ?, "
                "suspended = ?, muted_until = ?, guest_table = ? WHERE id = ?",
                (m.name, m.role, m.created, m.password, int(m.suspended), m.muted_until,
                 m.table, m.id),
            )  # fmt: skip
            if done.rowcount != 1:
                raise StorageError(f"there is no member {m.id!r}")

    def remove_member(self, member_id: str) -> None:
        with self._access.tx() as db:
            db.execute("DELETE FROM member_links WHERE member_id = ?", (member_id,))
            db.execute("DELETE FROM member_sessions WHERE member_id = ?", (member_id,))
            done = db.execute("DELETE FROM members WHERE id = ?", (member_id,))
            if done.rowcount != 1:
                raise StorageError(f"there is no member {member_id!r}")

    def add_link(self, link: StoredLink) -> None:
        with self._access.tx() as db:
            db.execute("UPDATE member_links SET spent = 1 WHERE member_id = ?", (link.member,))
            db.execute(
                "INSERT INTO member_links (code_hash, member_id, expires, spent) "
                "VALUES (?, ?, ?, ?)",
                (link.code_hash, link.member, link.expires, int(link.spent)),
            )

    def link(self, code_hash: str) -> StoredLink | None:
        with self._access.read() as db:
            row = db.execute(
                "SELECT code_hash, member_id, expires, spent FROM member_links WHERE code_hash = ?",
                (code_hash,),
            ).fetchone()
        return None if row is None else StoredLink(row[0], row[1], row[2], bool(row[3]))

    def spend_link(self, code_hash: str) -> None:
        with self._access.tx() as db:
            done = db.execute(
                "UPDATE member_links SET spent = 1 WHERE code_hash = ? AND spent = 0",
                (code_hash,),
            )
            if done.rowcount != 1:
                raise StorageError("there is no such link to spend")

    def add_session(self, session: StoredSession) -> None:
        s = session
        with self._access.tx() as db:
            db.execute(
                "INSERT INTO member_sessions (token_hash, member_id, created, expires) "
                "VALUES (?, ?, ?, ?)",
                (s.token_hash, s.member, s.created, s.expires),
            )

    def session(self, token_hash: str) -> StoredSession | None:
        with self._access.read() as db:
            row = db.execute(
                "SELECT token_hash, member_id, created, expires FROM member_sessions "
                "WHERE token_hash = ?",
                (token_hash,),
            ).fetchone()
        return None if row is None else StoredSession(*row)

    def end_sessions(self, member_id: str, token_hash: str | None = None) -> int:
        with self._access.tx() as db:
            if token_hash is None:
                done = db.execute("DELETE FROM member_sessions WHERE member_id = ?", (member_id,))
            else:
                done = db.execute(
                    "DELETE FROM member_sessions WHERE member_id = ? AND token_hash = ?",
                    (member_id, token_hash),
                )
            return int(done.rowcount)

    def add_audit(self, entry: AuditEntry) -> None:
        e = entry
        with self._access.tx() as db:
            db.execute(
                "INSERT INTO audit (n, at, actor, action, target, detail) "
                "SELECT COALESCE(MAX(n) + 1, 0), ?, ?, ?, ?, ? FROM audit",
                (e.at, e.actor, e.action, e.target, e.detail),
            )

    def audit(self, limit: int) -> list[AuditEntry]:
        with self._access.read() as db:
            rows = db.execute(
                "SELECT at, actor, action, target, detail FROM audit ORDER BY n DESC LIMIT ?",
                (max(limit, 0),),
            )
            return [AuditEntry(*r) for r in rows]

    def add_report(self, report: ChatReport) -> None:
        r = report
        with self._access.tx() as db:
            db.execute(
                f"INSERT INTO chat_reports ({_REPORT}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (r.table_id, r.said_at, r.reporter, r.seat, r.name, r.text, r.phrase, r.at,
                 int(r.settled)),
            )  # fmt: skip

    def reports(self) -> list[ChatReport]:
        with self._access.read() as db:
            rows = db.execute(
                f"SELECT {_REPORT} FROM chat_reports WHERE settled = 0 "
                "ORDER BY at, table_id, said_at"
            )
            return [_report(tuple(r)) for r in rows]

    def settle_reports(self, table_id: str, said_at: float) -> None:
        with self._access.tx() as db:
            db.execute(
                "UPDATE chat_reports SET settled = 1 WHERE table_id = ? AND said_at = ?",
                (table_id, said_at),
            )

    def hide_chat(self, table_id: str, said_at: float) -> None:
        with self._access.tx() as db:
            db.execute(
                "INSERT INTO hidden_chat (table_id, said_at) SELECT ?, ? WHERE NOT EXISTS "
                "(SELECT 1 FROM hidden_chat WHERE table_id = ? AND said_at = ?)",
                (table_id, said_at, table_id, said_at),
            )

    def hidden_chat(self) -> set[tuple[str, float]]:
        with self._access.read() as db:
            return {(t, at) for t, at in db.execute("SELECT table_id, said_at FROM hidden_chat")}

    def club_setting(self, name: str) -> str | None:
        with self._access.read() as db:
            row = db.execute("SELECT value FROM club_settings WHERE name = ?", (name,)).fetchone()
        return None if row is None else str(row[0])

    def set_club_setting(self, name: str, value: str) -> None:
        with self._access.tx() as db:
            db.execute(
                "INSERT INTO club_settings (name, value) VALUES (?, ?) "
                "ON CONFLICT (name) DO UPDATE SET value = excluded.value",
                (name, value),
            )

    def guesses(self) -> list[StoredGuesses]:
        with self._access.read() as db:
            rows = db.execute(
                "SELECT kind, name, wrong, locked_until, last_guess FROM sign_in_guesses "
                "ORDER BY last_guess, kind, name"
            )
            return [StoredGuesses(*r) for r in rows]

    def save_guesses(self, guesses: StoredGuesses) -> None:
        g = guesses
        with self._access.tx() as db:
            db.execute(
                "INSERT INTO sign_in_guesses (kind, name, wrong, locked_until, last_guess) "
                "VALUES (?, ?, ?, ?, ?) ON CONFLICT (kind, name) DO UPDATE SET "
                "wrong = excluded.wrong, locked_until = excluded.locked_until, "
                "last_guess = excluded.last_guess",
                (g.kind, g.name, g.wrong, g.locked_until, g.last),
            )

    def forget_guesses(self, kind: str, name: str) -> None:
        with self._access.tx() as db:
            db.execute("DELETE FROM sign_in_guesses WHERE kind = ? AND name = ?", (kind, name))

    def purge_club(self, now: float, links_before: float, guesses_before: float) -> int:
        with self._access.tx() as db:
            gone = db.execute("DELETE FROM member_sessions WHERE expires <= ?", (now,)).rowcount
            gone += db.execute(
                "DELETE FROM member_links WHERE expires <= ?", (links_before,)
            ).rowcount
            gone += db.execute(
                "DELETE FROM sign_in_guesses WHERE last_guess <= ?", (guesses_before,)
            ).rowcount
            return int(gone)
