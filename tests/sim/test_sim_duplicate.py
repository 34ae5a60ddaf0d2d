"""``domeng sim --duplicate-tables`` (domeng.sim.duplicate): who sits where, the three
scores over the same deals, and the command line's figures and refusals."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from domeng.cli import main
from domeng.commands.duplicate import MAX_TABLES
from domeng.sim.duplicate import Interval, Narrowing, measure, seating

FIELD = ["random", "random", "random", "random"]
PLAYERS = "basic,random,random,random,random"


def sim(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(
        main, ["sim", "--players", "basic,random,random,random,random", *args]
    )
    return result.exit_code, result.output


def test_the_player_sits_at_the_first_table_and_the_field_round_them_in_order() -> None:
    field = ["a", "b", "c", "d"]
    assert seating("P", field, 0, 0) == ["P", "a", "b", "c", "d"]
    assert seating("P", field, 3, 0) == ["b", "c", "d", "P", "a"]
    assert seating("P", field, 3, 1) == ["b", "c", "d", "a", "a"]  # the field's first in
    assert seating("P", field, 3, 4) == seating("P", field, 3, 1)  # every other table alike


def test_one_level_for_the_field_is_that_level_four_times() -> None:
    once = measure(20, 2, "basic", "random", 3)
    assert once == measure(20, 2, "basic", FIELD, 3)
    assert once != measure(20, 2, "basic", FIELD, 4)  # another seed, other deals


@pytest.mark.parametrize(
    ("deals", "tables", "field"), [(20, 1, FIELD), (1, 2, FIELD), (20, 2, FIELD[:3])]
)
def test_what_cannot_be_measured_is_refused(deals: int, tables: int, field: list[str]) -> None:
    with pytest.raises(ValueError):
        measure(deals, tables, "basic", field, 1)


def test_the_ratio_and_the_plain_deals_for_the_same_width() -> None:
    n = Narrowing(Interval(-1.0, 0.3), Interval(0.1, 0.2), Interval(0.0, 0.1))
    assert n.ratio == 0.5  # duplicate's half-width over that against the field
    assert n.plain_deals(100) == 400  # plain scoring needs 1/ratio² as many deals


def test_the_command_prints_the_figures_measure_gives() -> None:
    code, out = sim("--rounds", "10", "--seed", "5", "--duplicate-tables", "2,3", "--json")
    assert code == 0, out
    doc = json.loads(out)
    assert doc["player"] == "basic" and doc["field"] == FIELD and doc["deals"] == 10
    assert [row["tables"] for row in doc["tables"]] == [2, 3]
    for row in doc["tables"]:
        n = measure(10, row["tables"], "basic", FIELD, 5)
        assert row["duplicate"] == n.duplicate._asdict()
        assert row["against_field"] == n.field._asdict()
        assert row["plain"] == n.plain._asdict()
        assert row["ratio"] == n.ratio and row["plain_deals"] == n.plain_deals(10)


def test_the_command_prints_a_row_a_table_count_in_the_language() -> None:
    result = CliRunner().invoke(
        main,
        ["--lang", "id", "sim", "--players", PLAYERS, "--rounds", "10",
         "--duplicate-tables", "2,4"],
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert "duplikat / pembanding" in result.output and "10 pembagian" in result.output
    rows = [line for line in result.output.splitlines() if line.startswith("│")]
    assert [r.split("│")[1].strip() for r in rows] == ["2", "4"]


@pytest.mark.parametrize("value", ["1", "0", str(MAX_TABLES + 1), "2,x", "", "2,,3"])
def test_a_wrong_table_count_is_refused(value: str) -> None:
    code, out = sim("--rounds", "10", "--duplicate-tables", value)
    assert code == 2 and "--duplicate-tables" in out, out


def test_the_largest_table_count_is_taken() -> None:
    from domeng.commands.sim import _parse_tables

    assert _parse_tables(f"2,{MAX_TABLES}") == [2, MAX_TABLES]


@pytest.mark.parametrize(
    "option",
    [
        ["--record", "somewhere"],
        ["--calibrate", "ratings.json"],
        ["--workers", "2"],
        ["--rounds-per-game", "20"],
    ],
)
def test_it_measures_alone(option: list[str]) -> None:
    code, out = sim("--rounds", "10", "--duplicate-tables", "2", *option)
    assert code == 2 and option[0] in out, out
