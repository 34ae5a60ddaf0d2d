"""Guessing the hidden tiles from one seat's view, exactly and uniformly.

A seat sees its own hand, the line and every pass. The tiles it cannot see
(``view.unseen``) lie in the other seats' hands or among the 3 unused tiles. A
:class:`DealSampler` draws placements of those tiles that agree with
everything the seat has seen:

- every other seat gets exactly ``view.hand_counts[seat]`` tiles and exactly 3
  tiles stay unused, each tile placed once;
- a seat that passed on ends x and y holds no tile with x or y (``view.lacking``);
- in a game's first round, who started tells something: the starter held the
  first of 6-6, 5-5, 4-4, 3-3 that was dealt, so every LEMPA before it in that
  order is unused (variant ``opening: double`` names it: ``view.opening_tile``;
  with ``opening: free`` each possibility is weighed by how many deals fit it).

The sampler is constructive, never rejecting: it counts the placements with a
small dynamic programme over groups of tiles that may go to the same places
(at most 2^5 groups, capacities of at most 5 tiles), then draws one placement
with exactly the right probability. Every consistent placement is equally
likely, which is the posterior when the other players' choices are not
modelled. Counting takes a millisecond or so; a draw takes some microseconds.

>>> import random
>>> from domeng.engine import Game, view
>>> g = Game()
>>> _ = g.deal(random.Random(3))
>>> v = g.view(1)
>>> s = DealSampler(v)
>>> hands, unused = s.sample(random.Random(0))
>>> [h.bit_count() for h in hands], unused.bit_count(), hands[1] == v.hand
([5, 5, 5, 5, 5], 3, True)
"""

from __future__ import annotations

import random
from bisect import bisect_right
from collections.abc import Iterator
from itertools import combinations
from math import factorial

from domeng.engine import FIRST_ROUND_LEMPA, SEATS, Opening, SeatView, TileSet
from domeng.engine.moves import UNUSED_TILES
from domeng.engine.tiles import NUMBER_MASK, tiles_of

UNUSED = SEATS
"""The destination index of the unused tiles (seats are 0-4)."""
UNUSED_COUNT = UNUSED_TILES

_Caps = tuple[int, ...]
_Split = tuple[int, ...]


class NoConsistentDeal(ValueError):
    """No placement of the hidden tiles agrees with the view (an inconsistent view)."""


def _splits(k: int, dests: tuple[int, ...], caps: _Caps) -> Iterator[_Split]:
    """Every way to put ``k`` tiles into ``dests`` within ``caps``: counts per destination."""
    if not dests:
        if k == 0:
            yield ()
        return
    d, rest = dests[0], dests[1:]
    room = sum(caps[e] for e in rest)
    for n in range(max(0, k - room), min(k, caps[d]) + 1):
        for tail in _splits(k - n, rest, caps):
            yield (n, *tail)


class _Counter:
    """Counts and draws placements of groups of tiles into capacity-limited places."""

    def __init__(self, groups: list[tuple[int, list[int]]], caps: _Caps) -> None:
        self.groups = groups
        """(allowed destinations as a bitmask over 0..5, tiles of the group)."""
        self.dests = [tuple(d for d in range(SEATS + 1) if mask >> d & 1) for mask, _ in groups]
        self.caps = caps
        self._memo: dict[tuple[int, _Caps], int] = {}
        self._choices: dict[tuple[int, _Caps], tuple[list[int], list[_Split]]] = {}
        self.total = self.ways(0, caps)

    def ways(self, g: int, caps: _Caps) -> int:
        if g == len(self.groups):
            return 1 if not any(caps) else 0
        key = (g, caps)
        found = self._memo.get(key)
        if found is not None:
            return found
        k = len(self.groups[g][1])
        dests = self.dests[g]
        total = 0
        kf = factorial(k)
        for split in _splits(k, dests, caps):
            rest = list(caps)
            mult = kf
            for d, n in zip(dests, split, strict=True):
                rest[d] -= n
                mult //= factorial(n)
            total += mult * self.ways(g + 1, tuple(rest))
        self._memo[key] = total
        return total

    def _options(self, g: int, caps: _Caps) -> tuple[list[int], list[_Split]]:
        key = (g, caps)
        found = self._choices.get(key)
        if found is None:
            k = len(self.groups[g][1])
            dests = self.dests[g]
            cumulative: list[int] = []
            splits: list[_Split] = []
            running = 0
            kf = factorial(k)
            for split in _splits(k, dests, caps):
                rest = list(caps)
                mult = kf
                for d, n in zip(dests, split, strict=True):
                    rest[d] -= n
                    mult //= factorial(n)
                w = mult * self.ways(g + 1, tuple(rest))
                if w:
                    running += w
                    cumulative.append(running)
                    splits.append(split)
            found = self._choices[key] = (cumulative, splits)
        return found

    def draw(self, rng: random.Random) -> list[TileSet]:
        """One placement: a tile set per destination (0-4 seats, 5 unused)."""
        placed = [0] * (SEATS + 1)
        caps = self.caps
        for g, (_, tiles) in enumerate(self.groups):
            cumulative, splits = self._options(g, caps)
            split = splits[bisect_right(cumulative, rng.randrange(cumulative[-1]))]
            order = tiles[:]
            rng.shuffle(order)
            rest = list(caps)
            i = 0
            for d, n in zip(self.dests[g], split, strict=True):
                for t in order[i : i + n]:
                    placed[d] |= 1 << t
                i += n
                rest[d] -= n
            caps = tuple(rest)
        return placed


def opening_options(v: SeatView) -> list[dict[int, int]] | None:
    """What the first round's starter tells, as alternatives: each forces some unseen
    tiles to a place (tile -> seat, or ``UNUSED``). None when the starter tells nothing.

    The starter held the first of 6-6, 5-5, 4-4, 3-3 that was dealt (rules.md, "Who
    starts"); all the LEMPA before it in that order are among the unused tiles.
    """
    lempas = FIRST_ROUND_LEMPA
    if v.opening_tile is not None:
        if v.opening_tile not in lempas:
            return None
        decisive = lempas.index(v.opening_tile)
        candidates: range | tuple[int, ...] = (decisive,)
    elif v.number == 1 and v.variants.opening is Opening.FREE:
        candidates = range(len(lempas))
    else:
        return None
    unseen = v.unseen
    played_by = {m.tile: seat for seat, m in v.plays}
    options: list[dict[int, int]] = []
    for i in candidates:
        forced: dict[int, int] = {}
        ok = True
        for t in lempas[:i]:
            if not unseen >> t & 1:
                ok = False  # a LEMPA the seat sees was dealt, so it cannot be unused
                break
            forced[t] = UNUSED
        if not ok:
            break  # later candidates need this LEMPA unused too
        t = lempas[i]
        if unseen >> t & 1:
            forced[t] = v.starter
        elif not ((v.hand >> t & 1 and v.seat == v.starter) or played_by.get(t, -1) == v.starter):
            if v.opening_tile is not None:
                return None  # the view contradicts the rule: tell nothing
            continue
        options.append(forced)
    return options


class DealSampler:
    """Draws placements of the tiles ``view`` cannot see that agree with all it saw.

    ``hands, unused = sampler.sample(rng)`` gives the five current hands (the
    view's own hand kept) and the 3 unused tiles, ready for
    :func:`domeng.engine.determinize`. ``count`` is the number of consistent
    placements. Raises :class:`NoConsistentDeal` when none exists.
    """

    def __init__(self, v: SeatView, *, use_opening: bool = True) -> None:
        self.view = v
        self.seat = v.seat
        caps = [0 if s == v.seat else v.hand_counts[s] for s in range(SEATS)]
        caps.append(UNUSED_COUNT)
        unseen = v.unseen
        if sum(caps) != unseen.bit_count():
            raise NoConsistentDeal("the hand counts do not add up to the unseen tiles")
        allowed: dict[int, int] = {}
        for t in tiles_of(unseen):
            mask = 1 << UNUSED
            for s in range(SEATS):
                if s == v.seat or not caps[s]:
                    continue
                lacking = v.lacking[s]
                bad = False
                for n in range(7):
                    if lacking >> n & 1 and NUMBER_MASK[n] >> t & 1:
                        bad = True
                        break
                if not bad:
                    mask |= 1 << s
            allowed[t] = mask
        options = opening_options(v) if use_opening else None
        self.counters: list[_Counter] = []
        self.cumulative: list[int] = []
        running = 0
        for forced in options if options is not None else [{}]:
            masks = dict(allowed)
            for t, d in forced.items():
                masks[t] &= 1 << d
            counter = _counter(masks, tuple(caps))
            if counter.total:
                running += counter.total
                self.counters.append(counter)
                self.cumulative.append(running)
        if not running and options is not None:
            # The opening rule did not apply as assumed (a round set up by hand):
            # fall back to what the passes and counts alone tell.
            counter = _counter(allowed, tuple(caps))
            if counter.total:
                running = counter.total
                self.counters.append(counter)
                self.cumulative.append(running)
        if not running:
            raise NoConsistentDeal("no placement of the unseen tiles agrees with the view")
        self.count = running

    def sample(self, rng: random.Random) -> tuple[list[TileSet], TileSet]:
        """One consistent placement: (hands of the five seats, unused tiles)."""
        if len(self.counters) == 1:
            counter = self.counters[0]
        else:
            counter = self.counters[bisect_right(self.cumulative, rng.randrange(self.count))]
        placed = counter.draw(rng)
        placed[self.seat] = self.view.hand
        return placed[:SEATS], placed[UNUSED]


def _counter(masks: dict[int, int], caps: _Caps) -> _Counter:
    by_mask: dict[int, list[int]] = {}
    for t, mask in masks.items():
        by_mask.setdefault(mask, []).append(t)
    if 0 in by_mask:
        return _Counter([(0, by_mask[0])], caps)  # a tile with nowhere to go: total 0
    # Most constrained groups first keeps the programme's states few.
    groups = sorted(by_mask.items(), key=lambda item: (item[0].bit_count(), item[0]))
    return _Counter(groups, caps)


def placements(sampler: DealSampler, limit: int) -> list[tuple[list[TileSet], TileSet]] | None:
    """Every placement ``sampler`` may draw, each once (all equally likely), or None when
    there are more than ``limit``."""
    if sampler.count > limit:
        return None
    out: list[tuple[list[TileSet], TileSet]] = []
    for counter in sampler.counters:
        for placed in _every(counter, 0, counter.caps):
            hands = list(placed[:SEATS])
            hands[sampler.seat] = sampler.view.hand
            out.append((hands, placed[UNUSED]))
    return out


def _every(counter: _Counter, g: int, caps: _Caps) -> Iterator[list[TileSet]]:
    if g == len(counter.groups):
        if not any(caps):
            yield [0] * (SEATS + 1)
        return
    tiles = counter.groups[g][1]
    dests = counter.dests[g]
    for split in _splits(len(tiles), dests, caps):
        rest = list(caps)
        for d, n in zip(dests, split, strict=True):
            rest[d] -= n
        if not counter.ways(g + 1, tuple(rest)):
            continue
        tails = list(_every(counter, g + 1, tuple(rest)))
        for chosen in _assign(tiles, dests, split):
            for tail in tails:
                placed = tail[:]
                for d, mask in zip(dests, chosen, strict=True):
                    placed[d] |= mask
                yield placed


def _assign(tiles: list[int], dests: tuple[int, ...], split: _Split) -> Iterator[list[TileSet]]:
    """Every way to deal ``tiles`` out in the counts ``split`` (a set per destination)."""
    if not dests:
        yield []
        return
    n = split[0]
    for chosen in combinations(tiles, n):
        mask = 0
        for t in chosen:
            mask |= 1 << t
        rest = [t for t in tiles if not mask >> t & 1]
        for tail in _assign(rest, dests[1:], split[1:]):
            yield [mask, *tail]
