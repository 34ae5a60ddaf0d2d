"""No class of Domeng inherits from two of the project's classes (issue 25): a part
one class needs is held by it, not mixed into it."""

from __future__ import annotations

import importlib
import inspect
import pkgutil

import domeng


def test_no_class_inherits_from_two_of_the_projects_classes() -> None:
    found: list[str] = []
    seen = 0
    for info in pkgutil.walk_packages(domeng.__path__, "domeng."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for cls in vars(module).values():
            if not inspect.isclass(cls) or cls.__module__ != module.__name__:
                continue
            seen += 1
            own = [b.__name__ for b in cls.__bases__ if b.__module__.startswith("domeng.")]
            if len(own) > 1:
                found.append(f"{module.__name__}.{cls.__qualname__}({', '.join(own)})")
    assert seen > 100
    assert found == []
