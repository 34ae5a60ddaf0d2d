"""Moves, the variants, and the typed error for an illegal move."""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum, StrEnum
from typing import Literal, NamedTuple, NotRequired, TypedDict

from .keyed import reason_of
from .tiles import TILE_COUNT, Tile, parse_tile, tile_name

SEATS = 5
"""Exactly five seats, numbered 0-4 clockwise."""
NEXT_SEAT: tuple[int, ...] = tuple((s + 1) % SEATS for s in range(SEATS))
"""``NEXT_SEAT[s]``: the seat that plays after seat s (play goes clockwise)."""
PREV_SEAT: tuple[int, ...] = tuple((s - 1) % SEATS for s in range(SEATS))
"""``PREV_SEAT[s]``: the player before seat s (the CUCUQ when s is the FIRST CAPPU)."""
HAND_SIZE = 5
UNUSED_TILES = TILE_COUNT - SEATS * HAND_SIZE
"""The tiles a deal leaves face down, out of play for the round: 3."""
STONES = 25
"""Stones in a game: never created, never destroyed."""


class End(IntEnum):
    """An open end of the line."""

    LEFT = 0
    RIGHT = 1

    @property
    def word(self) -> Literal["left", "right"]:
        """``"left"`` or ``"right"``, as records write it."""
        return "left" if self is End.LEFT else "right"

    @classmethod
    def parse(cls, text: str) -> End:
        if text == "left":
            return cls.LEFT
        if text == "right":
            return cls.RIGHT
        raise ValueError(f"unknown end {text!r} (expected 'left' or 'right')")


class Move(NamedTuple):
    """A tile put on the line at one end.

    The first tile of a round opens the line; its end is always ``RIGHT`` and
    means nothing. Moves are interned: ``move(t, end)`` returns the same object
    every time.
    """

    tile: Tile
    end: End

    def __str__(self) -> str:
        return f"{tile_name(self.tile)} {self.end.word}"


_MOVES: tuple[tuple[Move, Move], ...] = tuple(
    (Move(t, End.LEFT), Move(t, End.RIGHT)) for t in range(TILE_COUNT)
)


def move(t: Tile | str, end: End = End.RIGHT) -> Move:
    """The move putting tile ``t`` (an index or ``"a-b"``) at ``end``."""
    if isinstance(t, str):
        t = parse_tile(t)
    return _MOVES[t][end]


ILLEGAL_REASONS: dict[str, str] = {
    "sim_player.why.over": "the round is over",
    "sim_player.why.no_tile": "there is no tile {tile}",
    "sim_player.why.not_held": "seat {seat} does not hold {tile}",
    "sim_player.why.must_open": "the round must open with {tile}",
    "sim_player.why.no_fit": "{tile} does not fit the ends {left} and {right}",
    "sim_player.why.no_end": "there is no end {end} (left or right)",
    "sim_player.why.no_fit_left": "{tile} does not fit the left end ({shown})",
    "sim_player.why.no_fit_right": "{tile} does not fit the right end ({shown})",
}
"""Why a move is illegal, by key: the English of the catalogs' entries (engine/keyed.py)."""


class IllegalMoveError(ValueError):
    """A move that the rules do not allow here; nothing was changed.

    ``key`` (one of :data:`ILLEGAL_REASONS`) and ``values`` say why, for the other
    languages; ``str(error)`` is the English.

    >>> e = IllegalMoveError(key="sim_player.why.not_held", seat=2, tile="6-6")
    >>> str(e), e.key, e.values
    ('seat 2 does not hold 6-6', 'sim_player.why.not_held', {'seat': 2, 'tile': '6-6'})
    """

    def __init__(self, reason: str | None = None, *, key: str | None = None, **values: object):
        super().__init__(reason_of(reason, key, values, ILLEGAL_REASONS))
        self.key = key
        self.values = values


class Opening(StrEnum):
    """Variant ``opening``: how the first round of a game opens."""

    DOUBLE = "double"
    """The starter opens with the LEMPA that made them the starter (default)."""
    FREE = "free"
    """The starter opens with any tile."""


class BlockPasses(StrEnum):
    """Variant ``block_passes``: whether the passes of a blocked line cost stones."""

    PENALIZED = "penalized"
    """Everyone passes in turn, MANGUNO included, each an ordinary PASS (default)."""
    FREE = "free"
    """The round ends right after the MANGUNO's play; nobody passes after it."""


class Rounds(StrEnum):
    """Variant ``rounds``: whether a round carries on the game of the round before."""

    CARRIED = "carried"
    """The STONES, the CAMAT and the titles go on; the winner or CAMAT opens (default)."""
    FRESH = "fresh"
    """Every round is the first round of a fresh game: 25 STONES on the table, nobody
    CAMAT, the opener by the rule of the LEMPA (a duplicate tournament's deals)."""


class VariantsJson(TypedDict):
    """The variants as records and the table service write them (``rounds`` only when
    it is not the default, so that every record written before it reads the same)."""

    opening: Literal["double", "free"]
    block_passes: Literal["penalized", "free"]
    rounds: NotRequired[Literal["carried", "fresh"]]


@dataclass(frozen=True, slots=True)
class Variants:
    """The rule variants of a game, with rules.md's defaults."""

    opening: Opening = Opening.DOUBLE
    block_passes: BlockPasses = BlockPasses.PENALIZED
    rounds: Rounds = Rounds.CARRIED

    def to_json(self) -> VariantsJson:
        """The variants as JSON.

        >>> Variants(rounds=Rounds.FRESH).to_json()["rounds"]
        'fresh'
        """
        d: VariantsJson = {"opening": self.opening.value, "block_passes": self.block_passes.value}
        if self.rounds is Rounds.FRESH:
            d["rounds"] = "fresh"
        return d

    @classmethod
    def from_json(cls, data: object) -> Variants:
        """Read ``{"opening": ..., "block_passes": ..., "rounds": ...}``; every key
        optional."""
        if not isinstance(data, dict):
            raise ValueError("variants must be an object")
        unknown = set(data) - {"opening", "block_passes", "rounds"}
        if unknown:
            raise ValueError(f"unknown variant {sorted(unknown)[0]!r}")
        try:
            opening = Opening(data.get("opening", Opening.DOUBLE.value))
        except ValueError:
            raise ValueError(
                f"variant opening must be 'double' or 'free', not {data.get('opening')!r}"
            ) from None
        try:
            block = BlockPasses(data.get("block_passes", BlockPasses.PENALIZED.value))
        except ValueError:
            raise ValueError(
                "variant block_passes must be 'penalized' or 'free', "
                f"not {data.get('block_passes')!r}"
            ) from None
        try:
            rounds = Rounds(data.get("rounds", Rounds.CARRIED.value))
        except ValueError:
            raise ValueError(
                f"variant rounds must be 'carried' or 'fresh', not {data.get('rounds')!r}"
            ) from None
        return cls(opening, block, rounds)
