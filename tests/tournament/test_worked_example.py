"""The worked example of docs/tournaments.md, as the scoring works it out (the page's
numbers are checked here, so the page and the code cannot drift apart)."""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path

from domeng.tournament.scoring import DealPlayed, duplicate_lines, ranked

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournaments.md"
T1 = ("Andi", "Besse", "Cicci", "Daeng", "Emba")
T2 = ("Fajar", "Gita", "Hasan", "Intan", "Joko")
PLAYS = [
    DealPlayed(1, 1, 1, T1, (0, 2, 1, 0, 3), (1, 0, 0, 0, 0), (0, 0, 0, 1, 0)),
    DealPlayed(1, 1, 2, T2, (1, 0, 1, 2, 0), (0, 1, 0, 0, 0), (0, 0, 0, 0, 0)),
    DealPlayed(1, 2, 1, T1, (2, 0, 0, 1, 0), (0, 1, 0, 0, 0), (0, 0, 0, 0, 0)),
    DealPlayed(1, 2, 2, T2, (0, 0, 3, 1, 1), (1, 0, 0, 0, 0), (0, 0, 1, 0, 0)),
]
STANDINGS = [
    (1, "Cicci", 3), (2, "Gita", 2), (3, "Joko", 2), (4, "Daeng", 2), (5, "Fajar", 1),
    (6, "Andi", -1), (7, "Besse", -2), (8, "Emba", -2), (8, "Intan", -2), (10, "Hasan", -3),
]  # fmt: skip


def test_the_worked_example_s_standings() -> None:
    lines = ranked(duplicate_lines(PLAYS).values(), set(T1 + T2))
    assert [(x.place, x.key, x.score) for x in lines] == [
        (p, k, Fraction(s)) for p, k, s in STANDINGS
    ]


def test_the_page_shows_the_same_standings() -> None:
    table = DOC.read_text(encoding="utf-8").split("<!-- standings -->")[1]
    rows = re.findall(r"^\| (\d+) \| (\w+) \| ([−+-]?\d+) \|", table, re.M)
    shown = [(int(p), k, int(s.replace("−", "-").replace("+", ""))) for p, k, s in rows]
    assert shown == STANDINGS
