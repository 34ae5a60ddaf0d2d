"""Hand-made deals for the engine's tests, written the way people write tiles.

Hands are written as ``"6-6 6-4 5-1 3-0 2-2"`` and moves as ``"6-4"`` (the right
end) or ``"6-4 left"``. Most deals are described *relative to the starter*:
``rel[0]`` is the starter's hand, ``rel[1]`` the next seat's, and so on; use
:func:`rotate` to seat them at any table position, so the same deal checks that
nothing depends on seat numbers.

Every deal here was worked out by hand from rules.md; each one's comment shows
the line as it grows.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domeng.engine import (
    SEATS,
    STONES,
    BlockPasses,
    End,
    Move,
    Round,
    Variants,
    move,
    parse_tile,
)
from domeng.engine.tiles import FULL_SET, TileSet, mask_of

FREE_BLOCK = Variants(block_passes=BlockPasses.FREE)
"""Variant ``block_passes: free``."""


def tiles(text: str) -> TileSet:
    """The set of tiles written ``"6-6 6-4 5-1"``."""
    return mask_of(parse_tile(t) for t in text.split())


def mv(text: str) -> Move:
    """``"6-4"`` (the right end) or ``"6-4 left"`` / ``"6-4 right"``."""
    parts = text.split()
    end = End.parse(parts[1]) if len(parts) > 1 else End.RIGHT
    return move(parts[0], end)


def rotate(rel: Sequence[str], starter: int) -> list[str]:
    """Seat a deal written relative to the starter: seat ``s`` gets ``rel[(s - starter) % 5]``."""
    return [rel[(s - starter) % SEATS] for s in range(SEATS)]


def seat_of(rel_seat: int, starter: int) -> int:
    """The table seat of the player ``rel_seat`` places after the starter."""
    return (starter + rel_seat) % SEATS


def make_round(
    hands: Sequence[str],
    *,
    starter: int,
    opening: str | None = None,
    stones: Sequence[int] = (0, 0, 0, 0, 0),
    table: int | None = None,
    camat: int | None = None,
    titles: Sequence[int] = (0, 0, 0, 0, 0),
    variants: Variants | None = None,
    number: int = 1,
) -> Round:
    """A round from five written hands; the three tiles nobody holds are the unused ones.

    ``table`` defaults to what the seats do not hold (25 in all).
    """
    masks = [tiles(h) for h in hands]
    held = 0
    for m in masks:
        held |= m
    return Round(
        masks,
        FULL_SET & ~held,
        starter=starter,
        opening_tile=parse_tile(opening) if opening else None,
        stones=stones,
        table=STONES - sum(stones) if table is None else table,
        camat=camat,
        titles=titles,
        variants=variants or Variants(),
        number=number,
    )


def play(r: Round, moves: Sequence[str]) -> None:
    """Play these moves in order (each by whoever is in turn)."""
    for text in moves:
        r.play(mv(text))


def by_rel(values: Sequence[int], starter: int) -> list[int]:
    """Per-seat values given relative to the starter (e.g. stones)."""
    return [values[(s - starter) % SEATS] for s in range(SEATS)]


# ---------------------------------------------------------------------------
# CAPPU deals: 21 plays, everyone plays in turn (nobody ever passes), the
# starter (rel 0) plays the 1st, 6th, 11th, 16th and 21st tile and is the FIRST
# CAPPU; rel 4 is the CUCUQ. A later round (any opening tile).
#
# The line grows on the right; the left end shows 6 throughout:
#   rel0 6-0 (6,0)   rel1 0-0 (6,0)  rel2 1-0 (6,1)  rel3 1-1 (6,1)  rel4 2-1 (6,2)
#   rel0 2-0 (6,0)   rel1 3-0 (6,3)  rel2 3-1 (6,1)  rel3 4-1 (6,4)  rel4 4-0 (6,0)
#   rel0 5-0 (6,5)   rel1 5-2 (6,2)  rel2 2-2 (6,2)  rel3 4-2 (6,4)  rel4 4-4 (6,4)
#   rel0 4-3 (6,3)   rel1 3-3 (6,3)  rel2 5-3 (6,5)  rel3 5-5 (6,5)
# then the 20th play (rel 4) and the 21st (rel 0, the last tile) as below.
# Left over: 3-2 5-1 5-4 6-1 6-2 6-3 6-4 6-5 6-6.
CAPPU_PREFIX = [
    "6-0", "0-0", "1-0", "1-1", "2-1",
    "2-0", "3-0", "3-1", "4-1", "4-0",
    "5-0", "5-2", "2-2", "4-2", "4-4",
    "4-3", "3-3", "5-3", "5-5",
]  # fmt: skip

CAPPU_FINISHES: dict[str, tuple[str, str, str]] = {
    # finish: (rel4's 20th play, rel0's last play, the unused tiles)
    # POLLO: 6-5 makes (6,6) (a MAPPAKULING by rel 4); 6-6 on (6,6) leaves (6,6).
    "pollo": ("6-5", "6-6", "5-4 6-3 6-4"),
    # CEKI: 5-4 makes (6,4); the non-LEMPA 6-4 on the right leaves (6,6).
    "ceki": ("5-4", "6-4", "6-3 6-5 6-6"),
    # CEKI the other way: 6-4 on the left leaves (4,4).
    "ceki-left": ("5-4", "6-4 left", "6-3 6-5 6-6"),
    # plain: 5-4 makes (6,4); 6-3 on the left leaves (3,4).
    "plain": ("5-4", "6-3 left", "6-4 6-5 6-6"),
    # plain with a LEMPA: 6-6 on the left of (6,4) leaves (6,4): no MAPPAKULING.
    "lempa": ("5-4", "6-6 left", "6-3 6-4 6-5"),
}


def cappu_deal(finish: str) -> tuple[list[str], list[str]]:
    """(hands relative to the starter, the 21 moves) of a CAPPU deal."""
    p20, p21, _unused = CAPPU_FINISHES[finish]
    moves = [*CAPPU_PREFIX, p20, p21]
    rel: list[list[str]] = [[] for _ in range(SEATS)]
    for i, text in enumerate(moves):
        rel[i % SEATS].append(text.split()[0])
    # one extra tile each for rel 1-4 (they play only four)
    for seat, extra in zip((1, 2, 3, 4), ("3-2", "5-1", "6-1", "6-2"), strict=True):
        rel[seat].append(extra)
    return [" ".join(h) for h in rel], moves


def cappu_round(finish: str, starter: int = 0, **kw: Any) -> tuple[Round, list[str]]:
    """A CAPPU deal seated with ``starter`` (rel 0) at that seat, and its moves."""
    rel, moves = cappu_deal(finish)
    return make_round(rotate(rel, starter), starter=starter, **kw), moves


# ---------------------------------------------------------------------------
# BLOCK deal: six plays, nobody passes, and the line is blocked on 0 (the seven
# tiles with a 0: 1-0 2-0 3-0 4-0 on the line, 0-0 5-0 6-0 unused):
#   rel0 2-1 (2,1)   rel1 1-0 (2,0)   rel2 2-0 left (0,0)   rel3 3-0 (0,3)
#   rel4 4-3 (0,4)   rel0 4-0 (0,0)   -> nobody holds a 0: rel 0 is the MANGUNO,
# holding 3 tiles; the others hold 4. The 19 other tiles (no 0, not 2-1 or 4-3)
# are shared out as each test needs: rest[0] has 3 tiles, rest[1..4] 4 each.
BLOCK_MOVES = ["2-1", "1-0", "2-0 left", "3-0", "4-3", "4-0"]
BLOCK_PLAYED = ("2-1 4-0", "1-0", "2-0", "3-0", "4-3")
BLOCK_REST: dict[str, tuple[str, str, str, str, str]] = {
    # MANGUNO 10 (2+4+4); the others 22, 29, 34, 42: no MATTIKKENG.
    "none": ("1-1 2-2 3-1", "3-2 4-1 3-3 4-2", "4-4 5-1 5-2 5-3",
             "5-4 5-5 6-1 6-2", "6-3 6-4 6-5 6-6"),
    # MANGUNO 19 (7+6+6); rel 2 has 15 (2+4+4+5), the others 26, 34, 43.
    "lower": ("6-1 4-2 3-3", "4-1 5-1 5-2 4-4", "1-1 2-2 3-1 3-2",
              "5-3 6-2 5-4 6-3", "5-5 6-4 6-5 6-6"),
    # MANGUNO 19; rel 2 has 19 too (2+4+5+8), the others 22, 34, 43.
    "equal": ("6-1 4-2 3-3", "2-2 3-2 5-1 5-2", "1-1 3-1 4-1 4-4",
              "5-3 6-2 5-4 6-3", "5-5 6-4 6-5 6-6"),
    # MANGUNO 30 (12+11+7); rel 1 has 15, rel 3 has 23; rel 2 33, rel 4 36.
    "two": ("6-6 6-5 6-1", "1-1 2-2 3-1 3-2", "4-4 5-2 5-3 6-4",
            "3-3 4-1 4-2 5-1", "5-4 5-5 6-2 6-3"),
    # MANGUNO 30; rel 1 and rel 3 both 22 (2+4+10+6, 5+5+6+6); rel 2 31, rel 4 32.
    "tie": ("6-6 6-5 6-1", "1-1 3-1 5-5 5-1", "2-2 4-4 5-4 6-4",
            "3-2 4-1 3-3 4-2", "5-2 5-3 6-2 6-3"),
    # MANGUNO 30; rel 1 23, rel 2 28, rel 3 19 (the lowest, last in turn order); rel 4 37.
    "three": ("6-6 6-5 6-1", "3-3 4-1 4-2 5-1", "4-4 5-2 5-3 3-2",
              "1-1 2-2 3-1 5-4", "5-5 6-2 6-3 6-4"),
}  # fmt: skip


def block_deal(kind: str) -> list[str]:
    """The BLOCK deal's hands relative to the starter, with the unplayed tiles of ``kind``."""
    return [f"{p} {r}" for p, r in zip(BLOCK_PLAYED, BLOCK_REST[kind], strict=True)]


def block_round(kind: str, starter: int = 0, **kw: Any) -> Round:
    """The BLOCK deal seated with its starter (rel 0, the MANGUNO) at ``starter``."""
    return make_round(rotate(block_deal(kind), starter), starter=starter, **kw)


# ---------------------------------------------------------------------------
# PASSEBUNGE deal: like the BLOCK deal, but rel 4 holds neither 0 nor 3 and
# passes before ever playing, and rel 1 ends up the MANGUNO:
#   rel0 2-1 (2,1)   rel1 1-0 (2,0)   rel2 2-0 left (0,0)   rel3 3-0 (0,3)
#   rel4 PASSEBUNGE   rel0 4-3 (0,4)   rel1 4-0 right (0,0)  -> blocked
# Unplayed: rel0 1-1 2-2 3-1 (10), rel1 3-2 4-1 4-2 (16), rel2 3-3 4-4 5-1 5-2 (27),
# rel3 5-3 6-1 6-2 6-3 (32), rel4 6-6 6-5 6-4 5-5 5-4 (52): the one MATTIKKENG is
# rel 0 (10 < 16). Unused: 0-0 5-0 6-0.
PASSEBUNGE_DEAL = [
    "2-1 4-3 1-1 2-2 3-1",
    "1-0 4-0 3-2 4-1 4-2",
    "2-0 3-3 4-4 5-1 5-2",
    "3-0 5-3 6-1 6-2 6-3",
    "6-6 6-5 6-4 5-5 5-4",
]
PASSEBUNGE_MOVES = ["2-1", "1-0", "2-0 left", "3-0", "4-3", "4-0 right"]


# ---------------------------------------------------------------------------
# RETURN deal (a partial round): the turn comes back round to the LAST MAPPANO.
#   rel0 2-1 (2,1)   rel1 6-1 (2,6)   rel2 6-2 left (6,6)
#   rel3 PASSEBUNGE, rel4 PASSEBUNGE, rel0 PASS, rel1 PASS (nobody else holds a 6)
#   rel2 6-6 (6,6)   the same four passes again
#   rel2 6-5 (6,5)   rel3 PASSEBUNGE (a third time)
#   rel4 5-0 (6,0)   rel0 2-0 (6,2)   rel1 2-2 (6,2)   rel2 PASS (holds 5-5 5-4)
#   rel3 4-2 (6,4)   ...
# Unused: 6-0 6-3 6-4.
RETURN_DEAL = [
    "2-1 0-0 1-0 1-1 2-0",
    "6-1 2-2 3-0 3-1 3-2",
    "6-2 6-6 6-5 5-5 5-4",
    "3-3 4-0 4-1 4-2 4-3",
    "4-4 5-0 5-1 5-2 5-3",
]
RETURN_MOVES = ["2-1", "6-1", "6-2 left", "6-6", "6-5", "5-0", "2-0", "2-2", "4-2"]


# ---------------------------------------------------------------------------
# LEMPA BLOCK deal, for a game's first round: rel 0 holds 6-6 and opens with it;
# the line is blocked on 6 (6-0 and 6-5 unused, with 0-0):
#   rel0 6-6 (6,6)   rel1 6-2 (6,2)   rel2 6-3 left (3,2)   rel3 2-1 (3,1)
#   rel4 4-3 left (4,1)   rel0 6-1 (4,6)   rel1 6-4 left (6,6)  -> rel 1 MANGUNO
# Unplayed: rel0 2-2 3-0 3-1 (11), rel1 1-0 1-1 2-0 (5), rel2 3-2 3-3 4-0 4-1 (20),
# rel3 4-2 4-4 5-0 5-1 (25), rel4 5-2 5-3 5-4 5-5 (34): no MATTIKKENG, rel 1 wins
# and rel 0 is the CUCUQ.
LEMPA_BLOCK_DEAL = [
    "6-6 6-1 2-2 3-0 3-1",
    "6-2 6-4 1-0 1-1 2-0",
    "6-3 3-2 3-3 4-0 4-1",
    "2-1 4-2 4-4 5-0 5-1",
    "4-3 5-2 5-3 5-4 5-5",
]
LEMPA_BLOCK_MOVES = ["6-6", "6-2", "6-3 left", "2-1", "4-3 left", "6-1", "6-4 left"]


def deal_of(hands: Sequence[str]) -> tuple[list[TileSet], TileSet]:
    """(hands, unused) as masks, for :meth:`Game.start_round`."""
    masks = [tiles(h) for h in hands]
    held = 0
    for m in masks:
        held |= m
    return masks, FULL_SET & ~held
