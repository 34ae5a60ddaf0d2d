"""Every doctest of ``src/domeng`` runs (their examples are documentation, and some are the
only check of a rule: ``domeng.history.ratings``' two-player match, for one)."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import domeng

ROOT = Path(domeng.__file__).parent


def _modules() -> list[str]:
    """Every module of the package whose source shows a ``>>>`` example (``__main__``
    is left out: importing it runs the program)."""
    names = []
    for path in sorted(ROOT.rglob("*.py")):
        if path.name == "__main__.py" or ">>>" not in path.read_text(encoding="utf-8"):
            continue
        parts = path.relative_to(ROOT.parent).with_suffix("").parts
        names.append(".".join(parts[:-1] if parts[-1] == "__init__" else parts))
    return names


MODULES = _modules()


def test_the_modules_with_examples_are_found() -> None:
    for name in ("domeng.history.ratings", "domeng.engine.standings", "domeng.account"):
        assert name in MODULES
    found = {m.name for m in pkgutil.walk_packages(domeng.__path__, "domeng.")}
    assert set(MODULES) <= found


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, verbose=False, report=True)
    assert result.attempted > 0, f"{name} shows >>> but no doctest of it ran"
    assert result.failed == 0, f"{result.failed} doctest(s) failed in {name}"
