"""A seat's name as a record keeps it: ``"Besse (basic)"`` is the computer player Besse
at level basic; anything else is a person's whole name. And when two names are one."""

from __future__ import annotations

import pytest

from domeng.engine.seatname import name_key, seat_name, split_name


@pytest.mark.parametrize("level", ["random", "basic", "expert:fast", "expert:strong"])
def test_a_computer_s_seat_name_reads_back_as_its_name_and_level(level: str) -> None:
    assert split_name(seat_name("Besse", level)) == ("Besse", level)
    assert split_name(seat_name("Daeng Rani", level)) == ("Daeng Rani", level)
    assert seat_name("Andi", None) == "Andi"


def test_the_spaces_before_the_level_are_not_part_of_the_name() -> None:
    assert split_name("Besse  (basic)") == ("Besse", "basic")
    assert split_name("Besse\t(basic)") == ("Besse", "basic")
    # a level alone, without a name before it, is no computer's seat name
    assert split_name(" (basic)") == (" (basic)", None)


@pytest.mark.parametrize("text", ["Besse (basic) Andi", "Besse (basic).", "Andi (Daeng) Rani"])
def test_brackets_not_at_the_end_are_part_of_a_person_s_name(text: str) -> None:
    assert split_name(text) == (text, None)


@pytest.mark.parametrize("other", ["Daeng  Rani", " daeng \t rani ", "DAENG\u3000RANI"])
def test_a_run_of_spaces_inside_a_name_is_one_space(other: str) -> None:
    assert name_key(other) == name_key("Daeng Rani") == "daeng rani"
    assert name_key(other) != name_key("DaengRani")
