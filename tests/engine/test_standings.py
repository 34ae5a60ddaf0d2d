"""A game's standings (docs/rules.md, "The end of a game"): most CAMAT titles, then the
fewest stones held, then the fewest received over the game; players equal on all three
share a rank (and the next rank is skipped). Built from the hand-checked examples."""

from __future__ import annotations

from pathlib import Path

from domeng.engine import Game
from domeng.engine.record import load_record
from domeng.engine.standings import Standing, standings

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _game(name: str) -> Game:
    game, _ = load_record(EXAMPLES / f"{name}.json")
    return game


def _ranks(table: list[Standing]) -> list[tuple[int, int]]:
    return [(s.seat, s.rank) for s in table]


def test_two_players_equal_on_all_three_share_a_rank() -> None:
    # 05: Andi blocks with 12 pips, Daeng (9) is MATTIKKENG and wins; Andi gets 5.
    # Stones after it: Andi 6, Besse 1, Cicci 2, Daeng 1, Emba 2; every stone came from
    # the table, so each received what they hold. Besse and Daeng share first place,
    # Cicci and Emba third (no second, no fourth), Andi is fifth.
    table = standings(_game("05-mattikkeng-one"))
    assert _ranks(table) == [(1, 1), (3, 1), (2, 3), (4, 3), (0, 5)]
    besse, daeng = table[0], table[1]
    assert (besse.titles, besse.stones, besse.received) == (0, 1, 1)
    assert (daeng.titles, daeng.stones, daeng.received) == (0, 1, 1)
    # Beside the ranking, not in it: Daeng won the round as MATTIKKENG, Andi was MANGUNO.
    assert (daeng.rounds_won, daeng.mattikkeng, besse.rounds_won) == (1, 1, 0)
    andi = table[-1]
    assert (andi.stones, andi.received, andi.manguno, andi.rounds_won) == (6, 6, 1, 0)


def test_three_players_sharing_first_place() -> None:
    # 04: stones 2, 1, 1, 1, 3: Besse, Cicci and Daeng each received 1 (a PASS each).
    table = standings(_game("04-manguno"))
    assert _ranks(table) == [(1, 1), (2, 1), (3, 1), (0, 4), (4, 5)]
    assert table[0].manguno == 1 and table[0].rounds_won == 1


def test_titles_come_before_stones() -> None:
    # 10: Emba, the CAMAT, holds 4 stones, more than Besse and Daeng (2), yet ranks first.
    table = standings(_game("10-camat"))
    assert table[0].seat == 4 and table[0].rank == 1
    assert (table[0].titles, table[0].stones) == (1, 4)
    assert min(s.stones for s in table[1:]) < table[0].stones
    assert table[0].ceki == 1  # her CEKI made her CAMAT


def test_equal_titles_and_stones_are_decided_by_stones_received() -> None:
    # 10: Besse and Daeng hold 2 stones each; Daeng received 9 over the game, Besse 12
    # (the stones of rounds 1-2 went back to the table at the election, yet count).
    table = standings(_game("10-camat"))
    by_seat = {s.seat: s for s in table}
    assert (by_seat[1].stones, by_seat[1].received) == (2, 12)
    assert (by_seat[3].stones, by_seat[3].received) == (2, 9)
    assert (by_seat[3].rank, by_seat[1].rank) == (2, 3)
    assert _ranks(table) == [(4, 1), (3, 2), (1, 3), (2, 4), (0, 5)]


def test_stones_held_come_before_stones_received() -> None:
    # 08: Daeng holds 1 stone but received 11; Besse holds 2 and received 6.
    table = standings(_game("08-table-runs-out"))
    by_seat = {s.seat: s for s in table}
    assert (by_seat[3].stones, by_seat[3].received) == (1, 11)
    assert (by_seat[1].stones, by_seat[1].received) == (2, 6)
    assert by_seat[3].rank == 1 and by_seat[1].rank == 2


def test_a_game_not_begun_has_everyone_first() -> None:
    assert _ranks(standings(Game())) == [(s, 1) for s in range(5)]
