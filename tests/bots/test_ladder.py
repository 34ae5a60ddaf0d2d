"""The ladder of levels: every level people can seat is on it, with a name in every
language, and the shipped calibration rates it in the ladder's order."""

from __future__ import annotations

from itertools import pairwise

import pytest

from domeng.bots import player_names
from domeng.bots.levels import LADDER, LEVELS, ladder_key
from domeng.history.calibration import load
from domeng.i18n.catalog import LANGUAGES, catalog


def test_every_level_people_can_seat_is_on_the_ladder() -> None:
    assert set(LADDER) == set(player_names(for_people=True))
    with pytest.raises(ValueError):
        ladder_key("oracle")


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_step_has_a_name_in_every_language(code: str) -> None:
    words = catalog(code)
    names = [words[ladder_key(n)] for n in LADDER]
    assert all(isinstance(x, str) and x for x in names)
    assert len(set(names)) == len(names)  # five different names


def test_the_shipped_calibration_rates_the_ladder_in_order() -> None:
    shipped = load()
    rated = [shipped[n].mu for n in LADDER if n in shipped]
    assert len(rated) >= 4
    assert rated == sorted(rated)


def test_the_ladder_climbs_by_the_levels_thinking_budgets() -> None:
    """Above ``basic`` the ladder's levels are the searching ones, in the order of their
    budgets (docs/bots.md, "The ladder": what no paired trial has shown, the order of
    the budgets holds): each has more play-outs than the one below it, and no shorter a
    time to think."""
    searching = [LEVELS[n] for n in LADDER if n in LEVELS]
    assert [lv.name for lv in searching] == list(LADDER[2:])
    for lower, higher in pairwise(searching):
        assert higher.playouts > lower.playouts
        assert higher.max_seconds >= lower.max_seconds
