"""The registry at a start (domeng.server.registry): it reads only the ids of the
tables in progress, then reads the tables a batch at a time in the background; every
one of them moves on by itself once read (a computer's move, a person's turn clock),
a table named before its batch is read on the spot (once), and the list of tables
waits for the last of them, oldest first. On a fake clock."""

from __future__ import annotations

import random

from domeng.engine import Game, tile_name
from domeng.engine.tiles import names
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.registry import LOAD_BATCH
from domeng.server.settings import Settings
from domeng.server.tables import hash_token
from domeng.storage import MemoryStorage, StoredDeal, StoredPlay, StoredSeat, StoredTable

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle

COMPUTERS = LOAD_BATCH + 30
"""Tables of computer players stopped mid-round: more than one batch."""


def _stopped(table_id: str, created: float, rng: random.Random, *, person: bool) -> StoredTable:
    """A table stopped mid-round (a few plays made); with a person in seat 0 whose turn
    it is, on a 15 s clock, when ``person``."""
    seats = [StoredSeat("computer", "random", f"C{n}", None, 0, n) for n in range(5)]
    if person:
        seats[0] = StoredSeat("person", None, "Ann", hash_token("ann"), 0, 0)
    settings = Settings(pace_ms=10, turn_seconds=15 if person else None, stand_in=None)
    while True:
        game = Game()
        r = game.deal(rng)
        t = StoredTable(table_id, created, settings.json(), [*seats])
        t.deals.append(StoredDeal([names(h) for h in r.dealt], names(r.unused), created))
        t.plays.append([])
        while len(r.plays) < 6 or (person and r.turn != 0):
            if r.finished:
                break
            seat = r.turn
            assert seat is not None
            r.play(rng.choice(r.legal_moves()))
            p = r.plays[-1][1]
            t.plays[-1].append(StoredPlay(seat, tile_name(p.tile), p.end.word, at=created))
        if not r.finished:
            return t


def _storage(now: float) -> tuple[MemoryStorage, list[str]]:
    storage, rng, ids = MemoryStorage(), random.Random(5), []
    for n in range(COMPUTERS + 1):
        table_id = f"t{n:04d}"
        storage.create_table(_stopped(table_id, now - 600 + n, rng, person=n == COMPUTERS))
        ids.append(table_id)
    return storage, ids


def test_a_start_reads_the_tables_in_the_background_and_each_moves_on_by_itself() -> None:
    async def main() -> None:
        clock = FakeClock()
        storage, ids = _storage(clock.wall())
        states = {t.id: sum(len(p) for p in t.plays) + 1 for t in storage.load_tables()}
        hub = Hub(storage, InlineRunner(), clock)
        await hub.start()
        assert len(hub.tables) < len(ids)  # the service answers before they are all read
        tables = await hub.all_tables()
        assert [t.id for t in tables] == ids  # every one, oldest first
        assert all(t.state == states[t.id] for t in tables)  # each as it was kept
        clock.advance(0.01)  # the computers' pace
        await settle(hub, clock)
        computers, person = tables[:-1], tables[-1]
        moved = [t.id for t in computers if t.state > states[t.id]]
        assert len(moved) == len(computers)  # nobody named them: they moved on by themselves
        assert person.state == states[person.id] and person.deadline is not None
        clock.advance(15)  # Ann's turn clock runs out: the stand-in plays for her
        await settle(hub, clock)
        assert person.state > states[person.id]
        await hub.close()

    run_apart(main)


def test_a_table_named_before_its_turn_is_read_at_once_and_only_once() -> None:
    async def main() -> None:
        clock = FakeClock()
        storage, ids = _storage(clock.wall())
        hub = Hub(storage, InlineRunner(), clock)
        await hub.start()
        last = ids[-2]  # in the last batch
        assert last not in hub.tables
        t = await hub.find(last)
        assert hub.tables[last] is t and not t.finished
        assert t.moving  # it moves on at once, before the others are read
        assert (await hub.attend(last)) is t
        await hub.all_tables()
        assert hub.tables[last] is t  # not read a second time
        assert list(hub.tables) == ids  # and the list is oldest first all the same
        await hub.close()

    run_apart(main)
