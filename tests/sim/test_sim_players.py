"""How `domeng sim` asks its players: views for everyone, the whole round for `oracle`."""

from __future__ import annotations

import random

import pytest

import domeng.bots as bots
from domeng.bots import Player
from domeng.engine import Move, Round, SeatView
from domeng.sim import Settings, play_game

asked: list[tuple[str, int]] = []


class Viewer(Player):
    """Plays at random from its seat's view, and notes that it was asked."""

    name = "viewer"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        assert isinstance(view, SeatView)
        assert view.turn == view.seat
        assert len(view.legal_moves) > 1  # a single legal move is played without asking
        asked.append(("view", view.seat))
        return self.rng.choice(view.legal_moves)


class Seer(Player):
    """Sees every hand, like the oracle: it must be asked with the round."""

    name = "seer"
    sees_all = True

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        raise AssertionError("a player that sees all is asked with choose_seeing_all")

    def choose_seeing_all(self, r: Round, seat: int) -> Move:
        assert isinstance(r, Round)
        assert r.turn == seat
        legal = r.legal_moves()
        assert len(legal) > 1
        asked.append(("round", seat))
        r.play(legal[-1])  # it is given a copy: this must not change the game
        return self.rng.choice(legal)


@pytest.fixture(autouse=True)
def _players(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(bots._FACTORIES, "viewer", Viewer)
    monkeypatch.setitem(bots._FACTORIES, "seer", Seer)
    asked.clear()


def test_players_are_asked_from_their_seat_only_when_they_have_a_choice() -> None:
    settings = Settings(("seer", "viewer", "viewer", "viewer", "viewer"), rounds=10, seed=2)
    seer_asked = 0
    for task in settings.tasks():
        asked.clear()
        game, names, result = play_game(task)
        seer_seat = names.index("seer")
        assert {seat for kind, seat in asked if kind == "round"} <= {seer_seat}
        assert all(seat != seer_seat for kind, seat in asked if kind == "view")
        assert result.tallies[0].decisions == sum(1 for kind, _ in asked if kind == "round")
        seer_asked += result.tallies[0].decisions
        for r in game.rounds:  # the copies the seer changed left the game whole
            assert r.finished
            assert sum(r.stones) + r.table == 25
    assert seer_asked > 0


@pytest.mark.parametrize("name", ["expert:fast", "expert", "expert:strong", "oracle"])
def test_a_search_player_in_the_sim_thinks_by_play_outs_not_by_the_clock(name: str) -> None:
    """The sim keeps a level's play-outs but lifts the table's wall-clock cap, so that a busy
    machine neither weakens a level nor makes a seed's run differ."""
    from domeng.bots.expert import LEVELS
    from domeng.sim.runner import SIM_CAP, sim_player

    at_table = bots.make_player(name, 3)
    in_sim = sim_player(name, 3)
    assert in_sim.level.playouts == at_table.level.playouts  # type: ignore[attr-defined]
    assert at_table.level.max_seconds < SIM_CAP  # type: ignore[attr-defined]
    assert in_sim.level.max_seconds == SIM_CAP  # type: ignore[attr-defined]
    if name in LEVELS:
        assert LEVELS[name].max_seconds < SIM_CAP  # the table's own level is left as it was


def test_other_players_are_seated_in_the_sim_as_registered() -> None:
    from domeng.sim.runner import sim_player

    assert type(sim_player("basic", 1)) is type(bots.make_player("basic", 1))
    assert not hasattr(sim_player("random", 1), "level")


def test_the_sim_s_games_seat_their_players_as_the_sim_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every entry of a game is made by ``sim_player`` (so a search level there has the
    sim's cap), not straight from the registry."""
    import domeng.sim.runner as runner

    made: list[str] = []

    def spy(name: str, seed: int) -> Player:
        made.append(name)
        return bots.make_player(name, seed)

    monkeypatch.setattr(runner, "sim_player", spy)
    task = next(iter(Settings(("viewer",) * 5, rounds=5, seed=1).tasks()))
    play_game(task)
    assert made == ["viewer"] * 5
