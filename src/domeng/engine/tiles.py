"""The double-six set: 28 tiles as small ints, hands as bitmasks.

A tile is an ``int`` from 0 to 27. Tile ``t`` has halves ``HIGH[t] >= LOW[t]``
and is written ``"high-low"`` (for example ``"6-4"``). A set of tiles (a hand,
the unused tiles) is an ``int`` bitmask: bit ``t`` is set when tile ``t`` is in
the set.

>>> t = parse_tile("4-6")
>>> tile_name(t), HIGH[t], LOW[t], PIPS[t], is_lempa(t)
('6-4', 6, 4, 10, False)
>>> names(mask_of([parse_tile("6-6"), parse_tile("0-0")]))
['0-0', '6-6']
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

Tile = int
"""A tile: an int from 0 to 27."""

TileSet = int
"""A set of tiles as a bitmask over the 28 tile indices."""

NUMBERS = range(7)
TILE_COUNT = 28
FULL_SET: TileSet = (1 << TILE_COUNT) - 1

LOW: tuple[int, ...]
HIGH: tuple[int, ...]
_low: list[int] = []
_high: list[int] = []
for _h in NUMBERS:
    for _l in range(_h + 1):
        _high.append(_h)
        _low.append(_l)
LOW = tuple(_low)
HIGH = tuple(_high)
PIPS: tuple[int, ...] = tuple(h + lo for h, lo in zip(HIGH, LOW, strict=True))
LEMPA_MASK: TileSet = sum(1 << t for t in range(TILE_COUNT) if HIGH[t] == LOW[t])
"""All seven LEMPA (doubles)."""

_INDEX: dict[tuple[int, int], Tile] = {}
for _t in range(TILE_COUNT):
    _INDEX[(HIGH[_t], LOW[_t])] = _t
    _INDEX[(LOW[_t], HIGH[_t])] = _t

NUMBER_MASK: tuple[TileSet, ...] = tuple(
    sum(1 << t for t in range(TILE_COUNT) if n in (HIGH[t], LOW[t])) for n in NUMBERS
)
"""``NUMBER_MASK[n]``: the tiles with ``n`` on one of their halves."""

ENDS_MASK: tuple[TileSet, ...] = tuple(
    NUMBER_MASK[left] | NUMBER_MASK[right] for left in NUMBERS for right in NUMBERS
)
"""``ENDS_MASK[left * 7 + right]``: the tiles that fit a line with these open ends."""

_NAMES: tuple[str, ...] = tuple(f"{HIGH[t]}-{LOW[t]}" for t in range(TILE_COUNT))
_BY_NAME: dict[str, Tile] = {f"{a}-{b}": t for (a, b), t in _INDEX.items()}
"""Every tile by both its names ("6-4" and "4-6")."""

TILE_NUMBERS: tuple[int, ...] = tuple((1 << HIGH[t]) | (1 << LOW[t]) for t in range(TILE_COUNT))
"""``TILE_NUMBERS[t]``: the numbers tile ``t`` shows, as a 7-bit mask (bit ``n`` for ``n``)."""


def tile(a: int, b: int) -> Tile:
    """The tile with halves ``a`` and ``b`` (either order)."""
    try:
        return _INDEX[(a, b)]
    except KeyError:
        raise ValueError(f"no tile [{a}|{b}] in a double-six set") from None


def parse_tile(text: str) -> Tile:
    """Parse ``"a-b"`` (either order) into a tile.

    >>> parse_tile("3-5") == parse_tile("5-3")
    True
    >>> parse_tile("7-1")
    Traceback (most recent call last):
    ...
    ValueError: unknown tile '7-1'
    """
    known = _BY_NAME.get(text) if isinstance(text, str) else None
    if known is not None:  # the one dict look-up a stored play costs (a restart reads many)
        return known
    parts = text.split("-") if isinstance(text, str) else []
    if len(parts) == 2 and all(len(p) == 1 and p in "0123456789" for p in parts):
        key = (int(parts[0]), int(parts[1]))
        if key in _INDEX:
            return _INDEX[key]
    raise ValueError(f"unknown tile {text!r}")


def tile_name(t: Tile) -> str:
    """``"high-low"``, the way records write a tile."""
    return _NAMES[t]


def is_lempa(t: Tile) -> bool:
    """True for a LEMPA (a double)."""
    return HIGH[t] == LOW[t]


def other_half(t: Tile, n: int) -> int:
    """The half of ``t`` that is not ``n`` (``n`` must be a half of ``t``)."""
    return LOW[t] if HIGH[t] == n else HIGH[t]


OTHER_HALF: tuple[int, ...] = tuple(
    other_half(t, n) if n in (HIGH[t], LOW[t]) else -1 for t in range(TILE_COUNT) for n in NUMBERS
)
"""``OTHER_HALF[t * 7 + n]``: the number an end showing ``n`` shows once tile ``t`` is put
on it (:func:`other_half`), for hot loops; -1 when ``n`` is not a half of ``t``."""


def tiles_of(mask: TileSet) -> Iterator[Tile]:
    """The tiles in a set, lowest index first."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def numbers_shown(mask: TileSet) -> int:
    """The numbers the tiles of a set show, as a 7-bit mask (bit ``n`` for ``n``).

    >>> bin(numbers_shown(mask_of([parse_tile("6-4"), parse_tile("4-4")])))
    '0b1010000'
    """
    shown = 0
    while mask:
        low = mask & -mask
        shown |= TILE_NUMBERS[low.bit_length() - 1]
        mask ^= low
    return shown


def mask_of(tiles: Iterable[Tile]) -> TileSet:
    """The set holding these tiles."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


def names(mask: TileSet) -> list[str]:
    """The names of the tiles in a set, in tile order."""
    return [_NAMES[t] for t in tiles_of(mask)]


def _pips_by_chunk(first: int) -> tuple[int, ...]:
    """The pips of tiles ``first`` to ``first + 13`` for every 14-bit mask of them."""
    low = [0] * 128
    high = [0] * 128
    for m in range(1, 128):
        rest, bit = m & (m - 1), (m & -m).bit_length() - 1
        low[m] = low[rest] + PIPS[first + bit]
        high[m] = high[rest] + PIPS[first + 7 + bit]
    return tuple(a + b for b in high for a in low)


PIPS_LOW14: tuple[int, ...] = _pips_by_chunk(0)
"""``PIPS_LOW14[mask & 0x3FFF]``: the pips of a set's tiles 0-13."""
PIPS_HIGH14: tuple[int, ...] = _pips_by_chunk(14)
"""``PIPS_HIGH14[mask >> 14]``: the pips of a set's tiles 14-27."""


def pip_total(mask: TileSet) -> int:
    """The pips of all tiles in a set."""
    if 0 <= mask <= FULL_SET:
        return PIPS_LOW14[mask & 0x3FFF] + PIPS_HIGH14[mask >> 14]
    return sum(PIPS[t] for t in tiles_of(mask))


def count(mask: TileSet) -> int:
    """How many tiles a set holds."""
    return mask.bit_count()
