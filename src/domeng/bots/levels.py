"""The search players' thinking budgets (``expert:fast``, ``expert``, ``expert:strong``).

A level is a number of play-outs per decision, the budget that counts, and a safety cap
on the time per move. The coach (:mod:`domeng.bots.coach`) judges at a level too, and
``expert`` at a level plays what the coach at that level calls best.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Level:
    """A thinking budget."""

    name: str
    playouts: int
    """Play-outs per move decision (all legal moves together): the budget that counts."""
    max_seconds: float
    """Safety cap on the thinking time per move."""


LEVELS: dict[str, Level] = {
    "expert:fast": Level("expert:fast", 1000, 0.3),
    "expert": Level("expert", 3000, 0.95),
    "expert:strong": Level("expert:strong", 8000, 4.0),
}

LADDER: tuple[str, ...] = ("random", "basic", "expert:fast", "expert", "expert:strong")
"""The computer players people can seat, weakest first: the ladder of levels, each step
measured by a paired trial (docs/bots.md, "The ladder")."""


def ladder_key(name: str) -> str:
    """The catalog key of a level's name as players understand it, from Beginner to Master
    (``ladder.<name>`` in ``web/i18n/<code>.json``), shown beside the technical name."""
    if name not in LADDER:
        raise ValueError(f"{name!r} is not on the ladder ({', '.join(LADDER)})")
    return f"ladder.{name}"
