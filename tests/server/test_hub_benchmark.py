"""benchmarks/hub.py plays its tables and prints its figures (a short run)."""

from __future__ import annotations

import gc
from collections.abc import Callable
from types import ModuleType

import pytest

from .conftest import run_apart


def test_the_hub_benchmark_prints_its_figures(
    load_benchmark: Callable[[str], ModuleType], capsys: pytest.CaptureFixture[str]
) -> None:
    hub = load_benchmark("hub")
    threshold = gc.get_threshold()
    try:
        run_apart(lambda: hub.run(2, 0.5, "random"))
    finally:  # it sets the collector as domeng serve does: not for the tests after it
        gc.unfreeze()
        gc.set_threshold(*threshold)
    out = capsys.readouterr().out
    moves = int(out.split("moves a second: ")[1].split()[0])
    assert moves > 0
    assert "ms on the event loop's thread" in out and "garbage collections" in out
