"""The storage contract: what every backend of ``domeng.storage.Storage`` keeps.

Every test runs against each backend (SQLite, memory, PostgreSQL: a schema of its own
in the database of tests/server/postgres.py, skipped with the reason where there is
none, except under CI). A backend that keeps its data across a reopen (``durable``) is
also checked for that.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import random
import re
import shutil
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from domeng.engine import Game, tile_name
from domeng.engine.tiles import names
from domeng.server.tables import Settings, rebuild
from domeng.storage import (
    CHAT_KEPT,
    HeadToHead,
    MemoryStorage,
    PlayedGame,
    RecordedRound,
    SeriesPoint,
    SQLiteStorage,
    Storage,
    StorageError,
    StorageWriter,
    StoredChat,
    StoredDeal,
    StoredPlay,
    StoredProfile,
    StoredSeat,
    StoredTable,
    StoredTournament,
    TournamentChanged,
)
from domeng.storage.sqlite import MIGRATIONS


@dataclass
class Backend:
    name: str
    open: Callable[[], Storage]
    durable: bool


BACKENDS = ["sqlite", "memory", "postgres"]


def _backend(name: str, request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    if name == "sqlite":
        db = tmp_path / "sub" / "t.sqlite3"
        return Backend("sqlite", lambda: SQLiteStorage(db), durable=True)
    if name == "postgres":
        from domeng.storage.postgres import PostgresStorage

        url: str = request.getfixturevalue("postgres_url")
        return Backend("postgres", lambda: PostgresStorage(url), durable=True)
    memory = MemoryStorage()
    return Backend("memory", lambda: memory, durable=False)


@pytest.fixture(params=BACKENDS)
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Backend:
    return _backend(request.param, request, tmp_path)


@pytest.fixture
def store(backend: Backend) -> Iterator[Storage]:
    s = backend.open()
    yield s
    s.close()


def seats() -> list[StoredSeat]:
    return [StoredSeat("person", None, "Ann", "abc", 0, 1)] + [
        StoredSeat("computer", "random", f"C{n}", None, 0, n) for n in range(1, 5)
    ]


def table(table_id: str = "t1", created: float = 1.0) -> StoredTable:
    return StoredTable(table_id, created, Settings(pace_ms=5).json(), seats())


def test_a_table_comes_back_as_stored(store: Storage) -> None:
    store.create_table(table())
    store.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
    store.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
    store.add_play("t1", 1, 1, StoredPlay(1, "6-3", "left"))
    store.save_seat("t1", 0, StoredSeat("person", None, "Bo", None, 1, 7))
    (t1,) = store.load_tables()
    assert t1.id == "t1"
    assert t1.created == 1.0
    assert t1.settings == Settings(pace_ms=5).json()
    assert t1.seats[0] == StoredSeat("person", None, "Bo", None, 1, 7)
    assert t1.seats[1:] == seats()[1:]
    assert t1.deals == [StoredDeal([["6-6"]], ["0-0"])]
    assert t1.plays == [[StoredPlay(0, "6-6", "right"), StoredPlay(1, "6-3", "left")]]


def test_tables_come_back_oldest_first(store: Storage) -> None:
    for table_id, created in (("b", 2.0), ("c", 1.0), ("a", 2.0)):
        store.create_table(table(table_id, created))
    assert [t.id for t in store.load_tables()] == ["c", "a", "b"]


def test_a_table_with_its_rounds_is_stored_whole(store: Storage) -> None:
    whole = table()
    whole.deals = [StoredDeal([["6-6"]], ["0-0"]), StoredDeal([["5-5"]], ["1-0"])]
    whole.plays = [[StoredPlay(0, "6-6", "right")], []]
    store.create_table(whole)
    assert store.load_tables() == [whole]


def test_what_is_given_and_taken_is_a_copy(store: Storage) -> None:
    t = table()
    store.create_table(t)
    seat = StoredSeat("person", None, "Bo", None, 1, 7)
    store.save_seat("t1", 0, seat)
    t.seats[1].name = "changed afterwards"
    seat.name = "changed too"
    (loaded,) = store.load_tables()
    loaded.seats[2].name = "changed by a reader"
    (again,) = store.load_tables()
    assert again.seats[0].name == "Bo"
    assert again.seats[1].name == "C1"
    assert again.seats[2].name == "C2"


@pytest.mark.parametrize(
    "write",
    [
        pytest.param(lambda s: s.create_table(table()), id="the same table twice"),
        pytest.param(lambda s: s.add_deal("t1", 1, StoredDeal([], [])), id="a deal twice"),
        pytest.param(lambda s: s.add_deal("t1", 3, StoredDeal([], [])), id="a deal too far"),
        pytest.param(lambda s: s.add_deal("nope", 1, StoredDeal([], [])), id="a deal of no table"),
        pytest.param(
            lambda s: s.add_play("t1", 1, 0, StoredPlay(0, "1-1", "right")), id="a play twice"
        ),
        pytest.param(
            lambda s: s.add_play("t1", 1, 2, StoredPlay(0, "1-1", "right")), id="a play too far"
        ),
        pytest.param(
            lambda s: s.add_play("t1", 2, 0, StoredPlay(0, "1-1", "right")), id="a play of no deal"
        ),
        pytest.param(
            lambda s: s.add_play("nope", 1, 0, StoredPlay(0, "1-1", "right")),
            id="a play of no table",
        ),
        pytest.param(lambda s: s.save_seat("t1", 5, seats()[0]), id="a seat the table lacks"),
        pytest.param(lambda s: s.save_seat("nope", 0, seats()[0]), id="a seat of no table"),
    ],
)
def test_a_write_the_storage_refuses_raises_and_keeps_nothing(
    store: Storage, write: Callable[[Storage], None]
) -> None:
    store.create_table(table())
    store.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
    store.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
    before = store.load_tables()
    with pytest.raises(StorageError):
        write(store)
    assert store.load_tables() == before


def test_what_playing_with_friends_keeps_comes_back(store: Storage) -> None:
    t = table()
    t.host_hash, t.host_seat = "h" * 64, 0
    t.seats[1] = StoredSeat("person", None, "Seat 1", None, 0, 3, "i" * 64, False, 2, 1)
    store.create_table(t)
    store.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"], at=5.5))
    store.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right", stand_in=True, at=6.25))
    store.end_table("t1", "host", {"id": "t1", "status": "finished"})
    assert store.load_tables() == []  # a finished table is not in progress
    loaded = store.load_table("t1")
    assert loaded is not None
    assert loaded.host_hash == "h" * 64
    assert loaded.host_seat == 0
    assert loaded.ended == "host"
    assert loaded.seats[1] == t.seats[1]
    assert loaded.deals[0].at == 5.5
    assert loaded.plays[0][0] == StoredPlay(0, "6-6", "right", True, 6.25)


def test_the_member_a_seat_was_handed_to_comes_back(store: Storage) -> None:
    # a club's seat keeps whose it is (a guest's counts for no profile): a suspension
    # finds it there after a restart, and in every process (server/club/moderation.py)
    t = table()
    t.seats[0].member = "m-ann"
    store.create_table(t)
    loaded = store.load_table("t1")
    assert loaded is not None and loaded.seats[0].member == "m-ann"
    assert loaded.seats[1].member is None
    guest = StoredSeat("person", None, "Tamu", "g" * 64, 0, 3, member="g-tamu")
    store.save_seat("t1", 1, guest)
    (again,) = store.load_tables()
    assert [s.member for s in again.seats[:2]] == ["m-ann", "g-tamu"]
    store.save_seat("t1", 1, StoredSeat("person", None, "Seat 1", None, 0, 3))  # let go
    (left,) = store.load_some_tables(["t1"])
    assert left.seats[1].member is None


def test_the_last_chat_messages_come_back_in_order(store: Storage) -> None:
    store.create_table(table())
    store.create_table(table("t2", 2.0))
    for n in range(CHAT_KEPT + 7):
        store.add_chat("t1", StoredChat(n % 5, f"P{n}", f"m{n}", None, float(n)))
    store.add_chat("t1", StoredChat(None, "Watcher", None, "good_game", 999.0))
    store.add_chat("t2", StoredChat(1, "B", "hi", None, 1.0))
    t1, t2 = store.load_tables()
    assert len(t1.chat) == CHAT_KEPT
    assert [c.text for c in t1.chat[:3]] == ["m8", "m9", "m10"]
    assert t1.chat[-1] == StoredChat(None, "Watcher", None, "good_game", 999.0)
    assert t2.chat == [StoredChat(1, "B", "hi", None, 1.0)]
    with pytest.raises(StorageError):
        store.add_chat("nope", StoredChat(1, "B", "hi", None, 1.0))


def chat_stored(store: Storage, table_id: str) -> list[str | None]:
    """The texts of a table's chat as the backend holds them (what it keeps, not what it
    loads), oldest first."""
    if isinstance(store, MemoryStorage):
        return [c.text for c in store._tables[table_id].chat]
    with store._read() as db:  # type: ignore[attr-defined]
        rows = db.execute("SELECT text FROM chat WHERE table_id = ? ORDER BY n", (table_id,))
        return [r[0] for r in rows]


def test_a_tables_chat_is_kept_to_its_last_messages(store: Storage) -> None:
    store.create_table(table())
    store.create_table(table("t2", 2.0))
    store.add_chat("t2", StoredChat(1, "B", "other", None, 1.0))
    for n in range(CHAT_KEPT):
        store.add_chat("t1", StoredChat(n % 5, f"P{n}", f"m{n}", None, float(n)))
    assert chat_stored(store, "t1") == [f"m{n}" for n in range(CHAT_KEPT)]  # at the bound
    store.add_chat("t1", StoredChat(0, "P", "one past", None, 500.0))
    assert chat_stored(store, "t1") == [f"m{n}" for n in range(1, CHAT_KEPT)] + ["one past"]
    store.add_chat("t1", StoredChat(0, "P", "two past", None, 501.0))
    assert len(chat_stored(store, "t1")) == CHAT_KEPT
    assert chat_stored(store, "t2") == ["other"]  # another table's chat is its own


def test_only_the_tables_in_progress_are_loaded_and_a_finished_one_is_read_alone(
    store: Storage,
) -> None:
    for n in range(5):
        store.create_table(table(f"t{n}", float(n)))
    for n in (1, 2, 4):
        store.end_table(f"t{n}", "end", {"id": f"t{n}", "n": n})
    assert [t.id for t in store.load_tables()] == ["t0", "t3"]
    one = store.load_table("t2")
    assert one is not None and one.ended == "end" and len(one.seats) == 5
    assert store.load_table("nope") is None
    assert [s["id"] for s in store.finished_tables(10)] == ["t1", "t2", "t4"]
    assert store.finished_tables(1) == [{"id": "t1", "n": 1}]
    assert [s["id"] for s in store.finished_tables(10, after="t1")] == ["t2", "t4"]
    assert store.finished_tables(10, after="t4") == []
    assert [s["id"] for s in store.finished_tables(10, newest=True)] == ["t4", "t2", "t1"]
    assert [s["id"] for s in store.finished_tables(10, after="t4", newest=True)] == ["t2", "t1"]
    for bad in ("t0", "nope"):  # not a finished table
        with pytest.raises(StorageError):
            store.finished_tables(10, after=bad)
    store.remove_table("t2")
    assert [s["id"] for s in store.finished_tables(10)] == ["t1", "t4"]
    assert store.load_table("t2") is None


def test_a_removed_table_leaves_the_tables_loaded(store: Storage) -> None:
    store.create_table(table())
    store.create_table(table("t2", 2.0))
    store.remove_table("t1")
    assert [t.id for t in store.load_tables()] == ["t2"]
    with pytest.raises(StorageError):
        store.remove_table("nope")
    with pytest.raises(StorageError):
        store.end_table("nope", "host", {})


def test_the_tables_in_progress_are_named_first_then_read_a_few_at_a_time(
    store: Storage,
) -> None:
    """What a service reads at a start (registry.py): the ids alone, in load_tables'
    order, then any of them whole, as load_tables reads them; an ended, removed or
    unknown table is not among them."""
    for table_id, created in (("b", 2.0), ("c", 1.0), ("a", 2.0), ("d", 3.0), ("e", 4.0)):
        store.create_table(table(table_id, created))
    store.add_deal("a", 1, StoredDeal([["6-6"]], ["0-0"]))
    store.add_play("a", 1, 0, StoredPlay(0, "6-6", "right"))
    store.add_chat("a", StoredChat(0, "Ann", "hi", None, 2.0))
    store.end_table("d", "end", {"id": "d"})
    store.remove_table("e")
    assert store.tables_in_progress() == ["c", "a", "b"]
    whole = {t.id: t for t in store.load_tables()}
    some = store.load_some_tables(["b", "a", "d", "e", "nope"])
    assert sorted(t.id for t in some) == ["a", "b"]
    assert all(t == whole[t.id] for t in some)  # each read whole: seats, deals, plays, chat
    assert store.load_some_tables([]) == []
    assert store.load_some_tables(["d", "e"]) == []


def test_a_stored_game_replays_into_the_same_game(store: Storage) -> None:
    game = Game()
    rng = random.Random(3)
    stored = table("g", 0.0)
    store.create_table(stored)
    for number in range(1, 4):
        r = game.deal(rng)
        store.add_deal("g", number, StoredDeal([names(h) for h in r.dealt], names(r.unused)))
        while not r.finished:
            seat = r.turn
            assert seat is not None
            r.play(rng.choice(r.legal_moves()))
            played = r.plays[-1][1]
            index = len(r.plays) - 1
            store.add_play(
                "g", number, index, StoredPlay(seat, tile_name(played.tile), played.end.word)
            )
    (loaded,) = store.load_tables()
    again = rebuild(loaded)
    assert [r.events for r in again.rounds] == [r.events for r in game.rounds]
    assert again.stones == game.stones


@pytest.mark.parametrize("name", ["sqlite", "postgres"])
def test_a_durable_storage_keeps_everything_across_a_reopen(
    name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    backend = _backend(name, request, tmp_path)
    assert backend.durable
    first = backend.open()
    first.create_table(table())
    first.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
    first.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
    kept = first.load_tables()
    first.close()
    again = backend.open()
    assert again.load_tables() == kept
    again.close()


def test_the_writer_runs_every_call_in_one_thread_in_order(store: Storage) -> None:
    threads: set[str] = set()

    class Watched(Storage):
        def create_table(self, t: StoredTable) -> None:
            threads.add(threading.current_thread().name)
            store.create_table(t)

        def load_tables(self) -> list[StoredTable]:
            threads.add(threading.current_thread().name)
            return store.load_tables()

        def save_seat(self, table_id: str, seat: int, data: StoredSeat) -> None:
            store.save_seat(table_id, seat, data)

        def add_deal(self, table_id: str, number: int, deal: StoredDeal) -> None:
            threads.add(threading.current_thread().name)
            store.add_deal(table_id, number, deal)

        def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
            threads.add(threading.current_thread().name)
            store.add_play(table_id, number, index, play)

        def end_table(self, table_id: str, why: str, summary: dict[str, Any]) -> None:
            store.end_table(table_id, why, summary)

        def load_table(self, table_id: str) -> StoredTable | None:
            return store.load_table(table_id)

        def finished_tables(
            self, limit: int, after: str | None = None, *, newest: bool = False
        ) -> list[dict[str, Any]]:
            return store.finished_tables(limit, after, newest=newest)

        def remove_table(self, table_id: str) -> None:
            store.remove_table(table_id)

        def add_chat(self, table_id: str, message: StoredChat) -> None:
            store.add_chat(table_id, message)

        # players who come back: not what this test watches
        def create_profile(self, profile: StoredProfile) -> None:
            store.create_profile(profile)

        def profiles(self) -> list[StoredProfile]:
            return store.profiles()

        def profile(
            self, *, id: str | None = None, name: str | None = None, token: str | None = None
        ) -> StoredProfile | None:
            return store.profile(id=id, name=name, token=token)

        def recorded_rounds(self, game: str) -> int:
            return store.recorded_rounds(game)

        def record_round(self, done: RecordedRound) -> None:
            store.record_round(done)

        def played_games(self, profile: str, limit: int | None = None) -> list[PlayedGame]:
            return store.played_games(profile, limit)

        def series(self, profile: str, points: int, moving: int) -> list[SeriesPoint]:
            return store.series(profile, points, moving)

        def head_to_head(self, profile: str) -> list[HeadToHead]:
            return store.head_to_head(profile)

        def leaderboard(self, min_games: int) -> list[StoredProfile]:
            return store.leaderboard(min_games)

        def game_record(self, game: str) -> str | None:
            return store.game_record(game)

        def close(self) -> None:
            pass

    async def main() -> list[StoredTable]:
        writer = StorageWriter(Watched())
        await writer.create_table(table())
        await writer.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
        # made at once, kept in the order they were made
        plays = [StoredPlay(n % 5, "6-6", "right") for n in range(20)]
        await asyncio.gather(*(writer.add_play("t1", 1, i, p) for i, p in enumerate(plays)))
        with pytest.raises(StorageError):
            await writer.add_play("t1", 1, 0, plays[0])
        loaded = await writer.load_tables()
        await writer.close()
        return loaded

    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="test-loop") as pool:
        (loaded,) = pool.submit(asyncio.run, main()).result(timeout=30)
    assert [p.seat for p in loaded.plays[0]] == [n % 5 for n in range(20)]
    assert len(threads) == 1
    assert next(iter(threads)).startswith("domeng-storage")


def test_a_batch_keeps_every_call_and_a_refused_call_only_loses_its_own(store: Storage) -> None:
    store.create_table(table())
    with store.batch():
        store.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
        store.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
        with pytest.raises(StorageError):
            store.add_play("t1", 1, 0, StoredPlay(1, "6-5", "left"))  # the same index again
        with pytest.raises(StorageError):
            store.add_play("nope", 1, 0, StoredPlay(1, "6-5", "left"))  # no such table
        store.add_play("t1", 1, 1, StoredPlay(1, "6-3", "left"))
    (loaded,) = store.load_tables()
    assert [(p.seat, p.tile) for p in loaded.plays[0]] == [(0, "6-6"), (1, "6-3")]


def test_a_sqlite_batch_that_cannot_be_kept_keeps_nothing(tmp_path: Path) -> None:
    s = SQLiteStorage(tmp_path / "t.sqlite3")
    s.create_table(table())
    with pytest.raises(RuntimeError), s.batch():
        s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
        s.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
        raise RuntimeError("the commit fails")
    (loaded,) = s.load_tables()
    assert loaded.deals == [] and loaded.plays == []
    s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))  # and the storage goes on
    s.close()


class _Recorded:
    """A SQLite connection that notes every statement it runs with its parameters."""

    def __init__(self, db: Any) -> None:
        self._db = db
        self.statements: list[tuple[str, Any]] = []

    def execute(self, sql: str, parameters: Any = ()) -> Any:
        self.statements.append((sql, parameters))
        return self._db.execute(sql, parameters)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._db, name)


def test_sqlite_binds_a_sequence_of_values_to_plain_placeholders_only(tmp_path: Path) -> None:
    """A numbered (?1) or named (:name) placeholder bound from a sequence warns on Python
    3.12 before 3.12.4 (cpython#117995; named ones are an error from 3.14): with the
    tests' warnings as errors, every play failed to be stored there."""
    s = SQLiteStorage(tmp_path / "t.sqlite3")
    recorded = _Recorded(s._db)
    s._db = recorded  # type: ignore[assignment]
    s.create_table(table())
    s.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
    s.add_play("t1", 1, 0, StoredPlay(0, "6-6", "right"))
    with s.batch():
        s.add_play("t1", 1, 1, StoredPlay(1, "6-3", "left"))
    s.save_seat("t1", 0, StoredSeat("person", None, "Bo", None, 1, 7))
    s.add_chat("t1", StoredChat(0, "Bo", "hi", None, 2.0))
    assert s.load_table("t1") is not None
    s.end_table("t1", "host", {"id": "t1"})
    assert s.finished_tables(10, "t1") == []
    s.close()
    named = re.compile(r"\?\d|[:@$][A-Za-z_]")
    bound = [sql for sql, values in recorded.statements if isinstance(values, (tuple, list))]
    assert any("FROM plays" in sql for sql in bound)
    assert [sql for sql in bound if named.search(sql)] == []


def test_the_writer_keeps_calls_made_at_once_in_few_batches_each_with_its_own_answer() -> None:
    batches: list[int] = []

    class Counted(MemoryStorage):
        calls = 0

        @contextlib.contextmanager
        def batch(self) -> Iterator[None]:
            before = Counted.calls
            yield
            batches.append(Counted.calls - before)

        def add_play(self, table_id: str, number: int, index: int, play: StoredPlay) -> None:
            Counted.calls += 1
            super().add_play(table_id, number, index, play)

    async def main() -> list[BaseException | None]:
        writer = StorageWriter(Counted())
        await writer.create_table(table())
        await writer.add_deal("t1", 1, StoredDeal([["6-6"]], ["0-0"]))
        plays = [StoredPlay(n % 5, "6-6", "right") for n in range(40)]
        calls = [writer.add_play("t1", 1, i, p) for i, p in enumerate(plays)]
        calls.insert(20, writer.add_play("t1", 1, 3, plays[3]))  # refused: index 3 again
        answers = await asyncio.gather(*calls, return_exceptions=True)
        await writer.close()
        return answers

    with concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="test-loop") as pool:
        answers = pool.submit(asyncio.run, main()).result(timeout=30)
    assert [i for i, a in enumerate(answers) if a is not None] == [20]
    assert isinstance(answers[20], StorageError)
    assert sum(batches) == 41 and len([b for b in batches if b]) < 41


def test_a_file_of_the_first_version_opens_in_place_and_keeps_every_table(tmp_path: Path) -> None:
    # made by the service before playing with friends (schema 1), with two tables
    old = tmp_path / "tables.sqlite3"
    shutil.copy(Path(__file__).parent / "fixtures" / "tables-v1.sqlite3", old)
    s = SQLiteStorage(old)
    assert s.version == len(MIGRATIONS)
    first, second = s.load_tables()
    assert (first.id, second.id) == ("0123456789", "abcdefabcd")
    assert [len(p) for p in first.plays] == [18, 19]
    assert first.seats[0].token_hash == "ab" * 32
    # the open seats of then stay open to anyone; nothing was a stand-in's
    assert first.seats[1].open
    assert not first.seats[0].open or first.seats[0].token_hash
    assert not any(p.stand_in for r in first.plays for p in r)
    game = rebuild(first)
    assert len(game.rounds) == 2 and game.round.finished
    s.add_chat("0123456789", StoredChat(0, "Ann", "still here", None, 1.0))
    s.close()
    again = SQLiteStorage(old)  # a second opening migrates nothing more
    assert again.version == len(MIGRATIONS)
    assert again.load_tables()[0].chat[-1].text == "still here"
    again.close()


def test_what_the_list_shows_of_a_table_in_progress_is_kept_and_read_in_order(
    store: Storage,
) -> None:
    store.create_table(table("t2", 2.0))
    store.create_table(table("t1", 1.0))
    store.create_table(table("t3", 3.0))
    assert store.summaries_in_progress() == [("t1", None), ("t2", None), ("t3", None)]
    shown = {"id": "t2", "status": "playing", "deep": [1, {"a": 2}]}
    store.keep_summaries({"t2": shown, "t3": {"id": "t3"}, "nowhere": {"id": "nowhere"}})
    shown["status"] = "changed after"  # a copy is kept
    assert store.summaries_in_progress() == [
        ("t1", None),
        ("t2", {"id": "t2", "status": "playing", "deep": [1, {"a": 2}]}),
        ("t3", {"id": "t3"}),
    ]
    store.end_table("t3", "host", {"id": "t3", "status": "finished"})
    store.remove_table("t3")
    store.keep_summaries({"t2": {"id": "t2", "status": "waiting"}, "t3": {"id": "t3"}})
    assert store.summaries_in_progress() == [
        ("t1", None),
        ("t2", {"id": "t2", "status": "waiting"}),
    ]
    store.create_table(table("t4", 4.0))
    store.end_table("t4", "host", {"id": "t4", "status": "finished"})
    store.keep_summaries({"t4": {"id": "t4", "status": "playing"}})  # ended: not changed
    assert store.finished_tables(10) == [{"id": "t4", "status": "finished"}]


def test_a_tournament_is_kept_whole_and_replaced_by_its_change(
    backend: Backend, store: Storage
) -> None:
    assert store.load_tournaments() == [] and store.load_tournament("t1") is None
    first = StoredTournament("t1", 20.0, {"name": "Club", "rounds": [], "n": 1})
    older = StoredTournament("t0", 10.0, {"name": "Earlier", "deep": {"a": [1, 2]}})
    assert store.save_tournament(first) == 1  # a new one: version 1
    assert store.save_tournament(older) == 1
    first.doc["n"] = 99  # a change made after saving is not kept
    assert store.load_tournaments() == [
        StoredTournament("t0", 10.0, {"name": "Earlier", "deep": {"a": [1, 2]}}, 1),
        StoredTournament("t1", 20.0, {"name": "Club", "rounds": [], "n": 1}, 1),
    ]
    assert store.save_tournament(StoredTournament("t1", 20.0, {"name": "Club", "n": 2}, 1)) == 2
    assert store.load_tournament("t1") == StoredTournament("t1", 20.0, {"name": "Club", "n": 2}, 2)
    assert [t.doc for t in store.load_tournaments()][1] == {"name": "Club", "n": 2}
    if backend.durable:
        store.close()
        again = backend.open()
        assert [(t.id, t.version) for t in again.load_tournaments()] == [("t0", 1), ("t1", 2)]
        again.close()


def test_a_tournament_changed_from_an_old_version_or_made_again_is_refused(
    store: Storage,
) -> None:
    store.save_tournament(StoredTournament("t1", 1.0, {"n": 1}))
    store.save_tournament(StoredTournament("t1", 1.0, {"n": 2}, 1))
    for stale in (1, 0, 3):  # read before the last change, new again, from no version
        with pytest.raises(TournamentChanged):
            store.save_tournament(StoredTournament("t1", 1.0, {"n": 9}, stale))
    assert store.load_tournament("t1") == StoredTournament("t1", 1.0, {"n": 2}, 2)
    with pytest.raises(TournamentChanged):  # a change of none kept
        store.save_tournament(StoredTournament("t2", 1.0, {"n": 1}, 1))
    assert store.load_tournament("t2") is None
    assert issubclass(TournamentChanged, StorageError)


def test_a_round_is_kept_with_its_tables_all_or_nothing(store: Storage) -> None:
    store.create_table(table("taken"))
    store.save_tournament(StoredTournament("t1", 1.0, {"round": 0}))
    round_one = [table("r1a", 2.0), table("r1b", 2.0)]
    assert store.save_tournament(StoredTournament("t1", 1.0, {"round": 1}, 1), round_one) == 2
    assert store.tables_in_progress() == ["taken", "r1a", "r1b"]
    kept = store.load_table("r1b")
    assert kept is not None and kept.seats == seats() and kept.ended is None
    store.add_deal("r1a", 1, StoredDeal([["6-6"]], ["0-0"]))  # an ordinary table: plays on
    # refused as changed meanwhile: none of its tables is kept
    with pytest.raises(TournamentChanged):
        store.save_tournament(StoredTournament("t1", 1.0, {"round": 2}, 1), [table("r2a")])
    assert store.load_table("r2a") is None
    # a table that cannot be kept (its id is another's): nothing of the change is
    with pytest.raises(StorageError):
        store.save_tournament(
            StoredTournament("t1", 1.0, {"round": 2}, 2), [table("r2a"), table("taken")]
        )
    assert store.load_table("r2a") is None
    assert store.load_tournament("t1") == StoredTournament("t1", 1.0, {"round": 1}, 2)
    assert store.save_tournament(StoredTournament("t1", 1.0, {"round": 2}, 2), [table("r2a")]) == 3


@pytest.mark.parametrize("name", ["sqlite", "postgres"])
def test_two_rounds_started_at_once_from_two_connections_one_is_kept(
    name: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """Two processes on one database (two storages on it here) change one tournament at
    the same moment from the same version: exactly one change is kept, with its tables."""
    backend = _backend(name, request, tmp_path)
    first = backend.open()
    first.save_tournament(StoredTournament("t1", 1.0, {"round": 0}))
    second = backend.open()
    ready = threading.Barrier(2)

    def start(s: Storage, mark: str, version: int) -> int | str:
        ready.wait(timeout=30)
        try:
            return s.save_tournament(
                StoredTournament("t1", 1.0, {"round": mark}, version),
                [table(f"{mark}1"), table(f"{mark}2")],
            )
        except TournamentChanged:
            return "refused"

    try:
        version = 1
        for attempt in range(5):  # a few times, both at once from the version read
            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                a = pool.submit(start, first, f"a{attempt}-", version)
                b = pool.submit(start, second, f"b{attempt}-", version)
                answers = [a.result(timeout=60), b.result(timeout=60)]
            assert sorted(map(str, answers)) == [str(version + 1), "refused"], answers
            won = "a" if answers[0] != "refused" else "b"
            lost = "b" if won == "a" else "a"
            kept = first.load_tournament("t1")
            assert kept is not None and kept.doc == {"round": f"{won}{attempt}-"}
            assert first.load_table(f"{won}{attempt}-2") is not None
            assert first.load_table(f"{lost}{attempt}-1") is None
            version = kept.version
    finally:
        second.close()
        first.close()
