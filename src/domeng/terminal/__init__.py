"""Playing Domeng in the terminal: rendering with ``rich`` and the input loop.

:mod:`.render` turns the engine's state and events into text; :mod:`.session`
runs a game for one person against four computer players.
"""

from .session import PlaySession, Quit, Seat, Until, new_seats, resumed_seats

__all__ = ["PlaySession", "Quit", "Seat", "Until", "new_seats", "resumed_seats"]
