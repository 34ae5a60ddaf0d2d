"""One judgement per position: a hint and the later review of the same decision give the
same values, and ``expert`` plays what the coach calls best at the same level."""

from __future__ import annotations

import random

from domeng.bots import ExpertPlayer, make_player
from domeng.bots.base import Player
from domeng.bots.coach import COACH_LEVEL, best_move, judge_position
from domeng.bots.levels import LEVELS, Level
from domeng.bots.review import decisions
from domeng.engine import Game, Move, SeatView
from domeng.engine.record import dumps_record, loads_recorded_game

TINY = Level("coach:tiny", 90, 30.0)
NAMES = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]


def _game(
    seat_player: Player, rounds: int, seed: int
) -> tuple[Game, list[tuple[int, int, SeatView, Move]]]:
    """A game of ``basic`` with ``seat_player`` at seat 0; seat 0's decisions (round
    number, play index, the view it had, the move it chose)."""
    rng = random.Random(seed)
    players = [seat_player] + [make_player("basic", seed + s) for s in range(1, 5)]
    game = Game()
    seen: list[tuple[int, int, SeatView, Move]] = []
    for _ in range(rounds):
        r = game.deal(rng)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            v = game.view(seat)
            m = players[seat].choose(v)
            if seat == 0 and len(v.legal_moves) > 1:
                seen.append((r.number, len(r.plays), v, m))
            r.play(m)
    return game, seen


def _values(moves: tuple[object, ...]) -> list[tuple[object, float, float]]:
    return [(mv.move, mv.value, mv.gap_error) for mv in moves]  # type: ignore[attr-defined]


def test_a_hint_and_the_review_of_that_decision_give_the_same_values() -> None:
    game, seen = _game(make_player("basic", 7), rounds=3, seed=7)
    assert len(seen) >= 4
    # The hints, asked during play from the live game's view.
    hints = {(n, k): judge_position(v, TINY) for n, k, v, _ in seen}
    recorded = loads_recorded_game(dumps_record(game, NAMES))
    reviewed = decisions(recorded, 0, TINY, with_hindsight=False)
    assert [(d.round, d.index) for d in reviewed] == list(hints)
    for d in reviewed:
        hint = hints[(d.round, d.index)]
        assert _values(d.judgement.moves) == _values(hint.moves)
        assert d.judgement.beliefs == hint.beliefs


def test_the_same_view_is_judged_alike_another_seed_differently() -> None:
    _, seen = _game(make_player("basic", 3), rounds=2, seed=3)
    v = seen[0][2]
    a, b = judge_position(v, TINY), judge_position(v, TINY, 0)
    assert _values(a.moves) == _values(b.moves)
    c = judge_position(v, TINY, 1)  # asked for: another draw of the guesses
    assert _values(a.moves) != _values(c.moves)


def test_expert_plays_the_coach_s_best_at_the_same_level() -> None:
    expert = ExpertPlayer(11, TINY)
    _, seen = _game(expert, rounds=3, seed=11)
    assert len(seen) >= 4
    for _, _, v, m in seen:
        assert m == judge_position(v, TINY).best.move == best_move(v, TINY)
    # Its own seed does not enter: another expert at the level plays the same.
    other = ExpertPlayer(12, TINY)
    assert all(other.choose(v) == m for _, _, v, m in seen)


def test_the_browser_s_hint_and_review_judge_at_one_level() -> None:
    from domeng.server.hinting import HINT_LEVEL, hint_body
    from domeng.server.reviews import REVIEW_LEVEL

    assert HINT_LEVEL == REVIEW_LEVEL == COACH_LEVEL
    game, seen = _game(make_player("basic", 5), rounds=2, seed=5)
    n, k, v, _ = seen[0]
    body = hint_body(v)  # judged from the view alone
    recorded = loads_recorded_game(dumps_record(game, NAMES))
    d = decisions(recorded, 0, LEVELS[REVIEW_LEVEL], with_hindsight=False, only_round=n)[0]
    assert d.index == k
    assert body["moves"] == [
        {"tile": mv.tile, "end": mv.end, "value": round(mv.value, 3), "error": round(mv.error, 3)}
        for mv in d.judgement.moves
    ]
