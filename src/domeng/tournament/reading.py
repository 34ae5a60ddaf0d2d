"""A table's game read into what the scoring needs: each deal's figures (duplicate) or
the game's end (table games), through the engine's one reading of a round's events
(:class:`~domeng.engine.standings.Tally`)."""

from __future__ import annotations

from collections.abc import Sequence

from domeng.engine import Game
from domeng.engine.standings import Tally

from .scoring import DealPlayed, TableGame


def deals_played(
    game: Game, round_number: int, table: int, entrants: Sequence[str]
) -> list[DealPlayed]:
    """Every finished deal of ``game`` (a table of tournament round ``round_number``)."""
    out: list[DealPlayed] = []
    for n, r in enumerate(game.rounds, 1):
        if not r.finished:
            continue
        tally = Tally()
        tally.add(r)
        out.append(
            DealPlayed(
                round_number,
                n,
                table,
                tuple(entrants),
                tuple(tally.received),
                tuple(tally.won),
                tuple(tally.passebunge),
            )
        )
    return out


def table_game(game: Game, round_number: int, table: int, entrants: Sequence[str]) -> TableGame:
    """The end of a table's game of the round's deals (the "games" format)."""
    tally = Tally()
    for r in game.rounds:
        if r.finished:
            tally.add(r)
    return TableGame(
        round_number,
        table,
        tuple(entrants),
        tuple(game.titles),
        tuple(game.stones),
        tuple(tally.received),
        tuple(tally.won),
        tuple(tally.passebunge),
    )
