"""The engine modules' doctests (their examples are part of the documentation)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import domeng.engine

MODULES = sorted(f"domeng.engine.{m.name}" for m in pkgutil.iter_modules(domeng.engine.__path__))


def test_the_engine_modules_are_found() -> None:
    for name in ("tiles", "moves", "events", "round", "game", "view"):
        assert f"domeng.engine.{name}" in MODULES


@pytest.mark.parametrize("name", ["domeng.engine", *MODULES])
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False)
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"


@pytest.mark.parametrize(
    "name", ["domeng.engine.tiles", "domeng.engine.round", "domeng.engine.game"]
)
def test_the_documented_modules_have_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name), verbose=False)
    assert result.attempted > 0
