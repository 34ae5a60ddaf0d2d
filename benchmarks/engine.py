"""Engine benchmark: random full rounds with the complete rules, through the public API.

Run ``python benchmarks/engine.py`` (``--seconds`` to change the ~10 s budget). It plays
for about that long on one core and prints, as its last line, ``engine: N rounds/s``.

What is measured:

- Games of :data:`ROUNDS_PER_GAME` rounds each (a new :class:`Game` every 1,000 rounds, so
  that the stones run out again and again and CAMATs get elected, about one every eight
  rounds, while a game's kept rounds stay a bounded amount of memory). The games alternate
  between the default variants (``opening: double``, ``block_passes: penalized``) and the
  other two (``free``, ``free``), each with its own seeded generator.
- Each round is dealt by ``Game.deal(rng)`` and played to its end by the returned round's
  ``legal_moves()`` and ``play()``, always a uniformly random legal move (no draw from the
  generator when there is only one, as in 43% of the plays); passes, stones,
  the round's end and CAMAT elections happen inside the engine as in any game.
- Time is this process's CPU time (``time.process_time``; the benchmark is single-threaded,
  so it is time on one core): on a machine busy with other work the rate stays that of the
  engine, only the run takes longer. The wall-clock time is printed too.
- The last line is all rounds over all the time spent playing them; the lines before it
  give each variant's rate and, from one extra game per variant played afterwards (not
  timed), plays and passes per round, how rounds end and CAMAT elections. One more line
  times, for ``--game-path-seconds`` more, the same games with every move through
  ``Game.legal_moves()`` and ``Game.play()`` (what a caller holding only the Game uses).
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

from domeng.engine import BlockPasses, Game, Opening, Passed, Played, RoundEnd, Variants

ROUNDS_PER_GAME = 1000
"""Rounds per game before a new Game starts (CAMATs are elected about every 8 rounds)."""

VARIANTS: tuple[tuple[str, Variants], ...] = (
    ("double/penalized", Variants(Opening.DOUBLE, BlockPasses.PENALIZED)),
    ("free/free", Variants(Opening.FREE, BlockPasses.FREE)),
)


@dataclass
class Tally:
    """What the timed part counts for one variant."""

    rounds: int = 0
    seconds: float = 0.0
    camats: int = 0


@dataclass
class Sample:
    """Event counts from one untimed game."""

    rounds: int = 0
    plays: int = 0
    passes: int = 0
    camats: int = 0
    ends: Counter[str] = field(default_factory=Counter)


def play_game(variants: Variants, rng: random.Random) -> int:
    """Play one game of ROUNDS_PER_GAME random rounds; return its CAMAT elections."""
    rnd = rng.random
    game = Game(variants)
    deal = game.deal
    camats = 0
    for _ in range(ROUNDS_PER_GAME):
        r = deal(rng)
        legal_moves = r.legal_moves
        play = r.play
        moves = legal_moves()
        while moves:
            n = len(moves)
            play(moves[int(rnd() * n)] if n > 1 else moves[0])
            moves = legal_moves()
        camats += r.camat_elected
    return camats


def play_game_via_game(variants: Variants, rng: random.Random) -> int:
    """As play_game, but every move through ``Game.legal_moves()`` and ``Game.play()``."""
    rnd = rng.random
    game = Game(variants)
    deal = game.deal
    legal_moves = game.legal_moves
    play = game.play
    camats = 0
    for _ in range(ROUNDS_PER_GAME):
        r = deal(rng)
        moves = legal_moves()
        while moves:
            n = len(moves)
            play(moves[int(rnd() * n)] if n > 1 else moves[0])
            moves = legal_moves()
        camats += r.camat_elected
    return camats


def timed(
    player: Callable[[Variants, random.Random], int], seconds: float, seed: int
) -> list[Tally]:
    """Games by ``player``, alternating the variants, for about ``seconds``."""
    rngs = [random.Random(seed + i) for i in range(len(VARIANTS))]
    tallies = [Tally() for _ in VARIANTS]
    clock = time.process_time  # this process's CPU time: other processes do not count
    start = clock()
    i = 0
    while clock() - start < seconds or i < len(VARIANTS):
        k = i % len(VARIANTS)
        t0 = clock()
        camats = player(VARIANTS[k][1], rngs[k])
        tally = tallies[k]
        tally.seconds += clock() - t0
        tally.rounds += ROUNDS_PER_GAME
        tally.camats += camats
        i += 1
    return tallies


def sample(variants: Variants, seed: int) -> Sample:
    """One game played like the timed ones, then counted (not timed)."""
    rng = random.Random(seed)
    rnd = rng.random
    game = Game(variants)
    for _ in range(ROUNDS_PER_GAME):
        r = game.deal(rng)
        while r.turn is not None:
            moves = r.legal_moves()
            n = len(moves)
            r.play(moves[int(rnd() * n)] if n > 1 else moves[0])
    s = Sample(rounds=len(game.rounds))
    for r in game.rounds:
        s.camats += r.camat_elected
        s.plays += sum(type(e) is Played for e in r.events)
        s.passes += sum(type(e) is Passed for e in r.events)
        assert r.result is not None
        if r.result.end is RoundEnd.BLOCK:
            s.ends["MANGUNO"] += 1
        else:
            s.ends[str(r.result.finish).upper()] += 1
    return s


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=10.0, help="time budget (default 10)")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument(
        "--game-path-seconds",
        type=float,
        default=2.0,
        help="also time moves through Game.legal_moves()/Game.play() this long (default 2)",
    )
    args = parser.parse_args()

    wall = time.perf_counter()
    tallies = timed(play_game, args.seconds, args.seed)
    wall = time.perf_counter() - wall
    via_game = (
        timed(play_game_via_game, args.game_path_seconds, args.seed)
        if args.game_path_seconds > 0
        else []
    )

    for k, ((name, variants), tally) in enumerate(zip(VARIANTS, tallies, strict=True)):
        s = sample(variants, args.seed + 100 + k)
        ends = ", ".join(f"{end} {n / s.rounds:.1%}" for end, n in sorted(s.ends.items()))
        camat_every = f"{s.rounds / s.camats:.1f} rounds" if s.camats else "never"
        print(
            f"{name}: {tally.rounds} rounds in {tally.seconds:.2f} s = "
            f"{tally.rounds / tally.seconds:,.0f} rounds/s; {tally.camats} CAMAT elections"
        )
        print(
            f"  per round (one untimed game): {s.plays / s.rounds:.2f} plays, "
            f"{s.passes / s.rounds:.2f} passes, a CAMAT every {camat_every}; ends: {ends}"
        )
    if via_game:
        rounds = sum(t.rounds for t in via_game)
        seconds = sum(t.seconds for t in via_game)
        print(
            f"moves through Game.legal_moves()/Game.play() instead of the round's: "
            f"{rounds} rounds in {seconds:.2f} s = {rounds / seconds:,.0f} rounds/s"
        )
    rounds = sum(t.rounds for t in tallies)
    seconds = sum(t.seconds for t in tallies)
    print(
        f"{rounds} rounds in {seconds:.2f} s of CPU ({wall:.2f} s wall), "
        f"{ROUNDS_PER_GAME} rounds per game"
    )
    print(f"engine: {rounds / seconds:.0f} rounds/s")


if __name__ == "__main__":
    main()
