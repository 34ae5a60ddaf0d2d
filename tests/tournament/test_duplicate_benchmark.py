"""benchmarks/duplicate.py: the player's three scores over the same deals."""

from __future__ import annotations

from collections.abc import Callable
from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def duplicate(load_benchmark: Callable[[str], ModuleType]) -> ModuleType:
    return load_benchmark("duplicate")


def test_the_same_seed_the_same_figures_and_each_interval_is_there(duplicate: ModuleType) -> None:
    once = duplicate.measure(30, 3, "basic", "random", 4)
    assert once == duplicate.measure(30, 3, "basic", "random", 4)
    (plain, _), (field, _), (dup, _) = once
    assert plain <= 0  # minus the STONES received
    assert all(half > 0 for _, half in once)
    assert field != dup  # other tiles, the same tiles


def test_a_deal_is_played_the_same_with_the_same_seed(duplicate: ModuleType) -> None:
    hands = [0b11111 << (5 * n) for n in range(5)]  # tiles 0-24 in order; 25-27 unused
    once = duplicate.play(hands, 0b111 << 25, ["random"] * 5, 9)
    assert once == duplicate.play(hands, 0b111 << 25, ["random"] * 5, 9)
    assert len(once) == 5 and 0 < sum(once) <= 25


def test_main_prints_a_line_per_table_count(
    duplicate: ModuleType, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("sys.argv", ["duplicate.py", "--deals", "10", "--tables", "2,3"])
    duplicate.main()
    out = capsys.readouterr().out
    assert out.count("tables: plain") == 2 and "duplicate/field" in out
