"""Game records (``domeng.record/1``): load, validate, save, and replay's summary.

A record is one JSON document holding everything needed to replay a game: its
variants, the players' names, every deal and every play (see
``shared/spec/record.md``). Passes, stones, winners and CAMAT elections are
not stored; replaying recomputes them with the engine.

>>> import random
>>> g = Game()
>>> r = g.deal(random.Random(3))
>>> while not g.round.finished:
...     g.play(g.legal_moves()[0])
>>> text = dumps_record(g, ["Andi", "Besse", "Cicci", "Daeng", "Emba"])
>>> g2, players = game_from_record(json.loads(text))
>>> g2.rounds[0].events == g.rounds[0].events, players[1]
(True, 'Besse')

A play a computer made for a person (a stand-in's) is marked beside the game,
not in it: ``stand_ins`` holds, per round, the indices in ``Round.plays``.

>>> doc = record_of(g, ["Andi", "Besse", "Cicci", "Daeng", "Emba"], stand_ins=[{1}])
>>> doc["rounds"][0]["plays"][1]["stand_in"], "stand_in" in doc["rounds"][0]["plays"][0]
(True, False)
>>> recorded_game(doc).stand_ins
(frozenset({1}),)
>>> game_from_record({"format": "domeng.record/1", "rounds": [{"hands": [], "unused": [],
...     "plays": []}]})
Traceback (most recent call last):
...
domeng.engine.record.RecordError: round 1: a deal has 5 hands, not 0

Standard library only.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .events import Passed, Played
from .game import Game
from .moves import HAND_SIZE, SEATS, End, IllegalMoveError, Move, Variants, move
from .round import Round
from .tiles import FULL_SET, HIGH, LOW, Tile, TileSet, parse_tile, tile_name, tiles_of

__all__ = [
    "FORMAT",
    "RecordError",
    "RecordedGame",
    "StandIns",
    "dumps_record",
    "game_from_record",
    "load_record",
    "load_recorded_game",
    "loads_record",
    "loads_recorded_game",
    "record_of",
    "recorded_game",
    "replay_summary",
    "save_record",
]

FORMAT = "domeng.record/1"
"""The value of a record's ``format`` key."""


StandIns = Sequence[Collection[int]]
"""Which plays a stand-in made: per round (the game's first round first), the indices
in that round's ``Round.plays`` (0-based) of the plays a computer player made for a
person. Rounds past the end of the sequence have none."""


@dataclass(frozen=True, slots=True)
class RecordedGame:
    """A replayed record: the game, the players' names, and the plays marked
    ``"stand_in": true`` (which the engine's game knows nothing of)."""

    game: Game
    players: list[str]
    stand_ins: tuple[frozenset[int], ...]
    """One set per round of the game: the indices in ``Round.plays`` of its stand-in plays."""

    def is_stand_in(self, round_index: int, play_index: int) -> bool:
        """Whether play ``play_index`` of round ``round_index`` (both 0-based) was a
        stand-in's."""
        return play_index in self.stand_ins[round_index]


class RecordError(ValueError):
    """An invalid record: ``round`` and ``play`` (1-based, or None) say where, ``reason`` why.

    ``str(error)`` is one line naming all three, for example
    ``"round 2, play 7: tile 6-3 does not fit the ends 4 and 1"``.

    >>> str(RecordError("tile 6-3 does not fit the ends 4 and 1", round=2, play=7))
    'round 2, play 7: tile 6-3 does not fit the ends 4 and 1'
    >>> str(RecordError("bad JSON: Expecting value: line 1 column 1 (char 0)"))
    'record: bad JSON: Expecting value: line 1 column 1 (char 0)'
    """

    def __init__(self, reason: str, *, round: int | None = None, play: int | None = None) -> None:
        self.round = round
        self.play = play
        # One line, whatever the reason says.
        self.reason = " ".join(reason.split())
        super().__init__(self.message)

    @property
    def message(self) -> str:
        if self.round is None:
            where = "record"
        elif self.play is None:
            where = f"round {self.round}"
        else:
            where = f"round {self.round}, play {self.play}"
        return f"{where}: {self.reason}"

    def __str__(self) -> str:
        return self.message


# -- writing ----------------------------------------------------------------


def _check_players(players: Sequence[str]) -> list[str]:
    names = list(players)
    if len(names) != SEATS or not all(isinstance(n, str) for n in names):
        raise ValueError(f"a game has {SEATS} players' names")
    return names


def _hand_names(mask: TileSet) -> list[str]:
    """A set's tiles, highest first (``"6-6"``, ``"6-5"``, ... ``"0-0"``)."""
    return [tile_name(t) for t in sorted(tiles_of(mask), reverse=True)]


def _check_stand_ins(game: Game, stand_ins: StandIns) -> list[frozenset[int]]:
    """``stand_ins`` as one set per round of ``game``; ValueError if it names a round
    or a play the game does not have."""
    if len(stand_ins) > len(game.rounds):
        raise ValueError(f"stand_ins has {len(stand_ins)} rounds, the game {len(game.rounds)}")
    marks = [frozenset(s) for s in stand_ins]
    marks += [frozenset()] * (len(game.rounds) - len(marks))
    for r, marked in zip(game.rounds, marks, strict=True):
        wrong = sorted(k for k in marked if not 0 <= k < len(r.plays))
        if wrong:
            raise ValueError(
                f"stand_ins names play {wrong[0]} of round {r.number}, "
                f"which has {len(r.plays)} plays (indices from 0)"
            )
    return marks


def _plays_doc(r: Round, marked: Collection[int] = frozenset()) -> list[dict[str, object]]:
    plays: list[dict[str, object]] = []
    for e in r.events:
        if type(e) is Played:
            play: dict[str, object] = {"seat": e.seat, "tile": tile_name(e.tile)}
            if not e.opening:
                play["end"] = End(e.end).word
            if len(plays) in marked:
                play["stand_in"] = True
            plays.append(play)
    return plays


def _round_doc(r: Round, marked: Collection[int]) -> dict[str, object]:
    return {
        "hands": [_hand_names(h) for h in r.dealt],
        "unused": _hand_names(r.unused),
        "plays": _plays_doc(r, marked),
    }


def record_of(game: Game, players: Sequence[str], *, stand_ins: StandIns = ()) -> dict[str, object]:
    """The record of ``game`` as a JSON-ready document (the last round may be unfinished).

    Variants and players are always written; tiles higher number first; every
    play carries its ``seat``, and every play after the first its ``end``. The
    plays ``stand_ins`` names (see :data:`StandIns`) carry ``"stand_in": true``;
    no other play has the key. ValueError if it names a play the game lacks.
    """
    marks = _check_stand_ins(game, stand_ins)
    return {
        "format": FORMAT,
        "variants": game.variants.to_json(),
        "players": _check_players(players),
        "rounds": [_round_doc(r, m) for r, m in zip(game.rounds, marks, strict=True)],
    }


def _dumps(value: object) -> str:
    return json.dumps(value, ensure_ascii=False)


def _lines(items: Sequence[object], indent: str) -> list[str]:
    """JSON items one a line, commas between them."""
    last = len(items) - 1
    return [f"{indent}{_dumps(x)}{',' if k < last else ''}" for k, x in enumerate(items)]


def dumps_record(game: Game, players: Sequence[str], *, stand_ins: StandIns = ()) -> str:
    """The record as JSON text: readable, one hand or play a line, ending in a newline
    (the document of :func:`record_of`)."""
    marks = _check_stand_ins(game, stand_ins)
    out = [
        "{",
        f'  "format": {_dumps(FORMAT)},',
        f'  "variants": {_dumps(game.variants.to_json())},',
        f'  "players": {_dumps(_check_players(players))},',
        '  "rounds": [' if game.rounds else '  "rounds": []',
    ]
    for i, r in enumerate(game.rounds):
        plays = _plays_doc(r, marks[i])
        out += ["    {", '      "hands": [']
        out += _lines([_hand_names(h) for h in r.dealt], "        ")
        out += ["      ],", f'      "unused": {_dumps(_hand_names(r.unused))},']
        if plays:
            out += ['      "plays": [', *_lines(plays, "        "), "      ]"]
        else:
            out.append('      "plays": []')
        out.append("    }" + ("," if i < len(game.rounds) - 1 else ""))
    if game.rounds:
        out.append("  ]")
    out.append("}")
    return "\n".join(out) + "\n"


def save_record(
    path: str | os.PathLike[str],
    game: Game,
    players: Sequence[str],
    *,
    stand_ins: StandIns = (),
) -> None:
    """Write the record to ``path`` atomically: a temporary file beside it, then a rename.

    The folder is created when missing. A reader never sees half a record.
    ``stand_ins`` as for :func:`record_of`.
    """
    text = dumps_record(game, players, stand_ins=stand_ins)
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        mode = target.stat().st_mode & 0o777
    except OSError:
        mode = 0o644
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        os.chmod(tmp, mode)
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


# -- reading ----------------------------------------------------------------


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise ValueError(f"duplicate key {key!r}")
        doc[key] = value
    return doc


def _parse_json(text: str) -> object:
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except RecursionError:
        raise RecordError("bad JSON: nested too deeply") from None
    except ValueError as exc:
        raise RecordError(f"bad JSON: {exc}") from None


def load_record(path: str | os.PathLike[str]) -> tuple[Game, list[str]]:
    """Read a record file and replay it; :class:`RecordError` for anything wrong with it
    (a missing or unreadable file, text that is not UTF-8, bad JSON, an invalid record).
    The stand-ins' marks are checked, not returned: :func:`load_recorded_game` has them."""
    recorded = load_recorded_game(path)
    return recorded.game, recorded.players


def load_recorded_game(path: str | os.PathLike[str]) -> RecordedGame:
    """:func:`load_record` with the stand-ins' marks."""
    try:
        data = Path(path).read_bytes()
    except IsADirectoryError:
        raise RecordError(f"cannot read {os.fspath(path)}: it is a directory") from None
    except OSError as exc:
        why = exc.strerror or type(exc).__name__
        raise RecordError(f"cannot read {os.fspath(path)}: {why}") from None
    return loads_recorded_game(data)


def loads_record(data: bytes | str) -> tuple[Game, list[str]]:
    """Parse a record's text (bytes: UTF-8, a BOM allowed) and replay it, like
    :func:`load_record`."""
    recorded = loads_recorded_game(data)
    return recorded.game, recorded.players


def loads_recorded_game(data: bytes | str) -> RecordedGame:
    """:func:`loads_record` with the stand-ins' marks."""
    if isinstance(data, bytes):
        try:
            data = data.decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise RecordError(f"not UTF-8 text (byte {exc.start})") from None
    return recorded_game(_parse_json(data))


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _describe(value: object) -> str:
    """A short rendering of a JSON value for an error message."""
    text = json.dumps(value, ensure_ascii=False) if value is not None else "null"
    return text if len(text) <= 40 else text[:37] + "..."


def _tile(value: object, *, round: int, play: int | None = None) -> Tile:
    if not isinstance(value, str):
        raise RecordError(
            f'a tile is written as a string like "6-4", not {_describe(value)}',
            round=round,
            play=play,
        )
    try:
        return parse_tile(value)
    except ValueError:
        raise RecordError(f"unknown tile {_describe(value)}", round=round, play=play) from None


def _tile_list(value: object, what: str, *, round: int) -> list[Tile]:
    if not isinstance(value, list):
        raise RecordError(f"{what} must be a list of tiles", round=round)
    return [_tile(v, round=round) for v in value]


def _check_keys(
    doc: dict[str, Any], allowed: set[str], required: set[str], what: str, **where: int | None
) -> None:
    for key in doc:
        if key not in allowed:
            raise RecordError(f"unknown key {key!r} in {what}", **where)
    for key in sorted(required):
        if key not in doc:
            raise RecordError(f"{what} has no {key!r}", **where)


def _deal(doc: object, number: int) -> tuple[list[TileSet], TileSet, list[Any]]:
    """Check one round's deal; return the hands, the unused tiles and the plays."""
    if not isinstance(doc, dict):
        raise RecordError("a round must be an object", round=number)
    _check_keys(doc, {"hands", "unused", "plays"}, {"hands", "unused"}, "a round", round=number)
    hands_doc = doc["hands"]
    if not isinstance(hands_doc, list):
        raise RecordError("hands must be a list of 5 hands", round=number)
    if len(hands_doc) != SEATS:
        raise RecordError(f"a deal has {SEATS} hands, not {len(hands_doc)}", round=number)
    hands = [_tile_list(h, f"the hand of seat {s}", round=number) for s, h in enumerate(hands_doc)]
    unused = _tile_list(doc["unused"], "unused", round=number)
    seen = 0
    for t in [t for h in hands for t in h] + unused:
        if seen >> t & 1:
            raise RecordError(f"tile {tile_name(t)} is dealt twice", round=number)
        seen |= 1 << t
    if seen != FULL_SET:
        missing = next(tiles_of(FULL_SET & ~seen))
        raise RecordError(f"tile {tile_name(missing)} is missing from the deal", round=number)
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise RecordError(
                f"seat {seat} is dealt {len(hand)} tiles, not {HAND_SIZE}", round=number
            )
    # With 28 distinct tiles and five hands of five, three are unused.
    plays = doc.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError("plays must be a list", round=number)
    return [sum(1 << t for t in h) for h in hands], sum(1 << t for t in unused), plays


def _fits(t: Tile, n: int) -> bool:
    return n in (HIGH[t], LOW[t])


def _stand_in(doc: dict[str, Any], where: dict[str, int | None]) -> bool:
    """Whether a play is marked as a stand-in's: ``true``, or ``false`` / no key."""
    value = doc.get("stand_in", False)
    if not isinstance(value, bool):
        raise RecordError(f"stand_in must be true or false, not {_describe(value)}", **where)
    return value


def _move_of(r: Round, doc: object, number: int, k: int) -> Move:
    """The move that play ``k`` (1-based) of round ``number`` makes, checked against ``r``."""
    where: dict[str, int | None] = {"round": number, "play": k}
    if r.turn is None:
        raise RecordError("a play after the round's end (the round is over)", **where)
    if not isinstance(doc, dict):
        raise RecordError('a play must be an object like {"tile": "6-4"}', **where)
    _check_keys(doc, {"seat", "tile", "end", "stand_in"}, {"tile"}, "a play", **where)
    _stand_in(doc, where)
    t = _tile(doc["tile"], round=number, play=k)
    turn = r.turn
    if "seat" in doc:
        seat = doc["seat"]
        if not _is_int(seat) or not 0 <= seat < SEATS:
            raise RecordError(f"seat must be 0 to 4, not {_describe(seat)}", **where)
        if seat != turn:
            raise RecordError(f"seat {seat} plays out of turn: seat {turn} is in turn", **where)
    name = tile_name(t)
    if not r.hands[turn] >> t & 1:
        if not r.dealt[turn] >> t & 1:
            raise RecordError(f"tile {name} is not in the hand of seat {turn}", **where)
        raise RecordError(f"tile {name} was already played by seat {turn}", **where)
    ends = r.ends
    if ends is None:
        if r.opening_tile is not None and t != r.opening_tile:
            raise RecordError(
                f"round {number} must open with {tile_name(r.opening_tile)}, not {name}",
                **where,
            )
        return move(t, End.RIGHT)  # the first tile's end is ignored, whatever it says
    end: End | None = None
    if "end" in doc:
        word = doc["end"]
        if word not in ("left", "right"):
            raise RecordError(f'end must be "left" or "right", not {_describe(word)}', **where)
        end = End.parse(word)
    left, right = ends
    fits_left, fits_right = _fits(t, left), _fits(t, right)
    if not fits_left and not fits_right:
        raise RecordError(f"tile {name} does not fit the ends {left} and {right}", **where)
    if end is None:
        if fits_left and fits_right and left != right:
            raise RecordError(
                f'tile {name} fits both ends ({left} and {right}): say "end": "left" or "right"',
                **where,
            )
        return move(t, End.LEFT if fits_left and not fits_right else End.RIGHT)
    shown = left if end is End.LEFT else right
    if not _fits(t, shown):
        raise RecordError(
            f"tile {name} does not fit the {end.word} end, which shows {shown}", **where
        )
    return move(t, end)


def _players(doc: dict[str, Any]) -> list[str]:
    if "players" not in doc:
        return [f"Seat {s}" for s in range(SEATS)]
    players = doc["players"]
    if not isinstance(players, list) or len(players) != SEATS:
        raise RecordError(f"players must be a list of {SEATS} names")
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RecordError(f"a player's name must be a non-empty string, not {_describe(name)}")
    return list(players)


def game_from_record(doc: object) -> tuple[Game, list[str]]:
    """Replay a record document (parsed JSON) into a :class:`Game`; return it and the
    players' names. Validates everything and raises :class:`RecordError`.
    :func:`recorded_game` also says which plays were a stand-in's."""
    recorded = recorded_game(doc)
    return recorded.game, recorded.players


def recorded_game(doc: object) -> RecordedGame:
    """Replay a record document (parsed JSON): the game, the players' names and the
    stand-ins' plays. Validates everything and raises :class:`RecordError`."""
    if not isinstance(doc, dict):
        raise RecordError("a record must be a JSON object")
    if "format" not in doc:
        raise RecordError(f'no "format" (expected "{FORMAT}")')
    if doc["format"] != FORMAT:
        raise RecordError(f'format {_describe(doc["format"])} is not "{FORMAT}"')
    try:
        variants = Variants.from_json(doc.get("variants", {}))
    except ValueError as exc:
        raise RecordError(f"bad variants: {exc}") from None
    players = _players(doc)
    if "rounds" not in doc:
        raise RecordError('no "rounds"')
    rounds = doc["rounds"]
    if not isinstance(rounds, list):
        raise RecordError("rounds must be a list")
    game = Game(variants)
    stand_ins: list[frozenset[int]] = []
    for i, round_doc in enumerate(rounds):
        number = i + 1
        if game.rounds and not game.round.finished:
            last = game.round
            raise RecordError(
                f"round {number - 1} is unfinished (seat {last.turn} is in turn), "
                f"yet round {number} follows",
                round=number - 1,
                play=len(last.plays) + 1,
            )
        hands, unused, plays = _deal(round_doc, number)
        try:
            r = game.start_round(hands, unused)
        except ValueError as exc:  # pragma: no cover - _deal checks the deal first
            raise RecordError(str(exc), round=number) from None
        marked: set[int] = set()
        for k, play in enumerate(plays, start=1):
            m = _move_of(r, play, number, k)  # checks ``stand_in`` too
            try:
                r.play(m)
            except IllegalMoveError as exc:  # pragma: no cover - the checks above come first
                raise RecordError(str(exc), round=number, play=k) from None
            if _stand_in(play, {"round": number, "play": k}):
                marked.add(k - 1)
        stand_ins.append(frozenset(marked))
    return RecordedGame(game, players, tuple(stand_ins))


# -- replay's summary -------------------------------------------------------


def _round_summary(r: Round) -> dict[str, object]:
    res = r.result
    passes = [
        {"seat": e.seat, "passebunge": e.passebunge, "stones": e.stones}
        for e in r.events
        if type(e) is Passed
    ]
    return {
        "number": r.number,
        "starter": r.starter,
        "finished": res is not None,
        "end": None if res is None else res.end.value,
        "first_cappu": None if res is None else res.first_cappu,
        "finish": None if res is None or res.finish is None else res.finish.value,
        "manguno": None if res is None else res.manguno,
        "mattikkeng": [] if res is None else list(res.mattikkeng),
        "winner": None if res is None else res.winner,
        "cucuq": None if res is None else res.cucuq,
        "passes": passes,
        "stones": list(r.stones),
        "table": r.table,
        "camat": r.camat,
        "camat_elected": r.camat_elected,
        "camat_titles": list(r.titles),
    }


def replay_summary(game: Game) -> dict[str, object]:
    """The document ``domeng replay --json`` prints (record.md), keys in its order."""
    return {
        "rounds": [_round_summary(r) for r in game.rounds],
        "next_starter": game.next_starter(),
    }
