"""domeng.account: the person at the keyboard (``you``) is told in the second person, with
the terminal's keys ``you.*``, in every language; nobody else's sentence changes."""

from __future__ import annotations

import random

import pytest

from domeng.account import describe, shortfall, standings_sentence
from domeng.engine import (
    CamatElected,
    Event,
    Finish,
    Game,
    Passed,
    Played,
    Reason,
    RoundEnd,
    RoundEnded,
    StonesMoved,
)
from domeng.engine.standings import Standing
from domeng.i18n import LANGUAGES, words

NAMES = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
HANDS = (0, 0, 0, 0, 0)


def _events(seed: int = 5, rounds: int = 6) -> list[Event]:
    rng = random.Random(seed)
    game = Game()
    for _ in range(rounds):
        game.deal(rng)
        while not game.round.finished:
            game.play(rng.choice(game.legal_moves()))
    return list(game.events)


def _subject(e: Event) -> int | None:
    """The seat a sentence is about (its grammatical subject)."""
    if isinstance(e, Played | Passed):
        return e.seat
    if isinstance(e, StonesMoved):
        return e.receiver
    if isinstance(e, CamatElected):
        return e.seat
    return None


@pytest.mark.parametrize("code", LANGUAGES)
def test_only_the_person_s_own_sentences_change(code: str) -> None:
    w = words(code)
    you_said = 0
    for e in _events():
        for you in range(5):
            own = describe(e, NAMES, w=w)
            told = describe(e, NAMES, w=w, you=you)
            involved = {_subject(e)}
            if isinstance(e, StonesMoved):
                involved.add(e.giver)
            if isinstance(e, RoundEnded):
                involved |= {e.winner, e.first_cappu, e.manguno, e.cucuq, *e.mattikkeng}
            if you not in involved:
                assert told == own, (code, e, you)
            else:
                assert told != own, (code, e, you)
                # the person is never named by a name: "you" in the language instead
                assert NAMES[you] not in told, (code, told)
                you_said += 1
    assert you_said > 50


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_event_of_the_person_uses_its_own_key(code: str) -> None:
    w = words(code)
    played = Played(0, 20, 1, 6, 3, False, False)  # a tile, any: the key is what counts

    def cappu(finish: Finish) -> RoundEnded:
        return RoundEnded(RoundEnd.CAPPU, 0, 0, finish, None, (), 4, HANDS, 0, (0,) * 5)

    def block(winner: int, manguno: int, mattikkeng: tuple[int, ...]) -> RoundEnded:
        cucuq = None if mattikkeng else 4
        return RoundEnded(
            RoundEnd.BLOCK, winner, None, None, manguno, mattikkeng, cucuq, HANDS, 0, (5,) * 5
        )

    cases: list[tuple[Event, str]] = [
        (Played(0, 27, 1, 6, 6, False, True), "you.opens_lempa"),
        (played, "you.plays"),
        (Passed(0, False, 1, 6, 3), "you.pass"),
        (Passed(0, True, 2, 6, 3), "you.passebunge"),
        (StonesMoved(None, 0, 1, Reason.PASS), "you.stones_table"),
        (StonesMoved(2, 0, 1, Reason.PASS), "you.stones_from"),
        (StonesMoved(0, 2, 1, Reason.PASS), "you.stones_to"),
        (CamatElected(0, 1), "you.camat"),
        (cappu(Finish.PLAIN), "you.cappu"),
        (cappu(Finish.CEKI), "you.cappu_ceki"),
        (cappu(Finish.POLLO), "you.cappu_pollo"),
        (block(0, 0, ()), "you.manguno"),
        (block(2, 0, (2,)), "you.manguno_mattikkeng"),
        (block(0, 3, (0, 4)), "you.mattikkeng_win"),
    ]
    for e, key in cases:
        first = w.raw(key)
        assert isinstance(first, str)
        head = first.split("{")[0]  # the key's words before its first value
        told = describe(e, NAMES, w=w, you=0)
        assert told.startswith(head), (code, key, told)
        assert NAMES[0] not in told, (code, key, told)  # the person is never named
    # a stand-in's play for the person, and the person in a list (MATTIKKENG, CUCUQ)
    si = describe(played, NAMES, stand_in=True, w=w, you=0)
    assert si.startswith(str(w.raw("you.si_plays")).split("{")[0]), (code, si)
    listed = RoundEnded(RoundEnd.BLOCK, 4, None, None, 3, (4, 0), None, HANDS, 0, (5,) * 5)
    assert f"{NAMES[4]}, {w('you.word')}" in describe(listed, NAMES, w=w, you=0)


def test_english_reads_as_second_person() -> None:
    ceki = RoundEnded(RoundEnd.CAPPU, 0, 0, Finish.CEKI, None, (), 4, HANDS, 0, (0,) * 5)
    assert describe(ceki, NAMES, you=0) == (
        "You finish with MAPPAKULING: CEKI! FIRST CAPPU, and you win the round. CUCUQ: Emba"
    )
    assert describe(ceki, NAMES, you=4).endswith("CUCUQ: you")
    assert describe(Passed(0, False, 1, 6, 3), NAMES, w=words("tr"), you=0) == (
        "Oynayamıyorsun — PASS: 1 STONES"
    )
    assert describe(Passed(0, False, 1, 6, 3), NAMES, w=words("hi"), you=0) == (
        "आप नहीं खेल सकते — PASS: 1 STONES"
    )
    moved = StonesMoved(0, 1, 2, Reason.PASS)
    assert describe(moved, NAMES, w=words("nl"), you=0) == "Besse krijgt 2 STONES van jou — PASS"


def _standing(seat: int, rank: int, titles: int, stones: int, received: int) -> Standing:
    return Standing(seat, rank, titles, stones, received, 0, 0, 0, 0, 0)


def test_the_standings_sentence_of_the_person() -> None:
    alone = [_standing(0, 1, 2, 0, 3), _standing(1, 2, 1, 0, 0)]
    assert standings_sentence(alone, NAMES, over=True, you=0) == (
        "You win the game with 2 CAMAT titles"
    )
    assert standings_sentence(alone, NAMES, over=False, w=words("tr"), you=0).startswith("Öndesin")
    shared = [_standing(3, 1, 1, 2, 4), _standing(0, 1, 1, 2, 4), _standing(1, 3, 0, 0, 0)]
    assert standings_sentence(shared, NAMES, over=True, you=0).startswith("You and Daeng share")
    # where the sentence does not start with the names the pronoun is not capitalised
    assert "sen ve Daeng" in standings_sentence(shared, NAMES, over=True, w=words("tr"), you=0)
    assert standings_sentence(shared, NAMES, over=True).startswith("Daeng and Andi share")


def test_the_shortfall_of_the_person() -> None:
    ceki = RoundEnded(RoundEnd.CAPPU, 1, 1, Finish.CEKI, None, (), 0, HANDS, 0, (0,) * 5)
    events: list[Event] = [ceki, StonesMoved(None, 0, 1, Reason.CEKI)]
    said = shortfall(events, NAMES, you=0)
    assert said is not None and said.startswith("You were owed 3 STONES")
    assert shortfall(events, NAMES) == (
        "Andi was owed 3 STONES for the ending and received 1 STONE: the table and the givers "
        "had no more."
    )
