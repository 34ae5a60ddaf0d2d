"""Leases of a service of several processes, in the database (storage/leases.py): a
table's owner and epoch, the owner's lease on the database's clock, the tables of a
process whose lease ran out taken over (epoch + 1), and every write of a table fenced
by its epoch. Two storages here stand for two processes."""

from __future__ import annotations

import secrets
import threading
from collections.abc import Iterator

import psycopg
import pytest

from domeng.storage import StorageError, StoredChat, StoredDeal, StoredPlay, StoredSeat
from domeng.storage.leases import Fenced, Owner
from domeng.storage.postgres import PostgresStorage

from .test_storage_contract import table

Two = tuple[PostgresStorage, PostgresStorage]


@pytest.fixture
def two(postgres_url: str) -> Iterator[Two]:
    a, b = PostgresStorage(postgres_url), PostgresStorage(postgres_url)
    a.join("A", "http://a")
    b.join("B", "http://b")
    yield a, b
    a.close()
    b.close()


def _expire(s: PostgresStorage, process: str) -> None:
    """``process``'s lease ran out (its renewals stopped 3 s ago)."""
    with s._tx() as db:
        db.execute("UPDATE processes SET expires = EXTRACT(EPOCH FROM now()) - 1 WHERE id = ?",
                   (process,))  # fmt: skip


def _dealt(s: PostgresStorage) -> None:
    s.create_table(table())
    s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))


def test_a_new_table_is_its_makers_at_epoch_one_and_nobody_takes_a_live_ones(two: Two) -> None:
    a, b = two
    _dealt(a)
    assert a.epochs == {"t1": 1}
    assert b.take_orphans() == []
    assert b.take("t1") == Owner("A", "http://a")
    assert b.owner("t1") == Owner("A", "http://a") and a.owner("t1") is None
    assert a.take("t1") == 1  # its own, as it was


def test_a_table_whose_owner_ran_out_is_taken_and_the_old_owner_writes_nothing(two: Two) -> None:
    a, b = two
    _dealt(a)
    dropped: list[str] = []
    a.fenced = dropped.append
    _expire(a, "A")
    assert b.take_orphans() == [("t1", 2)]
    assert b.epochs == {"t1": 2}
    for write in (
        lambda: a.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right")),
        lambda: a.add_deal("t1", 2, StoredDeal([["5-5"]], ["0-0"])),
        lambda: a.save_seat("t1", 0, StoredSeat("person", None, "Bo", None, 1, 7)),
        lambda: a.add_chat("t1", StoredChat(0, "Ann", "halo", None, 1.0)),
        lambda: a.end_table("t1", "host", {}),
        lambda: a.remove_table("t1"),
    ):
        a.epochs["t1"] = 1  # as if it had not heard yet
        with pytest.raises(Fenced):
            write()
    assert dropped == ["t1"] * 6
    (t1,) = b.load_tables()
    assert t1.plays == [[]] and len(t1.deals) == 1 and t1.chat == [] and t1.ended is None
    b.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))  # the new owner's goes in
    assert b.load_tables()[0].plays == [[StoredPlay(0, "6-6", "right")]]


def test_a_stalled_owner_learns_at_its_renewal_which_tables_it_lost(two: Two) -> None:
    a, b = two
    _dealt(a)
    a.create_table(table("t2", 2.0))
    _expire(a, "A")
    assert b.take_orphans(limit=1) == [("t1", 2)]  # one at a time: t2 is left to A
    assert a.renew() == ["t1"]
    assert a.epochs == {"t2": 1}
    assert b.take_orphans() == []  # A renewed: t2 is its own again
    assert a.renew() == []


def test_a_table_is_taken_on_demand_once_its_owner_ran_out(two: Two) -> None:
    a, b = two
    _dealt(a)
    _expire(a, "A")
    assert b.take("t1") == 2
    assert b.owner("t1") is None and a.owner("t1") is not None


def test_a_process_restarted_at_its_address_takes_its_predecessors_tables_at_once(
    postgres_url: str,
) -> None:
    """Two processes cannot listen at one address: one that joins at the address of
    another (restarted after a crash, its lease not yet run out) ends that lease, and its
    tables are taken now, not once the lease has run its course."""
    old, new, other = (PostgresStorage(postgres_url) for _ in range(3))
    try:
        old.join("A1", "http://a")
        other.join("B", "http://b")
        _dealt(old)
        assert other.take("t1") == Owner("A1", "http://a")  # alive: nobody takes it
        new.join("A2", "http://a")  # A restarted, at once
        assert new.take_orphans() == [("t1", 2)]
        assert other.take("t1") == Owner("A2", "http://a")
    finally:
        for s in (old, new, other):
            s.close()


def test_a_process_that_stops_lets_its_tables_go_for_the_others(two: Two) -> None:
    a, b = two
    _dealt(a)
    a.let_go()
    assert a.process is None and a.epochs == {}
    assert b.take_orphans() == [("t1", 2)]


def test_an_ended_table_has_no_lease_and_any_process_may_write_it(two: Two) -> None:
    a, b = two
    _dealt(a)
    a.end_table("t1", "host", {"id": "t1"})
    assert a.epochs == {}
    b.add_chat("t1", StoredChat(0, "Ann", "gg", None, 1.0))  # a finished table's talk
    assert b.take_orphans() == []


def test_tables_made_before_leases_are_taken_by_the_first_process(postgres_url: str) -> None:
    old = PostgresStorage(postgres_url)  # no process: writes unfenced, no lease
    old.create_table(table())
    s = PostgresStorage(postgres_url)
    s.join("A", "http://a")
    assert s.take_orphans() == [("t1", 1)]
    s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
    old.close()
    s.close()


def test_a_takeover_waits_for_a_write_in_flight_and_reads_it(two: Two) -> None:
    """The write's fence holds the lease row until its commit: a takeover meanwhile
    skips the table, and takes it after, with the write in the database."""
    a, b = two
    _dealt(a)
    _expire(a, "A")
    in_flight, go_on = threading.Event(), threading.Event()
    taken: list[list[tuple[str, int]]] = []

    def write() -> None:
        with a.batch():
            a.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
            in_flight.set()
            go_on.wait(10)

    writer = threading.Thread(target=write)
    writer.start()
    assert in_flight.wait(10)
    taken.append(b.take_orphans())
    go_on.set()
    writer.join(10)
    taken.append(b.take_orphans())
    assert taken == [[], [("t1", 2)]]
    assert b.load_tables()[0].plays == [[StoredPlay(0, "6-6", "right")]]


def test_a_write_waiting_behind_a_takeover_is_refused(two: Two) -> None:
    a, b = two
    _dealt(a)
    _expire(a, "A")
    with b.batch():
        assert b.take_orphans() == [("t1", 2)]
        refused: list[BaseException] = []

        def write() -> None:
            try:
                a.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
            except StorageError as e:
                refused.append(e)

        writer = threading.Thread(target=write)
        writer.start()
        writer.join(0.3)
        assert writer.is_alive()  # it waits for the takeover's commit
    writer.join(10)
    assert [type(e).__name__ for e in refused] == ["Fenced"]
    assert b.load_tables()[0].plays == [[]]


def test_two_processes_taking_one_table_at_once_do_not_both_have_it(
    postgres_url: str, two: Two
) -> None:
    """A table named at two processes at once, its owner gone: the first takeover's
    epoch stands, and the second process is told who has it."""
    a, b = two
    c = PostgresStorage(postgres_url)
    c.join("C", "http://c")
    _dealt(a)
    _expire(a, "A")
    answers: list[Owner | int | None] = []
    with b.batch():
        assert b.take("t1") == 2  # not committed yet: c's take waits for it

        taker = threading.Thread(target=lambda: answers.append(c.take("t1")))
        taker.start()
        taker.join(0.3)
    taker.join(10)
    assert answers == [Owner("B", "http://b")]
    assert c.epochs == {} and b.epochs == {"t1": 2}
    c.close()


def test_the_lease_events_are_told_on_their_channel(postgres_url: str) -> None:
    """A process that lets its tables go, and one that takes tables over, say so on
    the channel the others LISTEN on (server/leases.py looks at once when it hears)."""
    from domeng.storage.leases import CHANNEL

    one, other = f"A{secrets.token_hex(4)}", f"B{secrets.token_hex(4)}"  # the channel is
    a, b = PostgresStorage(postgres_url), PostgresStorage(postgres_url)  # the database's
    a.join(one, "http://a")
    b.join(other, "http://b")
    _dealt(a)
    heard: list[str] = []
    with psycopg.connect(postgres_url, autocommit=True) as listener:
        listener.execute(f"LISTEN {CHANNEL}")
        a.let_go()
        assert b.take_orphans() == [("t1", 2)]
        for note in listener.notifies(timeout=10):
            heard.append(note.payload)
            if note.payload == f"taken 1 {other}":
                break
    assert heard.index(f"let_go {one}") < heard.index(f"taken 1 {other}")
    a.close()
    b.close()


def test_a_transaction_left_open_by_a_stalled_process_ends_after_a_lease(two: Two) -> None:
    """A process stopped in the middle of a write holds its fence's row lock: the server
    ends such a transaction after a lease's time, so that the takeover is not held up
    (test_server_several.py's SIGSTOP test waited for ever without it)."""
    a, _ = two
    with a._read() as db:
        (setting,) = db.execute("SHOW idle_in_transaction_session_timeout").fetchone()
    assert setting == "3s"


def test_only_a_tables_owner_keeps_what_the_list_shows_of_it(two: Two) -> None:
    a, b = two
    _dealt(a)
    a.keep_summaries({"t1": {"id": "t1", "by": "A"}})
    b.keep_summaries({"t1": {"id": "t1", "by": "B"}})  # not b's: passed over
    assert b.summaries_in_progress() == [("t1", {"id": "t1", "by": "A"})]
    _expire(a, "A")
    b.take_orphans()
    a.keep_summaries({"t1": {"id": "t1", "by": "A, late"}})  # taken over: a's is passed over
    b.keep_summaries({"t1": {"id": "t1", "by": "B"}})
    assert a.summaries_in_progress() == [("t1", {"id": "t1", "by": "B"})]


def test_tables_of_a_dead_process_are_shared_among_the_live(postgres_url: str) -> None:
    a, b, c = (PostgresStorage(postgres_url) for _ in range(3))
    try:
        for s, name in ((a, "A"), (b, "B"), (c, "C")):
            s.join(name, f"http://{name.lower()}")
        for n in range(12):
            a.create_table(table(f"t{n:02}"))
        _expire(a, "A")
        first = b.take_orphans()
        assert len(first) == 6  # its even share of the twelve, not all of them
        assert len(c.take_orphans()) == 6
        assert b.take_orphans() == [] and c.take_orphans() == []
    finally:
        for s in (a, b, c):
            s.close()


def test_a_table_nobody_else_takes_is_taken_whatever_the_share(postgres_url: str) -> None:
    a, b, c = (PostgresStorage(postgres_url) for _ in range(3))
    try:
        for s, name in ((a, "A"), (b, "B"), (c, "C")):
            s.join(name, f"http://{name.lower()}")
        for n in range(4):
            a.create_table(table(f"t{n}"))
        _expire(a, "A")
        assert len(b.take_orphans()) == 2  # its share; c, alive, does not look
        assert b.take_orphans() == []  # seen unowned once...
        assert len(b.take_orphans()) == 2  # ...twice in a row: taken
    finally:
        for s in (a, b, c):
            s.close()
