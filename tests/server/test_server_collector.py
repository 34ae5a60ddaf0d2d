"""``domeng serve`` sets the garbage collector for a long-running service once it has
loaded its tables: what is alive then is frozen, young cycles are looked for less often."""

from __future__ import annotations

import gc
import weakref
from collections.abc import Iterator

import pytest

from domeng.server import collector


@pytest.fixture
def restored() -> Iterator[None]:
    threshold = gc.get_threshold()
    yield
    gc.unfreeze()
    gc.enable()
    gc.set_threshold(*threshold)


@pytest.mark.usefixtures("restored")
def test_settle_freezes_what_is_alive_and_looks_for_young_cycles_less_often() -> None:
    kept = [object() for _ in range(10)]  # alive when the service has loaded
    _, middle, old = gc.get_threshold()
    collector.settle()
    assert gc.get_freeze_count() > len(kept)
    assert gc.get_threshold() == (collector.YOUNG, middle, old)


@pytest.mark.usefixtures("restored")
def test_a_cycle_made_later_is_still_collected_by_itself() -> None:
    collector.settle()

    class Node:
        other: object

    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    kept = [[] for _ in range(3 * collector.YOUNG)]  # new objects: the collector looks
    assert gone() is None  # found and freed without a gc.collect() of ours
    assert len(kept) == 3 * collector.YOUNG
