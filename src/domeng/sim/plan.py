"""How a tournament is laid out: games, deals, seat rotation and seeds.

A tournament of ``rounds`` rounds (a multiple of 5) plays ``rounds / 5``
deals. The deals are grouped in *games* of ``game_rounds`` deals each (the
last game may be shorter): within a game the stones, the CAMAT and the titles
carry over from round to round, as at a real table. Each game is played five
times, once per *rotation*: in rotation ``r`` entry ``e`` sits in seat
``(e + r) % 5``, and the five rotations of a game are dealt exactly the same
tiles seat by seat. So every entry holds every hand of every deal once
(duplicate play), and each entry plays ``rounds`` rounds in all.

Everything random derives from ``(seed, game, rotation)`` only, never from
which process plays it or in what order, so the results do not depend on the
number of workers:

- the deals of game ``g``: ``random.Random("domeng-sim:{seed}:{g}:deals")``
  (the same for all five rotations);
- the player of entry ``e`` in game ``g``, rotation ``r``: seeded with
  :func:`player_seed` ``(seed, g, r, e)``.

>>> [seat_of(e, 2) for e in range(5)]
[2, 3, 4, 0, 1]
>>> [entry_at(s, 2) for s in range(5)]
[3, 4, 0, 1, 2]
>>> [len(p) for p in game_sizes(rounds=55, game_rounds=5)]
[5, 5, 1]
"""

from __future__ import annotations

import hashlib
import random
from dataclasses import dataclass

from domeng.engine import SEATS, TileSet, Variants, deal


def seat_of(entry: int, rotation: int) -> int:
    """The seat entry ``entry`` sits in during rotation ``rotation``."""
    return (entry + rotation) % SEATS


def entry_at(seat: int, rotation: int) -> int:
    """The entry that sits in ``seat`` during rotation ``rotation``."""
    return (seat - rotation) % SEATS


def game_sizes(rounds: int, game_rounds: int) -> list[range]:
    """The deal indices of each game: ``rounds / 5`` deals in games of ``game_rounds``."""
    if rounds <= 0 or rounds % SEATS:
        raise ValueError(f"rounds must be a positive multiple of {SEATS}, not {rounds}")
    if game_rounds <= 0:
        raise ValueError(f"rounds per game must be positive, not {game_rounds}")
    deals = rounds // SEATS
    return [range(start, min(start + game_rounds, deals)) for start in range(0, deals, game_rounds)]


def _digest(*parts: object) -> bytes:
    return hashlib.sha256(":".join(map(str, ("domeng-sim", *parts))).encode()).digest()


def player_seed(seed: int, game: int, rotation: int, entry: int) -> int:
    """The seed of entry ``entry``'s player in game ``game``, rotation ``rotation`` (63 bits)."""
    return int.from_bytes(_digest(seed, game, rotation, entry)[:8], "big") >> 1


def game_deals(seed: int, game: int, count: int) -> list[tuple[list[TileSet], TileSet]]:
    """The ``count`` deals of game ``game`` (hands by seat, unused), the same in every rotation."""
    rng = random.Random(f"domeng-sim:{seed}:{game}:deals")
    return [deal(rng) for _ in range(count)]


@dataclass(frozen=True, slots=True)
class Task:
    """One rotation of one game: the unit of work a worker process plays."""

    index: int
    """The position of this task in the tournament (game-major, then rotation)."""
    game: int
    rotation: int
    deals: int
    """How many rounds (deals) this game has."""
    names: tuple[str, ...]
    """The entries' player names, in the order given."""
    seed: int
    variants: Variants
    record_dir: str | None = None


def plan(
    names: tuple[str, ...],
    rounds: int,
    game_rounds: int,
    seed: int,
    variants: Variants,
    record_dir: str | None = None,
) -> list[Task]:
    """Every task of a tournament, in a fixed order."""
    tasks: list[Task] = []
    for g, deals in enumerate(game_sizes(rounds, game_rounds)):
        for r in range(SEATS):
            tasks.append(Task(len(tasks), g, r, len(deals), names, seed, variants, record_dir))
    return tasks
