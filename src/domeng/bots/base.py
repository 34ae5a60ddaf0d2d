"""What a computer player is: it receives a seat's view and returns a move."""

from __future__ import annotations

from abc import ABC, abstractmethod

from domeng.engine import Move, Round, SeatView


class Player(ABC):
    """A computer player. It sees only what its seat may know (a :class:`SeatView`).

    ``choose`` is called only when the view's seat is in turn and has a legal
    move; it returns one of ``view.legal_moves``.
    """

    name: str = "player"
    sees_all: bool = False
    """True only for the measuring ``oracle``, which is never seated with people."""

    @abstractmethod
    def choose(self, view: SeatView) -> Move:
        """The move to make in this position."""

    def choose_seeing_all(self, r: Round, seat: int) -> Move:
        """For players that see every hand (``sees_all``): choose from the true state."""
        raise NotImplementedError(f"{self.name} plays from its seat's view only")
