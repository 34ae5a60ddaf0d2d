"""Shared test settings, and a loader for the scripts in benchmarks/."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import random
import sys
from collections.abc import Callable, Generator, Iterator
from pathlib import Path
from types import ModuleType
from typing import TypeVar

import pytest
from hypothesis import settings

from domeng.engine import Game

# Tests never assert on time: no per-example deadline, on CI or here.
settings.register_profile("domeng", deadline=None, print_blob=True)
settings.load_profile("domeng")

T = TypeVar("T")

BENCHMARKS = Path(__file__).resolve().parent.parent / "benchmarks"

LONGEST_FIRST = (
    "server/test_server_several.py",
    "browser/test_browser_living.py",
    "browser/test_browser_friends.py",
    "browser/test_browser_layout.py",
    "browser/test_browser_table_screens.py",
    "install/test_wheel.py",
    "browser/test_browser_club.py",
    "browser/test_browser_accessibility.py",
    "server/test_club.py",
    "server/test_server_db_choice.py",
    "browser/test_browser_coach.py",
    "browser/test_browser_tournament.py",
    "test_stats_command.py",
    "browser/test_browser_players.py",
    "test_play_command.py",
    "browser/test_browser_table_play.py",
    "server/test_server_tournaments.py",
    "browser/test_browser_elsewhere.py",
    "browser/test_browser_font.py",
    "browser/test_browser_ladder.py",
    "test_review_command.py",
    "i18n/test_terminal_speaks.py",
    "server/test_storage_contract.py",
    "browser/test_browser_waits.py",
    "browser/test_browser_table_restart.py",
    "server/test_server_restart_resumes.py",
    "browser/test_browser_steady.py",
    "browser/test_browser_profiles_pages.py",
    "i18n/test_error_messages.py",
    "server/test_server_slow_clients.py",
    "server/test_server_friends.py",
    "browser/test_browser_page_modules.py",
    "server/test_storage_schema.py",
    "server/test_deploy_several.py",
    "server/test_server_forwarded.py",
    "server/test_storage_leases.py",
    "server/test_server_benchmark_script.py",
    "bots/test_expert.py",
    "engine/test_engine_properties.py",
    "sim/test_sim_progress.py",
    "bots/test_coach.py",
)
"""The test files that take longest (from four seconds to a minute and a half each,
waiting on processes, leases and browsers; measured in a run of ``make test``'s pytest,
longest first), begun first: the workers (pytest-xdist, a file each) then end together,
on the many short files, not with one of these begun last while the others have
nothing left (``test_stats_command.py``, 15 s, once ran last alone: 14 s of the run).
``make test`` keeps this order with ``--no-loadscope-reorder``: without it pytest-xdist
begins with the files that hold the most tests instead."""


def turned(children: list[T], worker: str | None, workers: str | None) -> list[T]:
    """A folder's ``children`` as pytest-xdist's worker ``worker`` (``gw0``, ``gw1``,
    ...) of ``workers`` collects them: each worker begins at its own part of the list
    and goes round.

    Collecting a test module imports it, and the first import of a fresh clone's module
    (pytest rewriting a test file's asserts, compiling a package's) is written down for
    the next. Three workers collecting in the same order all did each of those at once:
    a fresh clone's workers took 23 s to collect against 8 s with everything compiled.
    Begun at different places, each does about a third. The tests' order is not
    changed: :func:`pytest_collection_modifyitems` sorts the items by their files."""
    if worker is None or workers is None or not worker.startswith("gw"):
        return children
    cut = len(children) * (int(worker[2:]) % int(workers)) // int(workers)
    return children[cut:] + children[:cut]


@pytest.hookimpl(wrapper=True)
def pytest_collect_directory(
    path: Path, parent: pytest.Collector
) -> Generator[None, pytest.Collector | None, pytest.Collector | None]:
    """Each folder's collector, its children :func:`turned` for this worker."""
    collector = yield
    if collector is not None:
        collect = collector.collect
        worker = os.environ.get("PYTEST_XDIST_WORKER")
        workers = os.environ.get("PYTEST_XDIST_WORKER_COUNT")

        def collect_turned() -> list[pytest.Item | pytest.Collector]:
            return turned(list(collect()), worker, workers)

        collector.collect = collect_turned  # type: ignore[method-assign]
    return collector


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """:data:`LONGEST_FIRST` first, in that order; every other file after them, in the
    order of their paths (each file's tests stay together and in order). With
    ``DOMENG_TESTS_REVERSED`` set, each file's tests run the other way round: a test
    that needs another of its file to have run first fails (the check that no test
    depends on another's order; README)."""
    rank = {name: n for n, name in enumerate(LONGEST_FIRST)}
    here = Path(__file__).resolve().parent

    def first(item: pytest.Item) -> tuple[int, tuple[str, ...]]:
        try:
            name = item.path.resolve().relative_to(here)
        except ValueError:
            return len(rank), item.path.parts
        return rank.get(name.as_posix(), len(rank)), name.parts

    items.sort(key=first)  # stable: a file's tests keep their order
    if os.environ.get("DOMENG_TESTS_REVERSED"):  # each file's tests the other way round
        files: dict[Path, list[pytest.Item]] = {}
        for item in items:
            files.setdefault(item.path, []).append(item)
        items[:] = [item for tests in files.values() for item in reversed(tests)]


@pytest.fixture(scope="module")
def load_benchmark() -> Iterator[Callable[[str], ModuleType]]:
    """Load ``benchmarks/<stem>.py`` as a module, for the tests of one test module.

    The module sits in ``sys.modules`` while the tests use it (its dataclasses
    look their module up there) and is taken out afterwards.
    """
    loaded: list[str] = []

    def load(stem: str) -> ModuleType:
        name = f"domeng_benchmark_{stem}"
        spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{stem}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        loaded.append(name)
        spec.loader.exec_module(module)
        return module

    yield load
    for name in loaded:
        sys.modules.pop(name, None)


@pytest.fixture
def unpaid_ending() -> Game:
    """25 rounds of random moves (seed 0): the last ends with a FIRST CAPPU on an empty
    table whose CUCUQ award finds no stones to give, and the FIRST CAPPU is elected CAMAT."""
    rng = random.Random(0)
    game = Game()
    for _ in range(25):
        game.deal(rng)
        while not game.round.finished:
            game.play(rng.choice(game.legal_moves()))
    return game


@pytest.fixture(autouse=True)
def _english(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every test speaks English unless it asks for another language: the language
    would otherwise come from the machine's locale (DOMENG_LANG, LANG ...)."""
    monkeypatch.setenv("DOMENG_LANG", "en")


@pytest.fixture(autouse=True)
def _no_loop_left_running(request: pytest.FixtureRequest) -> Iterator[None]:
    """Playwright's sync API (the browser tests' ``browser``, one a worker) leaves its
    event loop marked running in this thread between its calls: a test after it on the
    same worker could not ``asyncio.run``. A test that does not use the browser runs
    with no loop marked running; Playwright's is marked again after it."""
    playwright_loop = asyncio._get_running_loop()
    if playwright_loop is None or "browser" in request.fixturenames:
        yield
        return
    asyncio._set_running_loop(None)
    try:
        yield
    finally:
        asyncio._set_running_loop(playwright_loop)
