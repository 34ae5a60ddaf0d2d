"""Ratings: OpenSkill's Plackett–Luce model over each finished round's order.

Every finished round is one match of up to five players, each on a team of their own,
ranked by :attr:`~domeng.history.figures.SeatFigures.place` (a CAMAT election first,
then fewer stones received; equal places tie). A rating is shown as one number, its
``mu``, with its uncertainty, twice its ``sigma`` (about 95%).

>>> a, b = rate([NEW, NEW], [1, 2])
>>> a.mu > NEW.mu > b.mu, a.sigma < NEW.sigma
(True, True)
>>> shown(Rating(27.04, 1.5))
'27.0 ± 3.0'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

MODEL = PlackettLuce()
"""The model, with OpenSkill's defaults (mu 25, sigma 25/3)."""


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def low(self) -> float:
        """The rating less its uncertainty: what a leaderboard may be cautious with."""
        return self.mu - 2 * self.sigma


NEW = Rating(MODEL.mu, MODEL.sigma)
"""A new person's rating."""


def rate(ratings: Sequence[Rating], places: Sequence[int]) -> list[Rating]:
    """The ratings after one match in which the players finished at ``places`` (1 the
    best; equal places tie). Fewer than two players: nothing changes."""
    if len(ratings) != len(places):
        raise ValueError("one place for every rating")
    if len(ratings) < 2:
        return list(ratings)
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in ratings]
    rated = MODEL.rate(teams, ranks=[float(p) for p in places])
    return [Rating(float(team[0].mu), float(team[0].sigma)) for team in rated]


def shown(r: Rating) -> str:
    """A rating as one number with its uncertainty."""
    return f"{r.mu:.1f} ± {2 * r.sigma:.1f}"
