"""A typed model's validation errors, turned into the protocol's refusals.

Bodies and messages are checked by pydantic models (:mod:`.bodies`,
:mod:`.messages`); a failure is a :class:`pydantic.ValidationError` listing
every fault with its place (``loc``). The protocol answers one refusal, with its
code and a sentence in plain words: :func:`refusal` picks the first fault
(unknown fields first, then missing ones, then the rest in the order of the
model's fields) and words it by the rules a model gives for its fields.

A field's checks that pydantic cannot know (a name's printable text, a known
computer player) raise :func:`fault`, which carries its own code and words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from pydantic import ValidationError
from pydantic_core import ErrorDetails, PydanticCustomError

from .errors import TableError


def fault(code: str, predicate: str) -> PydanticCustomError:
    """A check of a field failed: ``code`` is the refusal's, ``predicate`` what the field
    must be ("must be printable text"); the field's name is put before it."""
    return PydanticCustomError(code, "{predicate}", {"predicate": predicate})


@dataclass(frozen=True, slots=True)
class Rule:
    """How a fault of one field is refused: its code and what the field must be."""

    code: str
    predicate: str


Loc = tuple[int | str, ...]


@dataclass(frozen=True, slots=True)
class Wording:
    """How a model's faults are worded: per field name, the rule for a wrong value; the
    codes for an unknown or a missing field; and how a place is named in a sentence."""

    rules: Mapping[str, Rule]
    status: int = 400
    unknown_code: str = "bad_body"
    missing: Callable[[str], tuple[str, str]] | None = None
    """For a missing field: its (code, sentence); None words it like a wrong value."""
    label: Callable[[Loc], str] = lambda loc: str(loc[-1]) if loc else "the body"
    unknown: Callable[[Loc, str], str] = lambda loc, name: f"unknown field {name!r}"
    special: Callable[[ErrorDetails], TableError | None] = lambda e: None
    """A last word for faults the rules cannot word (None: use the rules)."""
    first: tuple[str, ...] = ("extra_forbidden", "missing")
    """The kinds of fault answered before all others, in this order."""


def refusal(error: ValidationError, wording: Wording) -> TableError:
    """The one refusal for ``error``'s first fault (see the module docstring)."""
    rank = {kind: n for n, kind in enumerate(wording.first)}
    # stable: within a kind, the model's field order stays
    faults = sorted(error.errors(), key=lambda e: rank.get(e["type"], len(rank)))
    e = faults[0]
    loc = tuple(e["loc"])
    special = wording.special(e)
    if special is not None:
        return special
    if e["type"] == "extra_forbidden":
        return TableError(
            wording.unknown_code, wording.unknown(loc[:-1], str(loc[-1])), wording.status
        )
    name = next((str(p) for p in reversed(loc) if isinstance(p, str)), "")
    if e["type"] == "missing" and wording.missing is not None:
        code, text = wording.missing(name)
        return TableError(code, text, wording.status)
    ctx = e.get("ctx") or {}
    if "predicate" in ctx:  # a fault() of the field's own check
        return TableError(e["type"], f"{wording.label(loc)} {ctx['predicate']}", wording.status)
    rule = wording.rules.get(name)
    if rule is None:
        return TableError(wording.unknown_code, f"{wording.label(loc)}: {e['msg']}", wording.status)
    text = f"{wording.label(loc)} {rule.predicate}"
    if e["type"] != "missing":
        text += f", not {_shown(e['input'])}"
    return TableError(rule.code, text, wording.status)


def _shown(value: object, limit: int = 40) -> str:
    """A client's value in a sentence, cut short when long."""
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
