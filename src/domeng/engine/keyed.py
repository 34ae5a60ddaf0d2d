"""Messages that other languages can say: a key, its values, and the English.

The engine speaks English only, and knows nothing of the catalogs (it never imports
``domeng.i18n``). An error a person may read (:class:`~domeng.engine.record.RecordError`,
:class:`~domeng.engine.moves.IllegalMoveError`, the sim's ``PlayerError``) carries the
key of its text in the ``"terminal"`` group of the catalogs (``record.no_fit``) and
the values of its placeholders; ``str(error)`` is the English, filled in from the
code's own copy of it, and the commands say it in the chosen language
(``domeng.i18n.errors``). A test keeps each English copy equal to ``en.json``'s.

A text is filled in as the catalogs fill theirs: ``{name}`` is a placeholder, and a
placeholder without a value stays as it is (so ``{"tile": "6-4"}`` is no placeholder).

>>> fill("tile {tile} does not fit the ends {left} and {right}", {"tile": "6-3",
...     "left": 4, "right": 1})
'tile 6-3 does not fit the ends 4 and 1'
>>> fill('a play must be an object like {"tile": "6-4"}', {})
'a play must be an object like {"tile": "6-4"}'

Standard library only.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import cache

__all__ = ["PLACEHOLDER", "fill", "one_line", "reason_of"]

PLACEHOLDER = re.compile(r"\{(\w+)\}")
"""A placeholder in a text: ``{name}``."""


@cache
def _parts(template: str) -> tuple[str, ...]:
    """A text cut at its placeholders: text, name, text, name, ..., text (each text cut
    once: the service words every event of every table with :func:`fill`)."""
    return tuple(PLACEHOLDER.split(template))


def fill(template: str, values: Mapping[str, object]) -> str:
    """``template`` with each ``{name}`` that ``values`` has replaced by ``str()`` of it."""
    parts = _parts(template)
    if len(parts) == 1:
        return template
    out = list(parts)
    for i in range(1, len(out), 2):
        name = out[i]
        out[i] = str(values[name]) if name in values else "{" + name + "}"
    return "".join(out)


def reason_of(
    reason: str | None, key: str | None, values: Mapping[str, object], texts: Mapping[str, str]
) -> str:
    """An error's English: ``reason`` as given, else the text of ``key`` in ``texts``
    filled in with ``values`` (an error made with neither is a bug: TypeError)."""
    if reason is not None:
        return reason
    if key is None:
        raise TypeError("an error needs a reason or a key")
    return fill(texts[key], values)


def one_line(text: str) -> str:
    """``text`` on one line, its runs of white space one space each.

    >>> one_line("cannot read two\\nlines.json:  it is a directory")
    'cannot read two lines.json: it is a directory'
    """
    return " ".join(text.split())
