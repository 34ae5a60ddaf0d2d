"""A game's final standings: who won, and every player's figures over its rounds.

The winner of a game is the player with the most CAMAT titles; among equals, the
one who holds the fewest stones; then the one who received the fewest stones
over the whole game (docs/rules.md, "The end of a game"). Players equal on all
three share a rank.

The figures are summed round by round in a :class:`Tally`, so that a long game
need not be read again for every look at its standings (the table service keeps
the tally of its finished rounds and adds only the round being played). The tally is
the one reading of a round's figures from its events: a player's figures
(:func:`domeng.history.figures.round_figures`) are one round's tally.

>>> from domeng.engine import Game
>>> [s.rank for s in standings(Game())]
[1, 1, 1, 1, 1]
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TypedDict

from .events import CamatElected, Event, Finish, Passed, RoundEnded, StonesMoved
from .game import Game
from .moves import SEATS
from .round import Round


def _zeros() -> list[int]:
    return [0] * SEATS


class StandingJson(TypedDict):
    """A :class:`Standing` as the table service sends it."""

    seat: int
    rank: int
    titles: int
    stones: int
    received: int
    rounds_won: int
    ceki: int
    pollo: int
    manguno: int
    mattikkeng: int


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

    def json(self) -> StandingJson:
        return {
            "seat": self.seat,
            "rank": self.rank,
            "titles": self.titles,
            "stones": self.stones,
            "received": self.received,
            "rounds_won": self.rounds_won,
            "ceki": self.ceki,
            "pollo": self.pollo,
            "manguno": self.manguno,
            "mattikkeng": self.mattikkeng,
        }


@dataclass(slots=True)
class Tally:
    """Every seat's figures summed over the rounds added so far, read from their events
    (the only place that reads them)."""

    received: list[int] = field(default_factory=_zeros)
    """Stones received (before every CAMAT election's reset)."""
    won: list[int] = field(default_factory=_zeros)
    ceki: list[int] = field(default_factory=_zeros)
    """Rounds finished as FIRST CAPPU with a CEKI."""
    pollo: list[int] = field(default_factory=_zeros)
    """Rounds finished as FIRST CAPPU with a POLLO."""
    manguno: list[int] = field(default_factory=_zeros)
    mattikkeng: list[int] = field(default_factory=_zeros)
    passebunge: list[int] = field(default_factory=_zeros)
    """PASSEBUNGE passes."""
    camat: list[int] = field(default_factory=_zeros)
    """CAMAT elections won."""
    rounds: int = 0
    """How many rounds were added."""

    def add(self, r: Round) -> None:
        """Add a round's figures (a round being played adds what it brought so far)."""
        self.add_events(r.events)
        self.rounds += 1

    def add_events(self, events: Iterable[Event]) -> None:
        """Add the figures of some of a round's events (the round is not counted: a
        round being played can be added to as its events come)."""
        for e in events:  # type(e) is: the events are final classes, and most are plays
            if type(e) is StonesMoved:
                self.received[e.receiver] += e.amount
            elif type(e) is Passed:
                if e.passebunge:
                    self.passebunge[e.seat] += 1
            elif type(e) is RoundEnded:
                self.won[e.winner] += 1
                if e.first_cappu is not None and e.finish is Finish.CEKI:
                    self.ceki[e.first_cappu] += 1
                if e.first_cappu is not None and e.finish is Finish.POLLO:
                    self.pollo[e.first_cappu] += 1
                if e.manguno is not None:
                    self.manguno[e.manguno] += 1
                for seat in e.mattikkeng:
                    self.mattikkeng[seat] += 1
            elif type(e) is CamatElected:
                self.camat[e.seat] += 1

    def figures(self) -> tuple[int, ...]:
        """Every figure the standings show, seat by seat (two tallies with the same rank
        the same)."""
        return (
            *self.received, *self.won, *self.ceki, *self.pollo, *self.manguno,
            *self.mattikkeng,
        )  # fmt: skip

    def copy(self) -> Tally:
        return Tally(
            self.received[:], self.won[:], self.ceki[:], self.pollo[:], self.manguno[:],
            self.mattikkeng[:], self.passebunge[:], self.camat[:], self.rounds,
        )  # fmt: skip

    def ranked(self, titles: list[int], stones: list[int]) -> list[Standing]:
        """The standings, in rank order (seat order among equals), given every seat's
        CAMAT titles and the stones it holds now."""

        def key(n: int) -> tuple[int, int, int]:
            return (-titles[n], stones[n], self.received[n])

        out: list[Standing] = []
        for place, n in enumerate(sorted(range(SEATS), key=key), 1):
            rank = out[-1].rank if out and key(out[-1].seat) == key(n) else place
            out.append(
                Standing(
                    n, rank, titles[n], stones[n], self.received[n], self.won[n], self.ceki[n],
                    self.pollo[n], self.manguno[n], self.mattikkeng[n],
                )
            )  # fmt: skip
        return out


def standings(game: Game) -> list[Standing]:
    """Every seat's standing, in rank order (seat order among equals)."""
    tally = Tally()
    for r in game.rounds:
        tally.add(r)
    return tally.ranked(list(game.titles), list(game.stones))
