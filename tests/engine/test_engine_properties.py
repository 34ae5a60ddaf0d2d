"""Property tests over random games with random legal play, several rounds, both
variants: the engine against an independent, deliberately plain model of rules.md,
and the invariants (25 stones, the 28 tiles, passes only when nothing fits, every
round ends, the same seed the same game, views hide what they must)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from hypothesis import given, settings
from hypothesis import strategies as st

from domeng.engine import (
    BlockPasses,
    CamatElected,
    End,
    Event,
    Finish,
    Game,
    IllegalMoveError,
    Move,
    Opening,
    Passed,
    Played,
    Reason,
    Round,
    RoundEnd,
    RoundEnded,
    StonesMoved,
    Variants,
    determinize,
    move,
    view,
)
from domeng.engine.tiles import FULL_SET, HIGH, LOW, NUMBER_MASK

from .test_turns_and_passes import snapshot
from .test_view import check_holds_nothing_hidden

VARIANTS = [Variants(o, b) for o in Opening for b in BlockPasses]
MAX_PLAYS = 25  # every play empties a hand by one tile: 25 tiles in the hands


def halves(t: int) -> tuple[int, int]:
    return HIGH[t], LOW[t]


# ---------------------------------------------------------------------------
# A plain model of one round, written from rules.md (not from the engine).


@dataclass
class Model:
    hands: list[set[int]]
    unused: set[int]
    starter: int
    opening_tile: int | None
    stones: list[int]
    table: int
    camat: int | None
    titles: list[int]
    penalized: bool
    left: int | None = None
    right: int | None = None
    turn: int | None = None
    played: set[int] = field(default_factory=set)  # seats that played a tile
    last_mappano: int | None = None
    events: list[Event] = field(default_factory=list)
    over: bool = False

    def __post_init__(self) -> None:
        self.turn = self.starter

    def fits(self, t: int) -> bool:
        return self.left in halves(t) or self.right in halves(t)

    def legal(self) -> set[Move]:
        if self.over or self.turn is None:
            return set()
        hand = self.hands[self.turn]
        if self.left is None:
            if self.opening_tile is not None:
                return {move(self.opening_tile, End.RIGHT)}
            return {move(t, End.RIGHT) for t in hand}
        found = set()
        for t in hand:
            if self.left == self.right:
                if self.left in halves(t):
                    found.add(move(t, End.RIGHT))  # one move when the ends agree
            else:
                if self.left in halves(t):
                    found.add(move(t, End.LEFT))
                if self.right in halves(t):
                    found.add(move(t, End.RIGHT))
        return found

    def give(self, receiver: int, amount: int, givers: list[int], reason: Reason) -> int:
        got = 0
        from_table = min(amount, self.table)
        if from_table:
            self.table -= from_table
            self.stones[receiver] += from_table
            self.events.append(StonesMoved(None, receiver, from_table, reason))
            got += from_table
        for g in givers:
            rest = amount - got
            if rest == 0:
                break
            if g == receiver:
                continue
            part = min(rest, self.stones[g])
            if part:
                self.stones[g] -= part
                self.stones[receiver] += part
                self.events.append(StonesMoved(g, receiver, part, reason))
                got += part
        return got

    def pass_(self, seat: int) -> None:
        passebunge = seat not in self.played
        amount = 2 if passebunge else 1
        reason = Reason.PASSEBUNGE if passebunge else Reason.PASS
        at = len(self.events)
        assert self.last_mappano is not None
        got = self.give(seat, amount, [self.last_mappano], reason)
        assert self.left is not None and self.right is not None
        self.events.insert(at, Passed(seat, passebunge, got, self.left, self.right))

    def play(self, m: Move) -> None:
        seat = self.turn
        assert seat is not None and m in self.legal()
        t = m.tile
        self.hands[seat].discard(t)
        self.played.add(seat)
        self.last_mappano = seat
        opening = self.left is None
        if opening:
            self.left, self.right = halves(t)
        elif m.end is End.LEFT:
            a, b = halves(t)
            self.left = b if a == self.left else a
        else:
            a, b = halves(t)
            self.right = b if a == self.right else a
        kuling = not opening and self.left == self.right
        assert self.left is not None and self.right is not None
        self.events.append(Played(seat, t, m.end, self.left, self.right, kuling, opening))
        if not self.hands[seat]:
            self.end_cappu(seat, t, kuling)
            return
        if not any(self.fits(x) for h in self.hands for x in h):
            if self.penalized:
                for k in range(1, 6):
                    self.pass_((seat + k) % 5)
            self.end_block(seat)
            return
        s = (seat + 1) % 5
        while not any(self.fits(x) for x in self.hands[s]):
            self.pass_(s)
            s = (s + 1) % 5
        self.turn = s

    def ended(self, **kw: object) -> RoundEnded:
        hands = tuple(sum(1 << t for t in h) for h in self.hands)
        totals = tuple(sum(a + b for a, b in map(halves, h)) for h in self.hands)
        return RoundEnded(
            hands=hands,
            unused=sum(1 << t for t in self.unused),
            pip_totals=totals,
            **kw,  # type: ignore[arg-type]
        )

    def end_cappu(self, seat: int, t: int, kuling: bool) -> None:
        self.over, self.turn = True, None
        a, b = halves(t)
        finish = Finish.PLAIN if not kuling else Finish.POLLO if a == b else Finish.CEKI
        amount, reason = {
            Finish.PLAIN: (1, Reason.FIRST_CAPPU),
            Finish.CEKI: (3, Reason.CEKI),
            Finish.POLLO: (5, Reason.POLLO),
        }[finish]
        cucuq = (seat - 1) % 5
        self.events.append(
            self.ended(
                end=RoundEnd.CAPPU,
                winner=seat,
                first_cappu=seat,
                finish=finish,
                manguno=None,
                mattikkeng=(),
                cucuq=cucuq,
            )
        )
        self.give(cucuq, amount, [seat], reason)
        if self.table == 0 and self.stones[seat] == 0:
            self.camat = seat
            self.titles[seat] += 1
            self.stones = [0] * 5
            self.table = 25
            self.events.append(CamatElected(seat, self.titles[seat]))

    def end_block(self, manguno: int) -> None:
        self.over, self.turn = True, None
        totals = [sum(a + b for a, b in map(halves, h)) for h in self.hands]
        order = [(manguno + k) % 5 for k in range(1, 5)]
        matt = [s for s in order if totals[s] <= totals[manguno]]
        if not matt:
            cucuq = (manguno - 1) % 5
            self.events.append(
                self.ended(
                    end=RoundEnd.BLOCK,
                    winner=manguno,
                    first_cappu=None,
                    finish=None,
                    manguno=manguno,
                    mattikkeng=(),
                    cucuq=cucuq,
                )
            )
            self.give(cucuq, 1, [manguno], Reason.MANGUNO)
            return
        lowest = min(totals[s] for s in matt)
        winner = next(s for s in matt if totals[s] == lowest)
        self.events.append(
            self.ended(
                end=RoundEnd.BLOCK,
                winner=winner,
                first_cappu=None,
                finish=None,
                manguno=manguno,
                mattikkeng=tuple(matt),
                cucuq=None,
            )
        )
        amount = 5 if len(matt) == 1 and totals[winner] < totals[manguno] else 1
        givers = [winner, *(s for s in matt if s != winner)]
        self.give(manguno, amount, givers, Reason.MATTIKKENG)


def model_of(r: Round, stones: list[int], table: int) -> Model:
    """A model of round ``r`` as dealt, with the stones it started with."""
    return Model(
        hands=[{t for t in range(28) if h >> t & 1} for h in r.dealt],
        unused={t for t in range(28) if r.unused >> t & 1},
        starter=r.starter,
        opening_tile=r.opening_tile,
        stones=list(stones),
        table=table,
        camat=r.camat,
        titles=list(r.titles),
        penalized=r.variants.block_passes is BlockPasses.PENALIZED,
    )


# ---------------------------------------------------------------------------
# Checks that read only the engine's public state and its events.


def check_invariants(r: Round) -> None:
    # 25 stones in all, none negative
    assert r.table >= 0 and min(r.stones) >= 0
    assert r.table + sum(r.stones) == 25
    # the 28 tiles: hands + line + unused, disjoint
    line = 0
    for _, m in r.plays:
        assert not line >> m.tile & 1
        line |= 1 << m.tile
    parts = [*r.hands, line, r.unused]
    union = 0
    for p in parts:
        assert union & p == 0
        union |= p
    assert union == FULL_SET
    assert len(r.line()) == len(r.plays) == r.play_count == line.bit_count()
    # the seat in turn has a move; a finished round has none
    if r.finished:
        assert r.turn is None and r.legal_moves() == ()
    else:
        assert r.turn is not None and r.legal_moves()


def check_events_by_replaying(r: Round, start: Start) -> None:
    """Replay the events from the deal: every play by the seat in turn, from its
    hand, fitting; a pass only when nothing fits, by the next seat in turn; the
    stones never negative and 25 in all after every transfer."""
    hands = list(r.dealt)
    stones = list(start.stones)
    table = start.table
    left = right = -1
    turn = r.starter
    played: set[int] = set()
    plays = 0
    for e in r.events:
        if isinstance(e, Played):
            assert e.seat == turn
            assert hands[e.seat] >> e.tile & 1
            hands[e.seat] &= ~(1 << e.tile)
            a, b = halves(e.tile)
            if left < 0:
                assert e.opening and (e.left, e.right) == (a, b)
            else:
                end = left if e.end is End.LEFT else right
                assert end in (a, b)
            left, right = e.left, e.right
            played.add(e.seat)
            plays += 1
            turn = (e.seat + 1) % 5
        elif isinstance(e, Passed):
            # a pass only when nothing fits: the passer's hand at that moment
            assert e.seat == turn
            assert (e.left, e.right) == (left, right)
            assert hands[e.seat] & (NUMBER_MASK[left] | NUMBER_MASK[right]) == 0
            assert e.passebunge == (e.seat not in played)
            assert 0 <= e.stones <= (2 if e.passebunge else 1)
            turn = (e.seat + 1) % 5
        elif isinstance(e, StonesMoved):
            assert e.amount > 0 and e.giver != e.receiver
            if e.giver is None:
                table -= e.amount
            else:
                stones[e.giver] -= e.amount
            stones[e.receiver] += e.amount
            assert table >= 0 and min(stones) >= 0 and table + sum(stones) == 25
        elif isinstance(e, RoundEnded):
            assert e.hands == tuple(hands)
            if e.end is RoundEnd.CAPPU:
                assert hands[e.first_cappu] == 0  # type: ignore[index]
            else:
                fit = NUMBER_MASK[left] | NUMBER_MASK[right]
                assert all(h & fit == 0 for h in hands)
        elif isinstance(e, CamatElected):
            assert table == 0 and stones[e.seat] == 0
            stones, table = [0] * 5, 25
    assert plays <= MAX_PLAYS
    assert stones == r.stones and table == r.table


@dataclass(frozen=True)
class Start:
    """The stones, CAMAT and titles a round started with."""

    stones: list[int]
    table: int
    camat: int | None
    titles: list[int]

    def round(self, r: Round, dealt: list[int] | None = None, unused: int | None = None) -> Round:
        """Round ``r`` from its start again (with another deal if given)."""
        return Round(
            r.dealt if dealt is None else dealt,
            r.unused if unused is None else unused,
            starter=r.starter,
            opening_tile=r.opening_tile,
            stones=self.stones,
            table=self.table,
            camat=self.camat,
            titles=self.titles,
            variants=r.variants,
            number=r.number,
        )


def random_game(
    seed: int,
    variants: Variants,
    rounds: int,
    on_step: Callable[[Round], None] | None = None,
    on_round: Callable[[Round, Start], None] | None = None,
) -> Game:
    rng = random.Random(seed)
    g = Game(variants)
    for _ in range(rounds):
        start = Start(g.stones, g.table, g.camat, g.titles)
        before = g.rounds[-1] if g.rounds else None
        r = g.deal(rng)
        # the stones, the CAMAT and the titles carry on from round to round
        assert (r.stones, r.table, r.camat, r.titles) == (
            start.stones,
            start.table,
            start.camat,
            start.titles,
        )
        assert r.number == len(g.rounds) and r.variants == variants and not r.events
        if before is not None:
            assert r.starter == (before.camat if before.camat is not None else before.result.winner)  # type: ignore[union-attr]
            assert r.opening_tile is None
        plays = 0
        while not r.finished:
            if on_step:
                on_step(r)
            g.play(rng.choice(r.legal_moves()))
            plays += 1
            assert plays <= MAX_PLAYS, "every round ends"
        if on_step:
            on_step(r)
        assert r.stones == g.stones and r.camat == g.camat
        if on_round:
            on_round(r, start)
    return g


SEEDS = st.integers(min_value=0, max_value=2**32 - 1)


@settings(max_examples=40)
@given(seed=SEEDS, variants=st.sampled_from(VARIANTS), rounds=st.integers(1, 12))
def test_the_engine_plays_every_round_as_the_plain_model_does(
    seed: int, variants: Variants, rounds: int
) -> None:
    rng = random.Random(seed)
    g = Game(variants)
    for _ in range(rounds):
        stones, table = g.stones, g.table
        r = g.deal(rng)
        m = model_of(r, stones, table)
        assert r.events == m.events == []
        while not r.finished:
            assert set(r.legal_moves()) == m.legal()
            assert len(r.legal_moves()) == len(m.legal())
            assert r.turn == m.turn
            choice = rng.choice(r.legal_moves())
            n = len(r.events)
            r.play(choice)
            m.play(choice)
            assert r.events[n:] == m.events[n:]
            assert r.stones == m.stones and r.table == m.table
            assert r.last_mappano == m.last_mappano
        assert m.over and r.events == m.events
        assert r.camat == m.camat and r.titles == m.titles


def check_illegal_moves_change_nothing(r: Round, rng: random.Random) -> None:
    """A few moves that are not legal here raise IllegalMoveError and change nothing."""
    legal = set(r.legal_moves())
    if r.ends is None or r.ends[0] == r.ends[1]:
        # there the end does not matter: LEFT is the same move as RIGHT
        legal |= {move(m.tile, End.LEFT) for m in legal}
    illegal = [move(t, e) for t in range(28) for e in End if move(t, e) not in legal]
    before = snapshot(r)
    for m in rng.sample(illegal, 3):
        try:
            r.play(m)
        except IllegalMoveError:
            pass
        else:
            raise AssertionError(f"{m} was accepted")
        assert snapshot(r) == before


@settings(max_examples=40)
@given(seed=SEEDS, variants=st.sampled_from(VARIANTS), rounds=st.integers(1, 10))
def test_invariants_at_every_step(seed: int, variants: Variants, rounds: int) -> None:
    rng = random.Random(seed + 1)

    def on_step(r: Round) -> None:
        check_invariants(r)
        check_illegal_moves_change_nothing(r, rng)

    random_game(seed, variants, rounds, on_step=on_step, on_round=check_events_by_replaying)


@settings(max_examples=20)
@given(seed=SEEDS, variants=st.sampled_from(VARIANTS), rounds=st.integers(1, 6))
def test_the_same_seed_gives_the_same_game(seed: int, variants: Variants, rounds: int) -> None:
    a = random_game(seed, variants, rounds)
    b = random_game(seed, variants, rounds)
    assert [r.dealt for r in a.rounds] == [r.dealt for r in b.rounds]
    assert [r.unused for r in a.rounds] == [r.unused for r in b.rounds]
    assert [r.events for r in a.rounds] == [r.events for r in b.rounds]
    assert (a.stones, a.table, a.camat, a.titles) == (b.stones, b.table, b.camat, b.titles)


def test_deals_depend_only_on_the_generator() -> None:
    from domeng.engine import deal

    assert deal(random.Random(11)) == deal(random.Random(11))
    assert deal(random.Random(11)) != deal(random.Random(12))


def check_views(r: Round) -> None:
    if r.finished:
        for seat in range(5):
            v = view(r, seat)
            assert v.result == r.result and v.hand == r.hands[seat]
        return
    for seat in range(5):
        check_holds_nothing_hidden(view(r, seat), r)


def shuffle_hidden(r: Round, seat: int, rng: random.Random) -> tuple[list[int], int]:
    """Another world that ``seat`` cannot tell from this one: the other seats'
    unplayed tiles and the unused ones moved around, each seat keeping its count
    and holding no number it showed it lacks by passing."""
    v = view(r, seat)
    holders = [s for s in range(5) if s != seat] + [5]  # 5: the unused tiles
    where = {}
    for s in holders:
        mask = r.unused if s == 5 else r.hands[s]
        for t in range(28):
            if mask >> t & 1:
                where[t] = s

    def allowed(t: int, s: int) -> bool:
        if s == 5:
            return True
        a, b = halves(t)
        return not (v.lacking[s] >> a & 1 or v.lacking[s] >> b & 1)

    def consistent() -> bool:
        # what everyone saw: the seat in turn holds a tile that fits (or, before
        # the first play of a round bound to a LEMPA, holds that LEMPA)
        turn = r.turn
        if turn is None or turn == seat:
            return True
        if r.ends is None:
            t = r.opening_tile
            return t is None or where.get(t, turn) == turn
        fit = NUMBER_MASK[r.ends[0]] | NUMBER_MASK[r.ends[1]]
        return any(s == turn and fit >> t & 1 for t, s in where.items())

    hidden = list(where)
    for _ in range(40):
        t1, t2 = rng.sample(hidden, 2)
        s1, s2 = where[t1], where[t2]
        if s1 != s2 and allowed(t1, s2) and allowed(t2, s1):
            where[t1], where[t2] = s2, s1
            if not consistent():
                where[t1], where[t2] = s1, s2
    current = list(r.hands)
    unused = 0
    for s in holders:
        if s < 5:
            current[s] = 0
    for t, s in where.items():
        if s == 5:
            unused |= 1 << t
        else:
            current[s] |= 1 << t
    dealt = list(current)
    for s, m in r.plays:
        dealt[s] |= 1 << m.tile
    return dealt, unused


@settings(max_examples=30)
@given(
    seed=SEEDS,
    variants=st.sampled_from(VARIANTS),
    rounds=st.integers(1, 5),
    seat=st.integers(0, 4),
)
def test_views_never_hold_hidden_tiles_and_cannot_tell_hidden_worlds_apart(
    seed: int, variants: Variants, rounds: int, seat: int
) -> None:
    rng = random.Random(seed ^ 0x5EED)

    def on_round(r: Round, start: Start) -> None:
        # replay the round in this world and in another one that differs only in
        # what ``seat`` cannot see, up to a point before the end: every view of
        # ``seat`` is the same in both
        plays = r.plays
        upto = rng.randrange(len(plays))
        a = start.round(r)
        for _, m in plays[:upto]:
            a.play(m)
        # determinize with the true hands reproduces the true continuation
        d = determinize(view(a, seat), list(a.hands), a.unused)
        for _, m in plays[upto:]:
            d.play(m)
        assert d.events == r.events and d.result == r.result
        assert (d.stones, d.table, d.camat, d.titles) == (r.stones, r.table, r.camat, r.titles)
        dealt, unused = shuffle_hidden(a, seat, rng)
        a, b = start.round(r), start.round(r, dealt, unused)
        assert view(a, seat) == view(b, seat)
        for _, m in plays[:upto]:
            a.play(m)
            b.play(m)
            assert view(a, seat) == view(b, seat)
        assert a.events == b.events

    random_game(seed, variants, rounds, on_step=check_views, on_round=on_round)


def test_random_games_elect_camat_and_the_camat_starts() -> None:
    elected = 0
    for seed in range(40):
        g = random_game(seed, Variants(), 12)
        for before, after in zip(g.rounds, g.rounds[1:], strict=False):
            assert before.result is not None
            expected = before.camat if before.camat is not None else before.result.winner
            assert after.starter == expected
            if before.camat_elected:
                elected += 1
                assert before.result.end is RoundEnd.CAPPU
                assert before.stones == [0] * 5 and before.table == 25  # reset
                assert after.starter == before.result.first_cappu
    assert elected >= 10  # random play elects CAMAT often enough to check this
