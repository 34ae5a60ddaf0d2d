"""The running account of a round, in the game's own words, in any of Domeng's languages.

The browser table tells each event from its fields (``web/js/account.js``) with
the texts of ``web/i18n/<code>.json``; this module tells the same events with
the same keys of the same catalogs (``ev.plays``, ``reason.CEKI``,
``n_stones``...), so that each sentence of the account is written once, in
every language. The terminal (``domeng play``, ``domeng replay``) passes the
words of its language; the table service words each event's ``text`` (for
programs other than the browser) in English, the default. The game's terms stay
untranslated and capitalised: LEMPA, PASS, PASSEBUNGE, MAPPAKULING, FIRST
CAPPU, CEKI, POLLO, MANGUNO, MATTIKKENG, CUCUQ, CAMAT, STONES.

Everything here is a pure function of its arguments.

>>> from domeng.engine import Passed, StonesMoved, Reason
>>> from domeng.i18n import words
>>> names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
>>> describe(Passed(1, True, 2, 6, 6), names)
'Besse cannot play — PASSEBUNGE: 2 STONES'
>>> describe(StonesMoved(None, 1, 2, Reason.PASSEBUNGE), names, w=words("id"))
'Besse menerima 2 STONES dari meja — PASSEBUNGE'
"""

from __future__ import annotations

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
from domeng.engine.tiles import HIGH, LOW
from domeng.i18n import Words, words

__all__ = [
    "describe",
    "domino",
    "narrate",
    "pips",
    "reason_words",
    "shortfall",
    "stand_in_words",
    "standings_sentence",
    "stones",
]

_EN = words("en")

# The reasons' keys as the browser has them (``reason.<word>``, the record's word).
_REASON_KEYS: dict[Reason, str] = {
    Reason.PASS: "reason.PASS",
    Reason.PASSEBUNGE: "reason.PASSEBUNGE",
    Reason.FIRST_CAPPU: "reason.FIRST CAPPU",
    Reason.CEKI: "reason.CEKI",
    Reason.POLLO: "reason.POLLO",
    Reason.MANGUNO: "reason.MANGUNO",
    Reason.MATTIKKENG: "reason.MATTIKKENG",
}


def stones(n: int, w: Words = _EN) -> str:
    """A count of STONES, as the browser says it.

    >>> stones(1), stones(3), stones(0), stones(2, words("nl"))
    ('1 STONE', '3 STONES', '0 STONES', '2 STONES')
    """
    return w.count("n_stones", n)


def pips(n: int, w: Words = _EN) -> str:
    """``"0 pips"``, ``"1 pip"``, ``"12 pips"``.

    >>> pips(0), pips(1), pips(12), pips(12, words("id"))
    ('0 pips', '1 pip', '12 pips', '12 mata')
    """
    return w.count("count.pips", n)


def reason_words(reason: Reason, w: Words = _EN) -> str:
    """Why stones moved, in the game's words.

    >>> reason_words(Reason.CEKI), reason_words(Reason.MATTIKKENG, words("id"))
    ('CUCUQ of a CEKI', 'MANGUNO dikalahkan MATTIKKENG')
    """
    return w(_REASON_KEYS[reason])


def domino(high: int, low: int) -> str:
    """A tile as the account shows it, ``[6|3]``."""
    return f"[{high}|{low}]"


def _tile_shown(t: int, end: End, left: int, right: int) -> str:
    """The tile as it lies on the line after the play, e.g. ``[6|3]``."""
    high, low = HIGH[t], LOW[t]
    if end is End.LEFT:
        # The tile's outer half now shows at the left end.
        return domino(left, high if low == left else low)
    return domino(high if low == right else low, right)


def stand_in_words(name: str, w: Words = _EN) -> str:
    """Who moves when a computer player moves for a person (a stand-in, record.md).

    >>> stand_in_words("Guest")
    'A computer plays for Guest'
    """
    return w("account.stand_in", who=name)


def _key(key: str, seat: int, you: int | None) -> str:
    """``ev.plays`` -> ``you.plays`` when the sentence's subject is the person at the
    keyboard (``you``): their seat gets its own sentences, in the second person."""
    return "you." + key.removeprefix("ev.") if seat == you else key


def _name(seat: int, names: Sequence[str], you: int | None, w: Words) -> str:
    """A seat's name inside a sentence: "you" in the language for the person's seat."""
    return w("you.word") if seat == you else names[seat]


def _played(e: Played, names: Sequence[str], stand_in: bool, w: Words, you: int | None) -> str:
    si = "ev.si_" if stand_in else "ev."
    who = names[e.seat]
    if e.opening:
        key = f"{si}opens_lempa" if HIGH[e.tile] == LOW[e.tile] else f"{si}opens"
        return w(
            _key(key, e.seat, you),
            who=who,
            tile=domino(HIGH[e.tile], LOW[e.tile]),
            left=e.left,
            right=e.right,
        )
    end = End(e.end)
    key = f"{si}plays_mappakuling" if e.mappakuling else f"{si}plays"
    return w(
        _key(key, e.seat, you),
        who=who,
        tile=_tile_shown(e.tile, end, e.left, e.right),
        end=w("end_left" if end is End.LEFT else "end_right"),
        left=e.left,
        right=e.right,
    )


def _passed(e: Passed, names: Sequence[str], stand_in: bool, w: Words, you: int | None) -> str:
    key = ("ev.si_" if stand_in else "ev.") + ("passebunge" if e.passebunge else "pass")
    return w(_key(key, e.seat, you), who=names[e.seat], stones=stones(e.stones, w))


def _moved(e: StonesMoved, names: Sequence[str], w: Words, you: int | None) -> str:
    key = "ev.stones_table" if e.giver is None else "ev.stones_from"
    key = "you.stones_to" if you is not None and e.giver == you else _key(key, e.receiver, you)
    return w(
        key,
        who=names[e.receiver],
        stones=stones(e.amount, w),
        giver="" if e.giver is None else names[e.giver],
        reason=reason_words(Reason(e.reason), w),
    )


def _ended(e: RoundEnded, names: Sequence[str], w: Words, you: int | None) -> str:
    cucuq = _name(e.cucuq, names, you, w) if e.cucuq is not None else "—"
    if e.end is RoundEnd.CAPPU and e.first_cappu is not None:
        key = {Finish.CEKI: "ev.cappu_ceki", Finish.POLLO: "ev.cappu_pollo"}.get(
            Finish(e.finish) if e.finish is not None else Finish.PLAIN, "ev.cappu"
        )
        return w(_key(key, e.first_cappu, you), who=names[e.first_cappu], cucuq=cucuq)
    manguno = e.manguno if e.manguno is not None else e.winner
    if not e.mattikkeng:
        return w(_key("ev.manguno", manguno, you), who=names[manguno], cucuq=cucuq)
    if manguno == you:
        key = "you.manguno_mattikkeng"
    elif e.winner == you:
        key = "you.mattikkeng_win"
    else:
        key = "ev.manguno_mattikkeng"
    return w(
        key,
        who=names[manguno],
        mattikkeng=", ".join(_name(s, names, you, w) for s in e.mattikkeng),
        winner=names[e.winner],
    )


def describe(
    event: Event,
    names: Sequence[str],
    stand_in: bool = False,
    w: Words = _EN,
    you: int | None = None,
) -> str:
    """One engine event as one sentence for people (no final full stop), as the
    browser's ``describe`` in ``account.js`` tells it.

    ``names`` holds the five players' names, seat 0 first. ``stand_in``: a
    computer player made this play (or pass) for the person at its seat; the
    sentence says so. It changes nothing for the other events. ``you``: the seat of
    the person the sentences are told to (the terminal's player); what that seat
    does is told in the second person, with the terminal's keys ``you.*``.

    >>> from domeng.engine import (Played, Passed, StonesMoved, RoundEnded, CamatElected,
    ...     Reason, RoundEnd, Finish, End, parse_tile)
    >>> names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
    >>> describe(Played(0, parse_tile("6-6"), End.RIGHT, 6, 6, False, True), names)
    'Andi opens with the LEMPA [6|6]: the line shows 6 and 6'
    >>> describe(Played(1, parse_tile("6-3"), End.RIGHT, 6, 3, False, False), names)
    'Besse plays [6|3] at the right end: the line shows 6 and 3'
    >>> describe(Played(2, parse_tile("6-3"), End.LEFT, 3, 3, True, False), names)
    'Cicci plays [3|6] at the left end — MAPPAKULING: both ends show 3'
    >>> describe(Passed(3, False, 1, 3, 3), names)
    'Daeng cannot play — PASS: 1 STONE'
    >>> describe(StonesMoved(0, 4, 3, Reason.CEKI), names)
    'Emba receives 3 STONES from Andi — CUCUQ of a CEKI'
    >>> hands = (0, 0, 0, 0, 0)
    >>> describe(RoundEnded(RoundEnd.CAPPU, 0, 0, Finish.CEKI, None, (), 4, hands, 0,
    ...     (0, 7, 9, 12, 3)), names)
    'Andi finishes with MAPPAKULING: CEKI! FIRST CAPPU, and wins the round. CUCUQ: Emba'
    >>> describe(RoundEnded(RoundEnd.BLOCK, 3, None, None, 1, (3, 4), None, hands, 0,
    ...     (9, 8, 10, 5, 8)), names)
    'The line is blocked: Besse is MANGUNO; MATTIKKENG: Daeng, Emba. Daeng wins the round'
    >>> describe(CamatElected(2, 1), names)
    'Cicci becomes CAMAT (titles: 1); all 25 STONES go back to the table'
    >>> describe(Played(1, parse_tile("6-3"), End.RIGHT, 6, 3, False, False), names, True)
    'A computer plays for Besse: [6|3] at the right end; the line shows 6 and 3'
    >>> describe(Passed(3, False, 1, 3, 3), names, stand_in=True, w=words("pt"))
    'O computador joga por Daeng, que não pode jogar — PASS: 1 STONES'

    The person at the keyboard:

    >>> describe(Passed(0, False, 1, 3, 3), names, you=0)
    'You cannot play — PASS: 1 STONE'
    >>> describe(Passed(0, False, 1, 3, 3), names, w=words("tr"), you=0)
    'Oynayamıyorsun — PASS: 1 STONES'
    >>> describe(StonesMoved(0, 4, 3, Reason.CEKI), names, w=words("nl"), you=0)
    'Emba krijgt 3 STONES van jou — CUCUQ van een CEKI'
    >>> describe(RoundEnded(RoundEnd.BLOCK, 0, None, None, 1, (0, 4), None, hands, 0,
    ...     (5, 8, 10, 9, 8)), names, you=0)
    'The line is blocked: Besse is MANGUNO; MATTIKKENG: you, Emba. You win the round'
    """
    if isinstance(event, Played):
        return _played(event, names, stand_in, w, you)
    if isinstance(event, Passed):
        return _passed(event, names, stand_in, w, you)
    if isinstance(event, StonesMoved):
        return _moved(event, names, w, you)
    if isinstance(event, RoundEnded):
        return _ended(event, names, w, you)
    assert isinstance(event, CamatElected)
    return w(_key("ev.camat", event.seat, you), who=names[event.seat], titles=event.titles)


def narrate(
    events: Sequence[Event],
    names: Sequence[str],
    stand_ins: Sequence[bool] = (),
    w: Words = _EN,
    you: int | None = None,
) -> list[str]:
    """The events as sentences, one each, as the browser's account lists them.
    ``stand_ins[i]``: event ``i`` is a stand-in's play or pass; ``you`` as for
    :func:`describe`.

    >>> from domeng.engine import Passed, StonesMoved, Reason
    >>> names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
    >>> for line in narrate([Passed(1, False, 1, 6, 2), StonesMoved(0, 1, 1, Reason.PASS)],
    ...         names):
    ...     print(line)
    Besse cannot play — PASS: 1 STONE
    Besse receives 1 STONE from Andi — PASS
    """
    return [
        describe(e, names, i < len(stand_ins) and stand_ins[i], w, you)
        for i, e in enumerate(events)
    ]


def shortfall(
    events: Sequence[Event], names: Sequence[str], w: Words = _EN, you: int | None = None
) -> str | None:
    """When a round's ending gave less than the rules award (the table ran out and the
    givers had too few), say so: a CEKI that brought 1 stone looks like a mistake.
    ``events`` are the round's; None when the award was paid in full or the round goes on.
    The sentence ends with its full stop (the browser's ``summary.short``).
    """
    ended = next((e for e in events if type(e) is RoundEnded), None)
    if ended is None:
        return None
    receiver, owed = ending_award(ended)
    after = events[events.index(ended) + 1 :]
    got = sum(e.amount for e in after if type(e) is StonesMoved)
    if got >= owed:
        return None
    key = "you.short" if receiver == you else "summary.short"
    return w(key, who=names[receiver], owed=stones(owed, w), got=stones(got, w))


def _and(items: Sequence[str], w: Words) -> str:
    """``"A"``, ``"A and B"``, ``"A, B and C"``."""
    if len(items) == 1:
        return items[0]
    return w("account.and", first=", ".join(items[:-1]), last=items[-1])


def standings_sentence(
    table: Sequence[Standing],
    names: Sequence[str],
    *,
    over: bool,
    w: Words = _EN,
    you: int | None = None,
) -> str:
    """Who is first in ``table`` (:func:`domeng.engine.standings.standings`, rank order),
    and by what: the most CAMAT titles, then the fewest stones, then the fewest received.
    ``over``: the game has ended ("wins the game"); otherwise it is the game so far
    ("leads"). Players sharing rank 1 are said to share it. ``you`` as for
    :func:`describe`.

    >>> names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
    >>> def st(seat, rank, titles, stones, received):
    ...     return Standing(seat, rank, titles, stones, received, 0, 0, 0, 0, 0)
    >>> standings_sentence([st(3, 1, 3, 4, 9), st(0, 2, 2, 0, 3)], names, over=True)
    'Daeng wins the game with 3 CAMAT titles'
    >>> standings_sentence([st(3, 1, 1, 2, 9), st(0, 2, 1, 5, 3)], names, over=False)
    'Daeng leads with 1 CAMAT title and the fewest STONES (2)'
    >>> standings_sentence([st(3, 1, 0, 2, 3), st(0, 2, 0, 2, 9)], names, over=True)
    'Daeng wins the game with no CAMAT titles, 2 STONES and the fewest received (3)'
    >>> standings_sentence([st(3, 1, 2, 1, 7), st(4, 1, 2, 1, 7), st(0, 3, 1, 0, 0)],
    ...     names, over=True)
    'Daeng and Emba share the win: 2 CAMAT titles, 1 STONE and 7 received each'
    >>> standings_sentence([st(3, 1, 2, 1, 7), st(0, 1, 2, 1, 7), st(4, 1, 2, 1, 7)],
    ...     names, over=False, you=0)
    'You, Daeng and Emba share the lead: 2 CAMAT titles, 1 STONE and 7 received each'
    """
    first = [s for s in table if s.rank == 1]
    best = first[0]
    titles = w.count("account.n_titles", best.titles)
    if len(first) > 1:
        key = "account.share_win" if over else "account.share_lead"
        sharing = [names[s.seat] for s in first if s.seat != you]
        if len(sharing) < len(first):  # the person at the keyboard first: "You and Daeng"
            pronoun = w("you.word")
            if str(w.raw(key)).startswith("{who}"):
                pronoun = pronoun[:1].upper() + pronoun[1:]
            sharing.insert(0, pronoun)
        return w(
            key,
            who=_and(sharing, w),
            titles=titles,
            stones=stones(best.stones, w),
            received=best.received,
        )
    runner_up = next((s for s in table if s.rank > 1), None)
    if runner_up is None or runner_up.titles != best.titles:
        why = titles
    elif runner_up.stones != best.stones:
        why = w("account.by_stones", titles=titles, n=best.stones)
    else:
        why = w(
            "account.by_received", titles=titles, stones=stones(best.stones, w), n=best.received
        )
    if best.seat == you:
        return w("you.wins_with" if over else "you.leads_with", why=why)
    return w("account.wins_with" if over else "account.leads_with", who=names[best.seat], why=why)
