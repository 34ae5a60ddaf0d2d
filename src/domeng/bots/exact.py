"""Exact search of a round's end once the hands are known (a guessed world, or the truth).

:func:`solve` plays every line of play from a position to the round's end: at each turn
the seat in turn takes the move best for itself by the objective
(:class:`~domeng.bots.rollout.Objective`), knowing every hand (a max^n search; ties go to
the first legal move, as the engine lists them). Block dominoes with no boneyard suits
this well near the end of a round: few tiles are left, a seat often has a single legal
move (or a PASS, which the engine makes for it), so the tree is small. A search that
would visit more than ``budget`` positions stops with :class:`TooBig`, and the caller
falls back on play-outs.

The value it gives is what a move is worth if everyone from then on plays perfectly
with every hand in sight: the exact solution of a world. The coach uses it for a
guessed world when only a few placements of the hidden tiles agree with what the seat
saw (:func:`domeng.bots.coach.judge_position` with ``exact``), and
``benchmarks/coach.py`` for its false-alarm rate on positions solved exactly.
"""

from __future__ import annotations

from domeng.engine import Move, Round
from domeng.engine.moves import SEATS

from .rollout import DEFAULT_OBJECTIVE, Objective, round_value

__all__ = ["TooBig", "solve", "solve_moves"]

Values = tuple[float, ...]
"""Per seat, the worth of the rest of the round (by the objective)."""


class TooBig(Exception):
    """The search would visit more positions than its budget allows."""


class _Search:
    __slots__ = ("left", "objective", "since")

    def __init__(self, since: int, objective: Objective, budget: int) -> None:
        self.since = since
        self.objective = objective
        self.left = budget

    def values(self, r: Round) -> tuple[Values, Round]:
        """The values of ``r`` under perfect play, and the finished round that line ends
        in."""
        while True:
            seat = r.turn
            if seat is None:
                since, obj = self.since, self.objective
                return tuple(round_value(r, s, since, obj) for s in range(SEATS)), r
            self.left -= 1
            if self.left < 0:
                raise TooBig
            ms = r.legal_moves()
            if len(ms) == 1:
                r = r.clone()
                r.play(ms[0])
                continue
            best: tuple[Values, Round] | None = None
            for m in ms:
                c = r.clone()
                c.play(m)
                got = self.values(c)
                if best is None or got[0][seat] > best[0][seat]:
                    best = got
            assert best is not None
            return best


def solve(
    r: Round, objective: Objective = DEFAULT_OBJECTIVE, budget: int = 20_000
) -> tuple[Values, Round]:
    """The per-seat values of the rest of ``r`` under perfect play (counted from now) and
    the finished round of that line. Raises :class:`TooBig` past ``budget`` positions."""
    return _Search(len(r.events), objective, budget).values(r)


def solve_moves(
    r: Round,
    moves: tuple[Move, ...],
    objective: Objective = DEFAULT_OBJECTIVE,
    budget: int = 20_000,
) -> list[tuple[float, Round, int]]:
    """For each of ``moves`` of the seat in turn: its exact value to that seat (counted
    from before the move), the finished round of the line and how many events the round
    had straight after the move. One budget for all."""
    seat = r.turn
    if seat is None:
        raise ValueError("the round is over")
    search = _Search(len(r.events), objective, budget)
    out = []
    for m in moves:
        c = r.clone()
        c.play(m)
        after = len(c.events)
        values, end = search.values(c)
        out.append((values[seat], end, after))
    return out
