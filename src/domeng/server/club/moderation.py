"""Keeping a club's tables civil: reports, hidden messages, mutes and suspensions.

Any player at a table may report a message said there; an admin sees the reports
(``GET /api/reports``), hides a message for everyone (it is taken out of the table's
talk, every connection is told ``chat_hidden``, and it stays hidden after a restart),
mutes a member for a time (their messages are refused ``muted``), suspends them (their
sessions end, their WebSockets close, their seats pass to the table's stand-in) or
removes them. Every admin action is written in the audit log.
"""

from __future__ import annotations

import dataclasses

from domeng.storage import (
    AuditEntry,
    ChatReport,
    Storage,
    StorageError,
    StoredChat,
    StoredMember,
)

from ..chat import Chat
from ..clock import Clock
from ..connection import Connection
from ..documents import ChatDoc
from ..messages import Chat as ChatMessage
from ..tables import Table, TableError, invite_code
from .in_step import take_out
from .roles import may_act_on, need_admin
from .state import Club

MAX_MUTE_MINUTES = 7 * 24 * 60
"""The longest mute, in minutes (a week); longer is a suspension."""


class ClubChat(Chat):
    """The table's talk, where a muted member's words are refused."""

    def __init__(self, clock: Clock, club: Club) -> None:
        super().__init__(clock)
        self.club = club

    def check(self, t: Table, c: Connection, msg: ChatMessage) -> StoredChat:
        # the connection's member (seated or watching), else the seat's profile's
        who = c.member or (t.seats[c.seat].stored.profile if c.seat is not None else None)
        if who is not None:
            until = self.club.mutes.get(who, 0.0)
            wait = until - self.clock.wall()
            if wait > 0:
                raise TableError(
                    "muted", f"an admin muted you: you may talk again in {wait / 60:.0f} min"
                )
        return super().check(t, c, msg)


def said(t: Table, at: float) -> ChatDoc:
    """The message said at ``t`` at ``at`` (its ``at`` names it)."""
    for c in t.chat:
        if c["at"] == at:
            return c
    raise TableError("unknown_message", f"no message said at {at} is kept at this table", 404)


def audit(
    s: Storage, at: float, actor: StoredMember, action: str, target: str, detail: str = ""
) -> None:
    s.add_audit(AuditEntry(at, actor.name, action, target, detail))


async def report(club: Club, t: Table, reporter: StoredMember, at: float) -> None:
    c = said(t, at)
    r = ChatReport(
        t.id, at, reporter.id, c["seat"], c["name"], c.get("text"), c.get("phrase"),
        club.clock.wall(),
    )  # fmt: skip
    try:
        await club.store.call(lambda s: s.add_report(r))
    except StorageError:
        raise TableError("already_reported", "you reported that message already", 409) from None


async def hide(club: Club, t: Table, admin: StoredMember, at: float) -> None:
    need_admin(admin)
    c = said(t, at)
    now = club.clock.wall()

    def kept(s: Storage) -> None:
        with s.batch():
            s.hide_chat(t.id, at)
            s.settle_reports(t.id, at)
            audit(s, now, admin, "hide", c["name"], f"{t.id}: {c.get('text') or c.get('phrase')}")

    await club.store.call(kept)
    club.hidden.add((t.id, at))
    take_out(t, at)


async def mute(club: Club, admin: StoredMember, target: StoredMember, minutes: int) -> float:
    """Mute ``target`` for ``minutes`` (0: no longer); answers until when."""
    may_act_on(admin, target)
    now = club.clock.wall()
    until = now + minutes * 60 if minutes else 0.0
    target.muted_until = until

    def kept(s: Storage) -> None:
        with s.batch():
            s.save_member(target)
            audit(s, now, admin, "mute", target.name, f"{minutes} min")

    await club.store.call(kept)
    if until:
        club.mutes[target.id] = until
    else:
        club.mutes.pop(target.id, None)
    return until


async def suspend(club: Club, admin: StoredMember, target: StoredMember, suspended: bool) -> None:
    """Suspend ``target`` (their sessions end, their seats pass to the stand-in), or let
    them back."""
    may_act_on(admin, target)
    now = club.clock.wall()
    target.suspended = suspended

    def kept(s: Storage) -> None:
        with s.batch():
            s.save_member(target)
            if suspended:
                s.end_sessions(target.id)
            audit(s, now, admin, "suspend" if suspended else "restore", target.name)

    await club.store.call(kept)
    if suspended:
        club.shut.add(target.id)
        await shut_out(club, target.id)
    else:
        club.shut.discard(target.id)


async def remove(club: Club, admin: StoredMember, target: StoredMember) -> None:
    """Take ``target`` out of the club (their profile and its history stay)."""
    may_act_on(admin, target)
    now = club.clock.wall()

    def kept(s: Storage) -> None:
        with s.batch():
            s.remove_member(target.id)
            audit(s, now, admin, "remove", target.name)

    await club.store.call(kept)
    club.mutes.pop(target.id, None)
    await shut_out(club, target.id)


async def shut_out(club: Club, member_id: str) -> None:
    """End a member's WebSockets now, and pass their seats to each table's stand-in: the
    seats that count for their profile and those whose tokens were handed to them (a
    guest's, one taken without the profile: the seat keeps who it was handed to, so a
    restart or another process forgets none)."""
    club.end_sockets(member_id)
    hub = club.hub
    for t in await hub.all_tables():  # those still being read at a start too
        for n, s in enumerate(t.seats):
            if s.stored.token_hash is None:
                continue
            if member_id not in (s.stored.profile, s.stored.member):
                continue
            async with t.lock:
                code = None if s.stored.open else invite_code()
                left = dataclasses.replace(
                    s.stored, token_hash=None, name=f"Seat {n}", invite=code, timeouts=0,
                    profile=None, member=None,
                )  # fmt: skip
                await hub.change_seat(t, n, left)
