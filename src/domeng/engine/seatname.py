"""A seat's name as a record keeps it, and as a table shows it: a person's name alone, a
computer player's followed by its level in brackets, ``"Besse (basic)"``. Built and read
here only: the terminal's records, the history that rates a record's computer players,
and the service's default names for computer seats all use these two functions.

>>> seat_name("Besse", "basic")
'Besse (basic)'
>>> split_name(seat_name("Besse", "expert:fast"))
('Besse', 'expert:fast')
>>> split_name("Andi")
('Andi', None)
>>> name_key("  Daeng ") == name_key("DAENG")
True

Two names are the same name when their :func:`name_key` is: at one table no two seats
show the same name (docs/protocol.md, "Take a seat, leave it").
"""

from __future__ import annotations

import re
import unicodedata

__all__ = ["name_key", "seat_name", "split_name"]

_KIND = re.compile(r"^(?P<name>.*\S)\s+\((?P<kind>[^()]+)\)$")


def seat_name(name: str, kind: str | None) -> str:
    """``name`` with the computer player ``kind`` it is (``"Besse (basic)"``); a person
    (no kind) keeps the name alone."""
    return f"{name} ({kind})" if kind else name


def split_name(text: str) -> tuple[str, str | None]:
    """``"Besse (basic)"`` -> ``("Besse", "basic")``; a plain name has no kind."""
    m = _KIND.match(text)
    if m is None:
        return text, None
    return m.group("name"), m.group("kind")


def name_key(name: str) -> str:
    """What two names that read the same share: the text's compatible forms (NFKC:
    a full-width ``Ｄａｅｎｇ`` is ``Daeng``), without case, its spaces trimmed and each
    run of them one space. ``"Daeng"``, ``" daeng "`` and ``"DAENG"`` are one name;
    ``"Daeng"`` and ``"Daeng R."`` are two."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())
