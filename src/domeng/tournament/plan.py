"""A tournament's plan: its formats, its limits, and the deals of each round.

A round's deals come from the tournament's seed and the round's number, so the same
tournament deals the same tiles again (a restart, a test), and every table of a round
gets the very same deals.

>>> a, b = round_deals(7, 1, 2), round_deals(7, 1, 2)
>>> a == b and len(a) == 2 and a != round_deals(7, 2, 2)
True
>>> sorted(len(h) for h in a[0][0])
[5, 5, 5, 5, 5]
"""

from __future__ import annotations

import random
from typing import Literal

from domeng.engine import deal
from domeng.engine.tiles import names

Format = Literal["duplicate", "games"]
FORMATS: tuple[Format, ...] = ("duplicate", "games")
MAX_ENTRANTS = 200
MAX_ROUNDS = 20
MAX_DEALS = 20
GAMES_SCALE = "4, 3, 2, 1, 0"
"""The table points of the "games" format, first to fifth (equal places share)."""

NamedDeal = tuple[list[list[str]], list[str]]
"""A deal as tile names: five hands and the three unused tiles."""


def round_deals(seed: int, round_number: int, count: int) -> list[NamedDeal]:
    """The ``count`` deals of a round, the same for every table."""
    rng = random.Random(f"domeng-tournament:{seed}:{round_number}")
    out: list[NamedDeal] = []
    for _ in range(count):
        hands, unused = deal(rng)
        out.append(([names(h) for h in hands], names(unused)))
    return out
