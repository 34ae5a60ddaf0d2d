"""How wide a text is drawn in a terminal, and ``rich`` told so.

A terminal draws a spacing vowel sign of Devanagari (a character of Unicode's
category Mc, such as the ``ा`` of ``राउंड``) in a cell of its own, as the C
library's ``wcwidth`` says and as xterm, VTE and tmux draw it; ``rich`` counts such
a sign as no cell, so a table with Hindi in it came out with its columns shifted
(one cell per vowel sign). :func:`install` makes ``rich`` measure those signs as
terminals draw them; every other character keeps ``rich``'s own width (none for a
combining mark of category Mn, such as ``ं``; two for a wide East Asian character).

>>> install()
>>> cell_width("राउंड"), cell_width("खिलाड़ी"), cell_width("कुल"), cell_width("Besse")
(4, 6, 2, 5)
>>> pad("राउंड", 6) + "|", pad("7", 3, right=True) + "|"
('राउंड  |', '  7|')

``rich`` also broke a line at a no-break space (U+00A0), which Unicode's line breaking
forbids (rich's issue 4196): :func:`install` makes it keep what :data:`NO_BREAK` joins on
one line, as a tile and the number to type for it (``1)`` and ``[6|3]``); and it may
break a line after a :data:`TILE_BREAK`, which takes no cell, as between two tiles of
the line of play (``[6|6][6|3]``: a line with no space, which rich cut anywhere).

>>> from rich.console import Console
>>> from rich.text import Text
>>> hand = Text(f"Hand: 1){NO_BREAK}[6|3]   2){NO_BREAK}[5|3]")
>>> [line.plain.rstrip().replace(NO_BREAK, "~") for line in hand.wrap(Console(), 12)]
['Hand:', '1)~[6|3]', '2)~[5|3]']
>>> line = Text(f"Line: [6|6]{TILE_BREAK}[6|3]{TILE_BREAK}[3|2]")
>>> [line.plain.replace(TILE_BREAK, "") for line in line.wrap(Console(), 17)]
['Line: [6|6][6|3]', '[3|2]']
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

import rich._wrap
import rich.cells
import rich.segment

__all__ = ["NO_BREAK", "TILE_BREAK", "cell_width", "install", "pad"]

NO_BREAK = "\u00a0"
"""The no-break space: two words joined by it are never put on two lines."""

TILE_BREAK = "\u200b"
"""The zero-width space: a line may break after it, and it takes no cell (rich's own
table gives it none; a terminal draws it as nothing). A place to break between two
tiles of the line of play; :class:`domeng.terminal.render.Wrapped` puts it there and
takes it out of what it prints."""

_WORD = re.compile(
    rf"[^\S{NO_BREAK}]*(?:(?:[^\s{TILE_BREAK}]|{NO_BREAK})+{TILE_BREAK}?|{TILE_BREAK})"
    rf"[^\S{NO_BREAK}]*"
)
"""A word as rich's wrapping takes it (``\\s*\\S+\\s*``, its spaces after it), a
no-break space counted as part of the word rather than a place to break, and a word
ended by a :data:`TILE_BREAK` too."""

_original: Callable[..., int] = rich.cells.get_character_cell_size


@lru_cache(maxsize=4096)
def _cell_size(character: str, unicode_version: str = "auto") -> int:
    """One character's width in a terminal: a spacing mark (Mc) takes a cell."""
    if unicodedata.category(character) == "Mc":
        return 1
    return _original(character, unicode_version)


def install() -> None:
    """Make ``rich`` (its tables, padding and cropping) measure with :func:`_cell_size`,
    and wrap lines at spaces other than :data:`NO_BREAK`. Idempotent."""
    # rich's wrapping reads its pattern of a word when it wraps; mypy sees no such name
    setattr(rich._wrap, "re_word", _WORD)  # noqa: B010
    if rich.cells.get_character_cell_size is _cell_size:
        return
    rich.cells.get_character_cell_size = _cell_size
    # segment.py imported the function by name; mypy sees no such attribute there
    setattr(rich.segment, "get_character_cell_size", _cell_size)  # noqa: B010
    rich.cells.cached_cell_len.cache_clear()


def cell_width(text: str) -> int:
    """The cells ``text`` takes in a terminal."""
    install()
    return rich.cells.cell_len(text)


def pad(text: str, width: int, *, right: bool = False) -> str:
    """``text`` filled out with spaces to ``width`` cells (on the left when ``right``,
    to align it to the right), as ``str.ljust`` and ``str.rjust`` do with characters."""
    fill = " " * max(0, width - cell_width(text))
    return fill + text if right else text + fill
