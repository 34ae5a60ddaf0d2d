"""A tournament's plan: each round's deals from its seed, and its limits (as
docs/protocol.md gives them)."""

from __future__ import annotations

from typing import Any

import pytest

from domeng.server.bodies import read_body
from domeng.server.tables import TableError
from domeng.server.tournament_bodies import TOURNAMENT_WORDS, NewTournament
from domeng.tournament.plan import round_deals

BOT = {"kind": "computer", "level": "random"}


@pytest.mark.parametrize("seed", [0, 7, 2**40])
def test_a_round_s_deals_are_different_deals(seed: int) -> None:
    deals = round_deals(seed, 1, 6)
    assert len({repr(d) for d in deals}) == 6


def test_another_tournament_s_seed_deals_other_tiles() -> None:
    assert round_deals(1, 1, 2) != round_deals(2, 1, 2)
    assert round_deals(1, 3, 2) != round_deals(2, 3, 2)


def _refused(**body: Any) -> str | None:
    """The code a new tournament of ``body`` is refused with (None: it is taken)."""
    try:
        read_body({"name": "Club", "entrants": [BOT], **body}, NewTournament, TOURNAMENT_WORDS)
    except TableError as e:
        return e.code
    return None


def test_the_limits_are_the_documented_ones_and_one_past_them_is_refused() -> None:
    assert _refused(entrants=[BOT] * 200) is None
    assert _refused(entrants=[BOT] * 201) == "bad_entrants"
    assert _refused(rounds=20) is None
    assert _refused(rounds=21) == "bad_body"
    assert _refused(deals=20) is None
    assert _refused(deals=21) == "bad_body"
