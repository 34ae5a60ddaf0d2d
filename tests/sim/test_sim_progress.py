"""A tournament tells its progress round by round, from its worker processes too, and
the total it tells is the number of rounds played (no round counted twice)."""

from __future__ import annotations

import time
from typing import Any

import pytest

from domeng.sim import Settings, run
from domeng.sim import runner as runner_module
from domeng.sim import tournament as tournament_module


def _settings() -> Settings:
    # 50 rounds: 10 deals in one game, played in 5 rotations (5 tasks of 10 rounds each)
    return Settings(names=("random",) * 5, rounds=50, seed=3, game_rounds=10)


def test_one_worker_tells_every_round() -> None:
    told: list[int] = []
    run(_settings(), 1, told.append)
    assert told == [1] * 50


def test_worker_processes_tell_rounds_before_their_task_ends(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tournament_module, "_TELL_EVERY", 0.0)  # every round, for the test
    count = runner_module._count_round

    def slow(*args: Any) -> None:  # a round takes 50 ms (the workers are forked with it)
        time.sleep(0.05)
        count(*args)

    monkeypatch.setattr(runner_module, "_count_round", slow)
    told: list[int] = []
    summary = run(_settings(), 2, told.append)
    assert sum(told) == 50  # every round once
    assert len([n for n in told if n]) > 5  # more reports than the 5 tasks: per round
    assert all(n >= 0 for n in told)
    alone = run(_settings(), 1)

    def figures(s: Any) -> list[dict[str, object]]:  # think time aside: not deterministic
        return [{k: v for k, v in e.to_json().items() if k != "ms_per_move"} for e in s.entries]

    assert figures(summary) == figures(alone)


def test_a_report_that_comes_after_its_task_s_result_is_not_counted_twice() -> None:
    from concurrent.futures import Future

    from domeng.sim.plan import Task

    class Reports:
        def __init__(self) -> None:
            self.items: list[tuple[int, int]] = []

        def empty(self) -> bool:
            return not self.items

        def get(self) -> tuple[int, int]:
            return self.items.pop(0)

    reports = Reports()
    told: list[int] = []
    progress = tournament_module._Told({}, {}, set(), reports, told.append)  # type: ignore[arg-type]
    task = _settings().tasks()[0]
    assert isinstance(task, Task)
    f: Future[object] = Future()
    progress.tasks[f] = task  # type: ignore[index]
    reports.items.append((task.index, 3))
    progress.read()  # 3 rounds told while the task runs
    progress.finished(f)  # type: ignore[arg-type]  # the task is done: the rest of its rounds
    reports.items.append((task.index, 2))  # a report of the same task, late
    progress.read()
    assert sum(told) == task.deals
