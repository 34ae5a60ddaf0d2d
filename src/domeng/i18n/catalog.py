"""The words of one language, read from the browser's own catalogs.

There is one source of translations for the browser and the terminal: the
files ``domeng/web/i18n/<code>.json`` that ``web/js/i18n.js`` reads. The
browser's keys (``ev.plays``, ``reason.CEKI``, ``n_stones`` ...) tell the
account of a round, and :mod:`domeng.account` tells it with the same keys, so
each sentence is written once. What only the terminal says (``domeng play``,
``replay``, ``sim``, ``serve``, every ``--help``, click's own words) is in
the one top-level group ``"terminal"`` of the same files; the browser never
asks for it. A text of another group (``"coach": {"reason.ceki": ...}``) is asked
for as the browser asks for it, ``coach.reason.ceki``.

A text is a string with ``{name}`` placeholders, filled in as the browser
fills them (a placeholder without a value stays as it is); a count is an
object of CLDR plural forms (``{"one": "1 STONE", "other": "{n} STONES"}``)
chosen by Babel's plural rules for the language, as ``Intl.PluralRules`` does
in the browser (a terminal text may add an explicit ``"zero"`` form).

>>> en = words("en")
>>> en("ev.pass", who="Besse", stones=en.count("n_stones", 2))
'Besse cannot play — PASS: 2 STONES'
>>> words("id").count("n_stones", 1)
'1 STONES'
>>> en("coach.reason.camat")
'It keeps the CAMAT election within reach.'
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from babel import Locale
from babel.numbers import format_decimal

from domeng.engine.keyed import fill

__all__ = ["GROUP", "LANGUAGES", "NAMES", "Words", "catalog", "words"]

LANGUAGES = ("en", "id", "tr", "pt", "nl", "hi")
"""The languages Domeng speaks, English (the fallback) first."""

NAMES = {
    "en": "English",
    "id": "Bahasa Indonesia",
    "tr": "Türkçe",
    "pt": "Português",
    "nl": "Nederlands",
    "hi": "हिन्दी",
}
"""Each language's name in itself (as the browser's language menu shows it)."""

GROUP = "terminal"
"""The catalogs' top-level group of what only the terminal says."""

Text = str | dict[str, str]


@cache
def catalog(code: str) -> dict[str, object]:
    """The whole catalog of a language, as the browser reads it."""
    if code not in LANGUAGES:
        raise ValueError(f"Domeng does not speak {code!r}: {', '.join(LANGUAGES)}")
    path = files("domeng").joinpath("web", "i18n", f"{code}.json")
    loaded: dict[str, object] = json.loads(path.read_text(encoding="utf-8"))
    return loaded


class Words:
    """The texts of one language: the terminal's group first, then the browser's keys,
    then the texts of the browser's groups as ``<group>.<key>`` (as ``web/js/i18n.js``
    asks for them); a key this language lacks falls back to English (a test keeps none
    missing)."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.locale = Locale.parse(code)
        self._forms: dict[int, str] = {}
        """Each number's plural category, as it was first asked for."""
        whole = catalog(code)
        group = whole.get(GROUP, {})
        assert isinstance(group, dict)
        self._own: dict[str, object] = {**whole, **group}
        for name, texts in whole.items():
            if name in (GROUP, "terms") or not isinstance(texts, dict):
                continue
            for key, text in texts.items():
                if isinstance(text, str):
                    self._own.setdefault(f"{name}.{key}", text)

    def __repr__(self) -> str:
        return f"words({self.code!r})"

    def raw(self, key: str) -> object:
        """The entry ``key`` as the catalog has it: a text with its placeholders, or a
        count's forms (this language's, else English's)."""
        if key in self._own:
            return self._own[key]
        if self.code != "en":
            return words("en").raw(key)
        raise KeyError(f"no text {key!r} in the catalogs")

    def all_keys(self) -> list[str]:
        """Every key this language has (the terminal's group and the browser's)."""
        return list(self._own)

    def has(self, key: str) -> bool:
        """Whether this language itself (not the English fallback) has ``key``."""
        return key in self._own

    def __call__(self, key: str, **values: object) -> str:
        """The text ``key`` with its placeholders filled in."""
        raw = self.raw(key)
        if not isinstance(raw, str):
            raise TypeError(f"{key!r} is a count: use count()")
        return fill(raw, values)

    def plural_form(self, n: int) -> str:
        """The CLDR plural category of ``n`` in this language (``"one"``, ``"other"``)."""
        form = self._forms.get(n)
        if form is None:
            form = str(self.locale.plural_form(n))
            if 0 <= n < 1000:  # the game's own counts: stones, tiles, rounds
                self._forms[n] = form
        return form

    def number(self, x: float, digits: int | None = None, *, sign: bool = False) -> str:
        """``x`` written as this language writes numbers (Babel's CLDR data): its decimal
        sign and grouping, ``digits`` digits after the sign (None: as many as ``x`` has,
        up to 3), a ``+`` before a positive number when ``sign``.

        >>> words("en").number(1.2, 3), words("id").number(1.2, 3), words("tr").number(0.5, 2)
        ('1.200', '1,200', '0,50')
        >>> words("nl").number(-0.25, 2, sign=True), words("pt").number(1234.5)
        ('-0,25', '1.234,5')
        """
        x = x or 0.0  # no "-0.00"
        body = "#,##0" + ("." + "0" * digits if digits else "" if digits == 0 else ".###")
        pattern = f"+{body};-{body}" if sign else body
        return str(format_decimal(x, format=pattern, locale=self.locale))

    def count(self, key: str, n: int, **values: object) -> str:
        """The form of the count ``key`` for ``n``, with ``{n}`` and the other
        placeholders filled in."""
        raw = self.raw(key)
        if not isinstance(raw, dict):
            raise TypeError(f"{key!r} is not a count")
        # an explicit "zero" form ("no CAMAT titles") wins over the CLDR category
        form = (
            raw["zero"] if n == 0 and "zero" in raw else raw.get(self.plural_form(n), raw["other"])
        )
        return fill(str(form), {"n": n, **values})


@cache
def words(code: str) -> Words:
    """The words of the language ``code`` (one of :data:`LANGUAGES`)."""
    return Words(code)
