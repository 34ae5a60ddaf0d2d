"""A storage holds its parts (storage/base.py): the club's and the history's methods of
the :class:`~domeng.storage.base.Storage` interface go to the part its backend holds,
and a storage that holds no club answers NoClub."""

from __future__ import annotations

import pytest

from domeng.storage import MemoryStorage, Storage, StoredMember
from domeng.storage.club import ClubStorage, NoClub
from domeng.storage.history import HistoryStorage
from domeng.storage.memory_club import MemoryClub
from domeng.storage.memory_history import MemoryHistory
from domeng.storage.sql_club import SQLClub
from domeng.storage.sql_history import SQLHistory


@pytest.mark.parametrize("part", [ClubStorage, HistoryStorage])
def test_the_storage_answers_every_method_of_its_parts(part: type) -> None:
    names = sorted(part.__abstractmethods__)
    assert len(names) == {ClubStorage: 24, HistoryStorage: 10}[part]
    assert [n for n in names if n in Storage.__abstractmethods__ or not hasattr(Storage, n)] == []


@pytest.mark.parametrize("part", [SQLClub, MemoryClub, SQLHistory, MemoryHistory])
def test_every_part_keeps_the_whole_of_its_interface(part: type) -> None:
    assert part.__abstractmethods__ == frozenset()


def test_a_storage_that_holds_no_club_answers_no_club_and_keeps_its_tables() -> None:
    class Clubless(MemoryStorage):
        def __init__(self) -> None:
            super().__init__()
            self._club = None

    store = Clubless()
    with pytest.raises(NoClub, match="Clubless keeps no club"):
        store.create_member(StoredMember("p-1", "Besse", "member", 1.0))
    with pytest.raises(NoClub):
        store.members()
    assert store.load_tables() == []


def test_a_club_part_answers_through_its_storage() -> None:
    store = MemoryStorage()
    store.create_member(StoredMember("p-1", "Besse", "member", 1.0))
    assert [m.name for m in store.members()] == ["Besse"]
    store.close()
    with pytest.raises(Exception, match="closed"):
        store.members()
