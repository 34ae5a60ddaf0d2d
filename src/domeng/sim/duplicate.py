"""How much duplicate scoring narrows a player's confidence interval (``domeng sim
--duplicate-tables``; docs/tournaments.md, "How much duplicate helps").

One player (the first of ``--players``) against a field (the other four) over a number
of deals. Each deal is dealt once, as the first round of a fresh game (variant
``rounds`` ``fresh``, as a duplicate tournament deals it), and played at ``tables``
tables: at the first the player holds seat ``deal % 5``, the field round them in order;
every other table is the same table with the player's seat taken by the field's first
(with a field of one level, five of the field). Three scores of the player a deal, over
the same deals:

- **plain**: minus the STONES the player received (what a table's standings count);
- **against the field**: the mean STONES the field's players of the same seat at the
  other tables received on **other** tiles (the next deal's), minus the player's own:
  what plain scoring compares people with;
- **duplicate**: the tournament's score (:func:`domeng.tournament.scoring.deal_scores`):
  the same, on the **same** tiles.

Each score is given as its mean a deal with the half-width of its 95% interval
(Student's t over the deals, :func:`.stats.cluster_mean_ci` with one deal a cluster).
The figure a club reads is the ratio of duplicate's half-width to that against the
field, and how many deals plain scoring needs for duplicate's width (the ratio squared
times the deals). The same seed gives the same figures.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Sequence
from typing import NamedTuple

from domeng.bots import make_player
from domeng.engine import SEATS, Game, Rounds, Variants, deal
from domeng.engine.standings import Tally
from domeng.tournament.scoring import DealPlayed, deal_scores

from .stats import cluster_mean_ci

FRESH = Variants(rounds=Rounds.FRESH)
ZERO = (0, 0, 0, 0, 0)
PLAYER = "player"


class Interval(NamedTuple):
    """A score's mean a deal and the half-width of its 95% interval."""

    mean: float
    half: float


class Narrowing(NamedTuple):
    """The player's three scores over the same deals (see the module docstring)."""

    plain: Interval
    field: Interval
    duplicate: Interval

    @property
    def ratio(self) -> float:
        """Duplicate's half-width over that against the field (below 1: narrower)."""
        return self.duplicate.half / self.field.half

    def plain_deals(self, deals: int) -> float:
        """The deals plain scoring needs for the width duplicate has over ``deals``."""
        return deals / self.ratio**2


def play(
    hands: list[int], unused: int, levels: Sequence[str], seed: int, variants: Variants = FRESH
) -> list[int]:
    """One deal played by these five players: the STONES each seat received."""
    game = Game(dataclasses.replace(variants, rounds=Rounds.FRESH))
    game.start_round(hands, unused)
    players = [make_player(level, seed * SEATS + n) for n, level in enumerate(levels)]
    while not game.round.finished:
        seat = game.turn
        assert seat is not None
        game.play(players[seat].choose(game.view(seat)))
    tally = Tally()
    tally.add(game.round)
    return list(tally.received)


def seating(player: str, field: Sequence[str], seat: int, table: int) -> list[str]:
    """The five players of ``table`` when the player holds ``seat``: at table 0 the
    player, the field round them in order; at the others the field's first in their
    place."""
    levels = [""] * SEATS
    levels[seat] = player if table == 0 else field[0]
    for n in range(1, SEATS):
        levels[(seat + n) % SEATS] = field[n - 1]
    return levels


def measure(
    deals: int,
    tables: int,
    player: str,
    field: str | Sequence[str],
    seed: int,
    variants: Variants = FRESH,
) -> Narrowing:
    """The player's three scores over ``deals`` deals at ``tables`` tables (two or more);
    ``field``: one level for all four, or the four; ``variants``: the rules' (each deal
    is a fresh game's first round whatever they say)."""
    if tables < 2:
        raise ValueError("duplicate needs two tables or more")
    if deals < 2:
        raise ValueError("an interval needs two deals or more")
    fields = [field] * (SEATS - 1) if isinstance(field, str) else list(field)
    if len(fields) != SEATS - 1:
        raise ValueError(f"the field is {SEATS - 1} players, not {len(fields)}")
    rng = random.Random(seed)
    received: list[list[list[int]]] = []  # by deal, by table: each seat's STONES
    duplicate: list[float] = []
    for d in range(deals):
        hands, unused = deal(rng)
        seat = d % SEATS
        plays: list[DealPlayed] = []
        for table in range(tables):
            names = [f"t{table}s{n}" for n in range(SEATS)]
            if table == 0:
                names[seat] = PLAYER
            levels = seating(player, fields, seat, table)
            got = play(hands, unused, levels, seed + d * 101 + table, variants)
            plays.append(DealPlayed(1, d + 1, table + 1, tuple(names), tuple(got), ZERO, ZERO))
        received.append([list(p.received) for p in plays])
        duplicate.append(float(deal_scores(plays)[(1, d + 1, 1, seat)]))
    plain = [-float(received[d][0][d % SEATS]) for d in range(deals)]
    # the same comparison with the field, on other tiles: the field's players of the
    # same seat at the other tables of the next deal
    other = []
    for d in range(deals):
        seat, nxt = d % SEATS, received[(d + 1) % deals]
        field_mean = sum(t[seat] for t in nxt[1:]) / (tables - 1)
        other.append(field_mean + plain[d])
    return Narrowing(_interval(plain), _interval(other), _interval(duplicate))


def _interval(values: list[float]) -> Interval:
    mean, ci = cluster_mean_ci(values, [1] * len(values))
    assert ci is not None  # two deals or more
    return Interval(mean, (ci[1] - ci[0]) / 2)
