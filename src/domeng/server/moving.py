"""A table moving on by itself: the first deal once every person's seat is taken, a
computer player's (or a stand-in's) move after the table's pace, the next round once
the people are ready, the stand-in's wait for an absent person, and the move the turn
clock makes for a person out of time."""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Callable, Coroutine
from typing import Any

from domeng.engine import deal
from domeng.engine.tiles import names as tile_names

from .clock import Timer
from .hubbase import HubBase, log
from .storage import StoredDeal
from .tables import Table, TableError

RETRY_AFTER = 1.0
"""Seconds before a deal or a computer's move that could not be stored is tried again."""


class MovingOn(HubBase):
    """The hub's part that moves a table on by itself; see the module docstring."""

    def advance(self, t: Table) -> None:
        """Whatever comes next at ``t`` without a person: deal, a computer's move, a timer."""
        if t.finished or t.moving:
            return
        now = self.clock.now()
        if not t.started:
            if all(s.stored.kind == "computer" or s.stored.token_hash for s in t.seats):
                self._start(t, functools.partial(self._deal, t, 0, paused=False))
            return
        r = t.game.round
        if r.finished:
            waiting = [
                n
                for n, s in enumerate(t.seats)
                if s.stored.kind == "person"
                and s.stored.ready < r.number
                and t.computer_level(n) is None
            ]
            if waiting:
                for n in waiting:
                    self._wake_when_away(t, n, now)
                return
            if self._unwatched(t):
                return  # the next round waits for someone to come back (or to watch)
            # a person plays: deal now; only computers and stand-ins: after the pace
            people = any(
                s.stored.kind == "person" and not t.stood_in(n) for n, s in enumerate(t.seats)
            )
            state = t.state
            pause = not people
            self._start(t, functools.partial(self._deal, t, state, paused=pause), pause=pause)
            return
        seat = r.turn
        assert seat is not None
        level = t.computer_level(seat)
        if level is not None:
            work = functools.partial(self._computer_move, t, seat, level, t.state)
            self._start(t, work, pause=True)
        else:
            self._wake_when_away(t, seat, now)
            self.turn_clock.arm(t)

    def _start(
        self, t: Table, work: Callable[[], Coroutine[Any, Any, bool]], *, pause: bool = False
    ) -> None:
        """Run ``work()`` as the table's one task of moving on by itself, after the table's
        pace when ``pause`` (a timer, then a turn of the loop shared with the other
        tables: :mod:`.pacing`); it answers True when what it did could not be stored
        (it is tried again after a while).

        What waits for the pace is a timer and two partials: a thousand tables waiting
        held ten closures' cells and four functions each, a third of the young objects
        the garbage collector went through."""
        if not pause:
            self._begin(t, work)
            return
        when = self.clock.now() + t.settings.pace_ms / 1000
        t.due = self.clock.call_at(when, functools.partial(self._paused, t, work))

    def _paused(self, t: Table, work: Callable[[], Coroutine[Any, Any, bool]]) -> None:
        self.pacing.start(functools.partial(self._begin, t, work))

    def _begin(self, t: Table, work: Callable[[], Coroutine[Any, Any, bool]]) -> None:
        t.due = None
        t.task = asyncio.get_running_loop().create_task(self._run(t, work))

    async def _run(self, t: Table, work: Callable[[], Coroutine[Any, Any, bool]]) -> None:
        retry = False
        try:
            retry = await work()
        finally:
            t.task = None
        if retry:
            self._later(t, RETRY_AFTER)
        else:
            self.advance(t)
            self.let_go(t)

    def _later(self, t: Table, delay: float) -> None:
        """Look again at ``t`` after ``delay`` seconds."""
        handle: Timer

        def wake() -> None:
            self._timers.discard(handle)
            self.advance(t)

        handle = self.clock.call_at(self.clock.now() + delay, wake)
        self._timers.add(handle)

    def _wake_when_away(self, t: Table, seat: int, now: float) -> None:
        """Look again when an absent person's time is up (their stand-in then plays)."""
        s = t.seats[seat]
        after = t.settings.replace_after_ms
        key = (t.id, seat)
        if s.connections or after is None or t.settings.stand_in is None or key in self._wakes:
            return
        handle: Timer

        def wake() -> None:
            self._timers.discard(handle)
            del self._wakes[key]
            self._seats_changed(t)

        handle = self.clock.call_at(max(now, s.away_since + after / 1000), wake)
        self._timers.add(handle)
        self._wakes[key] = handle

    def _unwatched(self, t: Table) -> bool:
        """Nobody to deal the next round for: no person of the table is connected, or, at a
        table of computer players, no connection watches it (they play on only while
        someone does, so a table left alone does not play forever)."""
        persons = [s for s in t.seats if s.stored.kind == "person"]
        if persons:
            return not any(s.connections for s in persons)
        return all(c.closed for c in t.watching) and all(c.closed for c in t.seated)

    async def _deal(self, t: Table, state: int, *, paused: bool) -> bool:
        """Deal the next round (stored first); ``paused``: after the table's pace. Answers
        True when it could not be stored (and is to be tried again)."""
        async with t.lock:
            if t.state != state or t.finished:
                return False
            if paused and self._unwatched(t):
                return False  # they left during the pause: advance() runs again when one is back
            hands, unused = deal(self.deals)
            now = self.clock.wall()
            d = StoredDeal([tile_names(h) for h in hands], tile_names(unused), now)
            try:
                await self.store.add_deal(t.id, len(t.game.rounds) + 1, d)
            except Exception:
                log.exception("could not store a deal at table %s", t.id)
                return True
            t.deals.append(d)
            t.stand_ins.append(set())
            t.game.start_round(hands, unused)
            t.state += 1
            t.last_active = now
            self.arm_clock(t)
            self.broadcast(t, events=t.events_json())
        return False

    def time_out(self, t: Table, seat: int, state: int) -> None:
        """The person in turn ran out of time (the turn clock): a computer makes this one
        move for them; after :data:`~domeng.server.tables.CLOCK_OUTS` in a row it plays on."""
        if not t.moving and t.state == state and not t.finished:
            level = t.stand_in_level
            self._start(
                t, functools.partial(self._computer_move, t, seat, level, state, clocked=True)
            )

    async def _computer_move(
        self, t: Table, seat: int, level: str, state: int, *, clocked: bool = False
    ) -> bool:
        """The computer player's (or stand-in's) move for ``seat`` (after the table's pace,
        or at once when ``clocked``: the person's time ran out). Answers True when it
        could not be stored (and is to be tried again)."""

        def still() -> bool:
            if t.state != state:
                return False
            now_level = t.computer_level(seat)
            return now_level is None if clocked else now_level == level

        if not still():
            return False
        v = t.game.view(seat)
        seed = hash((t.seats[seat].stored.seed, t.state)) & (2**63 - 1)
        try:
            m = await self.runner.choose(level, seed, v)
        except Exception:
            log.exception("computer player %s failed at table %s", level, t.id)
            m = v.legal_moves[0]
        for_person = t.seats[seat].stored.kind == "person"
        async with t.lock:
            if not still():
                return False
            try:
                events = await self.apply(t, seat, m, stand_in=for_person)
            except TableError as e:
                if e.code != "illegal":  # not stored: try again in a moment
                    return True
                log.error("computer player %s at table %s: %s", level, t.id, e.message)
                try:
                    events = await self.apply(t, seat, t.game.legal_moves()[0], stand_in=for_person)
                except TableError:
                    return True
            if clocked:
                s = t.seats[seat]
                out = dataclasses.replace(s.stored, timeouts=s.stored.timeouts + 1)
                try:
                    await self.store.save_seat(t.id, seat, out)
                    s.stored = out
                except Exception:  # the move is kept; only the count of time-outs is not
                    log.exception("could not store a time-out at table %s", t.id)
            self.broadcast(t, events=events)
            await self.finish_if_over(t)
        return False
