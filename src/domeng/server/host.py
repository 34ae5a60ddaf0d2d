"""The host's say at a table: invitations, a seat handed to a computer or opened to a
new person, the end of the game, the same players again, a finished table removed.

Whoever creates a table gets the host's token. ``POST /api/tables/{id}/host`` with
that token and an ``action`` (:class:`HostAction`) comes here; every change goes
through the table's own steps (stored first, under the table's lock); ``again`` and
``remove`` go through the registry, which makes and forgets tables.
"""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Literal

from pydantic import Field

from domeng.engine.seatname import name_key, seat_name

from .bodies import (
    ComputerSeat,
    EndBody,
    Level,
    NewTable,
    PersonSeat,
    VariantsBody,
    _Body,
)
from .documents import HostAnswerDoc, NewTableDoc
from .errors import TableError
from .names import default_names, shown, shown_name
from .players import default_level
from .profiles import token_of
from .refusals import Rule, Wording
from .seats import invite_code
from .waits import SEAT_SECONDS, waits_for_ready

if TYPE_CHECKING:
    from .registry import Created, Registry
    from .tables import Table


class HostAction(_Body):
    """``POST /api/tables/{id}/host``."""

    token: str = Field(description="the host's token")
    action: Literal[
        "invites", "replace", "invite", "end", "again", "remove", "start", "wait", "next_round"
    ]
    seat: int | None = Field(default=None, description="the seat, for replace and invite")
    level: Level | None = Field(default=None, description="the computer player, for replace")


HOST_WORDS = Wording(
    status=422,
    rules={
        "token": Rule("missing_token", "must be a text"),
        "action": Rule(
            "bad_body",
            "must be invites, replace, invite, end, again, remove, start, wait or next_round",
        ),
        "seat": Rule("bad_body", "must be a seat number"),
        "level": Rule("bad_level", "must name one of GET /api's levels"),
    },
    missing=lambda name: ("bad_body", f"the body needs {name!r}"),
    special=lambda e: (
        TableError("missing_token", 'the host\'s token is needed: {"token": "..."}', 401)
        if tuple(e["loc"]) == ("token",)
        else None
    ),
)


async def act(hub: Registry, t: Table, body: HostAction) -> HostAnswerDoc | NewTableDoc:
    """Do the host's ``action`` at ``t``; answers what the action says (docs/protocol.md)."""
    if not t.is_host(body.token):
        raise TableError("not_host", "that is not the host's token of this table", 403)
    if body.action == "invites":
        return {"table": t.public_json(), "invites": _links(t)}
    if body.action == "again":
        created = (await again(hub, t)).json()
        created["tokens"] = {}  # each person's comes to their own connection, to them alone
        return created
    if body.action == "remove":
        if not t.finished:
            raise TableError("not_finished", "only a finished game can be removed", 409)
        await hub.remove_table(t)
        return {"table": t.public_json()}
    if body.action == "end":
        if t.finished:
            raise TableError("game_over", "this game is over", 409)
        await t.end("host")
        return {"table": t.public_json()}
    if t.finished:
        raise TableError("game_over", "this game is over", 409)
    if body.action in ("start", "wait", "next_round"):
        await _go_on(t, body.action)
        return {"table": t.public_json()}
    if body.seat is None:
        raise TableError("bad_body", f"{body.action} needs a 'seat'", 422)
    seat = body.seat
    s = t.seat(seat)
    async with t.lock:
        if body.action == "replace":
            if s.stored.kind != "person":
                raise TableError("computer_seat", f"seat {seat} is a computer player's", 409)
            level = body.level or default_level()
            names = [shown_name(x.stored) for x in t.seats]  # the seat's own is not counted
            new = dataclasses.replace(
                s.stored,
                kind="computer",
                level=level,
                name=seat_name(default_names(names, [seat])[seat], level),
                token_hash=None,
                invite=None,
                open=False,
                timeouts=0,
                member=None,
            )
        else:  # invite: from the next round on, a new person's seat
            if s.stored.kind != "computer":
                raise TableError("person_seat", f"seat {seat} is a person's", 409)
            new = dataclasses.replace(
                s.stored,
                kind="person",
                level=None,
                name=f"Seat {seat}",
                token_hash=None,
                invite=invite_code(),
                open=False,
                sits_from=len(t.game.rounds) + 1,
                ready=0,
                profile=None,
                member=None,
            )
        await t.change_seat(seat, new)
    await t.first_deal()
    answer: HostAnswerDoc = {"table": t.public_json()}
    if body.action == "invite":
        answer["invites"] = _links(t)
    return answer


async def _go_on(t: Table, action: str) -> None:
    """The host does not wait for the table's wait to be over (:mod:`.waits`): ``start``
    deals now with a computer in each seat nobody took, ``wait`` gives those seats
    their whole time again, ``next_round`` starts it without whoever is not ready."""
    kind = t.wait.kind if t.wait is not None else None
    wanted = "ready" if action == "next_round" else "seats"
    if wanted == "ready" and waits_for_ready(t):
        kind = "ready"  # a person alone at the table: waited for with no deadline
    if kind != wanted:
        what = "the people's ready" if wanted == "ready" else "a seat nobody took"
        raise TableError("not_waiting", f"the table is not waiting for {what}", 409)
    if action == "wait":
        t.waits.longer(t, SEAT_SECONDS)
        t.broadcast(events=[], kind="seats")
        return
    t.waits.stop(t)
    if action == "start":
        t.start_anyway = True
        t.advance()
        await t.first_deal()
    else:
        await t.go_on_without()


def _links(t: Table) -> dict[str, str]:
    return {str(n): link for n, link in t.invites().items()}


async def again(hub: Registry, t: Table) -> Created:
    """A new table with ``t``'s seats and settings. Every person connected at ``t`` is sent
    a token for the same seat at the new one; the others' seats are invited anew."""
    connected = {c.seat for c in t.seated if c.seat is not None}
    settings = t.settings
    people = {
        name_key(t.seats[n].stored.name) for n in connected if t.seats[n].stored.kind == "person"
    }
    seats: list[PersonSeat | ComputerSeat] = []
    for n, s in enumerate(t.seats):
        st = s.stored
        if st.kind == "computer":
            # named like a person (a table made before names were kept apart): renamed
            same = name_key(shown(st.kind, st.level, st.name)) in people
            name = None if same else st.name
            seats.append(ComputerSeat(kind="computer", level=st.level, name=name))
        elif n in connected:  # under the same profile, if any
            profile = await token_of(hub.store, st.profile) if st.profile else None
            seats.append(PersonSeat(kind="person", name=st.name, profile=profile))
        else:
            seats.append(PersonSeat(kind="person", open=st.open))
    end = (
        EndBody(rounds=settings.end_rounds)
        if settings.end_rounds is not None
        else EndBody(titles=settings.end_titles)
        if settings.end_titles is not None
        else None
    )
    body = NewTable(
        seats=seats,
        variants=VariantsBody(
            opening=settings.variants.opening.value,
            block_passes=settings.variants.block_passes.value,
        ),
        pace_ms=settings.pace_ms,
        stand_in=settings.stand_in,
        replace_after_ms=settings.replace_after_ms,
        end=end,
        turn_seconds=settings.turn_seconds,
        spectator_chat=settings.spectator_chat,
        hints=settings.hints,
    )
    created = await hub.create_table(body)
    for c in list(t.seated):
        if c.seat is not None and c.seat in created.tokens:
            c.send(
                {
                    "type": "again",
                    "table_id": created.table.id,
                    "seat": c.seat,
                    "token": created.tokens[c.seat],
                }
            )
        else:
            c.send({"type": "again", "table_id": created.table.id, "seat": None, "token": None})
    return created
