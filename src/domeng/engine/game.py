"""A game: round after round, with the stones, the CAMAT and the titles carried on.

>>> import random
>>> g = Game()
>>> r = g.deal(random.Random(7))
>>> while not g.round.finished:
...     g.play(g.legal_moves()[0])
>>> sum(g.round.stones) + g.round.table
25
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from .events import Event
from .moves import SEATS, STONES, Move, Opening, Rounds, Variants
from .round import Round
from .tiles import TILE_COUNT, Tile, TileSet, tile
from .view import SeatView, view

FIRST_ROUND_LEMPA: tuple[Tile, ...] = (tile(6, 6), tile(5, 5), tile(4, 4), tile(3, 3))
"""Who opens the first round: the holder of the first of these that was dealt."""


def deal(rng: random.Random) -> tuple[list[TileSet], TileSet]:
    """Shuffle with ``rng`` and deal five hands of five; three tiles stay unused.

    The same generator state gives the same deal.
    """
    rnd = rng.random
    keys = [rnd() for _ in _ALL_TILES]
    o = [_BIT[t] for t in sorted(_ALL_TILES, key=keys.__getitem__)]
    hands = [
        o[0] | o[1] | o[2] | o[3] | o[4],
        o[5] | o[6] | o[7] | o[8] | o[9],
        o[10] | o[11] | o[12] | o[13] | o[14],
        o[15] | o[16] | o[17] | o[18] | o[19],
        o[20] | o[21] | o[22] | o[23] | o[24],
    ]
    return hands, o[25] | o[26] | o[27]


_ALL_TILES = range(TILE_COUNT)
_BIT = tuple(1 << t for t in _ALL_TILES)


def first_starter(hands: Sequence[TileSet]) -> tuple[int, Tile]:
    """The seat that opens a game's first round, and the LEMPA that made it so."""
    for t in FIRST_ROUND_LEMPA:
        for seat, hand in enumerate(hands):
            if hand >> t & 1:
                return seat, t
    raise ValueError("none of 6-6, 5-5, 4-4, 3-3 was dealt")


class Game:
    """Rounds in sequence; the current one is :attr:`round`.

    The state API that every player, interface, the simulator and the replay
    drive: :attr:`turn`, :meth:`legal_moves`, :meth:`play`, :meth:`view`, and
    :meth:`deal` or :meth:`start_round` to begin each round.
    """

    __slots__ = ("rounds", "variants")

    def __init__(self, variants: Variants | None = None) -> None:
        self.variants = variants or Variants()
        self.rounds: list[Round] = []

    @property
    def round(self) -> Round:
        """The current (last started) round."""
        if not self.rounds:
            raise LookupError("no round has been dealt yet")
        return self.rounds[-1]

    @property
    def turn(self) -> int | None:
        """The seat in turn, or None when no round is being played."""
        return self.rounds[-1].turn if self.rounds else None

    def legal_moves(self) -> tuple[Move, ...]:
        rounds = self.rounds  # as self.round, without a property call (a hot path)
        if not rounds:
            raise LookupError("no round has been dealt yet")
        return rounds[-1].legal_moves()

    def play(self, m: Move) -> None:
        rounds = self.rounds
        if not rounds:
            raise LookupError("no round has been dealt yet")
        rounds[-1].play(m)

    def view(self, seat: int) -> SeatView:
        return view(self.round, seat)

    @property
    def events(self) -> list[Event]:
        """The current round's events."""
        return self.round.events

    def next_starter(self) -> int | None:
        """Who opens the next round (None while a round is unfinished)."""
        if not self.rounds:
            return None
        return self.rounds[-1].next_starter()

    def start_round(self, hands: Sequence[TileSet], unused: TileSet) -> Round:
        """Begin the next round with this deal (variant ``rounds`` ``fresh``: each one as
        the first round of a fresh game)."""
        if not self.rounds or self.variants.rounds is Rounds.FRESH:
            if self.rounds and not self.rounds[-1].finished:
                raise ValueError("the round before is not finished")
            starter, lempa = first_starter(hands)
            opening = lempa if self.variants.opening is Opening.DOUBLE else None
            r = Round(
                hands,
                unused,
                starter=starter,
                opening_tile=opening,
                variants=self.variants,
                number=len(self.rounds) + 1,
            )
        else:
            last = self.rounds[-1]
            starter_or_none = last.next_starter()
            if starter_or_none is None:
                raise ValueError("the round before is not finished")
            r = Round(
                hands,
                unused,
                starter=starter_or_none,
                stones=last.stones,
                table=last.table,
                camat=last.camat,
                titles=last.titles,
                variants=self.variants,
                number=last.number + 1,
            )
        self.rounds.append(r)
        return r

    def deal(self, rng: random.Random) -> Round:
        """Deal the next round from ``rng`` and begin it."""
        hands, unused = deal(rng)
        rounds = self.rounds
        if not rounds or self.variants.rounds is Rounds.FRESH:
            return self.start_round(hands, unused)
        # As start_round, without checking the deal: ``deal`` makes only valid ones.
        last = rounds[-1]
        result = last.result
        if result is None:
            raise ValueError("the round before is not finished")
        stones, table = last.stones, last.table
        if table < 0 or min(stones) < 0 or table + sum(stones) != STONES:
            raise ValueError("stones must be 25 in all, none negative")
        camat = last.camat
        r = Round.__new__(Round)
        r._begin(
            hands,
            unused,
            camat if camat is not None else result.winner,
            None,
            stones,
            table,
            camat,
            last.titles,
            self.variants,
            last.number + 1,
        )
        rounds.append(r)
        return r

    @property
    def stones(self) -> list[int]:
        return list(self.rounds[-1].stones) if self.rounds else [0] * SEATS

    @property
    def table(self) -> int:
        return self.rounds[-1].table if self.rounds else STONES

    @property
    def camat(self) -> int | None:
        return self.rounds[-1].camat if self.rounds else None

    @property
    def titles(self) -> list[int]:
        return list(self.rounds[-1].titles) if self.rounds else [0] * SEATS
