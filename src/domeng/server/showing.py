"""What a table shows: its public JSON, each seat's view, the round's events with their
words, the standings, the record, and the caches that make them cheap.

A :class:`Showing` belongs to one table (:class:`~domeng.server.tables.Table`) and only
reads it: it never changes the game nor the seats. What it keeps is kept for speed
(the events' words, what every seat sees alike, the standings' tally) and is emptied by
:meth:`Showing.names_changed` when the seats' names may have changed.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

from domeng.engine import Game
from domeng.engine.record import record_of
from domeng.engine.standings import Tally
from domeng.storage import StoredChat

from . import wire
from .documents import (
    ChatDoc,
    ClockDoc,
    EventDoc,
    Json,
    OwnLinksDoc,
    SeatDoc,
    SettingsDoc,
    SharedViewDoc,
    StandingDoc,
    State,
    TableDoc,
    ViewDoc,
)
from .sharedview import SharedView
from .waits import away_json, wait_json

if TYPE_CHECKING:
    from .tables import Table


class Showing:
    """What one table shows, and the caches of it; see the module docstring."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self._settings_json: SettingsDoc = t.settings.json()
        self._links: OwnLinksDoc = {
            "self": f"/api/tables/{t.id}",
            "record": f"/api/tables/{t.id}/record",
            "websocket": f"/ws/tables/{t.id}",
        }
        if t.settings.tournament is not None:  # the page of the tournament it plays for
            self._links["tournament"] = f"/#/tournament/{t.settings.tournament}"
        self.event_cache: list[EventDoc] = []
        self.cache_round = 0
        self._shared = SharedView()
        self._tally = Tally()
        """The standings' figures of the finished rounds, added as they finish."""
        self._live: tuple[int, Tally, int] | None = None
        """The round in play's number, the finished rounds' tally with its events so far
        added, and how many of them were (a play adds only its own)."""
        self._standings: tuple[tuple[int, ...], list[StandingDoc]] | None = None
        """The last standings sent, with the figures they were made from."""

    def names_changed(self) -> None:
        """The seats' names may have changed: the events' words are made again."""
        self.event_cache = []
        self.cache_round = 0

    def events_json(self) -> list[EventDoc]:
        """The current round's events as JSON with their words (cached, append-only)."""
        t = self.t
        if not t.game.rounds:
            return []
        r = t.game.round
        if self.cache_round != r.number:
            self.cache_round = r.number
            self.event_cache = []
        n = len(self.event_cache)
        if n < len(r.events):
            self.event_cache.extend(
                wire.events_json(
                    r.events,
                    t.names,
                    round_number=r.number,
                    start=n,
                    stand_ins=t.stand_ins[r.number - 1],
                )
            )
        return self.event_cache

    def clock_json(self) -> ClockDoc | None:
        t = self.t
        if t.deadline is None or t.game.turn is None:
            return None
        left = max(0.0, t.deadline - t.clock.now())
        return {
            "seat": t.game.turn,
            "left_ms": round(left * 1000),
            "deadline": round(t.clock.wall() + left, 3),
        }

    def standings_json(self) -> list[StandingDoc]:
        """The standings so far: the finished rounds' tally, and the round being played."""
        t = self.t
        rounds = t.game.rounds
        done = len(rounds) - (1 if t.in_round else 0)
        while self._tally.rounds < done:
            self._tally.add(rounds[self._tally.rounds])
        tally = self._tally
        if t.in_round:
            events = rounds[-1].events
            if self._live is None or self._live[0] != len(rounds):
                self._live = (len(rounds), tally.copy(), 0)
            _, tally, seen = self._live
            if seen < len(events):
                tally.add_events(events[seen:])
                self._live = (len(rounds), tally, len(events))
        titles, stones = t.game.titles, t.game.stones
        key = (*titles, *stones, *tally.figures())
        if self._standings is None or self._standings[0] != key:  # most plays change none
            self._standings = (key, [s.json() for s in tally.ranked(titles, stones)])
        return self._standings[1]

    def public_json(self) -> TableDoc:
        """The table as anyone may see it (the list, the lobby, every update)."""
        t = self.t
        now = t.clock.now()
        number = len(t.game.rounds)
        finished_round = t.started and t.game.round.finished
        seats: list[SeatDoc] = []
        for n, s in enumerate(t.seats):
            st = s.stored
            if st.kind == "person":
                open_seat = st.token_hash is None
                stand_in = t.computer_level(n, now) is not None
                connected: bool | None = s.connections > 0
                waiting = t.waiting(n)
                ready = st.ready >= number or stand_in
            else:  # a computer's seat: taken, and ready with its level
                open_seat = stand_in = waiting = False
                connected = None
                ready = st.ready >= number or st.level is not None
            seats.append(
                {
                    "seat": n,
                    "kind": st.kind,  # type: ignore[typeddict-item]  # the storage's str
                    "level": st.level,
                    "name": st.name,
                    "taken": not open_seat,
                    "open": open_seat and st.open,
                    "invited": open_seat and not st.open,
                    "connected": connected,
                    "waiting": waiting,
                    "stand_in": stand_in,
                    "ready": ready if finished_round else None,
                    "hints": st.hints,
                    "away": away_json(t, n, now),
                }
            )
        return {
            "id": t.id,
            "created": t.created,
            "status": t.status,
            "ended": t.why_ended,
            "state": t.state,
            "round": number,
            "turn": t.game.turn,
            "host": t.host_seat,
            "seats": seats,
            "stones": t.game.stones,
            "table": t.game.table,
            "camat": t.game.camat,
            "titles": t.game.titles,
            "clock": self.clock_json(),
            "waiting_for": wait_json(t) if t.wait else None,
            "standings": self.standings_json(),
            **self._settings_json,
            "links": {
                **self._links,
                "join": [
                    f"/?table={t.id}&seat={n}"
                    for n, s in enumerate(t.seats)
                    if s.stored.kind == "person" and s.stored.token_hash is None and s.stored.open
                ],
            },
        }

    def shared_view_json(self) -> SharedViewDoc | None:
        """What every seat's view of the round shows alike (:func:`wire.shared_view_json`),
        for :meth:`view_json` to build several seats' views from; read from the round's
        new events only (:mod:`.sharedview`). The answer itself is not kept: at a
        thousand tables the kept ones were most of the young objects the garbage
        collector looked through."""
        t = self.t
        return self._shared.json(t.game.round) if t.game.rounds else None

    def view_json(
        self, seat: int | None, *, with_events: bool, shared: SharedViewDoc | None = None
    ) -> ViewDoc | None:
        """What a connection of ``seat`` sees of the round (None before the first deal);
        ``shared``: :meth:`shared_view_json` of this state, when made already."""
        t = self.t
        if not t.game.rounds:
            return None
        r = t.game.round
        v = wire.view_json(r, t.view_seat(seat), shared=shared)
        if with_events:
            v["events"] = self.events_json()
        return v

    def state_message(self, seat: int | None) -> State:
        """The whole table as a connection of ``seat`` sees it (``state``)."""
        t = self.t
        return {
            "type": "state",
            "state": t.state,
            "table": self.public_json(),
            "view": self.view_json(seat, with_events=True),
            "chat": list(t.chat),
        }

    @property
    def hides_last_round(self) -> bool:
        """A round being played at a table that has had a person's seat: its deal is
        nobody's to see until it ends, whatever the seats have become since. A seat the
        host gave to a computer keeps its ``sits_from`` (a computer's own seat has 0), so
        a person who saw the round's hand, then was replaced, still hides it (after a
        restart too)."""
        t = self.t
        people = any(s.stored.kind == "person" or s.stored.sits_from > 0 for s in t.seats)
        return people and t.started and not t.game.round.finished

    def record_json(self, *, finished_rounds: bool = False) -> Json:
        """The game so far as a ``domeng.record/1`` document (``finished_rounds``: its
        finished rounds alone).

        A record holds every deal, so while a round is being played at a table
        with a person's seat that round is left out (it would show every hand);
        at a table of computer players the record goes up to the last play.
        """
        t = self.t
        if not (self.hides_last_round or (finished_rounds and t.in_round)):
            return record_of(t.game, t.names, stand_ins=t.stand_ins)
        shown = Game(t.game.variants)
        shown.rounds = t.game.rounds[:-1]
        return record_of(shown, t.names, stand_ins=t.stand_ins[:-1])


def chat_json(c: StoredChat) -> ChatDoc:
    """A stored chat message as everyone at the table hears it."""
    if c.phrase is not None:
        return {"type": "chat", "seat": c.seat, "name": c.name, "phrase": c.phrase, "at": c.at}
    text = cast(str, c.text)  # a message is a text or a phrase
    return {"type": "chat", "seat": c.seat, "name": c.name, "text": text, "at": c.at}
