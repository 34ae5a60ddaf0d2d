"""The club as the service holds it: its storage, who is muted, the WebSockets of each
member (ended at once when the member is suspended or removed), the sign-in throttles."""

from __future__ import annotations

import asyncio

from domeng.storage import GUEST, Storage, StoredMember

from ..bodies import NewTable, PersonSeat, TakeSeat
from ..hub import Hub
from ..tables import TableError, hash_token
from .purge import keep_purging, purge
from .throttle import Guesses


class Club:
    """One club service's members' side; ``app.state.club`` in club mode."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.store = hub.store
        self.clock = hub.clock
        self.guesses = Guesses(hub.clock)
        self.mutes: dict[str, float] = {}
        """Muted members (their profile's id) and until when (Unix time)."""
        self.hidden: set[tuple[str, float]] = set()
        """The messages an admin hid (a table's id, when it was said)."""
        self.sockets: dict[str, set[asyncio.Event]] = {}
        """Per member, one event per open WebSocket: set, the socket ends."""
        self.shut: set[str] = set()
        """Members suspended whose sockets and seats this process has let go (a club of
        several processes: :mod:`.in_step`)."""

    async def start(self) -> None:
        """The service's start: what is over purged (and again every hour: :mod:`.purge`),
        the counts of wrong guesses read back, the mutes read, the hidden messages kept out
        of the tables' talk, and the table's chat told of mutes (:mod:`.moderation`)."""
        from .moderation import ClubChat

        await purge(self.store, self.clock)  # what ended while the service was down
        self.guesses.load(await self.store.call(lambda s: s.guesses()))
        self.hub.services.chore(asyncio.create_task(keep_purging(self.store, self.clock)))
        members = await self.store.call(lambda s: s.members())
        self.mutes = {m.id: m.muted_until for m in members if m.muted_until}
        self.hidden = set(await self.store.call(lambda s: s.hidden_chat()))
        services = self.hub.services
        services.shown = lambda table_id, at: (table_id, at) not in self.hidden
        services.talk = lambda clock: ClubChat(clock, self)
        for t in self.hub.tables.values():  # those read already
            kept = [c for c in t.chat if (t.id, c["at"]) not in self.hidden]
            if len(kept) != len(t.chat):
                t.chat.clear()
                t.chat.extend(kept)
            t.talk = ClubChat(t.clock, self)
        self.shut = {m.id for m in members if m.suspended}
        if self.hub.leases is not None:  # several processes: their admins' actions, here
            from .in_step import keep_in_step

            self.hub.services.chore(asyncio.create_task(keep_in_step(self)))

    async def guessed_wrong(self, name: str, address: str) -> None:
        """A wrong guess at ``name`` from ``address``: counted, and kept."""
        counts = self.guesses.wrong(name, address)

        def kept(s: Storage) -> None:
            with s.batch():
                for g in counts:
                    s.save_guesses(g)

        await self.store.call(kept)

    async def guessed_right(self, name: str) -> None:
        """A right password: the account's count is forgotten, here and in the storage."""
        gone = self.guesses.right(name)
        if gone is not None:
            await self.store.call(lambda s: s.forget_guesses(gone.kind, gone.name))

    async def signed_in(self, token: str | None) -> StoredMember:
        """The member a session's token names (refused when none, ended or suspended)."""
        if token is None:
            raise TableError("not_signed_in", "sign in as a member of this club first", 401)
        now = self.clock.wall()
        member = await self.store.call(_session_member, hash_token(token), now)
        if member is None:
            raise TableError("not_signed_in", "that session has ended: sign in again", 401)
        if member.suspended:
            raise TableError("member_suspended", f"{member.name} is suspended from the club", 403)
        return member

    async def own_profile(self, member: StoredMember, token: str | None) -> None:
        """A seat counts for its member's own profile only (ratings are members')."""
        if token is None:
            return
        found = await self.store.call(lambda s: s.profile(token=token))
        if found is None or found.id != member.id:
            raise TableError("not_your_profile", "a member plays as their own profile only", 403)

    async def seat_body(self, member: StoredMember, body: TakeSeat) -> TakeSeat:
        """A seat a member takes counts for their own profile: another's is refused, and
        a seat taken without one is given theirs (a guest has none)."""
        await self.own_profile(member, body.profile)
        if body.profile is not None or member.role == GUEST:
            return body
        token = await self.store.call(_profile_token, member.id)
        return body if token is None else body.model_copy(update={"profile": token})

    async def table_body(self, member: StoredMember, body: NewTable) -> NewTable:
        """A new table's persons count for the creator's own profile only; the first
        person named (the host's seat, the creator's) is given it when none is said."""
        persons = [(n, s) for n, s in enumerate(body.seats) if isinstance(s, PersonSeat)]
        for _, s in persons:
            await self.own_profile(member, s.profile)
        named = [(n, s) for n, s in persons if s.name is not None]
        if not named or member.role == GUEST or named[0][1].profile is not None:
            return body
        token = await self.store.call(_profile_token, member.id)
        if token is None:
            return body
        seats = list(body.seats)
        seats[named[0][0]] = named[0][1].model_copy(update={"profile": token})
        return body.model_copy(update={"seats": seats})

    def watch(self, member_id: str) -> asyncio.Event:
        """An open WebSocket of ``member_id``: its event ends it."""
        ended = asyncio.Event()
        self.sockets.setdefault(member_id, set()).add(ended)
        return ended

    def forget(self, member_id: str, ended: asyncio.Event) -> None:
        kept = self.sockets.get(member_id)
        if kept is not None:
            kept.discard(ended)
            if not kept:
                del self.sockets[member_id]

    def end_sockets(self, member_id: str) -> None:
        """End every open WebSocket of ``member_id`` now."""
        for ended in self.sockets.pop(member_id, set()):
            ended.set()


def _profile_token(s: Storage, member_id: str) -> str | None:
    """The token of a member's profile (their account; None: a guest's, or none)."""
    found = s.profile(id=member_id)
    return None if found is None else found.token


def _session_member(s: Storage, token_hash: str, now: float) -> StoredMember | None:
    """The member of a session that has not ended (None: none)."""
    session = s.session(token_hash)
    if session is None or session.expires <= now:
        return None
    return s.member(id=session.member)
