"""A game's final standings: who won, and every player's figures over its rounds.

The winner of a game is the player with the most CAMAT titles; among equals, the
one who holds the fewest stones; then the one who received the fewest stones
over the whole game (docs/rules.md, "The end of a game"). Players equal on all
three share a rank.

>>> from domeng.engine import Game
>>> [s.rank for s in standings(Game())]
[1, 1, 1, 1, 1]
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any

from .events import CamatElected, Finish, RoundEnded, StonesMoved
from .game import Game
from .moves import SEATS


@dataclass(frozen=True, slots=True)
class Standing:
    """One player's place and figures at the end of a game (or so far)."""

    seat: int
    rank: int
    """1 for the winner; players equal on titles, stones and stones received share one."""
    titles: int
    """CAMAT titles won in this game."""
    stones: int
    """Stones held now."""
    received: int
    """Stones received over the whole game (before every CAMAT election's reset)."""
    rounds_won: int
    ceki: int
    """Rounds this player finished as FIRST CAPPU with a CEKI."""
    pollo: int
    """Rounds this player finished as FIRST CAPPU with a POLLO."""
    manguno: int
    """Rounds whose blocked line made this player MANGUNO."""
    mattikkeng: int
    """Rounds in which this player was MATTIKKENG (won or not)."""

    def json(self) -> dict[str, Any]:
        return asdict(self)


def _key(s: Standing) -> tuple[int, int, int]:
    return (-s.titles, s.stones, s.received)


def standings(game: Game) -> list[Standing]:
    """Every seat's standing, in rank order (seat order among equals)."""
    received = [0] * SEATS
    won = [0] * SEATS
    ceki = [0] * SEATS
    pollo = [0] * SEATS
    manguno = [0] * SEATS
    mattikkeng = [0] * SEATS
    titles = [0] * SEATS
    for r in game.rounds:
        for e in r.events:
            if isinstance(e, StonesMoved):
                received[e.receiver] += e.amount
            elif isinstance(e, CamatElected):
                titles[e.seat] = e.titles
            elif isinstance(e, RoundEnded):
                won[e.winner] += 1
                if e.first_cappu is not None and e.finish is Finish.CEKI:
                    ceki[e.first_cappu] += 1
                if e.first_cappu is not None and e.finish is Finish.POLLO:
                    pollo[e.first_cappu] += 1
                if e.manguno is not None:
                    manguno[e.manguno] += 1
                for seat in e.mattikkeng:
                    mattikkeng[seat] += 1
    stones = list(game.rounds[-1].stones) if game.rounds else [0] * SEATS
    figures = [
        Standing(
            n,
            0,
            titles[n],
            stones[n],
            received[n],
            won[n],
            ceki[n],
            pollo[n],
            manguno[n],
            mattikkeng[n],
        )
        for n in range(SEATS)
    ]
    ordered = sorted(figures, key=_key)
    out: list[Standing] = []
    for place, s in enumerate(ordered, 1):
        rank = out[-1].rank if out and _key(out[-1]) == _key(s) else place
        out.append(Standing(**{**s.json(), "rank": rank}))
    return out
