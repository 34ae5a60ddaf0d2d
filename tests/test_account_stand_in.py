"""domeng.account: a stand-in's play or pass is told as a computer's made for the person
(record.md, protocol.md); every other sentence is the same with or without the flag."""

from __future__ import annotations

import random

from domeng.account import describe, stand_in_words
from domeng.engine import Event, Game, Passed, Played

NAMES = ["Andi", "Besse", "Guest", "Daeng", "Emba"]


def _events() -> list[Event]:
    rng = random.Random(5)
    game = Game()
    for _ in range(3):
        game.deal(rng)
        while not game.round.finished:
            game.play(rng.choice(game.legal_moves()))
    return list(game.events)


def test_only_plays_and_passes_change_and_they_name_the_person() -> None:
    events = _events()
    kinds = set()
    for e in events:
        own = describe(e, NAMES)
        assert describe(e, NAMES, False) == own
        told = describe(e, NAMES, stand_in=True)
        if isinstance(e, Played | Passed):
            who = NAMES[e.seat]
            assert told.startswith(f"A computer plays for {who}")
            assert told != own
            kinds.add(
                type(e).__name__ + (" opening" if isinstance(e, Played) and e.opening else "")
            )
        else:
            assert told == own
    assert kinds == {"Played", "Played opening", "Passed"}


def test_the_rest_of_the_sentence_is_kept() -> None:
    for e in _events():
        if isinstance(e, Played) and not e.opening and not e.mappakuling:
            own = describe(e, NAMES)
            told = describe(e, NAMES, stand_in=True)
            # "Guest plays 6-5 at ... [6|5]: the line shows" -> "A computer plays for
            # Guest: 6-5 at ... [6|5]; the line shows"
            head, tail = own.split(": the line shows ")
            assert (
                told
                == head.replace(f"{NAMES[e.seat]} plays ", f"{stand_in_words(NAMES[e.seat])}: ")
                + f"; the line shows {tail}"
            )
        if isinstance(e, Passed):
            own = describe(e, NAMES)
            told = describe(e, NAMES, stand_in=True)
            assert told == f"A computer plays for {NAMES[e.seat]}, who " + own.split(" ", 1)[1]
