"""Computer players. They receive a seat's view, never the true state."""

from __future__ import annotations

from collections.abc import Callable

from .base import Player
from .basic import BasicPlayer
from .expert import LEVELS, ExpertPlayer, expert_factory
from .oracle import OraclePlayer
from .random_player import RandomPlayer

_FACTORIES: dict[str, Callable[[int | None], Player]] = {
    "random": RandomPlayer,
    "basic": BasicPlayer,
}


def register(name: str, factory: Callable[[int | None], Player]) -> None:
    """Make a player known by ``name`` (for example ``"expert:fast"``)."""
    _FACTORIES[name] = factory


def make_player(name: str, seed: int | None = None) -> Player:
    """A new player by name, seeded for determinism."""
    try:
        factory = _FACTORIES[name]
    except KeyError:
        known = ", ".join(sorted(_FACTORIES))
        raise ValueError(f"unknown player {name!r} (known: {known})") from None
    return factory(seed)


def player_names(*, for_people: bool = True) -> list[str]:
    """The players one can seat; ``oracle`` only when ``for_people`` is False."""
    return [n for n in _FACTORIES if not (for_people and n == "oracle")]


for _level in LEVELS:
    register(_level, expert_factory(_level))
register("oracle", OraclePlayer)

SHIPPED = tuple(_FACTORIES)
"""The players Domeng ships, ``oracle`` last; a player registered later (a benchmark's
versions, a test's) is not one of them."""


def shipped_names(*, for_people: bool = True) -> list[str]:
    """:data:`SHIPPED`, without ``oracle`` when ``for_people``: what a command's help
    names (``domeng play --help``, ``sim --help``). The help is written when the command
    is first asked for (:class:`domeng.cli.Commands`), which may be after a register."""
    return [n for n in SHIPPED if not (for_people and n == "oracle")]


__all__ = [
    "SHIPPED",
    "ExpertPlayer",
    "OraclePlayer",
    "Player",
    "RandomPlayer",
    "make_player",
    "player_names",
    "register",
    "shipped_names",
]
