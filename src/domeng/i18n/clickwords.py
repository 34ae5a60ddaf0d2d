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
from functools import cache

from .catalog import words
from .choose import current

__all__ = ["click_modules", "install", "ngettext", "translate"]

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


def install() -> None:
    """Make every loaded click module translate through Domeng's catalogs."""
    import click
    import click.shell_completion
    import click.termui  # noqa: F401

    for name in click_modules():
        module = sys.modules[name]
        if getattr(module, "_", None) in (std_gettext.gettext, translate):
            module._ = translate  # type: ignore[attr-defined]
        if getattr(module, "ngettext", None) in (std_gettext.ngettext, ngettext):
            module.ngettext = ngettext  # type: ignore[attr-defined]
