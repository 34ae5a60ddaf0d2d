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
from .tiles import (
    ENDS_MASK,
    HIGH,
    LOW,
    NUMBERS,
    TILE_COUNT,
    Tile,
    TileSet,
    other_half,
    tile_name,
)


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


# -- what the rules award ----------------------------------------------------
# Every amount of stones the rules give, named once: the round pays them, the tellings
# name them and the computer players weigh them from here.

PASS_STONES = 1
"""A PASS: the passer receives 1 stone."""
PASSEBUNGE_STONES = 2
"""A PASSEBUNGE (the passer has played no tile yet this round): 2 stones instead."""
PLAIN_STONES = 1
"""A plain FIRST CAPPU (not MAPPAKULING): the CUCUQ receives 1."""
CEKI_STONES = 3
"""A CEKI: the CUCUQ receives 3."""
POLLO_STONES = 5
"""A POLLO: the CUCUQ receives 5."""
MANGUNO_STONES = 1
"""A MANGUNO with no MATTIKKENG: the CUCUQ receives 1."""
MATTIKKENG_STONES = 5
"""A single MATTIKKENG with fewer pips than the MANGUNO: the MANGUNO receives 5."""
MATTIKKENG_SHARED_STONES = 1
"""More than one MATTIKKENG, or one with as many pips as the MANGUNO: the MANGUNO
receives 1 instead."""
MOST_STONES = max(
    PASS_STONES,
    PASSEBUNGE_STONES,
    PLAIN_STONES,
    CEKI_STONES,
    POLLO_STONES,
    MANGUNO_STONES,
    MATTIKKENG_STONES,
    MATTIKKENG_SHARED_STONES,
)
"""The largest award: no single transfer of stones is bigger."""

_FINISH_STONES = {Finish.PLAIN: PLAIN_STONES, Finish.CEKI: CEKI_STONES, Finish.POLLO: POLLO_STONES}


def pass_stones(passebunge: bool) -> int:
    """The stones a passer receives: 1 for a PASS, 2 for a PASSEBUNGE."""
    return PASSEBUNGE_STONES if passebunge else PASS_STONES


def finish_stones(finish: Finish) -> int:
    """The stones the CUCUQ receives for a FIRST CAPPU with this finish.

    >>> [finish_stones(f) for f in Finish]
    [1, 3, 5]
    """
    return _FINISH_STONES[finish]


def finish_of(t: Tile, mappakuling: bool) -> Finish:
    """The finish of a FIRST CAPPU whose last tile ``t`` made the line MAPPAKULING or not:
    CEKI with a tile that is not a LEMPA, POLLO with a LEMPA, else plain."""
    if not mappakuling:
        return Finish.PLAIN
    return Finish.POLLO if HIGH[t] == LOW[t] else Finish.CEKI


def finish_on(t: Tile, left: int, right: int) -> Finish:
    """The finish if ``t`` is a player's last tile and is played on a line whose open ends
    show ``left`` and ``right``. ``t`` must fit one of them; where it fits both, either
    end gives the same finish.

    >>> from .tiles import parse_tile
    >>> [finish_on(parse_tile(t), 6, 4) for t in ("6-4", "6-6", "6-1")]
    [<Finish.CEKI: 'ceki'>, <Finish.PLAIN: 'plain'>, <Finish.PLAIN: 'plain'>]
    >>> finish_on(parse_tile("4-4"), 4, 4)
    <Finish.POLLO: 'pollo'>
    """
    if left in (HIGH[t], LOW[t]):
        return finish_of(t, other_half(t, left) == right)
    if right in (HIGH[t], LOW[t]):
        return finish_of(t, other_half(t, right) == left)
    raise ValueError(f"{tile_name(t)} fits neither {left} nor {right}")


CUCUQ_STONES_ON: tuple[int, ...] = tuple(
    finish_stones(finish_on(t, left, right)) if ENDS_MASK[left * 7 + right] >> t & 1 else 0
    for t in range(TILE_COUNT)
    for left in NUMBERS
    for right in NUMBERS
)
"""``CUCUQ_STONES_ON[t * 49 + left * 7 + right]``: what :func:`finish_on` gives the CUCUQ
when ``t`` finishes on those ends (0 where ``t`` does not fit), for hot loops."""


def is_mattikkeng(pips: float, manguno_pips: float) -> bool:
    """A player is MATTIKKENG when their unplayed tiles add up to no more pips than the
    MANGUNO's (a float: a guess of someone's pips may be one)."""
    return pips <= manguno_pips


def ending_award(ended: RoundEnded) -> tuple[int, int]:
    """Who receives the stones of a round's ending, and how many (before the table or the
    givers run short): the CUCUQ 1, 3 (CEKI) or 5 (POLLO) after a FIRST CAPPU, and 1
    after a MANGUNO with no MATTIKKENG; else the MANGUNO 5, but 1 when more than one
    MATTIKKENG or the MATTIKKENG's total equals the MANGUNO's.
    """
    if ended.end is RoundEnd.CAPPU:
        assert ended.cucuq is not None and ended.finish is not None
        return ended.cucuq, finish_stones(ended.finish)
    assert ended.manguno is not None
    if not ended.mattikkeng:
        assert ended.cucuq is not None
        return ended.cucuq, MANGUNO_STONES
    totals = ended.pip_totals
    single = len(ended.mattikkeng) == 1 and totals[ended.winner] < totals[ended.manguno]
    return ended.manguno, MATTIKKENG_STONES if single else MATTIKKENG_SHARED_STONES


class CamatElected(NamedTuple):
    """``seat`` is the new CAMAT; all 25 stones went back to the table."""

    seat: int
    titles: int
    """The seat's CAMAT titles, this one included."""


Event = Played | Passed | StonesMoved | RoundEnded | CamatElected
