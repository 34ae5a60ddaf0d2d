"""A table's moving on by itself: what comes next without a person.

After every change the table calls :meth:`MovingOn.advance`: the first deal once every
person's seat is taken (or their wait is over), a computer player's (or a stand-in's)
move after the table's pace, the next round once the people are ready (or without
them when their wait is over), a look again when an absent person's time is up, and
the move the turn clock makes for a person out of time. One such piece runs at a time
(:attr:`MovingOn.task`, after :attr:`MovingOn.due`), and a piece that could not be
stored is tried again after :data:`RETRY_AFTER`. What a piece changes it changes as
every change of the table is made (:class:`~.tables.Table`: under its lock, stored,
applied, told), and the table stays the only writer of its state.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

from domeng.engine import deal
from domeng.engine.tiles import names as tile_names
from domeng.storage import StoredDeal

from .clock import Timer
from .errors import TableError
from .fixed import fixed_deal
from .seats import CLOCK_OUTS
from .services import log
from .waits import (
    SEAT_SECONDS,
    WaitKind,
    empty_seats,
    ready_has_deadline,
    ready_seconds,
    ready_waits,
)

if TYPE_CHECKING:
    from .tables import Table

RETRY_AFTER = 1.0
"""Seconds before a deal or a computer's move that could not be stored is tried again."""

Work = Callable[[], Coroutine[Any, Any, bool]]
"""A piece of the table's moving on by itself: answers True when what it did could not
be stored (it is tried again after :data:`RETRY_AFTER`)."""


class MovingOn:
    """One table's moving on by itself (see the module)."""

    def __init__(self, t: Table) -> None:
        self.t = t
        self.task: asyncio.Task[None] | None = None
        """The table's one piece of moving on by itself (a deal, a computer's move)."""
        self.due: Timer | None = None
        """The end of the pause before that piece starts (see :mod:`.pacing`)."""
        self.timers: set[Timer] = set()
        """The looks again it has asked the clock for (a retry, an absent person's time)."""
        self.wakes: dict[int, Timer] = {}
        """Per seat, the look again when its absent person's time is up."""

    @property
    def moving(self) -> bool:
        """A deal or a computer's move is on its way."""
        return self.task is not None or self.due is not None

    def stop(self) -> asyncio.Task[None] | None:
        """Every timer cancelled; answers the task, cancelled, for the caller to await."""
        for h in self.timers:
            h.cancel()
        self.timers.clear()
        if self.due is not None:
            self.due.cancel()
        if self.task is not None:
            self.task.cancel()
        return self.task

    def advance(self) -> None:
        """Whatever comes next without a person: deal, a computer's move, a timer."""
        t = self.t
        if t.finished or t.moving:
            return
        now = t.clock.now()
        if not t.started:
            empty = empty_seats(t)
            if not empty or t.start_anyway:
                t.waits.stop(t)
                self._start(functools.partial(self._deal, 0, paused=False))
            elif len(empty) < sum(s.stored.kind == "person" for s in t.seats):
                t.waits.wait(t, "seats", SEAT_SECONDS)  # someone sits and waits
            return
        r = t.game.round
        if r.finished:
            waiting = ready_waits(t)
            if waiting:
                if ready_has_deadline(t):
                    t.waits.wait(t, "ready", ready_seconds(t), key=r.number)
                for n in waiting:
                    self._wake_when_away(n, now)
                return
            t.waits.stop(t)
            if self._unwatched():
                return  # the next round waits for someone to come back (or to watch)
            # a person plays: deal now; only computers and stand-ins: after the pace
            people = any(
                s.stored.kind == "person" and not t.stood_in(n) for n, s in enumerate(t.seats)
            )
            pause = not people
            self._start(functools.partial(self._deal, t.state, paused=pause), pause=pause)
            return
        seat = r.turn
        assert seat is not None
        level = t.computer_level(seat)
        if level is not None:
            self._start(functools.partial(self._computer_move, seat, level, t.state), pause=True)
        else:
            self._wake_when_away(seat, now)
            t.turn_clock.arm(t)

    def _start(self, work: Work, *, pause: bool = False) -> None:
        """Run ``work()`` as the table's one task of moving on by itself, after the table's
        pace when ``pause`` (a timer, then a turn of the loop shared with the other
        tables: :mod:`.pacing`); it answers True when what it did could not be stored
        (it is tried again after a while).

        What waits for the pace is a timer and two partials: a thousand tables waiting
        held ten closures' cells and four functions each, a third of the young objects
        the garbage collector went through."""
        t = self.t
        if not pause:
            self._begin(work)
            return
        when = t.clock.now() + t.settings.pace_ms / 1000
        self.due = t.clock.call_at(when, functools.partial(self._paused, work))

    def _paused(self, work: Work) -> None:
        t = self.t
        t.services.pacing.start(functools.partial(self._begin, work))

    def _begin(self, work: Work) -> None:
        self.due = None
        self.task = asyncio.get_running_loop().create_task(self._run(work))

    async def _run(self, work: Work) -> None:
        t = self.t
        retry = False
        try:
            retry = await work()
        finally:
            self.task = None
        if retry:
            self._later(RETRY_AFTER)
        else:
            self.advance()
            t.let_go()

    def wait_over(self, kind: WaitKind) -> None:
        """A wait's time is up (:mod:`.waits`): the game starts with a computer in each
        seat nobody took, or the next round without whoever is not ready."""
        t = self.t
        if t.finished:
            return
        if kind == "seats":
            t.start_anyway = True
            self.advance()
            return
        t.services.chore(asyncio.get_running_loop().create_task(self.go_on_without()))

    async def go_on_without(self) -> None:
        """The next round starts without the people not ready: the stand-in plays their
        seats until they are back (``ready``, ``back``). Stored as the turn clock's
        time-outs are, so a restart keeps it."""
        t = self.t
        async with t.lock:
            if t.finished or not t.started or not t.game.round.finished:
                return
            for n in ready_waits(t):
                s = t.seats[n]
                out = dataclasses.replace(s.stored, timeouts=max(s.stored.timeouts, CLOCK_OUTS))
                try:
                    await t.store.save_seat(t.id, n, out)
                except Exception:
                    log.exception("could not store that seat %d is not ready at %s", n, t.id)
                    self._later(RETRY_AFTER)
                    return
                s.stored = out
            t.seats_changed()

    def _later(self, delay: float) -> None:
        """Look again after ``delay`` seconds."""
        t = self.t
        handle: Timer

        def wake() -> None:
            self.timers.discard(handle)
            self.advance()

        handle = t.clock.call_at(t.clock.now() + delay, wake)
        self.timers.add(handle)

    def _wake_when_away(self, seat: int, now: float) -> None:
        """Look again when an absent person's time is up (their stand-in then plays)."""
        t = self.t
        s = t.seats[seat]
        after = t.settings.replace_after_ms
        if s.connections or after is None or t.settings.stand_in is None or seat in self.wakes:
            return
        handle: Timer

        def wake() -> None:
            self.timers.discard(handle)
            del self.wakes[seat]
            t.seats_changed()

        handle = t.clock.call_at(max(now, t.away_until(seat)), wake)
        self.timers.add(handle)
        self.wakes[seat] = handle

    def _unwatched(self) -> bool:
        """Nobody to deal the next round for: no person of the table is connected, or, at a
        table of computer players, no connection watches it (they play on only while
        someone does, so a table left alone does not play forever). A tournament's table
        is always watched, by the tournament: its round must end, so its absent persons'
        seats are played by the turn clock and the stand-in as any absent person's."""
        t = self.t
        if t.settings.tournament is not None:  # the tournament watches its tables
            return False
        persons = [s for s in t.seats if s.stored.kind == "person"]
        if persons:
            return not any(s.connections for s in persons)
        return all(c.closed for c in t.watching) and all(c.closed for c in t.seated)

    async def _deal(self, state: int, *, paused: bool) -> bool:
        """Deal the next round (stored first); ``paused``: after the table's pace. Answers
        True when it could not be stored (and is to be tried again)."""
        t = self.t
        async with t.lock:
            if t.state != state or t.finished:
                return False
            if paused and self._unwatched():
                return False  # they left during the pause: advance() runs again when one is back
            hands, unused = fixed_deal(t.settings, len(t.game.rounds)) or deal(t.services.deals)
            now = t.clock.wall()
            d = StoredDeal([tile_names(h) for h in hands], tile_names(unused), now)
            try:
                await t.store.add_deal(t.id, len(t.game.rounds) + 1, d)
            except Exception:
                log.exception("could not store a deal at table %s", t.id)
                return True
            t.deals.append(d)
            t.stand_ins.append(set())
            t.waits.stop(t)
            t.game.start_round(hands, unused)
            t.state += 1
            t.last_active = now
            t.arm_clock()
            t.broadcast(events=t.events_json())
        return False

    def time_out(self, seat: int, state: int) -> bool:
        """The person in turn ran out of time (the turn clock): a computer makes this one
        move for them; after :data:`~domeng.server.seats.CLOCK_OUTS` in a row it plays on.
        Answers False when the table is still moving on by itself (the clock asks again
        once it has: a person never gets a second whole turn that way)."""
        t = self.t
        if t.state != state or t.finished:
            return True
        if t.moving:
            return False
        level = t.stand_in_level
        self._start(functools.partial(self._computer_move, seat, level, state, clocked=True))
        return True

    async def _computer_move(
        self, seat: int, level: str, state: int, *, clocked: bool = False
    ) -> bool:
        """The computer player's (or stand-in's) move for ``seat`` (after the table's pace,
        or at once when ``clocked``: the person's time ran out). Answers True when it
        could not be stored (and is to be tried again)."""
        t = self.t

        def still() -> bool:
            if t.state != state or t.finished:  # the host may end the game meanwhile
                return False
            now_level = t.computer_level(seat)
            return now_level is None if clocked else now_level == level

        if not still():
            return False
        v = t.game.view(seat)
        seed = hash((t.seats[seat].stored.seed, t.state)) & (2**63 - 1)
        try:
            m = await t.services.runner.choose(level, seed, v)
        except Exception:
            log.exception("computer player %s failed at table %s", level, t.id)
            m = v.legal_moves[0]
        for_person = t.seats[seat].stored.kind == "person"
        async with t.lock:
            if not still():
                return False
            try:
                events = await t.apply(seat, m, stand_in=for_person)
            except TableError as e:
                if e.code != "illegal":  # not stored: try again in a moment
                    return True
                log.error("computer player %s at table %s: %s", level, t.id, e.message)
                try:
                    first = t.game.legal_moves()[0]
                    events = await t.apply(seat, first, stand_in=for_person)
                except TableError:
                    return True
            if clocked:
                s = t.seats[seat]
                timeouts = s.stored.timeouts + 1
                if s.backed:  # took the seat back, then let the clock run out: it is over
                    timeouts = max(timeouts, CLOCK_OUTS)
                    s.back_spent, s.backed = len(t.game.rounds), False
                out = dataclasses.replace(s.stored, timeouts=timeouts)
                try:
                    await t.store.save_seat(t.id, seat, out)
                    s.stored = out
                except Exception:  # the move is kept; only the count of time-outs is not
                    log.exception("could not store a time-out at table %s", t.id)
            t.broadcast(events=events)
            await t.finish_if_over()
        return False
