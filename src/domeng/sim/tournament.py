"""A tournament: its tasks spread over worker processes, then summed up per entry.

The results do not depend on the number of workers: every task is seeded from
``(seed, game, rotation)`` alone (see :mod:`domeng.sim.plan`), and the tallies
are summed in task order whatever order the tasks finish in.
"""

from __future__ import annotations

import contextlib
import ctypes
import multiprocessing
import multiprocessing.queues
import os
import signal
import sys
import time
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field

from domeng.bots import make_player
from domeng.engine import SEATS, Variants

from .plan import Task, game_sizes, plan
from .runner import Tally, TaskResult, play_task
from .stats import cluster_mean_ci, interval_json

DEFAULT_GAME_ROUNDS = 20
"""Deals per game: long enough for CAMAT elections (one every 7 or 8 rounds or so)."""


@dataclass(frozen=True, slots=True)
class Settings:
    """What to play: the entries, how many rounds, in games of how many deals."""

    names: tuple[str, ...]
    rounds: int
    seed: int = 1
    game_rounds: int = DEFAULT_GAME_ROUNDS
    variants: Variants = field(default_factory=Variants)
    record_dir: str | None = None

    def check(self) -> None:
        """Raise ``ValueError`` with a clear message for anything that cannot be played."""
        if len(self.names) != SEATS:
            raise ValueError(
                f"a table has exactly {SEATS} players, not {len(self.names)} "
                f"(got {','.join(self.names) or 'none'})"
            )
        for name in self.names:
            make_player(name, 0)  # raises ValueError naming the known players
        game_sizes(self.rounds, self.game_rounds)  # raises for bad numbers

    def tasks(self) -> list[Task]:
        return plan(
            self.names, self.rounds, self.game_rounds, self.seed, self.variants, self.record_dir
        )


@dataclass(frozen=True, slots=True)
class EntryResult:
    """One entry's figures over the whole tournament (``to_json`` gives the JSON keys)."""

    name: str
    tally: Tally
    stones_per_round: float
    stones_per_round_ci95: tuple[float, float] | None
    net_stones_per_round: float
    net_stones_per_round_ci95: tuple[float, float] | None
    vs_others: float
    """Stones received per round minus the mean of the other entries' (same deals)."""
    vs_others_ci95: tuple[float, float] | None

    def to_json(self) -> dict[str, object]:
        t = self.tally
        n = t.rounds
        ms = 1000.0 * t.think_seconds / t.decisions if t.decisions else 0.0
        return {
            "name": self.name,
            "rounds": n,
            "stones_per_round": self.stones_per_round,
            "stones_per_round_ci95": interval_json(self.stones_per_round_ci95),
            "given_per_round": t.given / n,
            "net_stones_per_round": self.net_stones_per_round,
            "net_stones_per_round_ci95": interval_json(self.net_stones_per_round_ci95),
            "stones_per_round_vs_others": self.vs_others,
            "stones_per_round_vs_others_ci95": interval_json(self.vs_others_ci95),
            "camat": t.camat,
            "camat_per_100_rounds": 100.0 * t.camat / n,
            "wins": t.wins,
            "win_rate": t.wins / n,
            "first_cappu": t.first_cappu,
            "ceki": t.ceki,
            "pollo": t.pollo,
            "manguno": t.manguno,
            "mattikkeng": t.mattikkeng,
            "passes": t.passes,
            "passes_per_round": t.passes / n,
            "passebunge": t.passebunge,
            "passebunge_per_round": t.passebunge / n,
            "moves": t.moves,
            "decisions": t.decisions,
            "ms_per_move": ms,
        }


@dataclass(frozen=True, slots=True)
class Summary:
    settings: Settings
    games: int
    entries: list[EntryResult]
    seconds: float = 0.0
    """Wall time of the run (not deterministic)."""

    def to_json(self) -> dict[str, object]:
        s = self.settings
        return {
            "players": [e.to_json() for e in self.entries],
            "rounds": s.rounds,
            "games": self.games,
            "rounds_per_game": s.game_rounds,
            "rotations": SEATS,
            "seed": s.seed,
            "variants": s.variants.to_json(),
        }


def summarize(settings: Settings, results: Sequence[TaskResult]) -> Summary:
    """Sum the tasks' tallies per entry; intervals over games (all rotations together)."""
    ordered = sorted(results, key=lambda r: r.index)
    games = sorted({r.game for r in ordered})
    k = len(settings.names)
    per_game = [{g: Tally() for g in games} for _ in range(k)]
    totals = [Tally() for _ in range(k)]
    for res in ordered:
        for e in range(k):
            totals[e].add(res.tallies[e])
            per_game[e][res.game].add(res.tallies[e])
    entries: list[EntryResult] = []
    for e, name in enumerate(settings.names):
        mine = per_game[e]
        sizes = [mine[g].rounds for g in games]
        mean, ci = cluster_mean_ci([float(mine[g].received) for g in games], sizes)
        net, net_ci = cluster_mean_ci(
            [float(mine[g].received - mine[g].given) for g in games], sizes
        )
        # Paired with the same deals: this entry's stones minus the other entries' mean.
        diffs = [
            mine[g].received - sum(per_game[f][g].received for f in range(k) if f != e) / (k - 1)
            for g in games
        ]
        vs, vs_ci = cluster_mean_ci(diffs, sizes)
        entries.append(EntryResult(name, totals[e], mean, ci, net, net_ci, vs, vs_ci))
    return Summary(settings, len(games), entries)


def default_workers() -> int:
    return os.cpu_count() or 1


def run(
    settings: Settings,
    workers: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> Summary:
    """Play the tournament on ``workers`` processes (1: in this process).

    ``progress`` is called with a number of rounds finished, as they finish (the worker
    processes tell the rounds they play every tenth of a second or so), and with 0 now
    and then while none has (so that a progress bar can show the time go by).
    """
    settings.check()
    if settings.record_dir is not None:
        os.makedirs(settings.record_dir, exist_ok=True)
    tasks = settings.tasks()
    workers = default_workers() if workers is None else workers
    if workers < 1:
        raise ValueError(f"workers must be at least 1, not {workers}")
    results: list[TaskResult] = []
    if workers == 1 or len(tasks) == 1:
        for task in tasks:
            results.append(play_task(task, (lambda: progress(1)) if progress else None))
    else:
        results = _run_pool(tasks, min(workers, len(tasks)), progress)
    return summarize(settings, results)


_LIVE_POOLS: set[ProcessPoolExecutor] = set()
"""The worker pools of the tournaments running in this process."""


def _worker_pids(pool: ProcessPoolExecutor) -> list[int]:
    for _ in range(3):
        try:
            return list(getattr(pool, "_processes", None) or {})
        except RuntimeError:  # the pool's manager thread changed it meanwhile
            continue
    return []


def stop_workers() -> None:
    """Kill the worker processes of every tournament running in this process.

    Takes no lock, so a signal handler may call it (then leave with ``os._exit``:
    the interrupted main thread may hold locks the pool needs to shut down).
    """
    for pool in list(_LIVE_POOLS):
        for pid in _worker_pids(pool):
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGKILL)


_ROUNDS: multiprocessing.queues.SimpleQueue[tuple[int, int]] | None = None
"""In a worker process: where it tells the rounds it finished, (task index, rounds)."""

_TELL_EVERY = 0.1
"""Seconds between a worker's reports of rounds finished."""


def _play_told(task: Task) -> TaskResult:
    """A worker's task: :func:`play_task`, telling the parent the rounds it finishes."""
    rounds = _ROUNDS
    if rounds is None:
        return play_task(task)
    told = [0, time.monotonic()]  # rounds not yet told, when last told

    def on_round() -> None:
        told[0] += 1
        now = time.monotonic()
        if now - told[1] >= _TELL_EVERY:
            rounds.put((task.index, int(told[0])))
            told[0], told[1] = 0, now

    return play_task(task, on_round)


def _worker_start(
    parent: int, rounds: multiprocessing.queues.SimpleQueue[tuple[int, int]] | None = None
) -> None:
    global _ROUNDS
    _ROUNDS = rounds
    # Ctrl-C reaches the whole process group: the parent stops the workers itself.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    # And should the parent die without stopping them (a signal between a worker's
    # start and the pool noting it), a worker on Linux dies with it.
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


_PR_SET_PDEATHSIG = 1


def _run_pool(
    tasks: list[Task], workers: int, progress: Callable[[int], None] | None
) -> list[TaskResult]:
    # fork where the platform has it: workers start at once, with the players registered.
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    context = multiprocessing.get_context(method)
    results: list[TaskResult] = []
    rounds = context.SimpleQueue() if progress else None
    pool = ProcessPoolExecutor(
        max_workers=workers,
        mp_context=context,
        initializer=_worker_start,
        initargs=(os.getpid(), rounds),
    )
    _LIVE_POOLS.add(pool)
    # Keep a bounded number of tasks in flight so that an error stops early.
    pending: set[Future[TaskResult]] = set()
    told = _Told({}, {}, set(), rounds, progress)
    try:
        for task in tasks:
            f = pool.submit(_play_told, task)
            pending.add(f)
            told.tasks[f] = task
            while len(pending) >= 2 * workers:
                pending = _collect(pending, results, told)
        while pending:
            pending = _collect(pending, results, told)
    except BaseException:
        # An error: stop at once rather than finish the tasks under way.
        pids = _worker_pids(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        for pid in pids:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)
        raise
    finally:
        _LIVE_POOLS.discard(pool)
    pool.shutdown()
    return results


@dataclass
class _Told:
    """The parent's side of the progress: the tasks in flight, the rounds each has told."""

    tasks: dict[Future[TaskResult], Task]
    rounds_told: dict[int, int]
    """By task index: rounds already passed on to ``progress``."""
    finished_tasks: set[int]
    """The tasks done (a report of theirs that comes after the result is not counted)."""
    rounds: multiprocessing.queues.SimpleQueue[tuple[int, int]] | None
    progress: Callable[[int], None] | None

    def read(self) -> None:
        """Pass on what the workers told (0 when nothing: the clock goes on)."""
        if self.progress is None:
            return
        n = 0
        while self.rounds is not None and not self.rounds.empty():
            index, played = self.rounds.get()
            if index in self.finished_tasks:
                continue
            self.rounds_told[index] = self.rounds_told.get(index, 0) + played
            n += played
        self.progress(n)

    def finished(self, f: Future[TaskResult]) -> None:
        """A task is done: the rest of its rounds."""
        task = self.tasks.pop(f)
        self.finished_tasks.add(task.index)
        if self.progress is not None:
            self.progress(task.deals - self.rounds_told.pop(task.index, 0))


def _collect(
    pending: set[Future[TaskResult]], results: list[TaskResult], told: _Told
) -> set[Future[TaskResult]]:
    while True:
        done, rest = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
        told.read()
        if done:
            break
    for f in done:
        results.append(f.result())
        told.finished(f)
    return rest
