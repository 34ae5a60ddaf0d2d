"""Scoring a club tournament, by hand: duplicate scores and table points.

**Duplicate.** Every deal of a tournament round is played at every table, each hand
at the same seat number, as the first round of a fresh game. A player's score on a
deal is the mean STONES received by the others who held the same hand (the same
deal, the same seat number, at the other tables) minus the STONES they received
themselves: above zero, they did better with those tiles than the field. With one
table there is nobody to compare with and the score is minus the STONES received
(plain play). A tournament score is the sum over the deals; higher is better;
ties are broken by rounds won, then by fewest PASSEBUNGE.

Three tables played deal 1; seat 0's hand received 1, 4 and 1 STONES:

>>> plays = [
...     DealPlayed(1, 1, t, (f"{t}a", f"{t}b", f"{t}c", f"{t}d", f"{t}e"),
...                (got, 0, 0, 0, 0), (1, 0, 0, 0, 0), (0, 0, 0, 0, 0))
...     for t, got in ((1, 1), (2, 4), (3, 1))
... ]
>>> s = duplicate_scores(plays)
>>> s["1a"], s["2a"], s["3a"]  # (4+1)/2 - 1, (1+1)/2 - 4, (1+4)/2 - 1
(Fraction(3, 2), Fraction(-3, 1), Fraction(3, 2))

**Table games.** Each table plays a game of the round's deals with the usual
carrying over of STONES and CAMAT. Its places (more CAMAT titles first, then fewer
STONES held, then fewer received: the table's own standings) give tournament
points: one for every player placed below you, a half for every player placed
equal, so 4, 3, 2, 1, 0 at a table of five, summed over the rounds.

>>> table_points(titles=(1, 0, 0, 0, 0), stones=(0, 3, 3, 9, 1), received=(4, 3, 3, 9, 5))
(Fraction(4, 1), Fraction(3, 2), Fraction(3, 2), Fraction(0, 1), Fraction(3, 1))
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction

SEATS = 5


@dataclass(frozen=True, slots=True)
class DealPlayed:
    """One deal as one table played it: who held each seat and the deal's figures."""

    round: int
    """The tournament round (from 1)."""
    deal: int
    """The deal's number in that round (from 1)."""
    table: int
    """The table's number in that round (from 1)."""
    entrants: tuple[str, ...]
    """Who held seats 0-4 (entrants' keys)."""
    received: tuple[int, ...]
    """The STONES each seat received in the deal."""
    won: tuple[int, ...]
    """1 for the seat that won the deal (the round of Domeng), else 0."""
    passebunge: tuple[int, ...]
    """Each seat's PASSEBUNGE in the deal."""


@dataclass(frozen=True, slots=True)
class TableGame:
    """One table's game of a round's deals (the "games" format), as it ended."""

    round: int
    table: int
    entrants: tuple[str, ...]
    titles: tuple[int, ...]
    """CAMAT titles each seat won."""
    stones: tuple[int, ...]
    """The STONES each seat holds at the game's end."""
    received: tuple[int, ...]
    """The STONES each seat received over the game."""
    won: tuple[int, ...]
    """Rounds of Domeng each seat won."""
    passebunge: tuple[int, ...]


@dataclass(slots=True)
class Line:
    """An entrant's line of the standings."""

    key: str
    score: Fraction = Fraction(0)
    won: int = 0
    """Rounds of Domeng won (the first tie-break)."""
    passebunge: int = 0
    """PASSEBUNGE (the second tie-break: fewer is better)."""
    deals: int = 0
    """Deals played."""
    place: int | None = None
    """The place among the ranked entrants (equal lines share it); None: not ranked."""
    deal_scores: list[Fraction] = field(default_factory=list)

    def order(self) -> tuple[Fraction, int, int]:
        """What ranks the line: the score, then rounds won (both the more the better),
        then PASSEBUNGE (the fewer the better)."""
        return (-self.score, -self.won, self.passebunge)


def deal_scores(plays: Sequence[DealPlayed]) -> dict[tuple[int, int, int, int], Fraction]:
    """Every seat's duplicate score on every deal, by (round, deal, table, seat).

    >>> one = DealPlayed(1, 1, 1, tuple("abcde"), (0, 2, 1, 0, 0), (1, 0, 0, 0, 0), (0,) * 5)
    >>> deal_scores([one])[(1, 1, 1, 1)]  # one table: plain play, minus the STONES
    Fraction(-2, 1)
    """
    held: dict[tuple[int, int, int], list[tuple[int, int]]] = defaultdict(list)
    for p in plays:
        for seat in range(SEATS):
            held[(p.round, p.deal, seat)].append((p.table, p.received[seat]))
    out: dict[tuple[int, int, int, int], Fraction] = {}
    for p in plays:
        for seat in range(SEATS):
            mine = p.received[seat]
            others = [got for table, got in held[(p.round, p.deal, seat)] if table != p.table]
            if others:
                out[(p.round, p.deal, p.table, seat)] = Fraction(sum(others), len(others)) - mine
            else:
                out[(p.round, p.deal, p.table, seat)] = Fraction(-mine)
    return out


def duplicate_lines(plays: Sequence[DealPlayed]) -> dict[str, Line]:
    """Every entrant's duplicate line: the sum of their deal scores, rounds won and
    PASSEBUNGE over every deal they played."""
    scores = deal_scores(plays)
    lines: dict[str, Line] = {}
    for p in sorted(plays, key=lambda p: (p.round, p.deal, p.table)):
        for seat, key in enumerate(p.entrants):
            line = lines.setdefault(key, Line(key))
            s = scores[(p.round, p.deal, p.table, seat)]
            line.score += s
            line.deal_scores.append(s)
            line.won += p.won[seat]
            line.passebunge += p.passebunge[seat]
            line.deals += 1
    return lines


def duplicate_scores(plays: Sequence[DealPlayed]) -> dict[str, Fraction]:
    """Every entrant's duplicate tournament score (the sum of their deal scores)."""
    return {key: line.score for key, line in duplicate_lines(plays).items()}


def table_points(
    titles: Sequence[int], stones: Sequence[int], received: Sequence[int]
) -> tuple[Fraction, ...]:
    """Each seat's tournament points from one table's game: one for every seat placed
    below it, a half for every seat placed equal (places as the table's standings:
    more CAMAT titles, then fewer STONES held, then fewer received)."""

    def key(n: int) -> tuple[int, int, int]:
        return (-titles[n], stones[n], received[n])

    points: list[Fraction] = []
    for n in range(SEATS):
        below = sum(1 for o in range(SEATS) if key(o) > key(n))
        equal = sum(1 for o in range(SEATS) if o != n and key(o) == key(n))
        points.append(below + Fraction(equal, 2))
    return tuple(points)


def games_lines(games: Sequence[TableGame]) -> dict[str, Line]:
    """Every entrant's line in the "games" format: table points summed over the rounds."""
    lines: dict[str, Line] = {}
    for g in sorted(games, key=lambda g: (g.round, g.table)):
        points = table_points(g.titles, g.stones, g.received)
        for seat, key in enumerate(g.entrants):
            line = lines.setdefault(key, Line(key))
            line.score += points[seat]
            line.deal_scores.append(points[seat])
            line.won += g.won[seat]
            line.passebunge += g.passebunge[seat]
            line.deals += 1
    return lines


def ranked(lines: Iterable[Line], ranked_keys: set[str]) -> list[Line]:
    """The standings: the ranked entrants best first, each with its place (equal
    lines share one: 1, 2, 2, 4), then the others (a computer filling a table: shown,
    not ranked), best first too. Equal lines keep the order of their keys.

    >>> a, b, c = Line("a", Fraction(2)), Line("b", Fraction(5)), Line("c", Fraction(2))
    >>> d = Line("x", Fraction(9))
    >>> [(x.key, x.place) for x in ranked([a, b, c, d], {"a", "b", "c"})]
    [('b', 1), ('a', 2), ('c', 2), ('x', None)]
    >>> c.won = 1  # rounds won break the tie
    >>> [(x.key, x.place) for x in ranked([a, b, c], {"a", "b", "c"})]
    [('b', 1), ('c', 2), ('a', 3)]
    """
    every = sorted(lines, key=lambda x: (x.order(), x.key))
    inside = [x for x in every if x.key in ranked_keys]
    outside = [x for x in every if x.key not in ranked_keys]
    for n, line in enumerate(inside):
        before = inside[n - 1] if n else None
        line.place = (
            before.place if before is not None and before.order() == line.order() else n + 1
        )
    for line in outside:
        line.place = None
    return inside + outside
