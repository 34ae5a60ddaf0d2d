"""One round of Domeng: the line, the turns, passes, stones and the round's end.

A :class:`Round` is the whole state of the game while a round is played: the
hands, the line, whose turn it is, and the stones (the table's and every
seat's), the CAMAT and the titles, which carry on from round to round. Drive it
with :meth:`Round.legal_moves` and :meth:`Round.play`; passes happen by
themselves, exactly when the player in turn holds no tile that fits.

>>> from domeng.engine.tiles import parse_tile, mask_of
>>> hands = [mask_of(parse_tile(t) for t in h.split()) for h in (
...     "6-6 6-4 5-1 3-0 2-2", "4-4 6-3 2-1 5-5 1-0", "6-5 3-2 4-3 0-0 1-1",
...     "6-2 6-1 5-4 5-3 3-1", "6-0 5-2 5-0 4-2 4-0")]
>>> r = Round(hands, mask_of(parse_tile(t) for t in ("4-1", "3-3", "2-0")), starter=0,
...           opening_tile=parse_tile("6-6"))
>>> [str(m) for m in r.legal_moves()]
['6-6 right']
>>> r.play(r.legal_moves()[0])
>>> r.turn, r.ends
(1, (6, 6))
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from .events import (
    MOST_STONES,
    CamatElected,
    Event,
    Finish,
    Passed,
    Played,
    Reason,
    RoundEnd,
    RoundEnded,
    StonesMoved,
    ending_award,
    finish_of,
    is_mattikkeng,
    pass_stones,
)
from .moves import (
    HAND_SIZE,
    NEXT_SEAT,
    PREV_SEAT,
    SEATS,
    STONES,
    UNUSED_TILES,
    End,
    IllegalMoveError,
    Move,
    Variants,
    move,
)
from .tiles import (
    ENDS_MASK,
    FULL_SET,
    HIGH,
    LOW,
    NUMBERS,
    OTHER_HALF,
    PIPS_HIGH14,
    PIPS_LOW14,
    TILE_COUNT,
    Tile,
    TileSet,
    tile_name,
    tiles_of,
)

_AFTER = tuple(tuple((s + k) % SEATS for k in range(1, SEATS)) for s in range(SEATS))
"""``_AFTER[s]``: the other seats in turn order after s."""
_DEFAULT_VARIANTS = Variants()


def _fit_moves(t: Tile, left: int, right: int) -> tuple[Move, ...]:
    fits_left = left in (HIGH[t], LOW[t])
    fits_right = right in (HIGH[t], LOW[t])
    if left == right:
        return (move(t, End.RIGHT),) if fits_right else ()
    return tuple(
        move(t, end) for end, fits in ((End.LEFT, fits_left), (End.RIGHT, fits_right)) if fits
    )


# _FIT_MOVES[t][left * 7 + right]: the moves placing tile t on a line with those ends.
_FIT_MOVES: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(_fit_moves(t, left, right) for left in range(7) for right in range(7))
    for t in range(TILE_COUNT)
)
_OPEN_MOVE: tuple[tuple[Move, ...], ...] = tuple((move(t, End.RIGHT),) for t in range(TILE_COUNT))
_OPEN_MOVES_BY7: tuple[tuple[tuple[Move, ...], ...], ...] = tuple(
    tuple(tuple(move(chunk * 7 + b, End.RIGHT) for b in range(7) if m >> b & 1) for m in range(128))
    for chunk in range(4)
)
"""``_OPEN_MOVES_BY7[c][m]``: the opening moves of tiles ``7c + b`` for the bits b of m."""
_new = tuple.__new__
_LEGAL_CACHE: dict[int, tuple[Move, ...]] = {}
"""Legal moves by (fitting tiles of the hand, ends): at most about 120,000 entries."""


def _moves_for(fit: TileSet, key: int) -> tuple[Move, ...]:
    """The moves of the tiles ``fit`` on a line whose ends make ``key`` (cached)."""
    legal = _LEGAL_CACHE.get(fit << 6 | key)
    if legal is None:
        found: list[Move] = []
        for t in tiles_of(fit):
            found += _FIT_MOVES[t][key]
        legal = _LEGAL_CACHE[fit << 6 | key] = tuple(found)
    return legal


def _pip_totals(hands: list[TileSet]) -> tuple[int, ...]:
    """The pips of each seat's tiles (tables by 14-bit chunk of the masks)."""
    lo, hi = PIPS_LOW14, PIPS_HIGH14
    a, b, c, d, e = hands
    return (
        lo[a & 0x3FFF] + hi[a >> 14],
        lo[b & 0x3FFF] + hi[b >> 14],
        lo[c & 0x3FFF] + hi[c >> 14],
        lo[d & 0x3FFF] + hi[d >> 14],
        lo[e & 0x3FFF] + hi[e >> 14],
    )


# Events hold only numbers and enum members and never change, so rounds share them: every
# Played, Passed and StonesMoved event comes from these tables (no allocation for them, and
# nothing new for the garbage collector to walk in a game that keeps its rounds).
_ENDS = (End.LEFT, End.RIGHT)
_OPENED: tuple[Played, ...] = tuple(
    Played(seat, t, End.RIGHT, HIGH[t], LOW[t], False, True)
    for seat in range(SEATS)
    for t in range(TILE_COUNT)
)
"""``_OPENED[seat * 28 + t]``: seat opens the line with tile t."""
_PLAYED: list[Played | None] = [None] * (SEATS * TILE_COUNT * 2 * 49)
"""``_PLAYED[((seat * 28 + t) * 2 + end) * 49 + left * 7 + right]``: a play after the opening
(ends after the play); made when first needed."""


def _new_played(i: int, seat: int, t: Tile, end: int, left: int, right: int) -> Played:
    """Make ``_PLAYED[i]``: seat put tile t at that end, and the ends are now left, right."""
    played = _PLAYED[i] = _new(Played, (seat, t, _ENDS[end], left, right, left == right, False))
    return played


_REASONS: tuple[Reason, ...] = tuple(Reason)
"""The reasons by index (the tables take an index: an enum-keyed look-up would run Python
code)."""
_PASS, _PASSEBUNGE, _FIRST_CAPPU, _CEKI, _POLLO, _MANGUNO, _MATTIKKENG = (
    _REASONS.index(r)
    for r in (
        Reason.PASS,
        Reason.PASSEBUNGE,
        Reason.FIRST_CAPPU,
        Reason.CEKI,
        Reason.POLLO,
        Reason.MANGUNO,
        Reason.MATTIKKENG,
    )
)
_FINISH_REASON = {Finish.PLAIN: _FIRST_CAPPU, Finish.CEKI: _CEKI, Finish.POLLO: _POLLO}
_FINISHES: tuple[tuple[tuple[Finish, int], ...], ...] = tuple(
    tuple((f, _FINISH_REASON[f]) for f in (finish_of(t, mappakuling) for t in range(TILE_COUNT)))
    for mappakuling in (False, True)
)
"""``_FINISHES[mappakuling][t]``: :func:`~.events.finish_of` and its reason's index."""
_TABLE = SEATS
"""The giver index of the table in _GIVEN."""
_GIVEN: tuple[tuple[tuple[tuple[StonesMoved, ...], ...], ...], ...] = tuple(
    tuple(
        tuple(
            tuple(
                _new(StonesMoved, (None if giver == _TABLE else giver, receiver, amount, reason))
                for reason in _REASONS
            )
            for amount in range(1, MOST_STONES + 1)
        )
        for receiver in range(SEATS)
    )
    for giver in range(SEATS + 1)
)
"""``_GIVEN[giver][receiver][amount - 1][reason]``: a transfer of 1 to MOST_STONES stones
(giver _TABLE: from the table)."""


class _Pass(NamedTuple):
    """One seat's PASS, or its PASSEBUNGE: what the rules give the passer, and the shared
    events that tell it."""

    due: int
    """What the rules give the passer (:func:`~.events.pass_stones`)."""
    paid: tuple[Passed, ...]
    """``paid[left * 7 + right]``: the pass on those ends when the table pays it all."""
    table_pays: StonesMoved
    """The table's stones then."""
    passed: tuple[tuple[Passed, ...], ...]
    """``passed[got][left * 7 + right]``: the pass when the passer receives only ``got``."""
    reason: int
    """PASS or PASSEBUNGE, as an index in _REASONS."""


def _pass_of(seat: int, passebunge: bool) -> _Pass:
    amount = pass_stones(passebunge)
    reason = _PASSEBUNGE if passebunge else _PASS
    passed = tuple(
        tuple(_new(Passed, (seat, passebunge, got, a, b)) for a in NUMBERS for b in NUMBERS)
        for got in range(amount + 1)
    )
    return _Pass(amount, passed[amount], _GIVEN[_TABLE][seat][amount - 1][reason], passed, reason)


_PASS_BY_PLAYED: tuple[tuple[_Pass, _Pass], ...] = tuple(
    (_pass_of(seat, True), _pass_of(seat, False)) for seat in range(SEATS)
)
"""``_PASS_BY_PLAYED[seat][seat has played a tile this round]``: a PASSEBUNGE (0) or a
PASS (1). Index it with ``played_seats >> seat & 1``."""


def check_deal(hands: Sequence[TileSet], unused: TileSet) -> None:
    """Raise ``ValueError`` unless five hands of five and three unused make the set."""
    if len(hands) != SEATS:
        raise ValueError(f"a deal has {SEATS} hands, not {len(hands)}")
    seen = unused
    if unused.bit_count() != UNUSED_TILES:
        raise ValueError("a deal leaves exactly 3 unused tiles")
    for seat, hand in enumerate(hands):
        if hand.bit_count() != HAND_SIZE:
            raise ValueError(f"seat {seat} is dealt {hand.bit_count()} tiles, not {HAND_SIZE}")
        if seen & hand:
            raise ValueError(f"tile {tile_name(next(tiles_of(seen & hand)))} is dealt twice")
        seen |= hand
    if seen != FULL_SET:
        raise ValueError("the deal does not hold all 28 tiles")


def extend_line(line: list[tuple[int, int]], e: Played) -> None:
    """Put the tile of play ``e`` on ``line`` (left to right, each tile as the pair of
    numbers it shows): the opening tile high number first, a tile on the left end
    before the others, one on the right end after them, its matching number inwards."""
    t = e.tile
    if e.opening:
        line.append((HIGH[t], LOW[t]))
    elif e.end is End.LEFT:  # the number now showing on the left is the tile's other one
        line.insert(0, (e.left, LOW[t] if HIGH[t] == e.left else HIGH[t]))
    else:
        line.append((LOW[t] if HIGH[t] == e.right else HIGH[t], e.right))


class Round:
    """The state of the game during one round (see the module's docstring)."""

    __slots__ = (
        "_legal",
        "camat",
        "camat_elected",
        "dealt",
        "events",
        "hands",
        "in_hands",
        "last_mappano",
        "left",
        "number",
        "opening_tile",
        "played_seats",
        "result",
        "right",
        "starter",
        "stones",
        "table",
        "titles",
        "turn",
        "unused",
        "variants",
    )

    def __init__(
        self,
        hands: Sequence[TileSet],
        unused: TileSet,
        *,
        starter: int,
        opening_tile: Tile | None = None,
        stones: Sequence[int] = (0, 0, 0, 0, 0),
        table: int = STONES,
        camat: int | None = None,
        titles: Sequence[int] = (0, 0, 0, 0, 0),
        variants: Variants = _DEFAULT_VARIANTS,
        number: int = 1,
    ) -> None:
        check_deal(hands, unused)
        if opening_tile is not None and not hands[starter] >> opening_tile & 1:
            raise ValueError(f"seat {starter} does not hold {tile_name(opening_tile)}")
        if table < 0 or min(stones) < 0 or table + sum(stones) != STONES:
            raise ValueError("stones must be 25 in all, none negative")
        self._begin(
            hands, unused, starter, opening_tile, stones, table, camat, titles, variants, number
        )

    def _begin(
        self,
        hands: Sequence[TileSet],
        unused: TileSet,
        starter: int,
        opening_tile: Tile | None,
        stones: Sequence[int],
        table: int,
        camat: int | None,
        titles: Sequence[int],
        variants: Variants,
        number: int,
    ) -> None:
        """Set up the round from a deal that has been checked (or is known to be valid)."""
        self.variants = variants
        self.number = number
        self.dealt: tuple[TileSet, ...] = tuple(hands)
        self.hands: list[TileSet] = list(hands)
        self.unused = unused
        self.in_hands = FULL_SET & ~unused
        self.starter = starter
        self.opening_tile = opening_tile
        self.left = -1
        self.right = -1
        self.turn: int | None = starter
        self.played_seats = 0
        self.last_mappano: int | None = None
        self.stones: list[int] = list(stones)
        self.table = table
        self.camat = camat
        self.titles: list[int] = list(titles)
        self.camat_elected = False
        self.events: list[Event] = []
        self.result: RoundEnded | None = None
        self._legal: tuple[Move, ...] = self._opening_moves()

    # -- reading the state ------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.result is not None

    @property
    def ends(self) -> tuple[int, int] | None:
        """The numbers the line's open ends show (left, right); None before the first play."""
        return None if self.left < 0 else (self.left, self.right)

    def legal_moves(self) -> tuple[Move, ...]:
        """The moves the player in turn may make (empty once the round is over).

        A tile that fits both ends gives two moves when the ends differ and one
        (``RIGHT``) when they show the same number.
        """
        return self._legal

    def _moves_in_turn(self) -> tuple[Move, ...]:
        """Work out the legal moves of the seat in turn from scratch."""
        if self.turn is None:
            return ()
        if self.left < 0:
            return self._opening_moves()
        key = self.left * 7 + self.right
        return _moves_for(self.hands[self.turn] & ENDS_MASK[key], key)

    def _opening_moves(self) -> tuple[Move, ...]:
        if self.opening_tile is not None:
            return _OPEN_MOVE[self.opening_tile]
        h = self.hands[self.starter]
        a, b, c, d = _OPEN_MOVES_BY7
        return a[h & 127] + b[h >> 7 & 127] + c[h >> 14 & 127] + d[h >> 21 & 127]

    @property
    def play_count(self) -> int:
        """How many plays the round has had (the tiles gone from the hands): the same as
        ``len(self.plays)``, without going through the events."""
        return sum(h.bit_count() for h in self.dealt) - sum(h.bit_count() for h in self.hands)

    @property
    def plays(self) -> list[tuple[int, Move]]:
        """Every play of the round so far, in order: (seat, move)."""
        return [(e.seat, move(e.tile, e.end)) for e in self.events if type(e) is Played]

    def line(self) -> list[tuple[int, int]]:
        """The line from left to right, each tile as the pair of numbers it shows."""
        line: list[tuple[int, int]] = []
        for e in self.events:
            if type(e) is Played:
                extend_line(line, e)
        return line

    def next_starter(self) -> int | None:
        """Who opens the next round: the CAMAT if any, else this round's winner."""
        if self.result is None:
            return None
        return self.camat if self.camat is not None else self.result.winner

    # -- changing the state -----------------------------------------------

    def play(self, m: Move) -> None:
        """Put a tile on the line; then every pass that follows happens, and the
        round ends when the rules say so. Raises :class:`IllegalMoveError` (and
        changes nothing) for a move the player in turn may not make.

        For the opening tile the end does not matter and either is accepted.
        When both ends show the same number either end is accepted too (the two
        are the same play, so :attr:`legal_moves` lists only the right one), and
        the tile goes on the end named: the line, and every later end, are as
        the move says.
        """
        seat = self.turn
        if seat is None:
            raise IllegalMoveError(key="sim_player.why.over")
        legal = self._legal
        if m not in legal:
            same = self._normalized(m)
            if same not in legal:
                raise self._why_illegal(seat, m)
            m = same if self.left < 0 or m[1] != End.LEFT else move(m[0], End.LEFT)
        t, end = m
        bit = 1 << t
        hands = self.hands
        hand = hands[seat] = hands[seat] & ~bit
        in_hands = self.in_hands = self.in_hands & ~bit
        played = self.played_seats = self.played_seats | 1 << seat
        self.last_mappano = seat
        left = self.left
        if left < 0:
            left = self.left = HIGH[t]
            right = self.right = LOW[t]
            key = left * 7 + right
            played_event = _OPENED[seat * TILE_COUNT + t]
        else:
            right = self.right
            if end:
                right = self.right = OTHER_HALF[t * 7 + right]
            else:
                left = self.left = OTHER_HALF[t * 7 + left]
            key = left * 7 + right
            i = ((seat * TILE_COUNT + t) * 2 + end) * 49 + key
            played_event = _PLAYED[i] or _new_played(i, seat, t, end, left, right)
        self.events.append(played_event)
        if not hand:
            self._end_cappu(seat, t, played_event.mappakuling)
            return
        fit = ENDS_MASK[key]
        blocked = not in_hands & fit  # nobody can play any more: this seat is the MANGUNO
        s = NEXT_SEAT[seat]
        if not hands[s] & fit and (not blocked or self.variants.block_passes == "penalized"):
            # The passes: each seat in turn that holds no tile that fits, until one does; on
            # a blocked line all five, the MANGUNO last.
            events = self.events
            stones = self.stones
            while not hands[s] & fit:
                rule = _PASS_BY_PLAYED[s][played >> s & 1]
                due = rule.due
                table = self.table
                if table >= due:  # the usual case: the table pays it all
                    self.table = table - due
                    stones[s] += due
                    events.append(rule.paid[key])
                    events.append(rule.table_pays)
                else:
                    self._pass_short(s, rule, key)
                if s == seat:  # only on a blocked line: a seat that fits comes first
                    break  # the MANGUNO's own pass was the last
                s = NEXT_SEAT[s]
        if blocked:
            self._end_block(seat)
            return
        self.turn = s
        fit &= hands[s]
        self._legal = _LEGAL_CACHE.get(fit << 6 | key) or _moves_for(fit, key)

    def _normalized(self, m: Move) -> Move:
        """The same move with the end that counts: RIGHT for the opening tile or equal ends."""
        if (self.left < 0 or self.left == self.right) and 0 <= m[0] < TILE_COUNT:
            return move(m[0], End.RIGHT)
        return m

    def _why_illegal(self, seat: int, m: Move) -> IllegalMoveError:
        t, end = m
        if not 0 <= t < TILE_COUNT:
            return IllegalMoveError(key="sim_player.why.no_tile", tile=t)
        name = tile_name(t)
        if not self.hands[seat] >> t & 1:
            return IllegalMoveError(key="sim_player.why.not_held", seat=seat, tile=name)
        if self.left < 0:
            return IllegalMoveError(
                key="sim_player.why.must_open", tile=tile_name(self.opening_tile or 0)
            )
        fits = _FIT_MOVES[t][self.left * 7 + self.right]
        if not fits:
            return IllegalMoveError(
                key="sim_player.why.no_fit", tile=name, left=self.left, right=self.right
            )
        if end not in (0, 1):  # also a plain int: End is an IntEnum
            return IllegalMoveError(key="sim_player.why.no_end", end=repr(end))
        if end == 0:
            return IllegalMoveError(key="sim_player.why.no_fit_left", tile=name, shown=self.left)
        return IllegalMoveError(key="sim_player.why.no_fit_right", tile=name, shown=self.right)

    def _pass_short(self, seat: int, rule: _Pass, key: int) -> None:
        """A pass the table cannot pay in full: the table gives what it has, the LAST
        MAPPANO what it lacks, as much as they hold (nothing when they are the passer);
        ``key`` is ``left * 7 + right``. This is :meth:`_give`'s rule written out for one
        giver: in long games the table is often short, and calling ``_give`` from here
        cost the engine about 2% of its speed (and the Passed event, which names the
        stones the passer got, must come before the transfers that gave them)."""
        events = self.events
        stones = self.stones
        table = self.table
        giver = self.last_mappano
        rest = rule.due - table
        part = 0
        if giver is not None and giver != seat:
            part = rest if rest <= stones[giver] else stones[giver]
        events.append(rule.passed[table + part][key])
        reason = rule.reason
        if table:
            self.table = 0
            stones[seat] += table
            events.append(_GIVEN[_TABLE][seat][table - 1][reason])
        if part and giver is not None:
            stones[giver] -= part
            stones[seat] += part
            events.append(_GIVEN[giver][seat][part - 1][reason])

    def _give(
        self, receiver: int, amount: int, givers: Sequence[int], reason: int
    ) -> list[StonesMoved]:
        """Give ``amount`` stones to ``receiver``: the table first, then the givers in
        order, each as much as they hold; a giver who is the receiver moves nothing.
        What they cannot cover is not given. Returns the transfers made. ``reason`` is an
        index in _REASONS; ``amount`` is at most MOST_STONES."""
        stones = self.stones
        moved: list[StonesMoved] = []
        take = amount if amount <= self.table else self.table
        if take:
            self.table -= take
            stones[receiver] += take
            moved.append(_GIVEN[_TABLE][receiver][take - 1][reason])
        rest = amount - take
        for giver in givers:
            if not rest:
                break
            if giver == receiver:
                continue
            part = rest if rest <= stones[giver] else stones[giver]
            if part:
                stones[giver] -= part
                stones[receiver] += part
                moved.append(_GIVEN[giver][receiver][part - 1][reason])
                rest -= part
        return moved

    def _end_cappu(self, seat: int, t: Tile, mappakuling: bool) -> None:
        finish, reason = _FINISHES[mappakuling][t]
        cucuq = PREV_SEAT[seat]
        hands = self.hands
        ended = (
            RoundEnd.CAPPU,
            seat,
            seat,
            finish,
            None,
            (),
            cucuq,
            tuple(hands),
            self.unused,
            _pip_totals(hands),
        )
        result = _new(RoundEnded, ended)
        _, amount = ending_award(result)
        self._finish(result, self._give(cucuq, amount, (seat,), reason))

    def _end_block(self, manguno: int) -> None:
        totals = _pip_totals(self.hands)
        limit = totals[manguno]
        mattikkeng = tuple([s for s in _AFTER[manguno] if is_mattikkeng(totals[s], limit)])
        if not mattikkeng:
            winner = manguno
            cucuq: int | None = PREV_SEAT[manguno]
        else:
            winner = min(mattikkeng, key=totals.__getitem__)
            cucuq = None
        ended: RoundEnded = _new(
            RoundEnded,
            (
                RoundEnd.BLOCK,
                winner,
                None,
                None,
                manguno,
                mattikkeng,
                cucuq,
                tuple(self.hands),
                self.unused,
                totals,
            ),
        )
        receiver, amount = ending_award(ended)
        if cucuq is not None:
            moved = self._give(receiver, amount, (manguno,), _MANGUNO)
        else:
            givers = (winner, *(s for s in mattikkeng if s != winner))
            moved = self._give(receiver, amount, givers, _MATTIKKENG)
        self._finish(ended, moved)

    def _finish(self, ended: RoundEnded, moved: list[StonesMoved]) -> None:
        self.turn = None
        self._legal = ()
        self.result = ended
        self.events.append(ended)
        self.events += moved
        fc = ended.first_cappu
        if fc is not None and self.table == 0 and self.stones[fc] == 0:
            self.camat = fc
            self.titles[fc] += 1
            self.camat_elected = True
            self.stones = [0] * SEATS
            self.table = STONES
            self.events.append(_new(CamatElected, (fc, self.titles[fc])))

    # -- copies -------------------------------------------------------------

    def clone(self) -> Round:
        """An independent copy (events and plays are copied too)."""
        c = Round.__new__(Round)
        for name in Round.__slots__:
            setattr(c, name, getattr(self, name))
        c.hands = self.hands[:]
        c.stones = self.stones[:]
        c.titles = self.titles[:]
        c.events = self.events[:]
        return c

    def __repr__(self) -> str:
        return (
            f"<Round {self.number} turn={self.turn} ends={self.ends} "
            f"stones={self.stones} table={self.table} camat={self.camat}>"
        )
