"""The ``expert`` player: legal moves in every variant, levels, determinism, the search."""

from __future__ import annotations

import dataclasses
import random

import pytest

from domeng.bots import ExpertPlayer, make_player, player_names
from domeng.bots.base import Player
from domeng.bots.expert import LEVELS, Level, position_seed, search
from domeng.bots.inference import PlayModel
from domeng.bots.rollout import (
    DEFAULT_WEIGHTS,
    Objective,
    excluded_by_passes,
    heuristic_move,
    play_out,
    round_value,
)
from domeng.engine import (
    BlockPasses,
    Game,
    Move,
    Opening,
    Variants,
    deal,
    move,
    parse_tile,
    view,
)
from domeng.engine.tiles import NUMBER_MASK, PIPS, mask_of

TINY = Level("expert:test", 24, 5.0)
VARIANTS = [
    Variants(opening, block)
    for opening in (Opening.DOUBLE, Opening.FREE)
    for block in (BlockPasses.PENALIZED, BlockPasses.FREE)
]


def tiny(seed: int) -> ExpertPlayer:
    return ExpertPlayer(seed, TINY)


def ask(player: Player, game: Game, seat: int) -> Move:
    if player.sees_all:
        return player.choose_seeing_all(game.round.clone(), seat)
    return player.choose(game.view(seat))


def play_game(
    players: list[Player], variants: Variants, rounds: int, seed: int
) -> tuple[Game, list[Move]]:
    """Play ``rounds`` rounds, checking that every chosen move is legal."""
    rng = random.Random(seed)
    game = Game(variants)
    chosen: list[Move] = []
    for _ in range(rounds):
        r = game.deal(rng)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            m = ask(players[seat], game, seat)
            assert m in r.legal_moves(), f"{players[seat].name} chose {m}"
            chosen.append(m)
            game.play(m)
    return game, chosen


def test_the_levels_are_registered_for_people() -> None:
    names = player_names()
    for name in ("expert:fast", "expert", "expert:strong"):
        assert name in names
        p = make_player(name, 1)
        assert isinstance(p, ExpertPlayer)
        assert p.name == name and not p.sees_all
        assert p.level == LEVELS[name]
    budgets = [LEVELS[n].playouts for n in ("expert:fast", "expert", "expert:strong")]
    assert budgets == sorted(budgets)
    assert LEVELS["expert"].max_seconds < 1.0


def _id(v: Variants) -> str:
    return f"{v.opening.value}-{v.block_passes.value}"


@pytest.mark.parametrize("variants", VARIANTS, ids=_id)
def test_every_move_is_legal_in_every_variant(variants: Variants) -> None:
    players: list[Player] = [tiny(s) for s in range(5)]
    game, chosen = play_game(players, variants, rounds=4, seed=VARIANTS.index(variants))
    assert len(game.rounds) == 4 and chosen


@pytest.mark.parametrize("variants", VARIANTS, ids=_id)
def test_every_player_moves_legally_at_one_table(variants: Variants) -> None:
    names = [n for n in player_names(for_people=False) if n != "expert:strong"]
    players = [make_player(names[s % len(names)], s) for s in range(5)]
    for p in players:
        if isinstance(p, ExpertPlayer):
            p.level = TINY
        elif p.sees_all:
            p.level = TINY  # type: ignore[attr-defined]
    play_game(players, variants, rounds=3, seed=11)


def test_the_shipped_levels_choose_legal_moves() -> None:
    rng = random.Random(4)
    game = Game()
    r = game.deal(rng)
    asked = 0
    while not r.finished and asked < 2:
        seat = r.turn
        assert seat is not None
        v = game.view(seat)
        if len(v.legal_moves) > 1:
            assert make_player("expert:fast", 1).choose(v) in v.legal_moves
            asked += 1
        game.play(v.legal_moves[0])


def test_same_seed_same_view_same_move() -> None:
    rng = random.Random(9)
    for _ in range(6):
        game = Game(Variants(opening=Opening.FREE))
        r = game.deal(rng)
        for _ in range(rng.randrange(8)):
            r.play(rng.choice(r.legal_moves()))
            if r.finished:
                break
        if r.finished or len(r.legal_moves()) < 2:
            continue
        v = view(r, r.turn or 0)
        first = [tiny(5).choose(v) for _ in range(3)]
        assert first[0] == first[1] == first[2]
        # The player keeps no state between moves: asking again gives the same answer.
        p = tiny(5)
        assert p.choose(v) == p.choose(v) == first[0]


def test_a_seeded_game_replays_exactly() -> None:
    a = play_game([tiny(s) for s in range(5)], Variants(), rounds=2, seed=3)[1]
    b = play_game([tiny(s) for s in range(5)], Variants(), rounds=2, seed=3)[1]
    assert a == b


def test_the_seed_reaches_the_search() -> None:
    game = Game()
    game.deal(random.Random(1))
    v = game.view(0)
    assert position_seed(1, v) != position_seed(2, v)
    assert position_seed(1, v) == position_seed(1, game.view(0))


def test_a_single_legal_move_is_played_at_once() -> None:
    game = Game()
    r = game.deal(random.Random(2))
    v = game.view(r.starter)  # variant double: the opening LEMPA is the only move
    assert len(v.legal_moves) == 1
    assert ExpertPlayer(1, Level("slow", 10**9, 60.0)).choose(v) == v.legal_moves[0]


def test_the_time_cap_stops_a_huge_budget() -> None:
    game = Game(Variants(opening=Opening.FREE))
    r = game.deal(random.Random(2))
    v = game.view(r.starter)
    assert len(v.legal_moves) == 5
    assert ExpertPlayer(1, Level("capped", 10**9, 0.05)).choose(v) in v.legal_moves


def test_choose_needs_a_seat_in_turn() -> None:
    game = Game()
    r = game.deal(random.Random(2))
    v = game.view((r.starter + 1) % 5)
    with pytest.raises(ValueError):
        tiny(1).choose(v)


def _hands(*specs: str) -> list[int]:
    return [mask_of(parse_tile(t) for t in spec.split()) for spec in specs]


def test_the_search_takes_a_finishing_move() -> None:
    rng = random.Random(0)
    for _ in range(30):
        g = Game(Variants(opening=Opening.FREE))
        r = g.deal(rng)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            hand = r.hands[seat]
            legal = r.legal_moves()
            if len(legal) > 1 and any(hand == 1 << m.tile for m in legal):
                choice = tiny(3).choose(view(r, seat))
                assert hand == 1 << choice.tile
                return
            r.play(heuristic_move(r, rng))
    raise AssertionError("no position with a finishing choice")


def test_round_value_counts_stones_and_camat() -> None:
    rng = random.Random(6)
    g = Game()
    r = g.deal(rng)
    since = len(r.events)
    play_out(r, rng)
    got = sum(e.amount for e in r.events if type(e).__name__ == "StonesMoved" and e.receiver == 0)
    gave = sum(e.amount for e in r.events if type(e).__name__ == "StonesMoved" and e.giver == 0)
    assert round_value(r, 0, since, Objective()) == -(got - gave)


def test_search_with_one_world_is_legal_and_deterministic() -> None:
    g = Game(Variants(opening=Opening.FREE))
    r = g.deal(random.Random(8))
    moves = r.legal_moves()
    a = search([(r.clone(), 1.0)], moves, r.starter, random.Random(1), 40, 1e18)
    b = search([(r.clone(), 1.0)], moves, r.starter, random.Random(1), 40, 1e18)
    assert a == b and a in moves


DEAL = (
    "6-6 1-1 2-2 3-3 0-0",
    "6-0 1-0 2-0 3-0 4-0",
    "6-5 5-5 4-4 5-4 5-3",
    "6-1 6-2 6-3 6-4 2-1",
    "3-1 4-1 5-1 3-2 4-2",
)


def test_play_model_prefers_guesses_that_explain_the_plays() -> None:
    # Seat 0 opens 6-6; seat 1 answers with 6-0. A guess giving seat 1 also 6-1
    # makes that choice less likely (6-1 is heavier) than one where 6-0 was forced.
    g = Game(Variants(opening=Opening.FREE))
    r = g.start_round(_hands(*DEAL), mask_of(parse_tile(t) for t in ("5-2", "5-0", "4-3")))
    r.play(move("6-6"))
    r.play(move("6-0"))
    v = view(r, 2)
    model = PlayModel(v)
    assert [(seat, t) for seat, t, _fit, _later in model.records] == [
        (1, parse_tile("6-0")),
        (0, parse_tile("6-6")),
    ]
    truth = list(r.hands)
    swapped = list(r.hands)
    six_one, one_zero = parse_tile("6-1"), parse_tile("1-0")
    swapped[1] = swapped[1] & ~(1 << one_zero) | 1 << six_one
    swapped[3] = swapped[3] & ~(1 << six_one) | 1 << one_zero
    assert 0 < model.weight(swapped) < model.weight(truth)


def test_fair_play_outs_use_only_what_each_seat_could_know() -> None:
    rng = random.Random(12)
    for _ in range(20):
        g = Game()
        r = g.deal(rng)
        while not r.finished and len(r.plays) < 6:
            r.play(heuristic_move(r, rng))
        if r.finished:
            continue
        excluded = excluded_by_passes(r)
        v = view(r, 0)
        for seat in range(5):
            assert not r.hands[seat] & excluded[seat]  # passes never exclude held tiles
            for n in range(7):
                if v.lacking[seat] >> n & 1:
                    assert excluded[seat] & NUMBER_MASK[n] == NUMBER_MASK[n]
        c = r.clone()
        play_out(c, rng, excluded=excluded)
        assert c.finished
    fair = ExpertPlayer(3, TINY, fair=True)
    players: list[Player] = [fair, tiny(1), tiny(2), tiny(3), tiny(4)]
    play_game(players, Variants(), rounds=2, seed=5)


def test_own_weights_judge_only_the_searching_seat_s_moves() -> None:
    rng = random.Random(21)
    # The seat sheds its heaviest tile, the others keep theirs (the pips outweigh all).
    heavy = dataclasses.replace(DEFAULT_WEIGHTS, pips=100.0, epsilon=0.0)
    light = dataclasses.replace(DEFAULT_WEIGHTS, pips=-100.0, epsilon=0.0)
    mine = theirs = 0
    for _ in range(30):
        r = Game().deal(rng)
        while not r.finished and len(r.plays) < 3:
            r.play(heuristic_move(r, rng))
        if r.finished:
            continue
        seat = r.turn
        assert seat is not None
        # The same weights as the others': the same play-out, move for move.
        state = rng.getstate()
        a, b = r.clone(), r.clone()
        play_out(a, rng)
        rng.setstate(state)
        play_out(b, rng, own=(seat, DEFAULT_WEIGHTS))
        assert a.events == b.events
        c = r.clone()
        play_out(c, rng, light, own=(seat, heavy))
        replay = r.clone()
        for s, m in c.plays[len(r.plays) :]:
            pips = {PIPS[x.tile] for x in replay.legal_moves()}
            if len(pips) > 1:
                if s == seat:
                    assert PIPS[m.tile] == max(pips)
                    mine += 1
                else:
                    assert PIPS[m.tile] == min(pips)
                    theirs += 1
            replay.play(m)
    assert mine > 5 and theirs > 5
    with pytest.raises(ValueError):
        play_out(r.clone(), rng, excluded=[0] * 5, own=(0, heavy))
    # Own weights equal to the play-outs' leave the expert's moves as they were.
    same = ExpertPlayer(3, TINY, own_weights=DEFAULT_WEIGHTS)
    _, ours = play_game([same, tiny(1), tiny(2), tiny(3), tiny(4)], Variants(), rounds=2, seed=9)
    _, before = play_game(
        [tiny(3), tiny(1), tiny(2), tiny(3), tiny(4)], Variants(), rounds=2, seed=9
    )
    assert ours == before
    # Other own weights reach the search: its own later moves are played otherwise, and
    # so it values (and plays) some moves otherwise.
    other = ExpertPlayer(3, TINY, own_weights=light)
    _, changed = play_game(
        [other, tiny(1), tiny(2), tiny(3), tiny(4)], Variants(), rounds=2, seed=9
    )
    assert changed != before


def test_the_objective_counts_camat_elections() -> None:
    rng = random.Random(0)
    for _ in range(400):
        g = Game()
        r = g.start_round(*deal(rng))
        r.stones = [5, 5, 5, 5, 5]
        r.table = 0
        play_out(r, rng)
        if r.camat_elected:
            assert r.camat is not None
            base = Objective(camat=0.0, other_camat=0.0)
            mine = round_value(r, r.camat, 0, Objective(camat=10.0, other_camat=0.0))
            assert mine == round_value(r, r.camat, 0, base) + 10.0
            other = (r.camat + 1) % 5
            assert round_value(r, other, 0, Objective(camat=0.0, other_camat=2.0)) == (
                round_value(r, other, 0, base) - 2.0
            )
            return
    raise AssertionError("no CAMAT election")
