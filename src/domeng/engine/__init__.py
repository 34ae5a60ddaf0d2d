"""The rules of Domeng, pure: tiles, a round, stones, the game of many rounds,
what one seat may see, and records. Standard library only."""

from .events import (
    CamatElected,
    Event,
    Finish,
    Passed,
    Played,
    Reason,
    RoundEnd,
    RoundEnded,
    StonesMoved,
    ending_award,
)
from .game import FIRST_ROUND_LEMPA, Game, deal, first_starter
from .moves import (
    HAND_SIZE,
    SEATS,
    STONES,
    BlockPasses,
    End,
    IllegalMoveError,
    Move,
    Opening,
    Variants,
    move,
)
from .round import Round, check_deal
from .tiles import Tile, TileSet, parse_tile, tile, tile_name
from .view import SeatView, determinize, own, view

__all__ = [
    "FIRST_ROUND_LEMPA",
    "HAND_SIZE",
    "SEATS",
    "STONES",
    "BlockPasses",
    "CamatElected",
    "End",
    "Event",
    "Finish",
    "Game",
    "IllegalMoveError",
    "Move",
    "Opening",
    "Passed",
    "Played",
    "Reason",
    "Round",
    "RoundEnd",
    "RoundEnded",
    "SeatView",
    "StonesMoved",
    "Tile",
    "TileSet",
    "Variants",
    "check_deal",
    "deal",
    "determinize",
    "ending_award",
    "first_starter",
    "move",
    "own",
    "parse_tile",
    "tile",
    "tile_name",
    "view",
]
