"""A game in the terminal: one person at seat 0, four computer players, the input loop.

The session drives the engine's :class:`~domeng.engine.Game` and nothing
else decides a rule: the person picks among the seat's legal moves, the
computer players choose from their seat's view, and every change is told from
the engine's events. The game is saved as a ``domeng.record/1`` file after
every move, so that ``domeng play --resume FILE`` can continue it.
"""

from __future__ import annotations

import contextlib
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from rich.console import Console
from rich.text import Text

from domeng.bots import Player, make_player
from domeng.commands.invocation import command_line
from domeng.engine import SEATS, End, Game, Move, Round, RoundEnded, SeatView, parse_tile
from domeng.engine.record import StandIns, save_record
from domeng.engine.seatname import name_key, seat_name, split_name
from domeng.i18n import current

from .render import (
    PERSON,
    Wrapped,
    concerns,
    domino,
    end_choice,
    final_standings,
    full_stop,
    glossary,
    hand_tiles,
    numbered,
    round_header,
    round_summary,
    rules,
    sentence,
    status,
)

__all__ = [
    "OPPONENT_NAMES",
    "PERSON",
    "SPARE_NAME",
    "PlaySession",
    "Quit",
    "Seat",
    "Until",
    "bot_seed",
    "deal_rng",
    "new_seats",
    "resumed_seats",
]


OPPONENT_NAMES = ("Besse", "Cicci", "Daeng", "Emba")
"""The computer players' names at seats 1-4."""
SPARE_NAME = "Andi"
"""The name of the computer player whose name is the person's (``--name Daeng``,
``--player daeng``): no two seats show the same name."""


class Quit(Exception):
    """The person asked to stop (q)."""


@dataclass(frozen=True, slots=True)
class Until:
    """When a game ends: once a player has ``count`` CAMAT titles, or after ``count``
    rounds; either way at the end of the round that reaches it.

    >>> Until.parse("titles=3"), str(Until.parse(" Rounds = 20 "))
    (Until(what='titles', count=3), 'rounds=20')
    >>> Until.parse("rounds=0")
    Traceback (most recent call last):
    ...
    ValueError: the count in 'rounds=0' must be a whole number from 1
    """

    what: Literal["titles", "rounds"]
    count: int

    @classmethod
    def parse(cls, text: str) -> Until:
        """``"titles=N"`` or ``"rounds=N"`` (N from 1); ValueError saying what is wrong."""
        what, sep, count = (part.strip() for part in text.partition("="))
        what = what.lower()
        if not sep or what not in ("titles", "rounds"):
            raise ValueError(f"{text.strip()!r} is not titles=N or rounds=N")
        if not (count.isascii() and count.isdigit()) or int(count) < 1:
            raise ValueError(f"the count in {text.strip()!r} must be a whole number from 1")
        return cls("titles" if what == "titles" else "rounds", int(count))

    def __str__(self) -> str:
        return f"{self.what}={self.count}"

    def words(self) -> str:
        """``"after 20 rounds"``, ``"once a player has 3 CAMAT titles"`` (in the
        terminal's language)."""
        return current().count(f"play.until_{self.what}", self.count)

    def reached(self, game: Game) -> bool:
        """Whether ``game`` is over: its last round finished and the count reached."""
        if not game.rounds or not game.round.finished:
            return False
        if self.what == "rounds":
            return len(game.rounds) >= self.count
        return max(game.titles) >= self.count


def deal_rng(seed: int, number: int) -> random.Random:
    """The generator that deals round ``number`` of the game with this seed."""
    return random.Random(f"domeng:{seed}:round:{number}")


def bot_seed(seed: int, seat: int, resumed_at: str = "") -> int:
    """The seed of the computer player at ``seat`` (another one after a resume)."""
    return random.Random(f"domeng:{seed}:seat:{seat}:{resumed_at}").randrange(1 << 31)


@dataclass
class Seat:
    """Who sits at a seat: a name shown to people, and the computer player, if any."""

    name: str
    kind: str | None = None
    player: Player | None = None
    saved: str | None = None
    """The name as a resumed record had it, kept as it was."""


class PlaySession:
    """One person against four computer players, in the terminal, until they quit."""

    def __init__(
        self,
        game: Game,
        seats: Sequence[Seat],
        *,
        path: Path,
        seed: int,
        console: Console,
        ask: Callable[[Text], str] | None = None,
        pause: float = 0.0,
        echo: bool = False,
        until: Until | None = None,
        stand_ins: StandIns = (),
    ) -> None:
        if len(seats) != SEATS or seats[PERSON].player is not None:
            raise ValueError("a session seats one person at seat 0 and four computer players")
        self.game = game
        self.seats = list(seats)
        self.path = path
        self.seed = seed
        self.console = console
        self._ask = ask or (lambda prompt: console.input(prompt))
        self.echo = echo
        """Print each answer after its question (when the input is not a terminal)."""
        self.pause = pause
        self.names = [s.name for s in self.seats]
        self.kinds = [s.kind or "" for s in self.seats]
        self.until = until
        """When the game ends (None: when the person quits)."""
        self.stand_ins = [frozenset(marked) for marked in stand_ins]
        """A resumed record's stand-ins' plays, kept when the game is saved again."""

    def ask(self, prompt: Text) -> str:
        answer = self._ask(prompt)
        if self.echo:
            self.console.print(Text(answer), soft_wrap=True)
        return answer

    @property
    def record_names(self) -> list[str]:
        return [s.saved or seat_name(s.name, s.kind) for s in self.seats]

    # -- the whole session ---------------------------------------------------

    def run(self) -> None:
        """Play until the game's end (``until``) or the person quits (q, Ctrl-C, end of
        input); the game is saved."""
        try:
            self._play()
        except Quit:
            self._stop("")
        except EOFError:
            self._stop(current()("play.end_of_input") + " ")
        except KeyboardInterrupt:
            self._stop(current()("play.interrupted") + " ")

    def _stop(self, why: str) -> None:
        if self.game.rounds:
            # A second Ctrl-C here leaves the save made after the last move.
            with contextlib.suppress(KeyboardInterrupt):
                self.save()
        self.after_round()  # what the last round left to say, if it was not said
        self.console.print()
        w = current()
        self.say(Text(why + w("play.saved_in", path=self.path), style="bold"), str(self.path))
        again = command_line("play", "--resume", self.path)
        self.say(Text(w("play.continue_with", command=again)), again)

    def save(self) -> None:
        save_record(self.path, self.game, self.record_names, stand_ins=self.stand_ins)

    def after_round(self) -> None:
        """A finished round has been told, its summary shown (a subclass adds to it)."""

    def over(self) -> bool:
        """Whether the game has reached its end (never, without ``until``)."""
        return self.until is not None and self.until.reached(self.game)

    def _end(self) -> None:
        """The game is over: its final standings, and where it is saved."""
        self.console.print()
        assert self.until is not None
        w = current()
        self.say(Text(w("play.last_round", until=self.until.words()), "bold"))
        self.console.print(final_standings(self.game, self.names, self.console.width))
        self.console.print()
        self.say(Text(w("play.saved_in", path=self.path)), str(self.path))
        again = command_line("replay", self.path)
        self.say(Text(w("play.replay_with", command=again)), again)

    def _play(self) -> None:
        game = self.game
        if game.rounds and not game.round.finished:
            r = game.round
            told = current().count("play.resuming_round", len(r.plays), round=r.number)
            self.say(Text(told, style="bold"))
        while True:
            if self.over():  # a resumed game that had already reached its end
                self._end()
                return
            if not game.rounds or game.round.finished:
                self._deal()
            r = game.round
            self._play_round(r)
            self.console.print()
            self.console.print(round_summary(r, self.names))
            self.after_round()
            if self.over():
                self._end()
                return
            answer = self.ask(Text(current()("play.next_round") + " ", style="bold"))
            if answer.strip().lower() in ("q", "quit", "exit"):
                raise Quit

    def _deal(self) -> None:
        number = len(self.game.rounds) + 1
        r = self.game.deal(deal_rng(self.seed, number))
        self.save()
        self.console.print()
        self.say(round_header(r, self.names))

    def _play_round(self, r: Round) -> None:
        told = len(r.events)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            player = self.seats[seat].player
            if player is None:
                m = self._ask_move(self.game.view(seat))
            else:
                if self.pause:
                    time.sleep(self.pause)
                m = player.choose(self.game.view(seat))
            r.play(m)
            self.save()
            told = self._tell(r, told)

    def _tell(self, r: Round, told: int) -> int:
        """Tell the round's events from ``told`` on, up to its end (told by the summary)."""
        events = r.events
        stop = len(events)
        for i in range(told, len(events)):
            if isinstance(events[i], RoundEnded):
                stop = i
                break
        for e in events[told:stop]:
            text = full_stop(sentence(e, self.names))
            self.say(Text(f"  {text}", style="bold" if concerns(e, PERSON) else ""))
        return len(events)

    def say(self, text: Text, *whole: str) -> None:
        """Print ``text`` wrapped by words at the terminal's width, each of ``whole`` (a
        path, a command) kept on one line (:class:`~.render.Wrapped`)."""
        self.console.print(Wrapped(text, whole), crop=False)

    def _error(self, message: str) -> None:
        self.say(Text(message, style="red"))

    # -- the person's move ---------------------------------------------------

    def _ask_move(self, v: SeatView) -> Move:
        self.console.print()
        self.console.print(status(v, self.names, self.kinds))
        tiles = hand_tiles(v.hand)
        count = len(tiles)
        w = current()
        while True:
            answer = self.ask(Text(w("play.your_turn", count=count) + " ", style="bold"))
            answer = answer.strip().lower()
            if answer in ("q", "quit", "exit"):
                raise Quit
            if answer in ("h", "?", "help"):
                self.say(Text(w("play.how_to")))
                self.console.print()
                self.console.print(glossary())
                self.console.print()
                self.say(Text(w("play.rules_hint"), style="dim"))
                self._table_again(v)
                continue
            if answer in ("r", "rules"):
                self.console.print(rules())
                self._table_again(v)
                continue
            t = self._tile_of(answer, tiles)
            if t is None:
                continue
            moves = [m for m in v.legal_moves if m.tile == t]
            if not moves:
                self._not_playable(v, t, tiles)
                continue
            if len(moves) == 1:
                return moves[0]
            chosen = self._ask_end(v, moves)
            if chosen is not None:
                return chosen

    def _table_again(self, v: SeatView) -> None:
        """The table shown again under a long text (the rules, the help), which had
        scrolled it, and the person's tiles, out of sight above the question."""
        self.console.print()
        self.console.print(status(v, self.names, self.kinds))

    def _tile_of(self, answer: str, tiles: Sequence[int]) -> int | None:
        count = len(tiles)
        w = current()
        if not answer:
            self._error(w("play.type_number", count=count))
            return None
        if answer.isascii() and answer.isdigit():
            k = int(answer)
            if 1 <= k <= count:
                return tiles[k - 1]
            self._error(w("play.no_tile_k", k=k, count=count))
            return None
        try:
            t = parse_tile(answer.replace("|", "-").strip("[]"))
        except ValueError:
            self._error(w("play.not_a_number", answer=repr(answer), count=count))
            return None
        if t not in tiles:
            self._error(w("play.not_held", tile=domino(t), count=count))
            return None
        return t

    def _not_playable(self, v: SeatView, t: int, tiles: Sequence[int]) -> None:
        w = current()
        if v.ends is None:
            why = w("play.cannot_open", tile=domino(t))
        else:
            why = w("play.does_not_fit", tile=domino(t), left=v.ends[0], right=v.ends[1])
        playable = sorted({m.tile for m in v.legal_moves}, key=tiles.index)
        listed = ", ".join(numbered(tiles.index(p) + 1, p) for p in playable)
        self._error(f"{why} " + w("play.you_may_play", tiles=listed))

    def _ask_end(self, v: SeatView, moves: Sequence[Move]) -> Move | None:
        by_end = {m.end: m for m in moves}
        while True:
            w = current()
            answer = self.ask(Text(f"{end_choice(v, moves)} {w('play.b_back')} ", "bold"))
            answer = answer.strip().lower()
            if answer in ("q", "quit", "exit"):
                raise Quit
            if answer in ("b", "back"):
                return None
            if answer in ("l", "left"):
                return by_end[End.LEFT]
            if answer in ("r", "right"):
                return by_end[End.RIGHT]
            self._error(w("play.type_l_r"))


def new_seats(name: str, opponents: str, seed: int) -> list[Seat]:
    """The person at seat 0 and four computer players of kind ``opponents``."""
    seats = [Seat(name)]
    for seat, who in enumerate(OPPONENT_NAMES, start=1):
        if name_key(who) == name_key(name):
            who = SPARE_NAME
        seats.append(Seat(who, opponents, make_player(opponents, bot_seed(seed, seat))))
    return seats


def resumed_seats(
    names: Sequence[str], opponents: str, seed: int, game: Game, known: Sequence[str]
) -> list[Seat]:
    """The seats of a saved game: the person at seat 0 (their saved name); each computer
    player of the kind its saved name says (``"Besse (basic)"``), else ``opponents``."""
    at = f"{len(game.rounds)}:{len(game.round.plays) if game.rounds else 0}"
    seats = [Seat(names[PERSON], saved=names[PERSON])]
    for seat in range(1, SEATS):
        name, kind = split_name(names[seat])
        if kind is None or kind not in known:
            name, kind = names[seat], opponents
        player = make_player(kind, bot_seed(seed, seat, at))
        seats.append(Seat(name, kind, player, saved=names[seat]))
    return seats
