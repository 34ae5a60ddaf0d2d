"""Who may do what in a club: the owner above the admins, the admins above the members,
a guest at its one table only."""

from __future__ import annotations

from domeng.storage import ADMIN, GUEST, MEMBER, OWNER, StoredMember

from ..tables import TableError

RANK = {OWNER: 3, ADMIN: 2, MEMBER: 1, GUEST: 0}


def is_admin(m: StoredMember) -> bool:
    """An admin or the owner."""
    return RANK[m.role] >= RANK[ADMIN]


def need_admin(m: StoredMember) -> None:
    if not is_admin(m):
        raise TableError("not_admin", "only the club's admins may do that", 403)


def may_act_on(actor: StoredMember, target: StoredMember) -> None:
    """An admin acts on those below them only (the owner on everyone but themselves)."""
    need_admin(actor)
    if actor.id == target.id or RANK[target.role] >= RANK[actor.role]:
        raise TableError(
            "outranked", f"{actor.name} may not do that to {target.name} ({target.role})", 403
        )


def may_give(actor: StoredMember, role: str) -> None:
    """An admin makes members and guests; only the owner makes admins."""
    need_admin(actor)
    if RANK[role] >= RANK[actor.role]:
        raise TableError("outranked", f"only someone above {role} may make one", 403)
