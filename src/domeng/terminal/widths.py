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
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from functools import lru_cache

import rich.cells
import rich.segment

__all__ = ["cell_width", "install", "pad"]

_original: Callable[..., int] = rich.cells.get_character_cell_size


@lru_cache(maxsize=4096)
def _cell_size(character: str, unicode_version: str = "auto") -> int:
    """One character's width in a terminal: a spacing mark (Mc) takes a cell."""
    if unicodedata.category(character) == "Mc":
        return 1
    return _original(character, unicode_version)


def install() -> None:
    """Make ``rich`` (its tables, padding and cropping) measure with :func:`_cell_size`.
    Idempotent."""
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
