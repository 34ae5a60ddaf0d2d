"""Playing one task (one rotation of one game) and counting what happened.

A player is asked only when it has a choice: when the seat in turn has a
single legal move, that move is played without asking (so think time is
measured over real decisions only). A player with ``sees_all`` (the
``oracle``) is asked with ``choose_seeing_all`` on a copy of the round; every
other player receives only its seat's view.

The search players think by their level's play-outs, as at a table, but without the
table's safety cap on the time per move (:data:`SIM_CAP` instead): a cap measured on
the wall clock would cut a search short whenever the machine is busy, and a run would
then no longer be the same for the same seed, nor its players as strong as their level.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypedDict

from domeng.bots import Player, make_player
from domeng.bots.coach import COACH_CAP
from domeng.bots.expert import LEVELS, ExpertPlayer
from domeng.bots.oracle import OraclePlayer
from domeng.engine import (
    SEATS,
    CamatElected,
    End,
    Event,
    Finish,
    Game,
    IllegalMoveError,
    Move,
    Passed,
    RoundEnded,
    StonesMoved,
    tile_name,
    view,
)
from domeng.engine.keyed import reason_of
from domeng.engine.tiles import TILE_COUNT

from .plan import Task, entry_at, game_deals, player_seed

COUNTS = (
    "rounds",
    "received",
    "given",
    "camat",
    "wins",
    "first_cappu",
    "ceki",
    "pollo",
    "manguno",
    "mattikkeng",
    "passes",
    "passebunge",
    "moves",
    "decisions",
)
"""What :class:`Tally` counts for an entry (``passes`` includes PASSEBUNGE)."""


@dataclass(slots=True)
class Tally:
    """What happened to one entry over some rounds."""

    rounds: int = 0
    received: int = 0
    """Stones received, from the table or from other seats."""
    given: int = 0
    """Stones handed to other seats (the stones a CAMAT election returns are not given)."""
    camat: int = 0
    wins: int = 0
    first_cappu: int = 0
    ceki: int = 0
    pollo: int = 0
    manguno: int = 0
    mattikkeng: int = 0
    passes: int = 0
    """Every PASS, PASSEBUNGE included."""
    passebunge: int = 0
    moves: int = 0
    """Tiles played."""
    decisions: int = 0
    """Plays where the player had more than one legal move, and was asked."""
    think_seconds: float = 0.0
    """Time spent in the player's choose (not deterministic)."""

    def add(self, other: Tally) -> None:
        for name in COUNTS:
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.think_seconds += other.think_seconds


@dataclass(slots=True)
class TaskResult:
    """The tallies of one task, by entry (in the order given)."""

    index: int
    game: int
    rotation: int
    tallies: list[Tally] = field(default_factory=list)


PLAYER_REASONS: dict[str, str] = {
    "sim_player.failed": "player {name} failed in game {game}, rotation {rotation}, "
    "round {round}: {why}",
    "sim_player.not_a_move": "player {name} returned {value}, not a {type}, in game {game}, "
    "rotation {rotation}, round {round}",
    "sim_player.illegal_left": "player {name} chose {tile} left, which is not legal ({why}), "
    "in game {game}, rotation {rotation}, round {round}",
    "sim_player.illegal_right": "player {name} chose {tile} right, which is not legal "
    "({why}), in game {game}, rotation {rotation}, round {round}",
    "sim_player.illegal": "player {name} chose {move}, which is not legal ({why}), in game "
    "{game}, rotation {rotation}, round {round}",
}
"""What went wrong with a player, by key: the English of the catalogs' entries
(engine/keyed.py); ``why`` is a Python error's own words, or the IllegalMoveError."""


class PlayerError(RuntimeError):
    """A player failed or returned a move that is not legal.

    ``key`` (one of :data:`PLAYER_REASONS`) and ``values`` let ``domeng sim`` say it in
    the chosen language; ``str(error)`` is the English.
    """

    def __init__(self, reason: str | None = None, *, key: str | None = None, **values: object):
        super().__init__(reason_of(reason, key, values, PLAYER_REASONS))
        self.key = key
        self.values = values


class _Where(TypedDict):
    """Where a player went wrong."""

    game: int
    rotation: int
    round: int


def _illegal(name: str, m: Move, exc: IllegalMoveError, where: _Where) -> PlayerError:
    """The PlayerError of a player's illegal move ``m``."""
    t, end = m
    if isinstance(t, int) and 0 <= t < TILE_COUNT and end in (End.LEFT, End.RIGHT):
        side = "left" if end == End.LEFT else "right"
        return PlayerError(
            key=f"sim_player.illegal_{side}", name=name, tile=tile_name(t), why=exc, **where
        )
    return PlayerError(key="sim_player.illegal", name=name, move=repr(m), why=exc, **where)


def _ask(player: Player, game: Game, seat: int) -> object:
    if player.sees_all:
        return player.choose_seeing_all(game.round.clone(), seat)
    return player.choose(view(game.round, seat))


def play_task(task: Task, on_round: Callable[[], None] | None = None) -> TaskResult:
    """Play one rotation of one game, count what happened to each entry, and write
    the game's record when the task asks for it. ``on_round`` is called as each round
    ends (for a progress bar)."""
    game, seat_names, result = play_game(task, on_round)
    if task.record_dir is not None:
        from domeng.engine.record import save_record

        path = os.path.join(task.record_dir, record_name(task.game, task.rotation))
        save_record(path, game, seat_names)
    return result


SIM_CAP = COACH_CAP
"""The time per move a search player may take in a sim: far above what any level spends
on an idle core, as for the coach, so that only the play-outs count."""


def sim_player(name: str, seed: int) -> Player:
    """The player ``name`` as the sim seats it: a level of the search (or the ``oracle``)
    keeps its play-outs but thinks under :data:`SIM_CAP`; any other player as registered."""
    player = make_player(name, seed)
    if (name in LEVELS or name == "oracle") and isinstance(player, ExpertPlayer | OraclePlayer):
        player.level = dataclasses.replace(
            player.level, max_seconds=max(SIM_CAP, player.level.max_seconds)
        )
    return player


def play_game(
    task: Task, on_round: Callable[[], None] | None = None
) -> tuple[Game, list[str], TaskResult]:
    """Play one rotation of one game: the game, the player names by seat, the tallies.
    ``on_round`` is called as each round ends."""
    deals = game_deals(task.seed, task.game, task.deals)
    players = [
        sim_player(name, player_seed(task.seed, task.game, task.rotation, e))
        for e, name in enumerate(task.names)
    ]
    by_seat = [entry_at(s, task.rotation) for s in range(SEATS)]
    seated = [players[e] for e in by_seat]
    tallies = [Tally() for _ in task.names]
    seat_tally = [tallies[e] for e in by_seat]
    game = Game(task.variants)
    clock = time.perf_counter
    for hands, unused in deals:
        r = game.start_round(hands, unused)
        where = _Where(game=task.game, rotation=task.rotation, round=r.number)  # for errors
        while r.turn is not None:
            seat = r.turn
            legal = r.legal_moves()
            tally = seat_tally[seat]
            if len(legal) == 1:
                m = legal[0]
            else:
                player = seated[seat]
                start = clock()
                try:
                    chosen = _ask(player, game, seat)
                except Exception as exc:
                    raise PlayerError(
                        key="sim_player.failed", name=repr(player.name), why=repr(exc), **where
                    ) from exc
                tally.think_seconds += clock() - start
                tally.decisions += 1
                if not isinstance(chosen, Move):
                    raise PlayerError(
                        key="sim_player.not_a_move",
                        name=repr(player.name),
                        value=repr(chosen),
                        type="Move",
                        **where,
                    )
                m = chosen
            try:
                r.play(m)
            except IllegalMoveError as exc:
                raise _illegal(repr(seated[seat].name), m, exc, where) from exc
            tally.moves += 1
        _count_round(r.events, seat_tally)
        if on_round is not None:
            on_round()
    seat_names = [task.names[e] for e in by_seat]
    return game, seat_names, TaskResult(task.index, task.game, task.rotation, tallies)


def record_name(game: int, rotation: int) -> str:
    """The file name ``--record`` gives a game's rotation."""
    return f"game-{game:05d}-rotation-{rotation}.json"


def _count_round(events: Sequence[Event], seat_tally: list[Tally]) -> None:
    for t in seat_tally:
        t.rounds += 1
    for e in events:
        if type(e) is StonesMoved:
            seat_tally[e.receiver].received += e.amount
            if e.giver is not None:
                seat_tally[e.giver].given += e.amount
        elif type(e) is Passed:
            t = seat_tally[e.seat]
            t.passes += 1
            if e.passebunge:
                t.passebunge += 1
        elif type(e) is RoundEnded:
            seat_tally[e.winner].wins += 1
            if e.first_cappu is not None:
                t = seat_tally[e.first_cappu]
                t.first_cappu += 1
                if e.finish is Finish.CEKI:
                    t.ceki += 1
                elif e.finish is Finish.POLLO:
                    t.pollo += 1
            if e.manguno is not None:
                seat_tally[e.manguno].manguno += 1
            for s in e.mattikkeng:
                seat_tally[s].mattikkeng += 1
        elif type(e) is CamatElected:
            seat_tally[e.seat].camat += 1


__all__ = [
    "COUNTS",
    "PLAYER_REASONS",
    "PlayerError",
    "Tally",
    "TaskResult",
    "play_game",
    "play_task",
    "record_name",
]
