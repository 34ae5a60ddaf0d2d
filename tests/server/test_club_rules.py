"""The club's rules one at a time, on a fake clock: a link's and a session's life, the
throttle's locks, a mute's end, the passwords refused, and ``domeng members add``."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner

from domeng.cli import main
from domeng.server.bodies import NewTable, TakeSeat, read_body
from domeng.server.clock import FakeClock
from domeng.server.club import Club
from domeng.server.club.in_step import EVERY as READ_EVERY
from domeng.server.club.in_step import catch_up, keep_in_step
from domeng.server.club.members import (
    DAY,
    GUEST_HOURS,
    LINK_DAYS,
    add_member,
    claim,
    linked_member,
    new_link,
)
from domeng.server.club.moderation import hide, mute, suspend
from domeng.server.club.passwords import (
    MIN_PASSWORD,
    common_passwords,
    hashed,
    matches,
    weakness,
)
from domeng.server.club.purge import EVERY, LINKS_KEPT_DAYS
from domeng.server.club.roles import may_act_on, may_give
from domeng.server.club.routes import WORDS, Mute
from domeng.server.club.sessions import COOKIE, cookie_token, new_session
from domeng.server.club.throttle import (
    ACCOUNT,
    ACCOUNT_FREE,
    ADDRESS_FREE,
    FIRST,
    KEPT,
    LONGEST,
    Guesses,
    Throttle,
)
from domeng.server.connection import Connection
from domeng.server.hub import Hub
from domeng.server.messages import Chat
from domeng.server.tables import Table, TableError, hash_token
from domeng.storage import (
    ADMIN,
    GUEST,
    MEMBER,
    OWNER,
    MemoryStorage,
    SQLiteStorage,
    StoredChat,
    StoredGuesses,
    StoredMember,
)

from .conftest import drain
from .test_server_clock import InlineRunner

AT = 1_800_000_000.0


def test_a_link_works_until_it_expires_and_no_longer() -> None:
    s = MemoryStorage()
    code = add_member(s, "Besse", MEMBER, AT).code
    last = AT + LINK_DAYS * DAY
    assert linked_member(s, code, last - 0.001).name == "Besse"
    with pytest.raises(TableError) as e:
        linked_member(s, code, last)
    assert e.value.code == "expired_link"


def test_a_guests_link_lasts_a_day() -> None:
    s = MemoryStorage()
    code = add_member(s, "Tamu", GUEST, AT, table="t1").code
    assert linked_member(s, code, AT + GUEST_HOURS * 3600 - 1).role == GUEST
    with pytest.raises(TableError) as e:
        linked_member(s, code, AT + GUEST_HOURS * 3600)
    assert e.value.code == "expired_link"


def test_a_claimed_link_is_spent_and_sets_the_password() -> None:
    s = MemoryStorage()
    code = add_member(s, "Besse", MEMBER, AT).code
    assert claim(s, code, "argon-hash", AT).password == "argon-hash"
    stored = s.member(name="Besse")
    assert stored is not None and stored.password == "argon-hash"
    with pytest.raises(TableError) as e:
        claim(s, code, "other", AT)
    assert e.value.code == "spent_link"


def test_a_suspended_members_link_is_refused() -> None:
    s = MemoryStorage()
    code = add_member(s, "Besse", MEMBER, AT).code
    m = s.member(name="Besse")
    assert m is not None
    m.suspended = True
    s.save_member(m)
    with pytest.raises(TableError) as e:
        linked_member(s, code, AT)
    assert e.value.code == "member_suspended"


def test_a_home_profile_of_that_name_becomes_the_members_and_a_name_is_taken_once() -> None:
    s = MemoryStorage()
    first = add_member(s, "Besse", MEMBER, AT).member
    profile = s.profile(name="besse")
    assert profile is not None and profile.id == first.id
    with pytest.raises(TableError) as e:
        add_member(s, "BESSE", ADMIN, AT)
    assert e.value.code == "name_taken"
    with pytest.raises(TableError) as e:
        add_member(s, "  ", MEMBER, AT)
    assert e.value.code == "bad_name"


def test_passwords_refused_and_taken() -> None:
    assert weakness("x7-kq" * 2, "Besse") is None  # 10 characters
    assert weakness("x7-kq" * 2 + "x" * 190, "Besse") is None  # 200 characters
    assert weakness("x7-kq" * 2 + "x" * 191, "Besse") is not None
    assert weakness("x7-kq2-w9", "Besse") is not None  # 9
    assert MIN_PASSWORD == 10
    assert "bismillah123" in common_passwords()
    assert weakness("Bismillah123", "Besse") is not None  # common, in any case
    assert weakness("my-name-is-besse", "Besse") is not None
    assert weakness("abababababab", "Besse") is not None  # too few different characters
    assert weakness("abcabcabcabd", "Besse") is None  # four different ones


def test_guesses_lock_for_a_time_that_doubles_up_to_the_longest() -> None:
    clock = FakeClock()
    g = Guesses(clock)
    for _ in range(ACCOUNT_FREE):
        g.check("Besse", "a")
        g.wrong("Besse", "a")
    g.check("Besse", "a")  # the free ones lock nothing
    waits = []
    for _ in range(12):
        g.wrong("Besse", "a")
        waits.append(g.accounts.wait("besse"))
        clock.advance(waits[-1])
    assert waits[:4] == [FIRST, 2 * FIRST, 4 * FIRST, 8 * FIRST]
    assert max(waits) == LONGEST
    g.wrong("Besse", "a")
    with pytest.raises(TableError) as e:
        g.check("BESSE", "b")  # the account, whatever the address
    assert e.value.code == "too_many_guesses" and e.value.retry_after == LONGEST
    clock.advance(LONGEST)
    g.check("Besse", "b")
    g.right("Besse")
    assert g.accounts.wait("besse") == 0


def test_a_long_quiet_counts_guesses_afresh() -> None:
    clock = FakeClock()
    g = Guesses(clock)
    for _ in range(ACCOUNT_FREE):
        g.wrong("Besse", "a")
    clock.advance(LONGEST + 1)
    g.wrong("Besse", "a")
    assert g.accounts.wait("besse") == 0


def test_a_session_ends_when_its_time_is_over() -> None:
    async def main() -> None:
        clock, s, hub, club = await _a_club(start=False)
        member = add_member(s, "Besse", MEMBER, clock.wall()).member
        token = new_session(s, member, clock.wall())
        assert (await club.signed_in(token)).name == "Besse"
        clock.advance(30 * DAY - 1)
        assert (await club.signed_in(token)).name == "Besse"
        clock.advance(1)
        with pytest.raises(TableError) as e:
            await club.signed_in(token)
        assert e.value.code == "not_signed_in"
        await hub.close()

    asyncio.run(main())


async def _a_club(
    deals: int | None = None, *, start: bool = True
) -> tuple[FakeClock, MemoryStorage, Hub, Club]:
    """A club on a memory storage and a fake clock, its deals seeded by ``deals`` (if
    given), started unless ``start`` is False: its clock, storage, hub and club."""
    clock = FakeClock()
    s = MemoryStorage()
    hub = Hub(s, InlineRunner(), clock, deals=None if deals is None else random.Random(deals))
    club = Club(hub)
    if start:
        await club.start()
    return clock, s, hub, club


async def _another_process(s: MemoryStorage, clock: FakeClock) -> tuple[Hub, Club]:
    """A second process of the same club on the same storage (its own hub and club,
    started, its deals seeded apart from the first's)."""
    there = Hub(s, InlineRunner(), clock, deals=random.Random(3))
    club_there = Club(there)
    await club_there.start()
    return there, club_there


async def _besse_at_a_table(
    s: MemoryStorage, hub: Hub, clock: FakeClock
) -> tuple[StoredMember, StoredMember, Table, Connection]:
    """The admin Ani, and the member Besse seated (with her profile) at a table of hers
    with four computers, connected."""
    admin = add_member(s, "Ani", ADMIN, clock.wall()).member
    besse = add_member(s, "Besse", MEMBER, clock.wall()).member
    seats = [{"kind": "person", "name": "Besse"}] + [{"kind": "computer", "level": "random"}] * 4
    created = await hub.create_table(NewTable.model_validate({"seats": seats}))
    t = created.table
    t.seats[0].stored.profile = besse.id
    c = Connection()
    hub.hello(t, c, created.tokens[0])
    return admin, besse, t, c


def test_a_mute_ends_when_its_time_is_over() -> None:
    async def main() -> None:
        clock, s, hub, club = await _a_club(2)
        admin, besse, t, c = await _besse_at_a_table(s, hub, clock)
        await mute(club, admin, besse, 10)
        with pytest.raises(TableError) as e:
            await hub.say(t, c, Chat.model_validate({"type": "chat", "text": "hi"}))
        assert e.value.code == "muted"
        clock.advance(10 * 60 - 1)
        with pytest.raises(TableError):
            await hub.say(t, c, Chat.model_validate({"type": "chat", "text": "hi"}))
        clock.advance(1)
        await hub.say(t, c, Chat.model_validate({"type": "chat", "text": "hi"}))
        assert t.chat[-1]["name"] == "Besse"
        await hub.close()

    asyncio.run(main())


async def _until(done: Callable[[], bool]) -> None:
    """Let the storage's thread work until ``done()`` (bounded: 10 s of real time)."""
    for _ in range(1000):
        if done():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("it never happened")


def test_what_is_over_is_purged_at_the_start_and_every_hour() -> None:
    async def main() -> None:
        clock = FakeClock()
        s = MemoryStorage()
        member = add_member(s, "Besse", MEMBER, clock.wall() - (LINK_DAYS + 30) * DAY).member
        old = new_session(s, member, clock.wall() - 30 * DAY)  # ends now
        young = new_session(s, member, clock.wall() - 30 * DAY + EVERY)  # in an hour
        hub = Hub(s, InlineRunner(), clock)
        club = Club(hub)
        await club.start()
        assert s.session(hash_token(old)) is None and s.session(hash_token(young)) is not None
        assert s.purge_club(clock.wall(), clock.wall() - LINKS_KEPT_DAYS * DAY, 0.0) == 0
        code = new_link(s, member, clock.wall())  # expires in LINK_DAYS days
        # a session that ends when the link expires: gone, a purge ran after that
        mark = new_session(s, member, clock.wall() + (LINK_DAYS - 30) * DAY)
        clock.advance(EVERY - 1)
        await asyncio.sleep(0.05)
        assert s.session(hash_token(young)) is not None  # not yet purged
        clock.advance(1)
        await _until(lambda: s.session(hash_token(young)) is None)
        clock.advance(LINK_DAYS * DAY)
        await _until(lambda: s.session(hash_token(mark)) is None)
        with pytest.raises(TableError) as e:
            linked_member(s, code, clock.wall())  # still known, as expired
        assert e.value.code == "expired_link"
        clock.advance(LINKS_KEPT_DAYS * DAY)
        await _until(lambda: s.link(hash_token(code)) is None)
        await hub.close()

    asyncio.run(main())


def test_wrong_guesses_are_not_forgiven_by_a_restart(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"

    async def main() -> None:
        clock = FakeClock()
        hub = Hub(SQLiteStorage(db), InlineRunner(), clock)
        club = Club(hub)
        await club.start()
        for _ in range(ACCOUNT_FREE + 1):
            await club.guessed_wrong("Besse", "a")
        with pytest.raises(TableError):
            club.guesses.check("Besse", "b")
        await hub.close()
        s = SQLiteStorage(db)
        again = Club(Hub(s, InlineRunner(), clock))  # the service started anew
        await again.start()
        with pytest.raises(TableError) as e:
            again.guesses.check("besse", "b")
        assert e.value.code == "too_many_guesses" and e.value.retry_after == FIRST
        clock.advance(FIRST)
        await again.guessed_right("Besse")
        assert [g.kind for g in s.guesses()] == ["address"]  # the account's is forgotten
        await again.hub.close()

    asyncio.run(main())


def test_members_add_prints_a_link_and_its_qr_code(tmp_path: Path) -> None:
    db = tmp_path / "club.sqlite3"
    runner = CliRunner()
    args = ["members", "add", "Ani", "--admin", "--db", str(db), "--address", "https://c.example/"]
    result = runner.invoke(main, [*args, "--lang", "en"])
    assert result.exit_code == 0, result.output
    assert "Ani is a member of the club (admin)." in result.output
    assert "https://c.example/?claim=" in result.output
    assert "█" in result.output or "▀" in result.output  # the QR code
    again = runner.invoke(main, [*args, "--lang", "en"])
    assert again.exit_code == 1 and "taken" in again.output
    s = SQLiteStorage(db)
    try:
        m = s.member(name="Ani")
        assert m is not None and m.role == ADMIN and m.password is None
    finally:
        s.close()


def test_what_an_admin_did_through_another_process_is_done_here() -> None:
    """Two processes of one club on one database (each its own hub and club): a mute, a
    hidden message and a suspension made through the first reach the second's tables
    once it reads them again (in_step.catch_up), and only then."""

    async def main() -> None:
        clock, s, here, club_here = await _a_club(2)
        there, club_there = await _another_process(s, clock)
        admin, besse, t, c = await _besse_at_a_table(s, here, clock)
        await here.say(t, c, Chat.model_validate({"type": "chat", "text": "halo"}))
        said_at = t.chat[-1]["at"]

        await mute(club_there, admin, besse, 10)  # through the other process
        await here.say(t, c, Chat.model_validate({"type": "chat", "text": "masih"}))
        await catch_up(club_here)
        with pytest.raises(TableError) as e:
            await here.say(t, c, Chat.model_validate({"type": "chat", "text": "lagi"}))
        assert e.value.code == "muted"

        s.add_chat(t.id, StoredChat(0, "Besse", "halo", None, said_at))  # as stored there
        there_t = await there.find(t.id)
        await hide(club_there, there_t, admin, said_at)
        assert any(m["at"] == said_at for m in t.chat)  # not yet read here
        drain(c)
        await catch_up(club_here)
        assert all(m["at"] != said_at for m in t.chat)
        assert {"type": "chat_hidden", "at": said_at} in drain(c)  # the page is told
        assert (t.id, said_at) in club_here.hidden

        await suspend(club_there, admin, besse, True)
        assert t.seats[0].stored.profile == besse.id  # not yet read here
        await catch_up(club_here)
        assert t.seats[0].stored.profile is None and t.seats[0].stored.token_hash is None
        await catch_up(club_here)  # once: a suspension is not done again
        assert besse.id in club_here.shut

        # a guest's seat (no profile) taken through this process: the other knows it
        # from the seat, not from a list this process keeps
        guest = add_member(s, "Tamu", GUEST, clock.wall(), table=t.id).member
        code = t.seats[0].stored.invite  # Besse's seat waits for an invited person
        await here.take_seat(t, 0, TakeSeat(name="Tamu", invite=code), guest.id)
        assert t.seats[0].stored.member == guest.id and t.seats[0].stored.profile is None
        await suspend(club_there, admin, guest, True)
        await catch_up(club_here)
        assert t.seats[0].stored.token_hash is None and t.seats[0].stored.member is None
        await here.close()
        await there.close()

    asyncio.run(main())


def test_at_most_kept_counts_are_kept_the_longest_unguessed_forgotten_first() -> None:
    clock = FakeClock()
    t = Throttle(clock, 0, ACCOUNT)  # no free guess: every wrong one locks
    t.wrong("first")
    for n in range(KEPT - 1):
        t.wrong(f"k{n}")
    t.wrong("first")  # guessed at again: now the newest
    assert t.wait("first") > 0 and t.wait("k0") > 0  # KEPT counts: all kept
    t.wrong("one more")
    assert t.wait("k0") == 0  # the longest unguessed is forgotten
    assert t.wait("first") > 0 and t.wait("k1") > 0 and t.wait("one more") > 0


def test_the_counts_read_back_after_a_restart_lock_and_age_as_before() -> None:
    clock = FakeClock()
    g = Guesses(clock)
    kept: dict[tuple[str, str], StoredGuesses] = {}
    for n in range(ADDRESS_FREE + 1):  # at many accounts from one address
        for count in g.wrong("Besse" if n < ACCOUNT_FREE + 1 else f"Nobody {n}", "a"):
            kept.pop((count.kind, count.name), None)
            kept[(count.kind, count.name)] = count  # the oldest first
    again = Guesses(clock)  # the service started anew
    again.load(list(kept.values()))
    for name, address in (("Besse", "b"), ("Daeng", "a")):  # the account, the address
        with pytest.raises(TableError) as e:
            again.check(name, address)
        assert e.value.code == "too_many_guesses", (name, address)
    again.check("Daeng", "b")
    clock.advance(LONGEST + 1)  # a long quiet, counted from the last guess read back
    again.wrong("Besse", "c")
    assert again.accounts.wait("besse") == 0


def test_a_password_needs_four_different_characters() -> None:
    assert weakness("abcabcabcabc", "Besse") is not None  # three
    assert weakness("ABCabcABCabc", "Besse") is not None  # three, in any case
    assert weakness("abcdabcdabcd", "Besse") is None  # four


def _members(s: MemoryStorage) -> dict[str, StoredMember]:
    """One member of each role (and a second admin), by a name that says it."""
    made = {
        "owner": OWNER, "admin": ADMIN, "admin2": ADMIN, "member": MEMBER, "guest": GUEST
    }  # fmt: skip
    return {
        name: add_member(s, name, role, AT, table="t1" if role == GUEST else None).member
        for name, role in made.items()
    }


def test_who_may_act_on_whom_the_owner_above_the_admins_above_the_rest() -> None:
    m = _members(MemoryStorage())
    allowed = {
        "owner": {"admin", "admin2", "member", "guest"},  # everyone but themselves
        "admin": {"member", "guest"},  # below them only
        "admin2": {"member", "guest"},
    }
    for actor, who in m.items():
        for target, whom in m.items():
            if target in allowed.get(actor, set()):
                may_act_on(who, whom)
                continue
            with pytest.raises(TableError) as e:
                may_act_on(who, whom)
            expected = "outranked" if actor in allowed else "not_admin"
            assert (e.value.code, e.value.status) == (expected, 403), (actor, target)


def test_only_the_owner_makes_admins_and_nobody_makes_an_owner() -> None:
    m = _members(MemoryStorage())
    may_give(m["owner"], ADMIN)
    for role in (MEMBER, GUEST):
        may_give(m["owner"], role)
        may_give(m["admin"], role)
    for actor, role, code in (
        ("owner", OWNER, "outranked"), ("admin", ADMIN, "outranked"),
        ("admin", OWNER, "outranked"), ("member", GUEST, "not_admin"),
        ("guest", GUEST, "not_admin"),
    ):  # fmt: skip
        with pytest.raises(TableError) as e:
            may_give(m[actor], role)
        assert e.value.code == code, (actor, role)


def test_a_mute_of_no_minutes_lets_them_talk_again_and_the_audit_log_has_both() -> None:
    async def main() -> None:
        clock, s, hub, club = await _a_club(2)
        admin, besse, t, c = await _besse_at_a_table(s, hub, clock)
        assert await mute(club, admin, besse, 10) == clock.wall() + 600
        with pytest.raises(TableError):
            await hub.say(t, c, Chat.model_validate({"type": "chat", "text": "hi"}))
        assert await mute(club, admin, besse, 0) == 0.0
        await hub.say(t, c, Chat.model_validate({"type": "chat", "text": "hi"}))
        assert t.chat[-1]["name"] == "Besse"
        stored = s.member(name="Besse")
        assert stored is not None and stored.muted_until == 0.0
        logged = [(e.actor, e.action, e.target, e.detail) for e in s.audit(10)]
        assert logged[:2] == [("Ani", "mute", "Besse", "0 min"), ("Ani", "mute", "Besse", "10 min")]
        await hub.close()

    asyncio.run(main())


def test_an_admin_may_not_mute_another_admin() -> None:
    async def main() -> None:
        clock, s, hub, club = await _a_club()
        ani = add_member(s, "Ani", ADMIN, clock.wall()).member
        bau = add_member(s, "Bau", ADMIN, clock.wall()).member
        with pytest.raises(TableError) as e:
            await mute(club, ani, bau, 10)
        assert e.value.code == "outranked"
        stored = s.member(name="Bau")
        assert bau.id not in club.mutes and stored is not None and stored.muted_until == 0.0
        await hub.close()

    asyncio.run(main())


def test_a_mute_lasts_a_week_at_most() -> None:
    assert read_body({"minutes": 7 * 24 * 60}, Mute, WORDS).minutes == 7 * 24 * 60
    with pytest.raises(TableError) as e:
        read_body({"minutes": 7 * 24 * 60 + 1}, Mute, WORDS)
    assert e.value.code == "bad_field"
    with pytest.raises(TableError):
        read_body({"minutes": -1}, Mute, WORDS)


def test_a_guests_session_lasts_as_long_as_its_link() -> None:
    async def main() -> None:
        clock, s, hub, club = await _a_club(start=False)
        guest = add_member(s, "Tamu", GUEST, clock.wall(), table="t1").member
        token = new_session(s, guest, clock.wall())
        clock.advance(GUEST_HOURS * 3600 - 1)
        assert (await club.signed_in(token)).name == "Tamu"
        clock.advance(1)
        with pytest.raises(TableError) as e:
            await club.signed_in(token)
        assert e.value.code == "not_signed_in"
        await hub.close()

    asyncio.run(main())


def test_a_cookie_header_names_a_session_or_nothing() -> None:
    assert cookie_token(f"a=1; {COOKIE}=tok; b=2") == "tok"
    for header in (None, "", "a=1", f"{COOKIE}=", "a=1; ,=2"):  # the last: not a cookie
        assert cookie_token(header) is None, header


@pytest.mark.shipped_hasher
def test_passwords_are_kept_with_the_shipped_argon2id_parameters() -> None:
    """RFC 9106's second recommended profile: Argon2id, 64 MiB, 3 passes, 4 lanes (the
    other tests hash with lighter ones: tests/server/conftest.py)."""
    kept = asyncio.run(hashed("kapal-pinisi-7"))
    assert kept.startswith("$argon2id$v=19$m=65536,t=3,p=4$"), kept
    assert asyncio.run(matches(kept, "kapal-pinisi-7"))
    assert not asyncio.run(matches(kept, "kapal-pinisi-8"))


def test_a_damaged_password_hash_matches_no_password() -> None:
    """A member's kept hash that is not an Argon2 hash: the sign-in is refused as a wrong
    password, not answered with a fault."""
    assert not asyncio.run(matches("not-an-argon2-hash", "kapal-pinisi-7"))


def test_a_hidden_message_stays_hidden_when_its_table_is_read_again() -> None:
    async def main() -> None:
        clock, s, hub, club = await _a_club(2)
        admin, _, t, c = await _besse_at_a_table(s, hub, clock)
        await hub.say(t, c, Chat.model_validate({"type": "chat", "text": "rude"}))
        at = t.chat[-1]["at"]
        s.add_chat(t.id, StoredChat(0, "Besse", "rude", None, at))  # as kept
        await hide(club, t, admin, at)
        del hub.tables[t.id]  # read again from the storage
        again = await hub.find(t.id)
        assert again is not t and all(m["at"] != at for m in again.chat)
        await hub.close()

    asyncio.run(main())


def test_a_member_let_back_here_and_suspended_again_elsewhere_is_shut_out_here() -> None:
    async def main() -> None:
        clock, s, here, club_here = await _a_club(2)
        there, club_there = await _another_process(s, clock)
        admin, besse, t, _ = await _besse_at_a_table(s, here, clock)
        await suspend(club_here, admin, besse, True)
        await suspend(club_here, admin, besse, False)
        t.seats[0].stored.profile = besse.id  # she sat down again
        t.seats[0].stored.token_hash = "hers"
        await suspend(club_there, admin, besse, True)  # through the other process
        await catch_up(club_here)
        assert t.seats[0].stored.profile is None and t.seats[0].stored.token_hash is None
        await here.close()
        await there.close()

    asyncio.run(main())


def test_a_suspension_ends_the_sessions_for_good_even_once_let_back() -> None:
    async def main() -> None:
        clock, s, hub, club = await _a_club()
        admin = add_member(s, "Ani", ADMIN, clock.wall()).member
        besse = add_member(s, "Besse", MEMBER, clock.wall()).member
        token = new_session(s, besse, clock.wall())
        await suspend(club, admin, besse, True)
        await suspend(club, admin, besse, False)
        with pytest.raises(TableError) as e:
            await club.signed_in(token)
        assert e.value.code == "not_signed_in"  # she signs in again
        await hub.close()

    asyncio.run(main())


def test_a_purge_keeps_an_expired_link_its_days_and_a_count_its_longest_lock() -> None:
    """To the second: an expired link is answered ``expired_link`` for LINKS_KEPT_DAYS
    days, then forgotten; the count of wrong guesses from an address is kept LONGEST
    seconds after its last guess (its lock may last that long), then forgotten."""

    async def main() -> None:
        clock = FakeClock()
        s = MemoryStorage()
        now = clock.wall()
        expired = now - (LINK_DAYS + LINKS_KEPT_DAYS) * DAY  # made then: expired that long ago
        kept = add_member(s, "Besse", MEMBER, expired + 1).code
        gone = add_member(s, "Daeng", MEMBER, expired).code
        s.save_guesses(StoredGuesses("address", "10.0.0.7", 9, now + 1, now - LONGEST + 1))
        s.save_guesses(StoredGuesses("address", "10.0.0.8", 9, now, now - LONGEST))
        hub = Hub(s, InlineRunner(), clock)
        await Club(hub).start()  # its first purge
        assert s.link(hash_token(gone)) is None
        assert s.link(hash_token(kept)) is not None
        with pytest.raises(TableError) as e:
            linked_member(s, kept, now)
        assert e.value.code == "expired_link"
        assert [g.name for g in s.guesses()] == ["10.0.0.7"]
        await hub.close()

    asyncio.run(main())


class _FailingOnce(MemoryStorage):
    """A memory storage whose next purge, or next reading of the members, fails once."""

    failing: str | None = None

    def _fail(self, what: str) -> None:
        if self.failing == what:
            self.failing = None
            raise RuntimeError(f"the database is away ({what})")

    def purge_club(self, now: float, links_before: float, guesses_before: float) -> int:
        self._fail("purge")
        return super().purge_club(now, links_before, guesses_before)

    def members(self) -> list[StoredMember]:
        self._fail("members")
        return super().members()


def test_a_purge_that_fails_is_logged_and_the_next_hour_purges(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        clock = FakeClock()
        s = _FailingOnce()
        hub = Hub(s, InlineRunner(), clock)
        await Club(hub).start()
        member = add_member(s, "Besse", MEMBER, clock.wall()).member
        ended = new_session(s, member, clock.wall() - 30 * DAY + 1)  # ends in a second
        s.failing = "purge"
        clock.advance(EVERY)
        await _until(lambda: s.failing is None)
        assert s.session(hash_token(ended)) is not None  # that purge failed
        clock.advance(EVERY)
        await _until(lambda: s.session(hash_token(ended)) is None)
        await hub.close()

    asyncio.run(main())
    logged = [r for r in caplog.records if "could not purge" in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None
    caplog.clear()  # that traceback was the point (no_tracebacks would refuse it)


def test_what_an_admin_undid_through_another_process_is_undone_here() -> None:
    """A mute ended and a suspension lifted through the other process: here the member
    speaks again, and when suspended once more (elsewhere again) is shut out again."""

    async def main() -> None:
        clock, s, here, club_here = await _a_club(2)
        there, club_there = await _another_process(s, clock)
        admin, besse, t, c = await _besse_at_a_table(s, here, clock)

        await mute(club_there, admin, besse, 10)
        await catch_up(club_here)
        with pytest.raises(TableError) as e:
            await here.say(t, c, Chat.model_validate({"type": "chat", "text": "lagi"}))
        assert e.value.code == "muted"
        await mute(club_there, admin, besse, 0)  # no longer
        await catch_up(club_here)
        await here.say(t, c, Chat.model_validate({"type": "chat", "text": "lagi"}))
        assert t.chat[-1]["text"] == "lagi"

        await suspend(club_there, admin, besse, True)
        await catch_up(club_here)
        assert besse.id in club_here.shut and t.seats[0].stored.profile is None
        await suspend(club_there, admin, besse, False)  # let back, elsewhere too
        await catch_up(club_here)
        assert besse.id not in club_here.shut
        t.seats[0].stored.profile = besse.id  # she sat down again
        t.seats[0].stored.token_hash = "hers"
        await suspend(club_there, admin, besse, True)
        await catch_up(club_here)
        assert t.seats[0].stored.profile is None and t.seats[0].stored.token_hash is None
        await here.close()
        await there.close()

    asyncio.run(main())


def test_a_message_hidden_is_taken_out_of_a_table_here_once_and_only_if_it_has_it() -> None:
    async def main() -> None:
        clock, s, hub, club = await _a_club(2)
        _, _, t, c = await _besse_at_a_table(s, hub, clock)
        await hub.say(t, c, Chat.model_validate({"type": "chat", "text": "halo"}))
        at = t.chat[-1]["at"]

        def told() -> list[object]:
            return [m for m in drain(c) if m["type"] == "chat_hidden"]

        told()
        s.hide_chat(t.id, at + 1)  # a message this table's talk does not hold
        await catch_up(club)
        assert told() == [] and [m["at"] for m in t.chat] == [at]
        s.hide_chat(t.id, at)  # through another process
        await catch_up(club)
        assert told() == [{"type": "chat_hidden", "at": at}] and not t.chat
        await catch_up(club)
        assert told() == []
        await hub.close()

    asyncio.run(main())


def test_a_reading_that_fails_is_logged_and_the_next_reads_again(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        clock = FakeClock()
        s = _FailingOnce()
        here = Hub(s, InlineRunner(), clock, deals=random.Random(2))
        club = Club(here)
        await club.start()
        admin = add_member(s, "Ani", ADMIN, clock.wall()).member
        besse = add_member(s, "Besse", MEMBER, clock.wall()).member
        reading = asyncio.create_task(keep_in_step(club))
        await asyncio.sleep(0)  # it sleeps its first wait
        s.failing = "members"
        besse.muted_until = clock.wall() + 600  # muted through another process
        s.save_member(besse)
        clock.advance(READ_EVERY)
        await _until(lambda: s.failing is None)
        assert besse.id not in club.mutes  # that reading failed
        clock.advance(READ_EVERY)
        await _until(lambda: besse.id in club.mutes)
        reading.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await reading
        assert admin.id not in club.mutes
        await here.close()

    asyncio.run(main())
    logged = [r for r in caplog.records if "could not read the club" in r.getMessage()]
    assert len(logged) == 1 and logged[0].exc_info is not None
    caplog.clear()  # that traceback was the point (no_tracebacks would refuse it)
