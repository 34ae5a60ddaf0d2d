"""Playing one task (one rotation of one game) and counting what happened.

A player is asked only when it has a choice: when the seat in turn has a
single legal move, that move is played without asking (so think time is
measured over real decisions only). A player with ``sees_all`` (the
``oracle``) is asked with ``choose_seeing_all`` on a copy of the round; every
other player receives only its seat's view.
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from domeng.bots import Player, make_player
from domeng.engine import (
    SEATS,
    CamatElected,
    Event,
    Finish,
    Game,
    IllegalMoveError,
    Move,
    Passed,
    RoundEnded,
    StonesMoved,
    view,
)

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


class PlayerError(RuntimeError):
    """A player failed or returned a move that is not legal."""


def _ask(player: Player, game: Game, seat: int) -> object:
    if player.sees_all:
        return player.choose_seeing_all(game.round.clone(), seat)
    return player.choose(view(game.round, seat))


def play_task(task: Task) -> TaskResult:
    """Play one rotation of one game, count what happened to each entry, and write
    the game's record when the task asks for it."""
    game, seat_names, result = play_game(task)
    if task.record_dir is not None:
        from domeng.engine.record import save_record

        path = os.path.join(task.record_dir, record_name(task.game, task.rotation))
        save_record(path, game, seat_names)
    return result


def play_game(task: Task) -> tuple[Game, list[str], TaskResult]:
    """Play one rotation of one game: the game, the player names by seat, the tallies."""
    deals = game_deals(task.seed, task.game, task.deals)
    players = [
        make_player(name, player_seed(task.seed, task.game, task.rotation, e))
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
                        f"player {player.name!r} failed in game {task.game}, rotation "
                        f"{task.rotation}, round {r.number}: {exc!r}"
                    ) from exc
                tally.think_seconds += clock() - start
                tally.decisions += 1
                if not isinstance(chosen, Move):
                    raise PlayerError(
                        f"player {player.name!r} returned {chosen!r}, not a Move, in game "
                        f"{task.game}, rotation {task.rotation}, round {r.number}"
                    )
                m = chosen
            try:
                r.play(m)
            except IllegalMoveError as exc:
                raise PlayerError(
                    f"player {seated[seat].name!r} chose {m}, which is not legal ({exc}), in "
                    f"game {task.game}, rotation {task.rotation}, round {r.number}"
                ) from exc
            tally.moves += 1
        _count_round(r.events, seat_tally)
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


__all__ = ["COUNTS", "PlayerError", "Tally", "TaskResult", "play_game", "play_task", "record_name"]
