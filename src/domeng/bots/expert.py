"""``expert``: information-set Monte Carlo search that never peeks.

How it thinks, for every move with more than one choice:

1. **Guess the hidden tiles.** A :class:`~domeng.bots.sampling.DealSampler`
   places the tiles the seat cannot see into the other hands and the 3 unused
   tiles, exactly and uniformly among the placements that agree with
   everything the seat has seen (hand sizes, every pass, the first round's
   starter). No rejection: it counts the placements and draws one.
2. **Weigh each guess** by how well it explains the others' plays
   (:class:`~domeng.bots.inference.PlayModel`): a guess in which a seat held a
   LEMPA it did not play when it could is less likely.
3. **Play each move out.** For each guess (a determinization) every legal move
   is tried on a copy of the round and the round is played to its end with
   ``basic``'s rules of thumb for all seats (:mod:`domeng.bots.rollout`),
   working on the engine's ``Round`` directly. Every move is played out in the
   same guesses with the same random stream (common random numbers), so the
   comparison between moves is sharp.
4. **Value** a finished round by the game's objective
   (:class:`~domeng.bots.rollout.Objective`): minus the stones the seat
   received, plus a tenth of those it gave, a bonus for its own CAMAT
   election and a malus for another's; the move with the best weighted mean
   wins.

This is the coach's judgement (:func:`domeng.bots.coach.best_move`): ``expert``
plays the move the coach calls best at the same level, seeded from the view
alone. (``halving``, not shipped, spends the play-outs by successive halving
instead: stage by stage the weaker half of the moves is dropped, the player's
seed and the position seeding the stream; kept for the paired trials.)

Determinism: the budget that counts is a number of play-outs (``playouts``);
the random stream is seeded from the position, so the same view gives the same
move. The time limit (``max_seconds``)
is only a safety cap: if it cuts a search short (a very slow machine), that
move may differ from run to run. On an idle core of this machine class the
shipped levels stay far inside it (a play-out costs about 50 µs there, so
``expert`` thinks about 0.15 s, 0.2 s at most, a fifth of its cap); only a
machine several times slower, or as heavily loaded, can reach it.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from domeng.engine import Move, SeatView, determinize

from .base import Player
from .coach import EXACT_TILES, World, best_move, position_seed
from .inference import DEFAULT_MODEL, ModelParams, PlayModel
from .levels import LEVELS, Level
from .rollout import (
    DEFAULT_OBJECTIVE,
    DEFAULT_WEIGHTS,
    Objective,
    Weights,
    excluded_by_view,
    play_out,
    round_value,
)
from .sampling import DealSampler, NoConsistentDeal

__all__ = ["LEVELS", "ExpertPlayer", "Level", "World", "expert_factory", "position_seed", "search"]


def search(
    worlds: list[World],
    moves: tuple[Move, ...],
    seat: int,
    rng: random.Random,
    playouts: int,
    deadline: float,
    new_world: Callable[[], World] | None = None,
    weights: Weights = DEFAULT_WEIGHTS,
    objective: Objective = DEFAULT_OBJECTIVE,
    excluded: list[int] | None = None,
) -> Move:
    """Pick among ``moves`` by play-outs from the determinized ``worlds``.

    Successive halving: stage by stage, every surviving move is played out in
    the next worlds, then the weaker half is dropped. Values are averaged with
    the worlds' weights. ``worlds`` is extended with ``new_world()`` when it
    runs short (without it, the worlds are used again in turn).
    """
    alive = list(range(len(moves)))
    totals = [0.0] * len(moves)
    mass = [0.0] * len(moves)
    counts = [0] * len(moves)
    stages = max(1, (len(moves) - 1).bit_length())
    used = 0
    w_index = 0
    clock = time.perf_counter
    for stage in range(stages):
        per_move = max(1, (playouts - used) // ((stages - stage) * len(alive)))
        for _ in range(per_move):
            if w_index >= len(worlds):
                if new_world is None:
                    w_index = 0
                else:
                    worlds.append(new_world())
            base, weight = worlds[w_index]
            w_index += 1
            since = len(base.events)
            state = rng.getstate()
            for i in alive:
                rng.setstate(state)
                r = base.clone()
                r.play(moves[i])
                play_out(r, rng, weights, excluded)
                totals[i] += weight * round_value(r, seat, since, objective)
                mass[i] += weight
                counts[i] += 1
            used += len(alive)
            if clock() > deadline:
                break
        if clock() > deadline:
            break
        if len(alive) > 1 and stage < stages - 1:
            alive.sort(key=lambda i: -totals[i] / mass[i] if mass[i] else 0.0)
            alive = alive[: max(1, (len(alive) + 1) // 2)]
    # The survivors of the last stage have the most play-outs; the best of them wins.
    top = max(counts)
    contenders = [i for i in range(len(moves)) if counts[i] == top]
    best = max(contenders, key=lambda i: totals[i] / mass[i] if mass[i] else 0.0)
    return moves[best]


class ExpertPlayer(Player):
    """Information-set Monte Carlo search over guesses of the hidden tiles."""

    sees_all = False

    def __init__(
        self,
        seed: int | None = None,
        level: Level = LEVELS["expert"],
        *,
        weights: Weights = DEFAULT_WEIGHTS,
        objective: Objective = DEFAULT_OBJECTIVE,
        model: ModelParams | None = DEFAULT_MODEL,
        fair: bool = False,
        halving: bool = False,
        exact: int = EXACT_TILES,
        own_weights: Weights | None = None,
    ) -> None:
        self.seed = seed if seed is not None else random.SystemRandom().randrange(2**63)
        self.level = level
        self.name = level.name
        self.weights = weights
        self.objective = objective
        self.model = model
        self.fair = fair
        self.halving = halving
        self.exact = exact
        self.own_weights = own_weights

    def choose(self, view: SeatView) -> Move:
        moves = view.legal_moves
        if len(moves) == 1:
            return moves[0]
        if not moves:
            raise ValueError(f"seat {view.seat} is not in turn or cannot play")
        if self.halving:
            return self._halving(view)
        try:
            return best_move(
                view,
                self.level,
                objective=self.objective,
                weights=self.weights,
                model=self.model,
                fair=self.fair,
                exact=self.exact,
                own_weights=self.own_weights,
            )
        except ValueError:
            return moves[0]  # a view no deal explains (set up by hand): nothing to search

    def _halving(self, view: SeatView) -> Move:
        moves = view.legal_moves
        start = time.perf_counter()
        rng = random.Random(position_seed(self.seed, view))
        try:
            sampler = DealSampler(view)
        except NoConsistentDeal:
            return moves[0]  # a view no deal explains (set up by hand): nothing to search

        likelihood = PlayModel(view, self.model) if self.model is not None else None

        def new_world() -> World:
            hands, unused = sampler.sample(rng)
            weight = likelihood.weight(hands) if likelihood is not None else 1.0
            return determinize(view, hands, unused), weight

        return search(
            [],
            moves,
            view.seat,
            rng,
            self.level.playouts,
            start + self.level.max_seconds,
            new_world,
            self.weights,
            self.objective,
            excluded_by_view(view) if self.fair else None,
        )


def expert_factory(level_name: str) -> Callable[[int | None], Player]:
    """A factory ``seed -> ExpertPlayer`` for the registry."""

    def make(seed: int | None = None) -> ExpertPlayer:
        return ExpertPlayer(seed, LEVELS[level_name])

    return make
