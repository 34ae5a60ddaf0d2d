"""The JSON the service sends: events with their words, seat views, round summaries.

Pure functions from engine objects to JSON-ready dicts, each typed with the document
of :mod:`.documents` it builds. Tiles are written ``"a-b"`` (higher number first), ends
``"left"``/``"right"``, seats 0-4.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from typing import overload

from domeng.account import describe
from domeng.engine import (
    SEATS,
    CamatElected,
    Event,
    Game,
    Move,
    Passed,
    Played,
    Round,
    RoundEnded,
    SeatView,
    StonesMoved,
    Variants,
    ending_award,
    own,
    tile_name,
    view,
)
from domeng.engine.tiles import names as tile_names
from domeng.engine.view import lacks

from .documents import (
    AwardDoc,
    EventDoc,
    MoveDoc,
    PlayDoc,
    ReplayDoc,
    ReplayRoundDoc,
    SharedViewDoc,
    StepDoc,
    SummaryDoc,
    ViewDoc,
)


@overload
def move_json(seat: int, m: Move) -> PlayDoc: ...
@overload
def move_json(seat: None, m: Move) -> MoveDoc: ...
def move_json(seat: int | None, m: Move) -> PlayDoc | MoveDoc:
    """A move (a seat's play, when ``seat`` is given)."""
    if seat is None:
        return {"tile": tile_name(m.tile), "end": m.end.word}
    return {"seat": seat, "tile": tile_name(m.tile), "end": m.end.word}


def event_json(
    e: Event, names: Sequence[str], *, round_number: int, index: int, stand_in: bool = False
) -> EventDoc:
    """One event as JSON, with ``kind``, its English sentence ``text`` (from
    :func:`domeng.account.describe`, for programs; the browser words events itself), and
    its ``round`` and ``index`` in the round."""
    text = describe(e, names, stand_in=stand_in)
    if isinstance(e, Played):
        return {
            "kind": "played",
            "seat": e.seat,
            "tile": tile_name(e.tile),
            "end": e.end.word,
            "left": e.left,
            "right": e.right,
            "mappakuling": e.mappakuling,
            "opening": e.opening,
            "stand_in": stand_in,
            "text": text,
            "round": round_number,
            "index": index,
        }
    if isinstance(e, Passed):
        return {
            "kind": "passed",
            "seat": e.seat,
            "passebunge": e.passebunge,
            "stones": e.stones,
            "left": e.left,
            "right": e.right,
            "stand_in": stand_in,
            "text": text,
            "round": round_number,
            "index": index,
        }
    if isinstance(e, StonesMoved):
        return {
            "kind": "stones",
            "giver": e.giver,
            "receiver": e.receiver,
            "amount": e.amount,
            "reason": e.reason.value,
            "text": text,
            "round": round_number,
            "index": index,
        }
    if isinstance(e, RoundEnded):
        return {
            "kind": "round_ended",
            "end": e.end.value,
            "winner": e.winner,
            "first_cappu": e.first_cappu,
            "finish": e.finish.value if e.finish is not None else None,
            "manguno": e.manguno,
            "mattikkeng": list(e.mattikkeng),
            "cucuq": e.cucuq,
            "hands": [tile_names(h) for h in e.hands],
            "unused": tile_names(e.unused),
            "pip_totals": list(e.pip_totals),
            "text": text,
            "round": round_number,
            "index": index,
        }
    assert isinstance(e, CamatElected)
    return {
        "kind": "camat",
        "seat": e.seat,
        "titles": e.titles,
        "text": text,
        "round": round_number,
        "index": index,
    }


def events_json(
    events: Sequence[Event],
    names: Sequence[str],
    *,
    round_number: int,
    start: int,
    stand_ins: Collection[int] = (),
) -> list[EventDoc]:
    """Events ``start``.. of a round, each with its ``round`` and ``index`` in the round.

    ``stand_ins`` are the indices (in the round's plays) of the plays a computer made
    for a person: such a ``played`` event, and that seat's ``passed`` events until its
    next play, carry ``"stand_in": true`` and say so in their words.
    """
    out: list[EventDoc] = []
    plays = 0
    by_computer: dict[int, bool] = {}  # seat -> its last play so far was a stand-in's
    for i, e in enumerate(events):
        marked = False
        if isinstance(e, Played):
            marked = plays in stand_ins
            by_computer[e.seat] = marked
            plays += 1
        elif isinstance(e, Passed):
            marked = by_computer.get(e.seat, False)
        if i < start:
            continue
        out.append(event_json(e, names, round_number=round_number, index=i, stand_in=marked))
    return out


def _award(result: RoundEnded, after: Sequence[Event]) -> AwardDoc:
    """The ending's award: who, how many the rules give, how many came (fewer when the
    table and the givers ran short)."""
    receiver, owed = ending_award(result)
    received = sum(e.amount for e in after if isinstance(e, StonesMoved))
    return {"receiver": receiver, "owed": owed, "received": received}


def summary_json(r: Round) -> SummaryDoc | None:
    """The round's end, for a summary: how it ended, every hand, who gave whom what."""
    result = r.result
    if result is None:
        return None
    after = r.events[r.events.index(result) + 1 :]
    return {
        "end": result.end.value,
        "winner": result.winner,
        "first_cappu": result.first_cappu,
        "finish": result.finish.value if result.finish is not None else None,
        "manguno": result.manguno,
        "mattikkeng": list(result.mattikkeng),
        "cucuq": result.cucuq,
        "hands": [tile_names(h) for h in result.hands],
        "dealt": [tile_names(h) for h in r.dealt],
        "unused": tile_names(result.unused),
        "pip_totals": list(result.pip_totals),
        "transfers": [
            {"giver": e.giver, "receiver": e.receiver, "amount": e.amount, "reason": e.reason.value}
            for e in after
            if isinstance(e, StonesMoved)
        ],
        "award": _award(result, after),
        "camat_elected": r.camat_elected,
        "stones": list(r.stones),
        "table": r.table,
        "camat": r.camat,
        "titles": list(r.titles),
    }


def shared_view_json(r: Round) -> SharedViewDoc:
    """What every seat's view of round ``r`` shows alike: a spectator's whole view, and
    every other seat's but for its hand and legal moves (:func:`view_json`).

    Built from :func:`domeng.engine.view` (of seat 0, its hand left out), so nothing
    beyond what anyone may see can leak."""
    v: SeatView = view(r, 0)
    return {
        "round": v.number,
        "starter": v.starter,
        "opening_tile": tile_name(v.opening_tile) if v.opening_tile is not None else None,
        "turn": v.turn,
        "hand_counts": list(v.hand_counts),
        "ends": list(v.ends) if v.ends is not None else None,
        "line": [list(p) for p in v.line],
        "plays": [move_json(s, m) for s, m in v.plays],
        "played_seats": [bool(v.played_seats >> s & 1) for s in range(5)],
        "last_mappano": v.last_mappano,
        "lacking": lacking_json(v.lacking),
        "stones": list(v.stones),
        "table": v.table,
        "camat": v.camat,
        "titles": list(v.titles),
        "summary": summary_json(r),
    }


def view_json(
    r: Round,
    seat: int | None,
    *,
    events: list[EventDoc] | None = None,
    shared: SharedViewDoc | None = None,
) -> ViewDoc:
    """What ``seat`` may see of round ``r`` (``None``: a spectator, who sees no hand).

    The part every seat sees alike is ``shared`` (:func:`shared_view_json`, made once
    for every connection of a table), the seat's own part its hand and legal moves
    (:func:`domeng.engine.own`): nothing beyond the seat's view can leak. ``events``
    (the round's events as JSON) is put in as given; when None, they are left out.
    """
    hand: list[str] | None
    legal: list[MoveDoc]
    if seat is None:
        hand, legal = None, []
    else:
        mask, moves = own(r, seat)
        hand, legal = tile_names(mask), [move_json(None, m) for m in moves]
    d: ViewDoc = {
        "seat": seat,
        **(shared_view_json(r) if shared is None else shared),
        "hand": hand,
        "legal_moves": legal,
    }
    if events is not None:
        d["events"] = events
    return d


def lacking_json(lacking: Sequence[int]) -> list[list[int]]:
    """Per seat, the numbers its mask of ``lacking`` names (a view's and a replay step's)."""
    return [[n for n in range(7) if mask >> n & 1] for mask in lacking]


def _step(
    r: Round,
    names: Sequence[str],
    play: PlayDoc | None,
    start: int,
    stand_ins: Collection[int],
    lacking: Sequence[int],
) -> StepDoc:
    return {
        "play": play,
        "events": events_json(
            r.events, names, round_number=r.number, start=start, stand_ins=stand_ins
        ),
        "hands": [tile_names(h) for h in r.hands],
        "line": [list(p) for p in r.line()],
        "ends": list(r.ends) if r.ends is not None else None,
        "turn": r.turn,
        "stones": list(r.stones),
        "table": r.table,
        "camat": r.camat,
        "titles": list(r.titles),
        "lacking": lacking_json(lacking),
    }


def replay_rounds(
    variants: Variants,
    rounds: Sequence[Round],
    names: Sequence[str],
    stand_ins: Sequence[Collection[int]] = (),
    *,
    after: Game | None = None,
    round_count: int,
) -> ReplayDoc:
    """Rounds step by step, to watch again: every round's deal, then the position after
    each play with the events it brought. Every hand is shown, so give only finished
    rounds to anyone who may not see the last one's hands. ``stand_ins``: per round, the
    indices of the plays a computer made for a person. ``after``: the game the rounds
    follow (its stones, CAMAT and titles are where they start from). ``round_count``: how
    many rounds the game has."""
    again = Game(variants)
    if after is not None:
        again.rounds = list(after.rounds)
    out: list[ReplayRoundDoc] = []
    for n, r in enumerate(rounds):
        marks = stand_ins[n] if n < len(stand_ins) else ()
        g = again.start_round(list(r.dealt), r.unused)
        lacking = [0] * SEATS  # the numbers each seat showed it lacks, by passing
        steps = [_step(g, names, None, 0, marks, lacking)]
        for seat, m in r.plays:
            before = len(g.events)
            g.play(m)
            for e in g.events[before:]:
                if type(e) is Passed:
                    lacking[e.seat] |= lacks(e)
            play = move_json(seat, g.plays[-1][1])
            steps.append(_step(g, names, play, before, marks, lacking))
        out.append(
            {
                "number": g.number,
                "starter": g.starter,
                "dealt": [tile_names(h) for h in g.dealt],
                "unused": tile_names(g.unused),
                "finished": g.finished,
                "steps": steps,
                "summary": summary_json(g),
            }
        )
    return {
        "variants": variants.to_json(),
        "players": list(names),
        "rounds": out,
        "round_count": round_count,
    }
