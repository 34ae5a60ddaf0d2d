"""The running account of a round, in the game's own words.

The interfaces that tell a game in English (``domeng replay``, terminal play)
turn the engine's events into sentences here, and so does the table service for
each event's ``text`` (for programs other than the browser). The browser table
tells the same events in the page's own language from their fields
(``web/js/account.js``), never from that English ``text``. The game's terms
stay untranslated and capitalised: LEMPA, PASS, PASSEBUNGE, MAPPAKULING, FIRST
CAPPU, CEKI, POLLO, MANGUNO, MATTIKKENG, CUCUQ, CAMAT.

Everything here is a pure function of its arguments.

>>> from domeng.engine import Passed, StonesMoved, Reason
>>> names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
>>> describe(Passed(1, True, 2, 6, 6), names)
'Besse cannot play — PASSEBUNGE: 2 stones'
>>> describe(StonesMoved(None, 1, 2, Reason.PASSEBUNGE), names)
'Besse receives 2 stones from the table — PASSEBUNGE'
>>> narrate([Passed(1, True, 2, 6, 6), StonesMoved(None, 1, 2, Reason.PASSEBUNGE)], names)
['Besse cannot play — PASSEBUNGE: 2 stones from the table']
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from domeng.engine.events import (
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
)
from domeng.engine.moves import End
from domeng.engine.standings import Standing
from domeng.engine.tiles import HIGH, LOW, tile_name

__all__ = [
    "describe",
    "narrate",
    "pips",
    "plural",
    "reason_words",
    "shortfall",
    "stand_in_words",
    "standings_sentence",
    "transfer_source",
    "you_form",
]


def plural(n: int, word: str = "stone") -> str:
    """``"1 stone"``, ``"2 stones"``, ``"no stones"``.

    >>> plural(1), plural(3), plural(0), plural(2, "pip")
    ('1 stone', '3 stones', 'no stones', '2 pips')
    """
    if n == 0:
        return f"no {word}s"
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


_REASON_WORDS: dict[Reason, str] = {
    Reason.PASS: "PASS",
    Reason.PASSEBUNGE: "PASSEBUNGE",
    Reason.FIRST_CAPPU: "CUCUQ of a FIRST CAPPU",
    Reason.CEKI: "CUCUQ of a CEKI",
    Reason.POLLO: "CUCUQ of a POLLO",
    Reason.MANGUNO: "CUCUQ of a MANGUNO without MATTIKKENG",
    Reason.MATTIKKENG: "MANGUNO beaten by MATTIKKENG",
}


def pips(n: int) -> str:
    """``"0 pips"``, ``"1 pip"``, ``"12 pips"``.

    >>> pips(0), pips(1), pips(12)
    ('0 pips', '1 pip', '12 pips')
    """
    return f"{n} pip" if n == 1 else f"{n} pips"


def reason_words(reason: Reason) -> str:
    """Why stones moved, in the game's words.

    >>> reason_words(Reason.CEKI)
    'CUCUQ of a CEKI'
    >>> reason_words(Reason.MATTIKKENG)
    'MANGUNO beaten by MATTIKKENG'
    """
    return _REASON_WORDS[reason]


def transfer_source(giver: int | None, names: Sequence[str]) -> str:
    """``"from the table"`` or ``"from <giver>"``.

    >>> transfer_source(None, ["A", "B", "C", "D", "E"]), transfer_source(3, "ABCDE")
    ('from the table', 'from D')
    """
    return "from the table" if giver is None else f"from {names[giver]}"


def _tile_shown(t: int, end: End, left: int, right: int) -> str:
    """The tile as it lies on the line after the play, e.g. ``[6|3]``."""
    high, low = HIGH[t], LOW[t]
    if end is End.LEFT:
        # The tile's outer half now shows at the left end.
        inner = high if low == left else low
        return f"[{left}|{inner}]"
    inner = high if low == right else low
    return f"[{inner}|{right}]"


def stand_in_words(name: str) -> str:
    """Who moves when a computer player moves for a person (a stand-in, record.md).

    >>> stand_in_words("Guest")
    'A computer plays for Guest'
    """
    return f"A computer plays for {name}"


def _played(e: Played, names: Sequence[str], stand_in: bool = False) -> str:
    who = names[e.seat]
    name = tile_name(e.tile)
    if e.opening:
        lempa = " (a LEMPA)" if HIGH[e.tile] == LOW[e.tile] else ""
        opens = f"{stand_in_words(who)} and opens" if stand_in else f"{who} opens"
        return f"{opens} with {name}{lempa}: the line shows {e.left} and {e.right}"
    shown = _tile_shown(e.tile, End(e.end), e.left, e.right)
    where = f"{name} at the {End(e.end).word} end {shown}"
    if stand_in:
        text = f"{stand_in_words(who)}: {where}"
        line = "; the line shows"
    else:
        text = f"{who} plays {where}"
        line = ": the line shows"
    if e.mappakuling:
        return f"{text} — MAPPAKULING: both ends show {e.left}"
    return f"{text}{line} {e.left} and {e.right}"


def _passed(e: Passed, names: Sequence[str], source: str = "", stand_in: bool = False) -> str:
    kind = "PASSEBUNGE" if e.passebunge else "PASS"
    got = plural(e.stones)
    if e.stones == 0:
        got = "no stones (the table is empty and the LAST MAPPANO gives none)"
    elif source:
        got = f"{got} {source}"
    who = names[e.seat]
    if stand_in:
        return f"{stand_in_words(who)}, who cannot play — {kind}: {got}"
    return f"{who} cannot play — {kind}: {got}"


def _moved(e: StonesMoved, names: Sequence[str]) -> str:
    return (
        f"{names[e.receiver]} receives {plural(e.amount)} "
        f"{transfer_source(e.giver, names)} — {reason_words(Reason(e.reason))}"
    )


def _ended(e: RoundEnded, names: Sequence[str]) -> str:
    if e.end is RoundEnd.CAPPU and e.first_cappu is not None:
        who = names[e.first_cappu]
        if e.finish is Finish.CEKI:
            how = "FIRST CAPPU with a CEKI (MAPPAKULING with a tile that is not a LEMPA)"
        elif e.finish is Finish.POLLO:
            how = "FIRST CAPPU with a POLLO (MAPPAKULING with a LEMPA)"
        else:
            how = "FIRST CAPPU"
        text = f"{who} has played every tile: {how}. {who} wins the round"
        if e.cucuq is not None:
            text += f"; CUCUQ: {names[e.cucuq]}"
        return text
    manguno = e.manguno if e.manguno is not None else e.winner
    totals = e.pip_totals
    text = f"The line is blocked: {names[manguno]} is MANGUNO with {pips(totals[manguno])}"
    if not e.mattikkeng:
        text += f", no MATTIKKENG. {names[manguno]} wins the round"
        if e.cucuq is not None:
            text += f"; CUCUQ: {names[e.cucuq]}"
        return text
    listed = ", ".join(f"{names[s]} ({pips(totals[s])})" for s in e.mattikkeng)
    word = "MATTIKKENG" if len(e.mattikkeng) == 1 else f"{len(e.mattikkeng)} MATTIKKENG"
    return f"{text}; {word}: {listed}. {names[e.winner]} wins the round"


def _camat(e: CamatElected, names: Sequence[str]) -> str:
    title = "title" if e.titles == 1 else "titles"
    return (
        f"{names[e.seat]} is elected CAMAT ({e.titles} {title}); all 25 stones go back to the table"
    )


def describe(event: Event, names: Sequence[str], stand_in: bool = False) -> str:
    """One engine event as one sentence for people (no final full stop).

    ``names`` holds the five players' names, seat 0 first. ``stand_in``: a
    computer player made this play (or pass) for the person at its seat; the
    sentence says so. It changes nothing for the other events.

    >>> from domeng.engine import (Played, Passed, StonesMoved, RoundEnded, CamatElected,
    ...     Reason, RoundEnd, Finish, End, parse_tile)
    >>> names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
    >>> describe(Played(0, parse_tile("6-6"), End.RIGHT, 6, 6, False, True), names)
    'Andi opens with 6-6 (a LEMPA): the line shows 6 and 6'
    >>> describe(Played(1, parse_tile("6-3"), End.RIGHT, 6, 3, False, False), names)
    'Besse plays 6-3 at the right end [6|3]: the line shows 6 and 3'
    >>> describe(Played(2, parse_tile("6-3"), End.LEFT, 3, 3, True, False), names)
    'Cicci plays 6-3 at the left end [3|6] — MAPPAKULING: both ends show 3'
    >>> describe(Passed(3, False, 1, 3, 3), names)
    'Daeng cannot play — PASS: 1 stone'
    >>> describe(Passed(3, False, 0, 3, 3), names)
    'Daeng cannot play — PASS: no stones (the table is empty and the LAST MAPPANO gives none)'
    >>> describe(StonesMoved(0, 4, 3, Reason.CEKI), names)
    'Emba receives 3 stones from Andi — CUCUQ of a CEKI'
    >>> hands = (0, 0, 0, 0, 0)
    >>> describe(RoundEnded(RoundEnd.CAPPU, 0, 0, Finish.CEKI, None, (), 4, hands, 0,
    ...     (0, 7, 9, 12, 3)), names)  # doctest: +NORMALIZE_WHITESPACE
    'Andi has played every tile: FIRST CAPPU with a CEKI (MAPPAKULING with a tile that
     is not a LEMPA). Andi wins the round; CUCUQ: Emba'
    >>> print(describe(RoundEnded(RoundEnd.BLOCK, 1, None, None, 1, (), 0, hands, 0,
    ...     (9, 8, 10, 12, 11)), names))  # doctest: +NORMALIZE_WHITESPACE
    The line is blocked: Besse is MANGUNO with 8 pips, no MATTIKKENG.
    Besse wins the round; CUCUQ: Andi
    >>> print(describe(RoundEnded(RoundEnd.BLOCK, 3, None, None, 1, (3, 4), None, hands, 0,
    ...     (9, 8, 10, 5, 8)), names))  # doctest: +NORMALIZE_WHITESPACE
    The line is blocked: Besse is MANGUNO with 8 pips; 2 MATTIKKENG: Daeng (5 pips),
    Emba (8 pips). Daeng wins the round
    >>> describe(CamatElected(2, 1), names)
    'Cicci is elected CAMAT (1 title); all 25 stones go back to the table'
    >>> describe(Played(1, parse_tile("6-3"), End.RIGHT, 6, 3, False, False), names, True)
    'A computer plays for Besse: 6-3 at the right end [6|3]; the line shows 6 and 3'
    >>> describe(Played(0, parse_tile("6-6"), End.RIGHT, 6, 6, False, True), names, True)
    'A computer plays for Andi and opens with 6-6 (a LEMPA): the line shows 6 and 6'
    >>> describe(Played(2, parse_tile("6-3"), End.LEFT, 3, 3, True, False), names, True)
    'A computer plays for Cicci: 6-3 at the left end [3|6] — MAPPAKULING: both ends show 3'
    >>> describe(Passed(3, False, 1, 3, 3), names, stand_in=True)
    'A computer plays for Daeng, who cannot play — PASS: 1 stone'
    """
    if isinstance(event, Played):
        return _played(event, names, stand_in)
    if isinstance(event, Passed):
        return _passed(event, names, stand_in=stand_in)
    if isinstance(event, StonesMoved):
        return _moved(event, names)
    if isinstance(event, RoundEnded):
        return _ended(event, names)
    return _camat(event, names)


def narrate(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """The events as sentences, a pass told together with the stones it brought.

    A ``Passed`` event is followed by the ``StonesMoved`` events that paid it;
    when the table paid it all they fold into the pass's sentence ("2 stones
    from the table"); when a LAST MAPPANO had to give, each transfer gets its
    own sentence after the pass.

    >>> from domeng.engine import Passed, StonesMoved, Reason
    >>> names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
    >>> narrate([Passed(1, False, 1, 6, 2), StonesMoved(None, 1, 1, Reason.PASS)], names)
    ['Besse cannot play — PASS: 1 stone from the table']
    >>> narrate([Passed(1, False, 1, 6, 2), StonesMoved(0, 1, 1, Reason.PASS)], names)
    ['Besse cannot play — PASS: 1 stone from Andi']
    >>> for line in narrate([Passed(2, True, 2, 6, 2), StonesMoved(None, 2, 1,
    ...         Reason.PASSEBUNGE), StonesMoved(0, 2, 1, Reason.PASSEBUNGE)], names):
    ...     print(line)
    Cicci cannot play — PASSEBUNGE: 2 stones
    Cicci receives 1 stone from the table — PASSEBUNGE
    Cicci receives 1 stone from Andi — PASSEBUNGE
    """
    lines: list[str] = []
    i = 0
    while i < len(events):
        e = events[i]
        i += 1
        if not isinstance(e, Passed):
            lines.append(describe(e, names))
            continue
        paid: list[StonesMoved] = []
        while i < len(events):
            nxt = events[i]
            if not isinstance(nxt, StonesMoved) or nxt.receiver != e.seat:
                break
            if nxt.reason not in (Reason.PASS, Reason.PASSEBUNGE):
                break
            paid.append(nxt)
            i += 1
        if len(paid) == 1:
            lines.append(_passed(e, names, transfer_source(paid[0].giver, names)))
        else:
            lines.append(_passed(e, names))
            lines.extend(_moved(m, names) for m in paid)
    return lines


def shortfall(events: Sequence[Event], names: Sequence[str]) -> str | None:
    """When a round's ending gave less than the rules award (the table ran out and the
    givers had too few), say so: a CEKI that brought 1 stone looks like a mistake.
    ``events`` are the round's; None when the award was paid in full or the round goes on.
    """
    ended = next((e for e in events if type(e) is RoundEnded), None)
    if ended is None:
        return None
    receiver, owed = ending_award(ended)
    after = events[events.index(ended) + 1 :]
    got = sum(e.amount for e in after if type(e) is StonesMoved)
    if got >= owed:
        return None
    return (
        f"{names[receiver]} was owed {plural(owed)} for the ending and received "
        f"{plural(got) if got else 'none'}: the table and the givers had no more"
    )


def _and(words: Sequence[str]) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``."""
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


def standings_sentence(table: Sequence[Standing], names: Sequence[str], *, over: bool) -> str:
    """Who is first in ``table`` (:func:`domeng.engine.standings.standings`, rank order),
    and by what: the most CAMAT titles, then the fewest stones, then the fewest received.
    ``over``: the game has ended ("wins the game"); otherwise it is the game so far
    ("leads"). Players sharing rank 1 are said to share it.

    >>> names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
    >>> def st(seat, rank, titles, stones, received):
    ...     return Standing(seat, rank, titles, stones, received, 0, 0, 0, 0, 0)
    >>> standings_sentence([st(3, 1, 3, 4, 9), st(0, 2, 2, 0, 3)], names, over=True)
    'Daeng wins the game with 3 CAMAT titles'
    >>> standings_sentence([st(3, 1, 1, 2, 9), st(0, 2, 1, 5, 3)], names, over=False)
    'Daeng leads with 1 CAMAT title and the fewest stones (2)'
    >>> standings_sentence([st(3, 1, 0, 2, 3), st(0, 2, 0, 2, 9)], names, over=True)
    'Daeng wins the game with no CAMAT titles, 2 stones and the fewest received (3)'
    >>> standings_sentence([st(3, 1, 2, 1, 7), st(4, 1, 2, 1, 7), st(0, 3, 1, 0, 0)],
    ...     names, over=True)
    'Daeng and Emba share the win: 2 CAMAT titles, 1 stone and 7 received each'
    """
    first = [s for s in table if s.rank == 1]
    best = first[0]
    titles = plural(best.titles, "CAMAT title")
    if len(first) > 1:
        who = _and([names[s.seat] for s in first])
        what = "win" if over else "lead"
        return (
            f"{who} share the {what}: {titles}, {plural(best.stones)} and "
            f"{best.received} received each"
        )
    runner_up = next((s for s in table if s.rank > 1), None)
    if runner_up is None or runner_up.titles != best.titles:
        why = titles
    elif runner_up.stones != best.stones:
        why = f"{titles} and the fewest stones ({best.stones})"
    else:
        why = f"{titles}, {plural(best.stones)} and the fewest received ({best.received})"
    verb = "wins the game" if over else "leads"
    return f"{names[best.seat]} {verb} with {why}"


_SECOND_PERSON = {
    "plays": "play",
    "opens": "open",
    "starts": "start",
    "receives": "receive",
    "has": "have",
    "is": "are",
    "wins": "win",
    "leads": "lead",
    "was": "were",
}


def you_form(text: str, name: str) -> str:
    """Turn "You plays" into "You play" when the person's name is "You" (the terminal's
    default name, which its saved games keep).

    >>> you_form("You plays 6-4 at the right end", "You")
    'You play 6-4 at the right end'
    >>> you_form("Andi plays 6-4", "Andi")
    'Andi plays 6-4'
    >>> you_form("A computer plays for You: 6-4 at the right end [4|6]", "You")
    'A computer plays for you: 6-4 at the right end [4|6]'
    """
    if name != "You":
        return text
    verbs = "|".join(_SECOND_PERSON)
    text = re.sub(r"\bfor You\b", "for you", text)
    return re.sub(rf"\bYou ({verbs})\b", lambda m: "You " + _SECOND_PERSON[m.group(1)], text)
