"""What every seat sees alike of a table's round, kept up to date one event at a time.

Every update carries the whole view of the round (:func:`.wire.view_json`), so each
play would otherwise go through all the round's events again, in the engine's
:func:`~domeng.engine.view` and again for the plays' JSON: at a thousand tables that
was a sixth of the service's time. A :class:`SharedView` keeps the parts that only
grow (the plays as JSON, the line, the numbers each seat showed it lacks) and reads
only the events that are new since it was last asked; the rest it reads from the
round as it is. It answers exactly what :func:`.wire.shared_view_json` answers
(tests/server/test_server_shared_view.py checks them against each other at every
state of many rounds), from what anyone may see: no hand but its tile count.

What it keeps is three lists a table, of dicts of strings and numbers and of tuples of
numbers, which Python's garbage collector does not look through.
"""

from __future__ import annotations

from domeng.engine import Passed, Played, Round, move, tile_name
from domeng.engine.round import extend_line
from domeng.engine.view import lacks

from .documents import PlayDoc, SharedViewDoc
from .wire import move_json, summary_json

SEATS = 5
_NUMBERS = tuple(tuple(n for n in range(7) if mask >> n & 1) for mask in range(128))
"""``_NUMBERS[mask]``: the numbers 0-6 whose bits ``mask`` has."""


class SharedView:
    """The shared part of a table's round view, read from the round's new events only."""

    __slots__ = ("_dealt", "_lacking", "_line", "_plays", "_seen")

    def __init__(self) -> None:
        self._dealt: tuple[int, ...] | None = None
        """The deal of the round read so far: a copy of a round (the table plays on one)
        keeps its deal, another round has a deal of its own."""
        self._seen = 0
        self._plays: list[PlayDoc] = []
        self._line: list[tuple[int, int]] = []
        self._lacking = [0] * SEATS

    def _catch_up(self, r: Round) -> None:
        events = r.events
        if r.dealt is not self._dealt or len(events) < self._seen:  # another round
            self._dealt, self._seen = r.dealt, 0
            self._plays, self._line, self._lacking = [], [], [0] * SEATS
        for e in events[self._seen :]:
            if type(e) is Played:
                self._plays.append(move_json(e.seat, move(e.tile, e.end)))
                extend_line(self._line, e)
            elif type(e) is Passed:
                self._lacking[e.seat] |= lacks(e)
        self._seen = len(events)

    def json(self, r: Round) -> SharedViewDoc:
        """:func:`.wire.shared_view_json` of ``r``, the table's round as it is now."""
        self._catch_up(r)
        ends = r.ends
        shown = r.played_seats
        return {
            "round": r.number,
            "starter": r.starter,
            "opening_tile": tile_name(r.opening_tile) if r.opening_tile is not None else None,
            "turn": r.turn,
            "hand_counts": [h.bit_count() for h in r.hands],
            "ends": list(ends) if ends is not None else None,
            "line": [list(p) for p in self._line],
            "plays": list(self._plays),
            "played_seats": [bool(shown >> s & 1) for s in range(SEATS)],
            "last_mappano": r.last_mappano,
            "lacking": [list(_NUMBERS[mask]) for mask in self._lacking],
            "stones": list(r.stones),
            "table": r.table,
            "camat": r.camat,
            "titles": list(r.titles),
            "summary": summary_json(r),
        }
