"""The standings' :class:`Tally`: a copy is a tally of its own, each figure goes to its
own column, and the order is titles, then stones held, then stones received (a shared
rank where all three are equal, the next rank skipped)."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domeng.engine import Game, RoundEnded, StonesMoved
from domeng.engine.events import Finish, Reason, RoundEnd
from domeng.engine.standings import Tally

COLUMNS = ("received", "won", "ceki", "pollo", "manguno", "mattikkeng")


def _ended(winner: int, **fields: object) -> RoundEnded:
    hands = (0,) * 5
    base = RoundEnded(
        RoundEnd.CAPPU, winner, winner, Finish.PLAIN, None, (), None, hands, 0, (0,) * 5
    )
    return base._replace(**fields)


def _some_tally() -> Tally:
    t = Tally()
    t.add_events(
        [
            StonesMoved(None, 2, 3, Reason.PASS),
            _ended(1, finish=Finish.CEKI, manguno=4, mattikkeng=(0,)),
        ]
    )
    t.rounds = 1
    return t


@pytest.mark.parametrize("column", COLUMNS)
def test_a_copy_shares_no_list_with_its_tally(column: str) -> None:
    t = _some_tally()
    before = t.figures()
    c = t.copy()
    assert c.figures() == before and c.rounds == t.rounds == 1
    getattr(c, column)[3] += 7  # the copy goes on ...
    c.rounds += 1
    assert t.figures() == before and t.rounds == 1  # ... its tally does not
    getattr(t, column)[0] += 1
    assert getattr(c, column)[0] == getattr(_some_tally(), column)[0]


def test_a_copy_is_equal_in_every_field() -> None:
    t = _some_tally()
    assert dataclasses.asdict(t.copy()) == dataclasses.asdict(t)


def test_each_finish_goes_to_its_own_column() -> None:
    t = Tally()
    t.add_events([_ended(0, finish=Finish.POLLO)])
    assert (t.pollo[0], t.ceki[0], t.won[0]) == (1, 0, 1)
    t.add_events([_ended(1, finish=Finish.CEKI)])
    assert (t.ceki[1], t.pollo[1]) == (1, 0)
    t.add_events([_ended(2, finish=Finish.PLAIN)])
    assert (t.ceki[2], t.pollo[2], t.won[2]) == (0, 0, 1)
    # a blocked line: no FIRST CAPPU, so neither CEKI nor POLLO whatever the finish says
    t.add_events([_ended(3, first_cappu=None, finish=Finish.CEKI, manguno=4, mattikkeng=(3, 0))])
    assert (t.ceki[3], t.manguno[4], t.mattikkeng[3], t.mattikkeng[0]) == (0, 1, 1, 1)
    assert t.rounds == 0  # events alone count no round


def test_stones_received_are_summed_per_receiver() -> None:
    t = Tally()
    t.add_events([StonesMoved(None, 2, 3, Reason.PASS), StonesMoved(1, 2, 5, Reason.MATTIKKENG)])
    t.add_events([StonesMoved(2, 4, 1, Reason.FIRST_CAPPU)])
    assert t.received == [0, 0, 8, 0, 1]


def test_the_order_is_titles_then_stones_held_then_received() -> None:
    t = Tally()
    t.received[:] = [9, 1, 5, 5, 0]
    titles = [0, 0, 0, 0, 1]
    stones = [2, 3, 2, 2, 9]
    ranked = t.ranked(titles, stones)
    # seat 4: a title, whatever it holds; seats 0, 2, 3 hold 2 (seat 0 received most);
    # seat 1 holds 3, though it received least
    assert [(s.seat, s.rank) for s in ranked] == [(4, 1), (2, 2), (3, 2), (0, 4), (1, 5)]
    assert [(s.titles, s.stones, s.received) for s in ranked][:2] == [(1, 9, 0), (0, 2, 5)]


def test_equal_on_all_three_share_a_rank_and_the_next_is_skipped() -> None:
    t = Tally()
    ranked = t.ranked([0] * 5, [1, 1, 1, 0, 2])
    assert [(s.seat, s.rank) for s in ranked] == [(3, 1), (0, 2), (1, 2), (2, 2), (4, 5)]
    assert {s.rank for s in Tally().ranked([0] * 5, [0] * 5)} == {1}


def test_each_round_added_counts_once() -> None:
    g = Game()
    first = g.deal(random.Random(3))
    t = Tally()
    t.add(first)
    assert t.rounds == 1
    t.add(first)
    assert t.rounds == 2


def test_a_standings_json_names_each_figure_by_its_own_name() -> None:
    t = Tally(
        received=[1, 0, 0, 0, 0],
        won=[2, 0, 0, 0, 0],
        ceki=[3, 0, 0, 0, 0],
        pollo=[4, 0, 0, 0, 0],
        manguno=[5, 0, 0, 0, 0],
        mattikkeng=[6, 0, 0, 0, 0],
    )
    (first,) = [s for s in t.ranked([7, 0, 0, 0, 0], [8, 0, 0, 0, 0]) if s.seat == 0]
    assert first.json() == {
        "seat": 0,
        "rank": 1,
        "titles": 7,
        "stones": 8,
        "received": 1,
        "rounds_won": 2,
        "ceki": 3,
        "pollo": 4,
        "manguno": 5,
        "mattikkeng": 6,
    }
