"""Seating: five to a table, the empty places at the last table, and reseating that
meets as many different opponents as possible."""

from __future__ import annotations

import pytest

from domeng.tournament.seating import add_meetings, meetings, repeats, seat, tables_for


def _keys(n: int) -> list[str]:
    return [f"p{i:02d}" for i in range(n)]


@pytest.mark.parametrize(("n", "tables", "empty"), [(5, 1, 0), (10, 2, 0), (12, 3, 3), (16, 4, 4)])
def test_five_to_a_table_the_empty_places_at_the_last(n: int, tables: int, empty: int) -> None:
    out = seat(_keys(n), {}, 1)
    assert len(out) == tables == tables_for(n)
    assert all(len(t) == 5 for t in out)
    assert all(None not in t for t in out[:-1])
    assert out[-1].count(None) == empty
    seated = [k for t in out for k in t if k is not None]
    assert sorted(seated) == _keys(n)


def test_no_entrant_is_refused() -> None:
    with pytest.raises(ValueError):
        tables_for(0)
    with pytest.raises(ValueError):
        seat(["a", "a"], {}, 1)


def test_fifteen_over_three_rounds_nobody_meets_more_often_than_needed() -> None:
    keys = _keys(15)
    met: dict[frozenset[str], int] = {}
    first = seat(keys, met, 1)
    add_meetings(met, first)
    second = seat(keys, met, 2)
    # three tables of five from three tables of five: at best each new table holds
    # people from three old tables (2 + 2 + 1), two repeated pairs a table
    assert repeats(second, met) == 6
    add_meetings(met, second)
    third = seat(keys, met, 3)
    assert repeats(third, met) < repeats(first, met)
    _no_swap_helps(third, met)
    for table in second:
        assert sum(1 for old in first if len(set(table) & set(old)) > 2) == 0


def _no_swap_helps(tables: list[list[str | None]], met: dict[frozenset[str], int]) -> None:
    """No two entrants at different tables would meet fewer old opponents by changing."""
    now = repeats(tables, met)
    for a in range(len(tables)):
        for b in range(a + 1, len(tables)):
            for i in range(5):
                for j in range(5):
                    if tables[a][i] is None or tables[b][j] is None:
                        continue  # the empty places stay at the last table
                    other = [list(t) for t in tables]
                    other[a][i], other[b][j] = other[b][j], other[a][i]
                    assert repeats(other, met) >= now


def test_reseating_beats_keeping_the_tables() -> None:
    keys = _keys(20)
    met = meetings(seat(keys, {}, 1))
    again = seat(keys, met, 2)
    assert repeats(again, met) < repeats(seat(keys, {}, 2), met)
    # five from four old tables: 2 + 1 + 1 + 1, one repeated pair a table, the least
    assert repeats(again, met) == 4


def test_seat_numbers_turn_with_the_round() -> None:
    keys = _keys(5)
    assert seat(keys, {}, 1)[0] == keys
    turned = seat(keys, meetings([keys]), 2)[0]
    assert sorted(k for k in turned if k) == keys
    assert [turned.index(k) for k in keys] != list(range(5))


def test_a_late_arrival_and_a_withdrawal_change_the_tables() -> None:
    keys = _keys(10)
    met = meetings(seat(keys, {}, 1))
    fewer = seat(keys[1:], met, 2)
    assert len(fewer) == 2 and fewer[-1].count(None) == 1
    more = seat([*keys, "late"], met, 2)
    assert len(more) == 3 and "late" in [k for t in more for k in t]


@pytest.mark.parametrize("n", [12, 15, 20])
def test_five_rounds_no_swap_would_meet_fewer_old_opponents(n: int) -> None:
    keys = _keys(n)
    met: dict[frozenset[str], int] = {}
    for number in range(1, 6):
        tables = seat(keys, met, number)
        _no_swap_helps(tables, met)
        add_meetings(met, tables)


@pytest.mark.parametrize("n", [7, 10, 12, 15, 20, 23])
def test_every_round_seats_every_entrant_exactly_once(n: int) -> None:
    """The swaps move entrants between tables; none is lost or seated twice."""
    keys = _keys(n)
    met: dict[frozenset[str], int] = {}
    for number in range(1, 9):
        tables = seat(keys, met, number)
        seated = [k for t in tables for k in t if k is not None]
        assert sorted(seated) == keys, number
        add_meetings(met, tables)


def test_the_greedy_step_as_worked_by_hand() -> None:
    """``a`` has met ``e`` and ``g``: ``a`` goes first (the most met), ``e`` and ``g`` to
    the other table (they met ``a``), the others each to the emptier table (the first
    when equal), in the order entered; no swap lowers the repeats (there are none), so
    nobody is moved, and round 2 turns each table by one seat."""
    met = {frozenset("ae"): 1, frozenset("ag"): 1}
    greedy = [["a", "b", "c", "f", "i"], ["e", "g", "d", "h", "j"]]
    assert seat(list("abcdefghij"), met, 2) == [t[-1:] + t[:-1] for t in greedy]


def test_twenty_five_over_three_rounds_nobody_meets_anyone_twice() -> None:
    """Five tables of five can be made three times over with no pair meeting again; the
    swaps find it when the greedy step alone does not."""
    keys = _keys(25)
    met: dict[frozenset[str], int] = {}
    for number in range(1, 4):
        tables = seat(keys, met, number)
        assert repeats(tables, met) == 0, number
        add_meetings(met, tables)


def test_at_the_last_table_the_computers_take_the_last_seats_every_round() -> None:
    keys = _keys(12)
    met: dict[frozenset[str], int] = {}
    for number in range(1, 6):
        tables = seat(keys, met, number)
        assert [k is None for k in tables[-1]] == [False, False, True, True, True], number
        add_meetings(met, tables)


def test_meetings_add_up_over_the_rounds() -> None:
    """A pair seated together in two rounds has met twice (and counts twice in the
    repeats); empty places meet nobody."""
    met: dict[frozenset[str], int] = {}
    add_meetings(met, [["a", "b", None], ["c", "d"]])
    add_meetings(met, [["a", "b", "c"]])
    assert met == {frozenset("ab"): 2, frozenset("cd"): 1, frozenset("ac"): 1, frozenset("bc"): 1}
    assert repeats([["a", "b"]], met) == 2
