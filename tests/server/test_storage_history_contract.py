"""The storage contract for players who come back (storage/history.py), against every
backend; and a file made by the version before them, which opens in place, keeps every
table and gains theirs (tests/server/fixtures/tables-v3.sqlite3)."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from domeng.server.tables import rebuild
from domeng.storage import (
    COMPUTER,
    PERSON,
    Figures,
    MemoryStorage,
    RecordedRound,
    RoundPart,
    SQLiteStorage,
    Storage,
    StorageError,
    StoredProfile,
)
from domeng.storage.sqlite import MIGRATIONS


@pytest.fixture(params=["sqlite", "memory", "postgres"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        s: Storage = SQLiteStorage(tmp_path / "h.sqlite3")
    elif request.param == "postgres":
        from domeng.storage.postgres import PostgresStorage

        s = PostgresStorage(request.getfixturevalue("postgres_url"))
    else:
        s = MemoryStorage()
    yield s
    s.close()


def person(pid: str, name: str, token: str | None = None) -> StoredProfile:
    return StoredProfile(
        pid, name, "en", "blue", PERSON, token or f"tok-{pid}", 1.0, Figures(25, 8)
    )


def part(pid: str, seat: int, received: int, **flags: object) -> RoundPart:
    base: dict[str, object] = dict(won=False, camat=False, ceki=False, pollo=False)
    base |= dict(manguno=False, mattikkeng=False, passebunge=0, mu=26.0, sigma=7.0)
    base |= flags
    return RoundPart(pid, seat, 1, received, **base)  # type: ignore[arg-type]


def test_profiles_come_back_people_first_with_unique_names(store: Storage) -> None:
    store.create_profile(person("p-2", "zara"))
    store.create_profile(person("p-1", "Andi"))
    bot = StoredProfile("basic", "basic", "en", "computer", COMPUTER, None, 1.0, Figures(24, 1))
    store.create_profile(bot)
    assert [p.id for p in store.profiles()] == ["p-1", "p-2", "basic"]
    assert store.profile(name="ANDI") == person("p-1", "Andi")
    assert store.profile(token="tok-p-2") is not None and store.profile(token="x") is None
    assert store.profile(id="basic") == bot
    for clash in (person("p-3", "andi"), person("p-1", "Other"), person("p-4", "New", "tok-p-1")):
        with pytest.raises(StorageError):
            store.create_profile(clash)
    assert len(store.profiles()) == 3


def test_profiles_come_a_page_at_a_time_after_a_profile(store: Storage) -> None:
    for pid, name in (("p-3", "andi"), ("p-1", "Besse"), ("p-2", "besse"), ("p-4", "Zara")):
        store.create_profile(person(pid, name + ("" if pid != "p-2" else " 2")))
    bot = StoredProfile("basic", "basic", "en", "computer", COMPUTER, None, 1.0, Figures(24, 1))
    store.create_profile(bot)
    whole = [p.id for p in store.profiles()]
    assert whole == ["p-3", "p-1", "p-2", "p-4", "basic"]
    assert [p.id for p in store.profiles(limit=2)] == whole[:2]
    assert [p.id for p in store.profiles(after="p-1", limit=2)] == whole[2:4]
    assert [p.id for p in store.profiles(after="p-4", limit=2)] == ["basic"]
    assert [p.id for p in store.profiles(after="p-4")] == ["basic"]
    assert store.profiles(after="basic", limit=2) == []
    with pytest.raises(StorageError):
        store.profiles(after="p-nobody")


def test_a_recorded_round_adds_to_the_figures_games_and_head_to_head(store: Storage) -> None:
    for pid in ("a", "b"):
        store.create_profile(person(pid, pid.upper()))
    parts = [part("a", 0, 3, won=True, ceki=True, passebunge=1), part("b", 2, 5, camat=True)]
    store.record_round(RecordedRound("g1", "table", 1, 100.0, parts))
    store.record_round(RecordedRound("g1", "table", 2, 110.0, [part("a", 0, 1, mu=27.5)]))
    store.record_round(RecordedRound("g2", "terminal", 1, 120.0, [part("a", 1, 0)], "{}"))
    a = store.profile(id="a")
    assert a is not None
    f = a.figures
    assert (f.games, f.rounds, f.received, f.won, f.ceki, f.passebunge) == (2, 3, 4, 1, 1, 1)
    assert (f.mu, f.sigma) == (26.0, 7.0)  # the last round's rating
    games = store.played_games("a")
    assert [(g.game, g.rounds, g.received, g.first, g.last) for g in games] == [
        ("g2", 1, 0, 120.0, 120.0),
        ("g1", 2, 4, 100.0, 110.0),
    ]
    assert games[1].mu == 27.5 and store.played_games("a", 1) == games[:1]
    (h,) = store.head_to_head("a")
    assert (h.opponent, h.rounds, h.received, h.opponent_received) == ("b", 1, 3, 5)
    assert (h.seats, h.opponent_seats) == (1, 1)
    assert store.head_to_head("b")[0].opponent_received == 3
    assert store.recorded_rounds("g1") == 2 and store.recorded_rounds("nope") == 0
    assert store.game_record("g2") == "{}" and store.game_record("g1") is None
    b = store.profile(id="b")
    assert b is not None and b.figures.camat == 1


def test_rounds_are_recorded_in_order_once_and_a_refused_one_keeps_nothing(
    store: Storage,
) -> None:
    store.create_profile(person("a", "A"))
    store.record_round(RecordedRound("g", "table", 1, 1.0, [part("a", 0, 2)]))
    for bad in (
        RecordedRound("g", "table", 1, 2.0, [part("a", 0, 2)]),  # again
        RecordedRound("g", "table", 3, 2.0, [part("a", 0, 2)]),  # one skipped
        RecordedRound("g", "table", 2, 2.0, [part("a", 0, 2), part("ghost", 1, 1)]),
    ):
        with pytest.raises(StorageError):
            store.record_round(bad)
    a = store.profile(id="a")
    assert a is not None and (a.figures.rounds, a.figures.received) == (1, 2)
    assert store.recorded_rounds("g") == 1


def test_the_leaderboard_is_by_rating_from_a_number_of_games(store: Storage) -> None:
    for pid in ("a", "b", "c"):
        store.create_profile(person(pid, pid))
    for n in range(3):
        parts = [part("a", 0, 1, mu=20.0), part("b", 1, 1, mu=30.0)]
        if n == 0:
            parts.append(part("c", 2, 0, mu=40.0))
        store.record_round(RecordedRound(f"g{n}", "table", 1, float(n), parts))
    assert [p.id for p in store.leaderboard(2)] == ["b", "a"]
    assert [p.id for p in store.leaderboard(1)] == ["c", "b", "a"]


def test_a_file_of_the_version_before_players_opens_in_place_and_gains_them(
    tmp_path: Path,
) -> None:
    # made by Domeng before profiles (schema 3): a table in progress, a finished one
    old = tmp_path / "tables.sqlite3"
    shutil.copy(Path(__file__).parent / "fixtures" / "tables-v3.sqlite3", old)
    s = SQLiteStorage(old)
    assert s.version == len(MIGRATIONS) >= 4
    (playing,) = s.load_tables()
    assert playing.id == "v3inplay01" and playing.chat[0].text == "hello"
    assert [len(p) for p in playing.plays] == [len(p) for p in playing.plays if p] and all(
        seat.profile is None for seat in playing.seats
    )
    assert len(rebuild(playing).rounds) == 2
    finished = s.load_table("v3ended001")
    assert finished is not None and finished.ended == "host"
    assert s.finished_tables(10) == [{"id": "v3ended001", "status": "finished"}]
    assert s.profiles() == []
    s.create_profile(person("a", "Ann"))
    s.record_round(RecordedRound("v3inplay01", "table", 1, 5.0, [part("a", 0, 2)]))
    s.close()
    again = SQLiteStorage(old)
    assert again.version == len(MIGRATIONS)
    ann = again.profile(name="ann")
    assert ann is not None and ann.figures.rounds == 1
    assert again.load_tables()[0].id == "v3inplay01"
    again.close()


def test_a_seats_profile_is_stored_with_it(store: Storage) -> None:
    from domeng.storage import StoredSeat, StoredTable

    seats = [StoredSeat("person", None, "Ann", "ab" * 32, profile="p-1")]
    seats += [StoredSeat("computer", "basic", f"C{n}") for n in range(4)]
    store.create_table(StoredTable("t1", 1.0, {}, seats))
    loaded = store.load_table("t1")
    assert loaded is not None and loaded.seats[0].profile == "p-1"
    store.save_seat("t1", 0, StoredSeat("person", None, "Seat 0", profile=None))
    again = store.load_table("t1")
    assert again is not None and again.seats[0].profile is None


def test_a_players_charts_are_sampled_with_a_moving_sum(store: Storage) -> None:
    store.create_profile(person("a", "A"))
    for n in range(1, 24):  # game n: n stones in one round, rating 20 + n
        done = RecordedRound(f"g{n:02}", "table", 1, float(n), [part("a", 0, n, mu=20.0 + n)])
        store.record_round(done)
    points = store.series("a", 5, 3)
    assert [p.game for p in points] == [3, 8, 13, 18, 23]  # every 5th, the last kept
    assert [p.mu for p in points] == [23.0, 28.0, 33.0, 38.0, 43.0]
    assert (points[0].received, points[0].rounds) == (1 + 2 + 3, 3)
    assert (points[-1].received, points[-1].rounds) == (21 + 22 + 23, 3)
    whole = store.series("a", 100, 10)
    assert [p.game for p in whole] == list(range(1, 24)) and whole[0].rounds == 1
    assert store.series("nobody", 10, 3) == []


def test_a_level_in_several_seats_counts_every_seat_of_it(store: Storage) -> None:
    """A computer level sitting in three seats is one player: each seat's figures add up,
    its game is one game, and its rating and seat are the last seat's."""
    bot = StoredProfile("basic", "basic", "en", "computer", COMPUTER, None, 1.0, Figures(24, 1))
    store.create_profile(bot)
    store.create_profile(person("a", "A"))
    first = [
        part("a", 0, 0),
        part("basic", 1, 2, ceki=True, mu=24.1, sigma=0.9),
        part("basic", 2, 0, won=True, passebunge=1, mu=24.2, sigma=0.8),
        part("basic", 4, 3, camat=True, mattikkeng=True, mu=24.3, sigma=0.7),
    ]
    store.record_round(RecordedRound("g1", "table", 1, 100.0, first))
    (g1,) = store.played_games("basic")
    assert (g1.seat, g1.rounds, g1.received, g1.mu, g1.sigma) == (4, 3, 5, 24.3, 0.7)
    found = store.profile(id="basic")
    assert found is not None and (found.figures.mu, found.figures.sigma) == (24.3, 0.7)
    again = [part("basic", 3, 1, pollo=True, manguno=True, passebunge=2, mu=24.4, sigma=0.6)]
    store.record_round(RecordedRound("g1", "table", 2, 110.0, again))
    store.record_round(RecordedRound("g2", "table", 1, 120.0, [part("basic", 1, 4, mu=24.5)]))
    found = store.profile(id="basic")
    assert found is not None
    f = found.figures
    assert (f.games, f.rounds, f.received, f.won, f.camat) == (2, 5, 10, 1, 1)
    assert (f.ceki, f.pollo, f.manguno, f.mattikkeng, f.passebunge) == (1, 1, 1, 1, 3)
    assert (f.mu, f.sigma) == (24.5, 7.0)
    games = {g.game: g for g in store.played_games("basic")}
    g1 = games["g1"]
    assert (g1.seat, g1.rounds, g1.received, g1.camat, g1.won) == (3, 4, 6, 1, 1)
    assert (g1.first, g1.last, g1.mu, g1.sigma, g1.number) == (100.0, 110.0, 24.4, 0.6, 1)
    assert (games["g2"].rounds, games["g2"].number) == (1, 2)
    (h,) = store.head_to_head("a")
    assert (h.opponent, h.rounds, h.received, h.seats, h.opponent_seats) == ("basic", 1, 0, 1, 3)
    assert h.opponent_received == 5
