"""Tournaments of computer players: seeds, seat rotation, workers, statistics.

:func:`run` plays a tournament described by :class:`Settings` and returns a
:class:`Summary`; ``domeng sim`` is its command line. See :mod:`.plan` for how
rounds, games, rotations and seeds are laid out, and :mod:`.stats` for the
confidence intervals.
"""

from .plan import Task, entry_at, game_deals, game_sizes, player_seed, seat_of
from .runner import PlayerError, Tally, TaskResult, play_game, play_task, record_name
from .stats import cluster_mean_ci, t_quantile_975
from .tournament import (
    DEFAULT_GAME_ROUNDS,
    EntryResult,
    Settings,
    Summary,
    default_workers,
    run,
    stop_workers,
    summarize,
)

__all__ = [
    "DEFAULT_GAME_ROUNDS",
    "EntryResult",
    "PlayerError",
    "Settings",
    "Summary",
    "Tally",
    "Task",
    "TaskResult",
    "cluster_mean_ci",
    "default_workers",
    "entry_at",
    "game_deals",
    "game_sizes",
    "play_game",
    "play_task",
    "player_seed",
    "record_name",
    "run",
    "seat_of",
    "stop_workers",
    "summarize",
    "t_quantile_975",
]
