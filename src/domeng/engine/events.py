"""Events: every change a round makes, in the game's own words.

A round appends one event for each change, in order. Interfaces tell them to
people; records and tests compare them. Every event is public (any seat may
know it) except that ``RoundEnded`` shows the hands, which happens only once
the round is over, when everyone shows their tiles.
"""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from .moves import End
from .tiles import Tile, TileSet


class Reason(StrEnum):
    """Why stones moved, in the game's words."""

    PASS = "PASS"
    PASSEBUNGE = "PASSEBUNGE"
    FIRST_CAPPU = "FIRST CAPPU"
    """CUCUQ receives 1: a plain FIRST CAPPU."""
    CEKI = "CEKI"
    POLLO = "POLLO"
    MANGUNO = "MANGUNO"
    """CUCUQ receives 1: a MANGUNO with no MATTIKKENG."""
    MATTIKKENG = "MATTIKKENG"
    """The MANGUNO receives 5 (or 1): one or more MATTIKKENG."""


class RoundEnd(StrEnum):
    """How a round ended."""

    CAPPU = "cappu"
    """A player played their last tile: the FIRST CAPPU."""
    BLOCK = "block"
    """Nobody could play any more: the LAST MAPPANO is the MANGUNO."""


class Finish(StrEnum):
    """The FIRST CAPPU's last play."""

    PLAIN = "plain"
    CEKI = "ceki"
    """MAPPAKULING with a tile that is not a LEMPA."""
    POLLO = "pollo"
    """MAPPAKULING with a LEMPA."""


class Played(NamedTuple):
    """A seat put ``tile`` on the line at ``end``; the line now shows ``left`` and ``right``."""

    seat: int
    tile: Tile
    end: End
    left: int
    right: int
    mappakuling: bool
    """Both open ends show the same number after this play (never for the opening tile)."""
    opening: bool
    """This tile opened the line."""


class Passed(NamedTuple):
    """A seat had no tile that fits and passed."""

    seat: int
    passebunge: bool
    """The passer had played no tile yet this round."""
    stones: int
    """How many stones the passer actually received."""
    left: int
    right: int
    """The open ends the passer could not match (so they hold neither number)."""


class StonesMoved(NamedTuple):
    """``amount`` stones went to ``receiver`` from the table (``giver`` None) or a seat."""

    giver: int | None
    receiver: int
    amount: int
    reason: Reason


class RoundEnded(NamedTuple):
    """The round is over; everyone shows their unplayed tiles.

    Stones for the ending follow as ``StonesMoved`` events, then perhaps
    ``CamatElected``.
    """

    end: RoundEnd
    winner: int
    first_cappu: int | None
    finish: Finish | None
    manguno: int | None
    mattikkeng: tuple[int, ...]
    """Seats in turn order after the MANGUNO."""
    cucuq: int | None
    hands: tuple[TileSet, ...]
    """The unplayed tiles of every seat."""
    unused: TileSet
    pip_totals: tuple[int, ...]


_FINISH_STONES = {Finish.PLAIN: 1, Finish.CEKI: 3, Finish.POLLO: 5}


def ending_award(ended: RoundEnded) -> tuple[int, int]:
    """Who receives the stones of a round's ending, and how many (before the table or the
    givers run short): the CUCUQ 1, 3 (CEKI) or 5 (POLLO) after a FIRST CAPPU, and 1
    after a MANGUNO with no MATTIKKENG; else the MANGUNO 5, but 1 when more than one
    MATTIKKENG or the MATTIKKENG's total equals the MANGUNO's.
    """
    if ended.end is RoundEnd.CAPPU:
        assert ended.cucuq is not None and ended.finish is not None
        return ended.cucuq, _FINISH_STONES[ended.finish]
    assert ended.manguno is not None
    if not ended.mattikkeng:
        assert ended.cucuq is not None
        return ended.cucuq, 1
    totals = ended.pip_totals
    single = len(ended.mattikkeng) == 1 and totals[ended.winner] < totals[ended.manguno]
    return ended.manguno, 5 if single else 1


class CamatElected(NamedTuple):
    """``seat`` is the new CAMAT; all 25 stones went back to the table."""

    seat: int
    titles: int
    """The seat's CAMAT titles, this one included."""


Event = Played | Passed | StonesMoved | RoundEnded | CamatElected
