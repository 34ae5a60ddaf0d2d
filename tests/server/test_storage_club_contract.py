"""The club's part of the storage contract (storage/club.py), on every backend: SQLite,
memory and PostgreSQL (skipped with the reason where there is none, except under CI)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from domeng.storage import (
    ADMIN,
    GUEST,
    MEMBER,
    AuditEntry,
    ChatReport,
    Storage,
    StorageError,
    StoredGuesses,
    StoredLink,
    StoredMember,
    StoredSession,
)

from .test_storage_contract import BACKENDS, Backend, _backend


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return _backend(request.param, request, tmp_path)


@pytest.fixture
def store(backend: Backend) -> Iterator[Storage]:
    s = backend.open()
    yield s
    s.close()


def _member(mid: str = "p-1", name: str = "Besse", role: str = MEMBER) -> StoredMember:
    return StoredMember(mid, name, role, 10.0)


def test_a_member_comes_back_as_stored_by_id_and_by_name_in_any_case(store: Storage) -> None:
    m = StoredMember("p-1", "Bésse Ani", ADMIN, 10.0, "hash", True, 99.5, None)
    store.create_member(m)
    assert store.member(id="p-1") == m
    assert store.member(name="BéSSE ANI") == m
    assert store.member(id="p-2") is None and store.member(name="Ani") is None
    g = StoredMember("g-1", "Tamu", GUEST, 11.0, table="t1")
    store.create_member(g)
    assert [x.id for x in store.members()] == ["p-1", "g-1"]
    assert store.member(id="g-1") == g


def test_a_name_or_an_id_is_one_members_only(store: Storage) -> None:
    store.create_member(_member())
    with pytest.raises(StorageError):
        store.create_member(_member("p-2", "BESSE"))
    with pytest.raises(StorageError):
        store.create_member(_member("p-1", "Other"))
    assert [m.name for m in store.members()] == ["Besse"]


def test_a_saved_member_replaces_the_stored_one(store: Storage) -> None:
    m = _member()
    store.create_member(m)
    m.password, m.suspended, m.muted_until = "h", True, 5.0
    store.save_member(m)
    assert store.member(id="p-1") == m
    with pytest.raises(StorageError):
        store.save_member(_member("p-9", "Nobody"))


def test_a_link_is_spent_once_and_a_new_one_spends_the_older(store: Storage) -> None:
    store.create_member(_member())
    store.add_link(StoredLink("h1", "p-1", 100.0))
    assert store.link("h1") == StoredLink("h1", "p-1", 100.0, False)
    store.spend_link("h1")
    assert store.link("h1") == StoredLink("h1", "p-1", 100.0, True)
    with pytest.raises(StorageError):
        store.spend_link("h1")
    with pytest.raises(StorageError):
        store.spend_link("nothing")
    store.add_link(StoredLink("h2", "p-1", 100.0))
    store.add_link(StoredLink("h3", "p-1", 200.0))
    link2, link3 = store.link("h2"), store.link("h3")
    assert link2 is not None and link2.spent
    assert link3 is not None and not link3.spent
    assert store.link("nothing") is None


def test_sessions_end_one_or_all(store: Storage) -> None:
    store.create_member(_member())
    store.create_member(_member("p-2", "Daeng"))
    for token, mid in (("s1", "p-1"), ("s2", "p-1"), ("s3", "p-2")):
        store.add_session(StoredSession(token, mid, 1.0, 2.0))
    assert store.session("s1") == StoredSession("s1", "p-1", 1.0, 2.0)
    assert store.end_sessions("p-1", "s3") == 0  # another member's session
    assert store.end_sessions("p-1", "s1") == 1
    assert store.session("s1") is None and store.session("s2") is not None
    assert store.end_sessions("p-1") == 1
    assert store.session("s2") is None and store.session("s3") is not None


def test_a_removed_member_takes_their_links_and_sessions(store: Storage) -> None:
    store.create_member(_member())
    store.add_link(StoredLink("h1", "p-1", 100.0))
    store.add_session(StoredSession("s1", "p-1", 1.0, 2.0))
    store.remove_member("p-1")
    assert store.member(id="p-1") is None
    assert store.link("h1") is None and store.session("s1") is None
    with pytest.raises(StorageError):
        store.remove_member("p-1")
    store.create_member(_member())  # the name is free again


def test_the_audit_log_is_newest_first(store: Storage) -> None:
    for n in range(5):
        store.add_audit(AuditEntry(float(n), "Ani", "add", f"M{n}", "member"))
    assert [e.target for e in store.audit(3)] == ["M4", "M3", "M2"]
    assert store.audit(0) == []
    assert store.audit(10)[-1] == AuditEntry(0.0, "Ani", "add", "M0", "member")


def test_reports_once_per_player_until_settled_and_hidden_messages(store: Storage) -> None:
    r = ChatReport("t1", 1.25, "p-1", 0, "Besse", "rude", None, 5.0)
    store.add_report(r)
    with pytest.raises(StorageError):
        store.add_report(r)
    store.add_report(ChatReport("t1", 1.25, "p-2", 0, "Besse", "rude", None, 6.0))
    store.add_report(ChatReport("t2", 2.5, "p-1", None, "Spectator", None, "oops", 4.0))
    assert [(x.table_id, x.reporter) for x in store.reports()] == [
        ("t2", "p-1"), ("t1", "p-1"), ("t1", "p-2"),
    ]  # fmt: skip
    store.settle_reports("t1", 1.25)
    assert store.reports() == [ChatReport("t2", 2.5, "p-1", None, "Spectator", None, "oops", 4.0)]
    store.hide_chat("t1", 1.25)
    store.hide_chat("t1", 1.25)
    assert store.hidden_chat() == {("t1", 1.25)}


def test_a_club_outlives_a_reopen(backend: Backend) -> None:
    if not backend.durable:
        pytest.skip("kept in memory only")
    s = backend.open()
    s.create_member(_member())
    s.add_session(StoredSession("s1", "p-1", 1.0, 2.0))
    s.close()
    s = backend.open()
    try:
        assert s.member(name="besse") == _member()
        assert s.session("s1") is not None
    finally:
        s.close()


def test_a_club_setting_is_set_and_replaced(store: Storage) -> None:
    assert store.club_setting("signup") is None
    store.set_club_setting("signup", "open")
    store.set_club_setting("other", "x")
    store.set_club_setting("signup", "closed")
    assert store.club_setting("signup") == "closed"
    assert store.club_setting("other") == "x"


def test_guesses_are_kept_replaced_and_forgotten(store: Storage) -> None:
    store.save_guesses(StoredGuesses("account", "besse", 1, 0.0, 20.0))
    store.save_guesses(StoredGuesses("address", "10.0.0.1", 3, 0.0, 10.0))
    store.save_guesses(StoredGuesses("account", "besse", 6, 31.0, 30.0))  # replaced
    assert store.guesses() == [
        StoredGuesses("address", "10.0.0.1", 3, 0.0, 10.0),
        StoredGuesses("account", "besse", 6, 31.0, 30.0),
    ]  # the oldest last guess first
    store.forget_guesses("account", "besse")
    store.forget_guesses("account", "nobody")  # nothing to forget: nothing happens
    assert [g.name for g in store.guesses()] == ["10.0.0.1"]


def test_a_purge_takes_out_what_is_over_and_nothing_else(store: Storage) -> None:
    store.create_member(_member())
    store.add_session(StoredSession("ended", "p-1", 1.0, 100.0))
    store.add_session(StoredSession("on", "p-1", 1.0, 100.5))
    for code, expires in (("young", 50.5), ("old", 50.0)):
        store.add_link(StoredLink(code, "p-1", expires))
    store.save_guesses(StoredGuesses("address", "quiet", 9, 0.0, 70.0))
    store.save_guesses(StoredGuesses("address", "busy", 9, 0.0, 70.5))
    assert store.purge_club(100.0, 50.0, 70.0) == 3  # "now" and each "before" included
    assert store.session("ended") is None and store.session("on") is not None
    assert store.link("old") is None
    spent = store.link("young")
    assert spent is not None and spent.spent  # spent by the newer link: kept until it expires
    assert [g.name for g in store.guesses()] == ["busy"]
    assert store.purge_club(100.0, 50.0, 70.0) == 0


def test_every_backend_keeps_the_whole_club() -> None:
    from domeng.storage import MemoryStorage, SQLiteStorage
    from domeng.storage.club import ClubStorage
    from domeng.storage.postgres import PostgresStorage

    names = [n for n in vars(ClubStorage) if not n.startswith("_")]
    assert len(names) == 24
    for backend in (SQLiteStorage, MemoryStorage, PostgresStorage):
        left_out = [n for n in names if getattr(backend, n) is getattr(ClubStorage, n)]
        assert left_out == [], (backend.__name__, left_out)
