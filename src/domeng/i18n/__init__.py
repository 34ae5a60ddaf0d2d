"""Domeng's languages, for the terminal: the browser's catalogs read from Python.

:mod:`.catalog` reads ``web/i18n/<code>.json`` (one source for both), :mod:`.choose`
picks the language, :mod:`.clickwords` makes click's own words speak it and
:mod:`.helptexts` every command's ``--help``.
"""

from __future__ import annotations

from .catalog import GROUP, LANGUAGES, NAMES, Words, catalog, words
from .choose import ENV_VAR, BadLanguage, choose, current, from_name, set_language

__all__ = [
    "ENV_VAR",
    "GROUP",
    "LANGUAGES",
    "NAMES",
    "BadLanguage",
    "Words",
    "catalog",
    "choose",
    "current",
    "from_name",
    "set_language",
    "words",
]
