"""The coach's tally of one play-out (domeng.bots.coach): every reason stones move for
goes to its cause (a PASS or PASSEBUNGE: "pass"; being the CUCUQ of a FIRST CAPPU, CEKI,
POLLO or of a MANGUNO without MATTIKKENG: "cucuq"; being the MANGUNO when a MATTIKKENG
had fewer pips: "manguno"), only what the seat gives counts as given, a PASS counts for
the next play alone, and the CAMAT chance is the seat's own."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

import pytest

from domeng.bots.coach import CAUSES, _Tally, hindsight
from domeng.bots.expert import Level
from domeng.bots.rollout import DEFAULT_OBJECTIVE
from domeng.engine import Game, Move, Passed, StonesMoved
from domeng.engine.events import Event, Reason
from domeng.engine.moves import End

SEAT = 2

CAUSE_OF = {
    Reason.PASS: "pass",
    Reason.PASSEBUNGE: "pass",
    Reason.FIRST_CAPPU: "cucuq",
    Reason.CEKI: "cucuq",
    Reason.POLLO: "cucuq",
    Reason.MANGUNO: "cucuq",
    Reason.MATTIKKENG: "manguno",
}
"""docs/bots.md and the coach's reasons: why the seat received stones."""


@dataclass
class PlayedOut:
    """What the tally reads of a played-out round."""

    events: list[Event]
    camat_elected: bool = False
    camat: int | None = None
    hands: list[int] = field(default_factory=lambda: [0] * 5)


def _tally(r: PlayedOut, *, since: int = 0, after: int = 0) -> _Tally:
    t = _Tally()
    t.add(r, SEAT, since, after, 1.0, DEFAULT_OBJECTIVE)  # type: ignore[arg-type]
    return t


def test_every_reason_has_a_cause() -> None:
    assert set(CAUSE_OF) == set(Reason)
    assert set(CAUSE_OF.values()) == set(CAUSES)


@pytest.mark.parametrize("reason", list(Reason))
def test_stones_received_go_to_the_cause_of_their_reason(reason: Reason) -> None:
    giver = None if reason in (Reason.PASS, Reason.PASSEBUNGE) else 0
    t = _tally(PlayedOut([StonesMoved(giver, SEAT, 3, reason)]))
    expected = dict.fromkeys(CAUSES, 0.0)
    expected[CAUSE_OF[reason]] = 3.0
    assert t.causes == expected
    assert t.given == 0.0


def test_only_the_stones_the_seat_gives_count_as_given() -> None:
    events: list[Event] = [
        StonesMoved(SEAT, 4, 5, Reason.MATTIKKENG),
        StonesMoved(1, 4, 1, Reason.FIRST_CAPPU),  # between two others
        StonesMoved(None, 3, 1, Reason.PASS),  # from the table to another
    ]
    t = _tally(PlayedOut(events))
    assert t.given == 5.0
    assert sum(t.causes.values()) == 0.0


def test_a_pass_counts_before_the_next_play_only_and_events_before_since_not_at_all() -> None:
    events: list[Event] = [
        StonesMoved(None, SEAT, 2, Reason.PASSEBUNGE),  # before the move: not counted
        Passed(3, False, 1, 6, 5),  # index 1: straight after the move
        Passed(4, False, 1, 6, 5),  # index 2: after the next play
    ]
    t = _tally(PlayedOut(events), since=1, after=2)
    assert t.passes == [0.0, 0.0, 0.0, 1.0, 0.0]
    assert t.causes["pass"] == 0.0


@pytest.mark.parametrize(("camat", "mine", "other"), [(SEAT, 1.0, 0.0), (0, 0.0, 1.0)])
def test_the_camat_chance_is_the_seats_own(camat: int, mine: float, other: float) -> None:
    t = _tally(PlayedOut([], camat_elected=True, camat=camat))
    assert (t.camat, t.other) == (mine, other)
    nobody = _tally(PlayedOut([]))
    assert (nobody.camat, nobody.other) == (0.0, 0.0)


def test_the_result_divides_by_the_weight() -> None:
    t = _Tally()
    r = PlayedOut([StonesMoved(0, SEAT, 1, Reason.MANGUNO)])
    t.add(r, SEAT, 0, 0, 3.0, DEFAULT_OBJECTIVE)  # type: ignore[arg-type]
    t.add(PlayedOut([]), SEAT, 0, 0, 1.0, DEFAULT_OBJECTIVE)  # type: ignore[arg-type]
    mv = t.result(Move(0, End.RIGHT), t)
    assert mv.received["cucuq"] == pytest.approx(0.75) and mv.playouts == 2


def test_hindsight_needs_a_seat_in_turn() -> None:
    r = Game().deal(random.Random(2))
    rng = random.Random(0)
    while not r.finished:
        r.play(rng.choice(r.legal_moves()))
    with pytest.raises(ValueError, match="the round is over"):
        hindsight(r, LEVEL)


LEVEL = Level("coach:causes", 5, 30.0)
"""A few play-outs: only the refusals are looked at here."""


def _valued(values: list[tuple[float, float]]) -> _Tally:
    """A tally holding the (weight, value) of each guess."""
    t = _Tally()
    t.values = values
    t.mass = sum(w for w, _ in values)
    return t


def test_the_gap_s_error_is_paired_over_the_same_guesses() -> None:
    """A move is played out in the same guesses as the best, so the standard error of its
    gap to the best is that of the differences guess by guess: a move 1 stone worse in every
    guess has its gap known exactly (0), however much the values themselves vary."""
    best = _valued([(1.0, 0.0), (2.0, -3.0), (1.0, -1.0), (1.0, 2.0)])
    worse = _valued([(w, x - 1.0) for w, x in best.values])
    mv = worse.result(Move(0, End.RIGHT), best)
    assert mv.value == pytest.approx(best.mean() - 1.0)
    assert mv.error > 0.5 and mv.gap_error == pytest.approx(0.0)
    # differences of 1, 0, 2 and 1 (weights 1, 2, 1, 1): their weighted mean 0.8, and
    # the standard error of that mean
    other = _valued([(1.0, -1.0), (2.0, -3.0), (1.0, -3.0), (1.0, 1.0)])
    gap = other.result(Move(0, End.RIGHT), best)
    spread = sum((w * (d - 0.8)) ** 2 for w, d in [(1, 1), (2, 0), (1, 2), (1, 1)])
    assert gap.gap_error == pytest.approx(spread**0.5 / 5.0)
