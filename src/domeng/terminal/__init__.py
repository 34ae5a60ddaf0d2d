"""Playing Domeng in the terminal: rendering with ``rich`` and the input loop.

:mod:`.render` turns the engine's state and events into text; :mod:`.session`
runs a game for one person against four computer players.

The names below are imported from :mod:`.session` when first asked for: a module of
the package (:mod:`.widths`, which every ``domeng`` command uses) does not bring in the
terminal's game with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .session import PlaySession, Quit, Seat, Until, new_seats, resumed_seats

__all__ = ["PlaySession", "Quit", "Seat", "Until", "new_seats", "resumed_seats"]


def __getattr__(name: str) -> object:
    if name not in __all__:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    from . import session

    value = getattr(session, name)
    globals()[name] = value
    return value
