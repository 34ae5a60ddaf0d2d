"""A club's members and guests, and their one-time links.

A member is made by the owner (``domeng members add NAME``) or an admin (the members'
page), without a password: they are given a one-time link, ``/?claim=CODE``, with which
the member sets their own (``POST /api/members/claim``). A member's profile is their
account (the member's id is the profile's). A guest is invited by an admin for one
table; their link signs them in without a password, and only to that table.

The functions here run in the storage's thread (``StorageWriter.call``) or, for the
command line, on an open :class:`~domeng.storage.Storage`.
"""

from __future__ import annotations

import secrets
from typing import NamedTuple

from pydantic_core import PydanticCustomError

from domeng.storage import (
    GUEST,
    MEMBER,
    PERSON,
    AuditEntry,
    Figures,
    Storage,
    StorageError,
    StoredLink,
    StoredMember,
    StoredProfile,
)

from ..bodies import check_name
from ..tables import TableError, hash_token

LINK_DAYS = 7
"""Days a member's link may be used."""
GUEST_HOURS = 24
"""Hours a guest's link, and a guest's session, last."""
DAY = 86_400.0


class Made(NamedTuple):
    member: StoredMember
    code: str
    """The one-time link's code (kept only as its hash)."""


def link_address(base: str, code: str, *, guest: bool = False) -> str:
    """The link a member opens: the start page with their code (a guest's: ``?guest=``,
    signed in without a password)."""
    return f"{base.rstrip('/')}/?{'guest' if guest else 'claim'}={code}"


def new_link(s: Storage, member: StoredMember, at: float) -> str:
    """A new one-time link for ``member`` (their older ones are spent by it)."""
    code = secrets.token_urlsafe(18)
    days = GUEST_HOURS / 24 if member.role == GUEST else LINK_DAYS
    s.add_link(StoredLink(hash_token(code), member.id, at + days * DAY))
    return code


def add_member(
    s: Storage, name: str, role: str, at: float, *, table: str | None = None, by: str = "owner"
) -> Made:
    """Make a member (``role``: owner, admin, member) with the profile of their name, or
    a guest of ``table``; with their first link, and the action in the audit log."""
    try:
        name = check_name(name)
    except PydanticCustomError as e:
        raise TableError("bad_name", f"a name {e.message()}", 422) from None
    taken = TableError("name_taken", f"the name {name!r} is taken in this club", 409)
    if s.member(name=name) is not None:
        raise taken
    if role == GUEST:
        mid = "g-" + secrets.token_hex(6)
    else:
        profile = s.profile(name=name)
        if profile is None:
            mid = "p-" + secrets.token_hex(6)
            while s.profile(id=mid) is not None:
                mid = "p-" + secrets.token_hex(6)
            made = StoredProfile(
                mid, name, "en", "blue", PERSON, secrets.token_urlsafe(24), at,
                Figures(25.0, 25 / 3),
            )  # fmt: skip
            s.create_profile(made)
        elif profile.kind != PERSON or s.member(id=profile.id) is not None:
            raise taken
        else:  # the home's profile of that name becomes the member's account
            mid = profile.id
    member = StoredMember(mid, name, role, at, table=table)
    try:
        s.create_member(member)
    except StorageError:
        raise taken from None
    code = new_link(s, member, at)
    s.add_audit(AuditEntry(at, by, "add", name, role + (f" {table}" if table else "")))
    return Made(member, code)


def find_member(s: Storage, member_id: str) -> StoredMember:
    found = s.member(id=member_id)
    if found is None:
        raise TableError("unknown_member", f"there is no member {member_id!r}", 404)
    return found


def linked_member(s: Storage, code: str, at: float) -> StoredMember:
    """The member a link's code is for, while it may be used (else its refusal)."""
    link = s.link(hash_token(code))
    member = None if link is None else s.member(id=link.member)
    if link is None or member is None:
        raise TableError("unknown_link", "that link is not one of this club's", 404)
    if link.spent:
        raise TableError(
            "spent_link", "that link was used already: ask an admin for a new one", 410
        )
    if link.expires <= at:
        raise TableError("expired_link", "that link has expired: ask an admin for a new one", 410)
    if member.suspended:
        raise TableError("member_suspended", f"{member.name} is suspended from the club", 403)
    return member


def claim(s: Storage, code: str, password_hash: str | None, at: float) -> StoredMember:
    """Spend a link, setting its member's password (a guest's: none)."""
    member = linked_member(s, code, at)
    try:
        s.spend_link(hash_token(code))
    except StorageError:  # spent meanwhile, by another request
        raise TableError("spent_link", "that link was used already", 410) from None
    if password_hash is not None:
        member.password = password_hash
        s.save_member(member)
    return member


SIGNUP = "signup"
"""The club's setting that opens sign-up to anyone ("open"; else closed)."""


def signup_open(s: Storage) -> bool:
    """Whether an admin opened sign-up to anyone."""
    return s.club_setting(SIGNUP) == "open"


def sign_up(s: Storage, name: str, password_hash: str, at: float) -> StoredMember:
    """A new member who signed up by themselves (sign-up must be open)."""
    if not signup_open(s):
        raise TableError(
            "signup_closed", "members are made by the club's admins: ask one for a link", 403
        )
    made = add_member(s, name, MEMBER, at, by=name)
    s.spend_link(hash_token(made.code))
    made.member.password = password_hash
    s.save_member(made.member)
    return made.member
