"""The tournament's scoring on hand-worked examples (docs/tournaments.md)."""

from __future__ import annotations

from fractions import Fraction

from domeng.tournament.scoring import (
    DealPlayed,
    Line,
    TableGame,
    deal_scores,
    duplicate_lines,
    games_lines,
    ranked,
    table_points,
)

Z = (0, 0, 0, 0, 0)


def _deal(
    table: int,
    received: tuple[int, ...],
    *,
    deal: int = 1,
    rnd: int = 1,
    won: tuple[int, ...] = (1, 0, 0, 0, 0),
    passebunge: tuple[int, ...] = Z,
) -> DealPlayed:
    return DealPlayed(
        rnd, deal, table, tuple(f"{table}{s}" for s in "abcde"), received, won, passebunge
    )


def test_two_tables_each_seat_against_the_other_table() -> None:
    # seat 2 received 3 STONES at table 1, 1 at table 2: -2 and +2
    scores = deal_scores([_deal(1, (0, 1, 3, 0, 0)), _deal(2, (2, 1, 1, 0, 0))])
    assert scores[(1, 1, 1, 2)] == -2
    assert scores[(1, 1, 2, 2)] == 2
    assert scores[(1, 1, 1, 0)] == 2  # 2 - 0
    assert scores[(1, 1, 2, 0)] == -2
    assert scores[(1, 1, 1, 1)] == scores[(1, 1, 2, 1)] == 0


def test_the_mean_of_three_other_tables() -> None:
    # seat 0: 5, 1, 0, 2 STONES at four tables
    plays = [_deal(t + 1, (got, 0, 0, 0, 0)) for t, got in enumerate((5, 1, 0, 2))]
    scores = deal_scores(plays)
    assert scores[(1, 1, 1, 0)] == Fraction(3, 3) - 5  # (1 + 0 + 2) / 3 - 5 = -4
    assert scores[(1, 1, 2, 0)] == Fraction(7, 3) - 1
    assert scores[(1, 1, 3, 0)] == Fraction(8, 3)
    assert scores[(1, 1, 4, 0)] == Fraction(6, 3) - 2
    # a hand's scores over the tables sum to zero: the field is the measure
    assert sum(scores[(1, 1, t, 0)] for t in (1, 2, 3, 4)) == 0


def test_only_the_same_deal_and_seat_are_compared() -> None:
    plays = [
        _deal(1, (4, 0, 0, 0, 0), deal=1),
        _deal(2, (0, 4, 0, 0, 0), deal=1),
        _deal(1, (9, 0, 0, 0, 0), deal=2),
        _deal(2, (1, 0, 0, 0, 0), deal=2),
        _deal(1, (7, 0, 0, 0, 0), deal=1, rnd=2),
        _deal(2, (7, 0, 0, 0, 0), deal=1, rnd=2),
    ]
    scores = deal_scores(plays)
    assert scores[(1, 1, 1, 0)] == -4 and scores[(1, 1, 1, 1)] == 4
    assert scores[(1, 2, 1, 0)] == -8 and scores[(1, 2, 2, 0)] == 8
    assert scores[(2, 1, 1, 0)] == 0


def test_one_table_is_plain_play() -> None:
    scores = deal_scores([_deal(1, (0, 2, 5, 1, 0))])
    assert [scores[(1, 1, 1, s)] for s in range(5)] == [0, -2, -5, -1, 0]


def test_a_tournament_score_is_the_sum_over_the_deals() -> None:
    plays = [
        _deal(1, (1, 0, 0, 0, 0), deal=1, won=(0, 1, 0, 0, 0), passebunge=(1, 0, 0, 0, 0)),
        _deal(2, (3, 0, 0, 0, 0), deal=1),
        _deal(1, (0, 0, 0, 0, 0), deal=2),
        _deal(2, (2, 0, 0, 0, 0), deal=2, passebunge=(2, 0, 0, 0, 0)),
    ]
    lines = duplicate_lines(plays)
    assert lines["1a"].score == 2 + 2 and lines["2a"].score == -2 - 2
    assert (lines["1a"].won, lines["1a"].passebunge, lines["1a"].deals) == (1, 1, 2)
    assert (lines["2a"].won, lines["2a"].passebunge) == (2, 2)
    assert lines["1b"].won == 1
    assert lines["1a"].deal_scores == [2, 2]


def test_ties_go_to_rounds_won_then_fewest_passebunge() -> None:
    a = Line("a", Fraction(3), won=2, passebunge=5)
    b = Line("b", Fraction(3), won=3, passebunge=9)
    c = Line("c", Fraction(3), won=2, passebunge=1)
    d = Line("d", Fraction(4), won=0, passebunge=9)
    e = Line("e", Fraction(3), won=2, passebunge=1)
    order = ranked([a, b, c, d, e], {"a", "b", "c", "d", "e"})
    assert [(x.key, x.place) for x in order] == [
        ("d", 1), ("b", 2), ("c", 3), ("e", 3), ("a", 5)
    ]  # fmt: skip


def test_a_computer_filling_a_table_is_shown_not_ranked() -> None:
    fill = Line("fill", Fraction(10))
    me = Line("me", Fraction(-1))
    order = ranked([fill, me], {"me"})
    assert [(x.key, x.place) for x in order] == [("me", 1), ("fill", None)]


def test_table_points_four_to_nothing_equal_places_share() -> None:
    assert table_points((0,) * 5, (5, 1, 2, 3, 4), (5, 1, 2, 3, 4)) == (0, 4, 3, 2, 1)
    # seats 0 and 2 equal: below them seat 4 only, so 1 + 1/2 each
    half = Fraction(3, 2)
    assert table_points((0, 2, 0, 1, 0), (0,) * 5, (3, 3, 3, 3, 9)) == (half, 4, half, 3, 0)
    assert table_points((0,) * 5, (1,) * 5, (1,) * 5) == (2,) * 5
    assert sum(table_points((1, 0, 0, 0, 0), (0, 3, 3, 9, 1), (0, 3, 3, 9, 1))) == 10


def test_table_points_fewer_stones_held_before_fewer_received() -> None:
    # nobody CAMAT: seat 0 holds the fewest STONES, though it received the most
    assert table_points(Z, (0, 1, 2, 3, 4), (9, 0, 1, 2, 3)) == (4, 3, 2, 1, 0)
    # STONES held equal: the fewer received place first
    assert table_points(Z, (2,) * 5, (4, 3, 2, 1, 0)) == (0, 1, 2, 3, 4)


def test_games_lines_sum_the_points_over_the_rounds() -> None:
    keys = ("a", "b", "c", "d", "e")
    g1 = TableGame(1, 1, keys, (1, 0, 0, 0, 0), (0, 2, 3, 4, 5), Z, (3, 1, 0, 0, 0), Z)
    g2 = TableGame(2, 1, keys[::-1], Z, (0, 2, 3, 4, 5), Z, Z, (0, 0, 0, 0, 1))
    lines = games_lines([g1, g2])
    assert lines["a"].score == 4 + 0 and lines["e"].score == 0 + 4
    assert lines["c"].score == 2 + 2
    assert lines["a"].won == 3 and lines["a"].passebunge == 1


def test_equal_lines_are_listed_by_their_keys_whatever_order_they_come_in() -> None:
    lines = [Line(k, Fraction(1), won=1, passebunge=2) for k in ("c", "a", "b")]
    order = ranked(lines, {"a", "b", "c"})
    assert [(x.key, x.place) for x in order] == [("a", 1), ("b", 1), ("c", 1)]
    others = ranked([Line("y", Fraction(0)), Line("x", Fraction(0))], set())
    assert [x.key for x in others] == ["x", "y"]  # the unranked too


def test_a_games_line_counts_one_deal_a_table_game() -> None:
    keys = ("a", "b", "c", "d", "e")
    games = [TableGame(r, 1, keys, Z, (0, 1, 2, 3, 4), Z, Z, Z) for r in (1, 2, 3)]
    lines = games_lines(games)
    assert [lines[k].deals for k in keys] == [3] * 5
    assert lines["a"].deal_scores == [4, 4, 4] and lines["e"].deal_scores == [0, 0, 0]
