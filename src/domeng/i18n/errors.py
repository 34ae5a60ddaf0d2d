"""The engine's and the sim's errors said in the chosen language.

An error a person may read carries the key of its text in the ``"terminal"`` group
and the values of its placeholders (``domeng.engine.keyed``): a
:class:`~domeng.engine.record.RecordError` (``record.*``, shown by ``domeng replay``,
``play --resume`` and ``review``), the sim's ``PlayerError`` and the
``IllegalMoveError`` it may quote (``sim_player.*``). The engine keeps the English
(``str(error)``); this module says the same in any language. A value that is itself
such an error is said the same way; an error without a key is said in its own
words.

>>> from domeng.engine.record import RecordError
>>> from domeng.i18n import words
>>> e = RecordError(key="record.no_fit", tile="6-3", left=4, right=1, round=2, play=7)
>>> say_error(e, words("en"))
'round 2, play 7: tile 6-3 does not fit the ends 4 and 1'
>>> say_error(e, words("id"))
'ronde 2, langkah 7: kartu 6-3 tidak cocok dengan ujung 4 dan 1'
"""

from __future__ import annotations

from domeng.engine.keyed import one_line
from domeng.engine.record import RecordError

from .catalog import Words
from .choose import current

__all__ = ["say_error"]


def _reason(error: BaseException, w: Words) -> str:
    key = getattr(error, "key", None)
    values = getattr(error, "values", None)
    if not isinstance(key, str) or not isinstance(values, dict):
        return str(error.reason) if isinstance(error, RecordError) else str(error)
    said = {k: _reason(v, w) if isinstance(v, BaseException) else v for k, v in values.items()}
    return w(key, **said)


def say_error(error: BaseException, w: Words | None = None) -> str:
    """``error``'s message, on one line, in the language of ``w`` (the current one when
    None): a RecordError with where it is (``ronde 2, langkah 7: ...``)."""
    w = w or current()
    text = _reason(error, w)
    if isinstance(error, RecordError):
        where = w(error.where_key, round=error.round, play=error.play)
        text = f"{where}: {text}"
    return one_line(text)
