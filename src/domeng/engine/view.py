"""What one seat may know (rules.md, "What players know").

A :class:`SeatView` is built from a round and holds only copies of what that
seat may see: its own tiles, the line, the others' tile counts, every play and
pass, everyone's stones, the table's stones and the CAMAT. It holds no
reference to the round, so nothing in it leads to another seat's tiles or to
the unused tiles. Once the round is over everyone shows their tiles, and the
view's ``result`` holds them.
"""

from __future__ import annotations

from dataclasses import dataclass

from .events import Event, Passed, Played, RoundEnded, StonesMoved
from .moves import SEATS, Move, Variants, move
from .round import Round, extend_line
from .tiles import FULL_SET, NUMBER_MASK, Tile, TileSet


@dataclass(frozen=True, slots=True)
class SeatView:
    """The public state of a round plus one seat's own tiles."""

    seat: int
    number: int
    """The round's number in the game, from 1."""
    variants: Variants
    starter: int
    opening_tile: Tile | None
    """The LEMPA the first round must open with (variant ``opening: double``)."""
    turn: int | None
    hand: TileSet
    hand_counts: tuple[int, ...]
    ends: tuple[int, int] | None
    line: tuple[tuple[int, int], ...]
    plays: tuple[tuple[int, Move], ...]
    """Every play of the round so far: (seat, move)."""
    history: tuple[Event, ...]
    """Every event of the round so far (plays, passes, stones; the end once over)."""
    played_tiles: TileSet
    """The tiles on the line."""
    played_seats: int
    """Bit ``s`` set when seat ``s`` has played a tile this round (no PASSEBUNGE for it)."""
    last_mappano: int | None
    lacking: tuple[int, ...]
    """Per seat, a bitmask of the numbers (bit n for number n) it showed it lacks by passing."""
    stones: tuple[int, ...]
    table: int
    camat: int | None
    titles: tuple[int, ...]
    legal_moves: tuple[Move, ...]
    """This seat's legal moves when it is in turn, else empty."""
    result: RoundEnded | None
    """How the round ended (with every hand shown), once it has."""

    @property
    def unseen(self) -> TileSet:
        """Tiles this seat cannot see: in the others' hands or unused (while the round lasts)."""
        return FULL_SET & ~self.hand & ~self.played_tiles

    def may_hold(self, seat: int) -> TileSet:
        """The unseen tiles that ``seat`` may hold, given the numbers it showed it lacks."""
        mask = self.unseen
        lacking = self.lacking[seat]
        for n in range(7):
            if lacking >> n & 1:
                mask &= ~NUMBER_MASK[n]
        return mask


def lacks(e: Passed) -> int:
    """The numbers (as bits 0-6) a pass shows its seat holds none of: both open ends."""
    return (1 << e.left) | (1 << e.right)


def view(r: Round, seat: int) -> SeatView:
    """The view of round ``r`` from ``seat`` (0-4)."""
    if not 0 <= seat < SEATS:
        raise ValueError(f"no seat {seat}")
    lacking = [0] * SEATS
    played = 0
    plays: list[tuple[int, Move]] = []
    line: list[tuple[int, int]] = []
    for e in r.events:  # once through: what Round.plays and Round.line go through too
        if type(e) is Passed:
            lacking[e.seat] |= lacks(e)
        elif type(e) is Played:
            played |= 1 << e.tile
            plays.append((e.seat, move(e.tile, e.end)))
            extend_line(line, e)
    return SeatView(
        seat=seat,
        number=r.number,
        variants=r.variants,
        starter=r.starter,
        opening_tile=r.opening_tile,
        turn=r.turn,
        hand=r.hands[seat],
        hand_counts=tuple(h.bit_count() for h in r.hands),
        ends=r.ends,
        line=tuple(line),
        plays=tuple(plays),
        history=tuple(r.events),
        played_tiles=played,
        played_seats=r.played_seats,
        last_mappano=r.last_mappano,
        lacking=tuple(lacking),
        stones=tuple(r.stones),
        table=r.table,
        camat=r.camat,
        titles=tuple(r.titles),
        legal_moves=tuple(r.legal_moves()) if r.turn == seat else (),
        result=r.result,
    )


def own(r: Round, seat: int) -> tuple[TileSet, tuple[Move, ...]]:
    """What only ``seat`` sees in its :func:`view` of round ``r``: its hand, and its legal
    moves when it is in turn. The rest of a view is the same from every seat (the
    service builds that part once for all of them)."""
    if not 0 <= seat < SEATS:
        raise ValueError(f"no seat {seat}")
    return r.hands[seat], tuple(r.legal_moves()) if r.turn == seat else ()


def determinize(v: SeatView, hands: list[TileSet], unused: TileSet) -> Round:
    """A round in the position ``v`` shows, with the unseen tiles placed as given.

    ``hands`` are the seats' current (unplayed) tiles; ``hands[v.seat]`` must be
    the view's own hand. Computer players use this to search over guesses of
    the hidden tiles without ever seeing them.
    """
    if v.result is not None:
        raise ValueError("the round is over")
    if hands[v.seat] != v.hand:
        raise ValueError("a guess must keep the seat's own hand")
    if any(h.bit_count() != n for h, n in zip(hands, v.hand_counts, strict=True)):
        raise ValueError("a guess must keep every seat's tile count")
    placed = unused
    for h in hands:
        if placed & h:
            raise ValueError("a guess places a tile twice")
        placed |= h
    if placed | v.played_tiles != FULL_SET or placed & v.played_tiles:
        raise ValueError("a guess must place every unseen tile exactly once")
    r = Round.__new__(Round)
    dealt = list(hands)
    for seat, m in v.plays:
        dealt[seat] |= 1 << m.tile
    r.variants = v.variants
    r.number = v.number
    r.dealt = tuple(dealt)
    r.hands = list(hands)
    r.unused = unused
    r.in_hands = FULL_SET & ~unused & ~v.played_tiles
    r.starter = v.starter
    r.opening_tile = v.opening_tile
    ends = v.ends
    r.left, r.right = ends if ends is not None else (-1, -1)
    r.turn = v.turn
    r.played_seats = v.played_seats
    r.last_mappano = v.last_mappano
    r.stones = list(v.stones)
    r.table = v.table
    r.camat = v.camat
    r.titles = list(v.titles)
    r.camat_elected = False
    r.events = [e for e in v.history if type(e) in (Played, Passed, StonesMoved)]
    r.result = None
    r._legal = v.legal_moves if v.turn == v.seat else r._moves_in_turn()
    return r
