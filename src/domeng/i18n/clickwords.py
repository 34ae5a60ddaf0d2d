"""Click's own words ("Usage:", "Options", "Error: ...") in Domeng's language.

Click wraps each of its texts in the standard library's ``gettext`` (bound in
each of its modules as ``_`` and ``ngettext``) and leaves it to the program to
translate them. The standard ``gettext`` finds only compiled ``.mo`` files and
picks the language from the environment, so Domeng gives each click module a
``_`` and ``ngettext`` of its own instead: they look click's English text up
among the catalog keys ``click.*``, whose English entries are click's texts
exactly, and answer the current language's entry (or click's English when
none has it). :func:`install` is idempotent; a test checks that no click
module keeps the standard ``gettext``, so a new click module is noticed.
"""

from __future__ import annotations

import gettext as std_gettext
import sys
from collections.abc import Callable
from functools import cache
from typing import Any

from .catalog import words
from .choose import current

__all__ = ["click_modules", "install", "missing_sentence", "ngettext", "translate"]

PREFIX = "click."


@cache
def _keys() -> tuple[dict[str, str], dict[str, str]]:
    """Click's English texts to their keys: the plain ones, and counts by their
    singular form."""
    plain: dict[str, str] = {}
    counted: dict[str, str] = {}
    en = words("en")
    for key in en.all_keys():
        value = en.raw(key)
        if not key.startswith(PREFIX):
            continue
        if isinstance(value, str):
            plain[value] = key
        elif isinstance(value, dict):
            counted[value["one"]] = key
    return plain, counted


def translate(message: str) -> str:
    """Click's ``_()``: ``message`` in the current language."""
    key = _keys()[0].get(message)
    if key is None:
        return message
    w = current()
    said = w.raw(key) if w.has(key) else message
    return said if isinstance(said, str) else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """Click's ``ngettext()``: the form for ``n`` in the current language (the
    placeholders are left for click to fill in)."""
    key = _keys()[1].get(singular)
    w = current()
    if key is None or not w.has(key):
        return singular if n == 1 else plural
    forms = w.raw(key)
    assert isinstance(forms, dict)
    return str(forms.get(w.plural_form(n), forms["other"]))


def click_modules() -> list[str]:
    """The loaded click modules that have a ``_`` or ``ngettext`` of their own."""
    return sorted(
        name
        for name, module in list(sys.modules.items())
        if (name == "click" or name.startswith("click."))
        and module is not None
        and (hasattr(module, "_") or hasattr(module, "ngettext"))
    )


MISSING = {
    "argument": "Missing argument",
    "option": "Missing option",
    "parameter": "Missing parameter",
}
"""Click's words for a missing argument, option or parameter, by the kind's name."""


def missing_sentence(said: str, kind: str | None) -> str:
    """Click's "Missing argument 'RECORD'." (``said``, its first words already in the
    language) as the language says it (``cli.missing.<kind>``): "'KAYIT' argümanı
    eksik.", "'रिकॉर्ड' तर्क नहीं दिया गया।". Anything else is left as it is.

    >>> from domeng.i18n import set_language
    >>> _ = set_language("tr")
    >>> missing_sentence("Eksik argüman 'KAYIT'.", "argument")
    "'KAYIT' argümanı eksik."
    >>> missing_sentence("Eksik seçenek '--players'. Bir liste verin.", "option")
    "'--players' seçeneği eksik. Bir liste verin."
    >>> _ = set_language("en")
    """
    english = MISSING.get(kind or "")
    w = current()
    if english is None or not w.has(f"cli.missing.{kind}"):
        return said
    missing = translate(english)
    hint, dot, rest = said.removeprefix(missing).partition(".")
    if not said.startswith(missing) or not dot or not hint.strip():
        return said
    return w(f"cli.missing.{kind}", hint=hint.strip()) + rest


def _say_missing(click_says: Callable[[Any], str]) -> Callable[[Any], str]:
    def format_message(self: Any) -> str:
        kind = self.param_type or (self.param.param_type_name if self.param else None)
        return missing_sentence(click_says(self), kind)

    format_message.domeng = True  # type: ignore[attr-defined]
    return format_message


def install() -> None:
    """Make every loaded click module translate through Domeng's catalogs."""
    import click
    import click.shell_completion
    import click.termui

    missing = click.exceptions.MissingParameter
    if not getattr(missing.format_message, "domeng", False):
        setattr(missing, "format_message", _say_missing(missing.format_message))  # noqa: B010

    for name in click_modules():
        module = sys.modules[name]
        if getattr(module, "_", None) in (std_gettext.gettext, translate):
            module._ = translate  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) in (std_gettext.ngettext, ngettext):
            module.ngettext = ngettext  # type: ignore[attr-defined]
