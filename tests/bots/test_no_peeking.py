"""No peeking: the players receive only a seat's view, and it holds nothing hidden.

Two different true states that look the same from a seat give that seat's
players the same view, so a seeded player makes the same choice in both: it
cannot depend on the other seats' tiles or on the unused tiles.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Iterator

from domeng.bots import make_player, player_names
from domeng.bots.coach import judge_position
from domeng.bots.expert import ExpertPlayer, Level
from domeng.bots.sampling import DealSampler
from domeng.engine import (
    Game,
    Opening,
    Round,
    RoundEnded,
    SeatView,
    Variants,
    determinize,
    view,
)
from domeng.engine.tiles import FULL_SET

SMALL = Level("expert:test", 60, 5.0)


def positions(seed: int, count: int, opening: Opening = Opening.DOUBLE) -> list[Round]:
    """Unfinished rounds after some random plays (a first and a later round)."""
    rng = random.Random(seed)
    found: list[Round] = []
    while len(found) < count:
        game = Game(Variants(opening=opening))
        for _ in range(rng.randrange(1, 3)):
            r = game.deal(rng)
            stop = rng.randrange(0, 14)
            while not r.finished and len(r.plays) < stop:
                r.play(rng.choice(r.legal_moves()))
            if not r.finished:
                break
            while not r.finished:
                r.play(rng.choice(r.legal_moves()))
        if not game.round.finished:
            found.append(game.round)
    return found


def walk(value: object) -> list[object]:
    """Everything reachable from a view's fields (tuples, named tuples, dataclasses)."""
    out: list[object] = [value]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            out += walk(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            out += walk(item)
    return out


def test_a_view_holds_no_hidden_tile() -> None:
    for r in positions(1, 12):
        for seat in range(5):
            v = view(r, seat)
            assert v.hand == r.hands[seat]
            hidden = FULL_SET & ~v.hand & ~v.played_tiles
            others = 0
            for s, h in enumerate(r.hands):
                if s != seat:
                    others |= h
            assert (others | r.unused) == hidden == v.unseen
            assert v.result is None
            reachable = walk(v)
            assert not any(isinstance(x, Round) for x in reachable)
            assert not any(isinstance(x, RoundEnded) for x in reachable)
            # The only tile sets in a view: its own hand and the tiles on the line.
            assert not v.played_tiles & hidden and not v.hand & hidden


def other_truth(r: Round, seat: int, rng: random.Random) -> Round:
    """A different true state that the seat cannot tell from ``r``."""
    v = view(r, seat)
    sampler = DealSampler(v)
    for _ in range(50):
        hands, unused = sampler.sample(rng)
        if hands != r.hands or unused != r.unused:
            return determinize(v, hands, unused)
    raise AssertionError("no other consistent state")


def twins(first_seed: int, count: int, rng: random.Random) -> Iterator[tuple[Round, int, Round]]:
    """Positions with a choice to make, in both openings, each with another true state
    its seat cannot tell apart: (round, seat in turn, the other round)."""
    made = 0
    for opening in (Opening.DOUBLE, Opening.FREE):
        for r in positions(first_seed + made, count, opening):
            seat = r.turn
            assert seat is not None
            if len(r.legal_moves()) < 2:
                continue
            yield r, seat, other_truth(r, seat, rng)
            made += 1


def test_permuted_hidden_tiles_give_the_same_view_and_the_same_choice() -> None:
    checked = 0
    for r, seat, twin in twins(2, 6, random.Random(7)):
        assert twin.hands != r.hands or twin.unused != r.unused
        v1, v2 = view(r, seat), view(twin, seat)
        assert v1 == v2
        choice = ExpertPlayer(11, SMALL).choose(v1)
        assert ExpertPlayer(11, SMALL).choose(v2) == choice
        checked += 1
    assert checked >= 4


def test_view_players_only_receive_views() -> None:
    for name in player_names():
        p = make_player(name, 1)
        assert not p.sees_all, name
    # choose is annotated to take a SeatView, the only thing the seat's players receive.
    assert ExpertPlayer.choose.__annotations__["view"] in ("SeatView", SeatView)


def test_the_coach_judges_two_indistinguishable_truths_alike() -> None:
    # The coach's values, uncertainties and beliefs come from the view alone: a different
    # true state that the seat cannot tell apart gives the very same judgement.
    checked = 0
    for r, seat, twin in twins(40, 5, random.Random(9)):
        a = judge_position(view(r, seat), SMALL, seed=3)
        b = judge_position(view(twin, seat), SMALL, seed=3)
        assert a.moves == b.moves
        assert a.beliefs == b.beliefs
        checked += 1
    assert checked >= 3
