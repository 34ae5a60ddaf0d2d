"""Which language to speak: ``--lang``, else ``DOMENG_LANG``, else the system's
locale, else English; and the language the terminal speaks now.

Names are matched as Babel negotiates locales: ``id``, ``id_ID``, ``id-ID.UTF-8``
and ``pt_BR`` all find a language Domeng speaks.

>>> from_name("id_ID.UTF-8"), from_name("pt-BR"), from_name("fr_FR"), from_name("C")
('id', 'pt', None, None)
>>> choose(None, {"DOMENG_LANG": "nl"})
'nl'
>>> choose("tr", {"DOMENG_LANG": "nl"})
'tr'
>>> choose(None, {"LANG": "hi_IN.UTF-8"})
'hi'
>>> choose(None, {"LANG": "C.UTF-8"})
'en'
"""

from __future__ import annotations

import locale
import os
import sys
from collections.abc import Mapping

from babel import Locale, UnknownLocaleError

from .catalog import LANGUAGES, Words, words

__all__ = [
    "ENV_VAR",
    "BadLanguage",
    "asked_for",
    "choose",
    "current",
    "from_name",
    "named",
    "set_language",
]

ENV_VAR = "DOMENG_LANG"

_LOCALE_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")
"""The variables that name the system's language, strongest first (as gettext reads
them); on Windows the user's language comes from the system instead."""


class BadLanguage(ValueError):
    """A language was asked for that Domeng does not speak (``source``: ``--lang`` or
    ``DOMENG_LANG``)."""

    def __init__(self, source: str, value: str) -> None:
        super().__init__(f"{source} {value!r}: Domeng speaks {', '.join(LANGUAGES)}")
        self.source = source
        self.value = value


def from_name(name: str) -> str | None:
    """The language Domeng speaks for a locale name, or None."""
    name = name.split(".")[0].split("@")[0].strip()
    if not name or name in ("C", "POSIX"):
        return None
    try:
        asked = Locale.parse(name.replace("-", "_"))
    except (UnknownLocaleError, ValueError):
        return None
    return asked.language if asked.language in LANGUAGES else None


def _system(env: Mapping[str, str]) -> str | None:
    for var in _LOCALE_VARS:
        value = env.get(var, "")
        if not value:
            continue
        # LANGUAGE may list several; the first set variable decides (another
        # language than Domeng's: English)
        for part in value.split(":") if var == "LANGUAGE" else [value]:
            found = from_name(part)
            if found is not None:
                return found
        return None
    if sys.platform == "win32":  # the user's language as Windows knows it
        import ctypes

        lcid = ctypes.windll.kernel32.GetUserDefaultUILanguage()  # type: ignore[attr-defined]
        name = locale.windows_locale.get(int(lcid), "")
        return from_name(name)
    return None


def choose(asked: str | None, env: Mapping[str, str] | None = None) -> str:
    """The language to speak: ``asked`` (``--lang``), else ``DOMENG_LANG``, else the
    system's locale, else English. A language asked for that Domeng does not speak
    is an error (:class:`BadLanguage`), not a silent English."""
    env = os.environ if env is None else env
    for source, value in (("--lang", asked), (ENV_VAR, env.get(ENV_VAR) or None)):
        if value is None:
            continue
        found = from_name(value)
        if found is None:
            raise BadLanguage(source, value)
        return found
    return _system(env) or "en"


def asked_for(asked: str | None, env: Mapping[str, str] | None = None) -> bool:
    """Whether the person named the language (``--lang`` or ``DOMENG_LANG``), rather
    than the system's locale or the default deciding it."""
    env = os.environ if env is None else env
    return asked is not None or bool(env.get(ENV_VAR))


_current: list[Words] = [words("en")]
_named: list[bool] = [False]


def set_language(code: str, named: bool = False) -> Words:
    """Speak ``code`` from now on (in this process's terminal output); ``named``: the
    person asked for it (the browser that ``domeng serve`` opens then speaks it too)."""
    _current[0] = words(code)
    _named[0] = named
    return _current[0]


def named() -> bool:
    """Whether the language spoken now was asked for by name (:func:`asked_for`)."""
    return _named[0]


def current() -> Words:
    """The words of the language the terminal speaks now."""
    return _current[0]
