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
import errno
import json
import os
import re
import tempfile
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any, TypedDict

from .events import Passed, Played
from .game import Game
from .keyed import fill, one_line, reason_of
from .moves import (
    HAND_SIZE,
    SEATS,
    BlockPasses,
    End,
    IllegalMoveError,
    Move,
    Opening,
    Rounds,
    Variants,
    move,
)
from .round import Round
from .tiles import FULL_SET, HIGH, LOW, Tile, TileSet, parse_tile, tile_name, tiles_of

__all__ = [
    "FORMAT",
    "REASONS",
    "WHERE",
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


WHERE: dict[str, str] = {
    "record.where.record": "record",
    "record.where.round": "round {round}",
    "record.where.play": "round {round}, play {play}",
}
"""Where a :class:`RecordError` is, by key: the English of the catalogs' entries."""

REASONS: dict[str, str] = {
    # the file and its JSON
    "record.cannot_read": "cannot read {path}: {why}",
    "record.cannot_read_directory": "cannot read {path}: it is a directory",
    "record.cannot_read_missing": "cannot read {path}: No such file or directory",
    "record.cannot_read_denied": "cannot read {path}: Permission denied",
    "record.cannot_read_not_directory": "cannot read {path}: Not a directory",
    "record.cannot_read_name_too_long": "cannot read {path}: File name too long",
    "record.not_utf8": "not UTF-8 text (byte {byte})",
    "record.json_too_deep": "bad JSON: nested too deeply",
    "record.json_duplicate_key": "bad JSON: duplicate key {name}",
    "record.json_number_too_long": (
        "bad JSON: Exceeds the limit ({limit} digits) for integer string conversion: "
        "value has {digits} digits; use sys.set_int_max_str_digits() to increase the limit"
    ),
    "record.json": "bad JSON: {why}",
    "record.json_at": "bad JSON: {why}: line {line} column {column} (char {char})",
    "record.json.expecting_value": "bad JSON: Expecting value: line {line} column {column} "
    "(char {char})",
    "record.json.expecting_name": "bad JSON: Expecting property name enclosed in double "
    "quotes: line {line} column {column} (char {char})",
    "record.json.expecting_colon": "bad JSON: Expecting ':' delimiter: line {line} column "
    "{column} (char {char})",
    "record.json.expecting_comma": "bad JSON: Expecting ',' delimiter: line {line} column "
    "{column} (char {char})",
    "record.json.unterminated_string": "bad JSON: Unterminated string starting at: line "
    "{line} column {column} (char {char})",
    "record.json.control_character": "bad JSON: Invalid control character at: line {line} "
    "column {column} (char {char})",
    "record.json.bad_escape": "bad JSON: Invalid \\escape: line {line} column {column} "
    "(char {char})",
    "record.json.bad_unicode_escape": "bad JSON: Invalid \\uXXXX escape: line {line} "
    "column {column} (char {char})",
    "record.json.extra_data": "bad JSON: Extra data: line {line} column {column} (char {char})",
    "record.json.trailing_comma_object": "bad JSON: Illegal trailing comma before end of "
    "object: line {line} column {column} (char {char})",
    "record.json.trailing_comma_array": "bad JSON: Illegal trailing comma before end of "
    "array: line {line} column {column} (char {char})",
    # the document
    "record.not_object": "a record must be a JSON object",
    "record.no_format": 'no "{name}" (expected "{format}")',
    "record.wrong_format": '{name} {value} is not "{format}"',
    "record.variants_not_object": "bad variants: {name} must be an object",
    "record.unknown_variant": "bad variants: unknown variant {name}",
    "record.bad_variant": "bad variants: variant {name} must be {one} or {other}, not {value}",
    "record.players_not_list": "{name} must be a list of {seats} names",
    "record.player_name": "a player's name must be a non-empty string, not {value}",
    "record.no_rounds": 'no "{name}"',
    "record.not_list": "{name} must be a list",
    "record.unfinished": (
        "round {previous} is unfinished (seat {seat} is in turn), yet round {number} follows"
    ),
    # a round's deal
    "record.round_not_object": "a round must be an object",
    "record.round_unknown_key": "unknown key {name} in a round",
    "record.round_lacks_key": "a round has no {name}",
    "record.hands_not_list": "{name} must be a list of {seats} hands",
    "record.hand_count": "a deal has {seats} hands, not {count}",
    "record.hand_not_list": "the hand of seat {seat} must be a list of tiles",
    "record.unused_not_list": "{name} must be a list of tiles",
    "record.tile_not_string": 'a tile is written as a string like "6-4", not {value}',
    "record.unknown_tile": "unknown tile {value}",
    "record.dealt_twice": "tile {tile} is dealt twice",
    "record.missing_from_deal": "tile {tile} is missing from the deal",
    "record.hand_size": "seat {seat} is dealt {count} tiles, not {size}",
    # a play
    "record.after_end": "a play after the round's end (the round is over)",
    "record.play_not_object": "a play must be an object like {example}",
    "record.play_unknown_key": "unknown key {name} in a play",
    "record.play_lacks_key": "a play has no {name}",
    "record.either": "{name} must be {one} or {other}, not {value}",
    "record.seat_range": "{name} must be 0 to 4, not {value}",
    "record.out_of_turn": "seat {seat} plays out of turn: seat {turn} is in turn",
    "record.not_in_hand": "tile {tile} is not in the hand of seat {seat}",
    "record.played_already": "tile {tile} was already played by seat {seat}",
    "record.wrong_opening": "round {number} must open with {opening}, not {tile}",
    "record.no_fit": "tile {tile} does not fit the ends {left} and {right}",
    "record.fits_both": ("tile {tile} fits both ends ({left} and {right}): say {one} or {other}"),
    "record.no_fit_left": "tile {tile} does not fit the left end, which shows {shown}",
    "record.no_fit_right": "tile {tile} does not fit the right end, which shows {shown}",
    # what the engine itself refused (the checks above come first)
    "record.refused": "{why}",
}
"""Why a record is invalid, by key: the English of the catalogs' entries (``str()`` of
the error), filled in with the error's values (engine/keyed.py)."""


class RecordError(ValueError):
    """An invalid record: ``round`` and ``play`` (1-based, or None) say where, ``reason`` why.

    ``str(error)`` is one line naming all three, for example
    ``"round 2, play 7: tile 6-3 does not fit the ends 4 and 1"``. ``key`` (one of
    :data:`REASONS`, or None for a reason given as text) and ``values`` (its
    placeholders') let the commands say the reason in another language.

    >>> str(RecordError("tile 6-3 does not fit the ends 4 and 1", round=2, play=7))
    'round 2, play 7: tile 6-3 does not fit the ends 4 and 1'
    >>> str(RecordError("bad JSON: Expecting value: line 1 column 1 (char 0)"))
    'record: bad JSON: Expecting value: line 1 column 1 (char 0)'
    >>> e = RecordError(key="record.no_fit", tile="6-3", left=4, right=1, round=2, play=7)
    >>> str(e), e.key, e.values, e.where_key
    ('round 2, play 7: tile 6-3 does not fit the ends 4 and 1', 'record.no_fit', \
{'tile': '6-3', 'left': 4, 'right': 1}, 'record.where.play')
    """

    def __init__(
        self,
        reason: str | None = None,
        *,
        key: str | None = None,
        round: int | None = None,
        play: int | None = None,
        **values: object,
    ) -> None:
        reason = reason_of(reason, key, values, REASONS)
        self.round = round
        self.play = play
        self.key = key
        self.values = values
        # One line, whatever the reason says.
        self.reason = one_line(reason)
        super().__init__(self.message)

    @property
    def where_key(self) -> str:
        """The key of where the error is: the record, a round, or a play of a round."""
        if self.round is None:
            return "record.where.record"
        return "record.where.round" if self.play is None else "record.where.play"

    @property
    def message(self) -> str:
        where = fill(WHERE[self.where_key], {"round": self.round, "play": self.play})
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


class _DuplicateKey(ValueError):
    def __init__(self, key: str) -> None:
        super().__init__(f"duplicate key {key!r}")
        self.key = key


def _no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    doc: dict[str, Any] = {}
    for key, value in pairs:
        if key in doc:
            raise _DuplicateKey(key)
        doc[key] = value
    return doc


_JSON_MESSAGES = {
    "Expecting value": "record.json.expecting_value",
    "Expecting property name enclosed in double quotes": "record.json.expecting_name",
    "Expecting ':' delimiter": "record.json.expecting_colon",
    "Expecting ',' delimiter": "record.json.expecting_comma",
    "Unterminated string starting at": "record.json.unterminated_string",
    "Invalid control character at": "record.json.control_character",
    "Invalid \\escape": "record.json.bad_escape",
    "Invalid \\uXXXX escape": "record.json.bad_unicode_escape",
    "Extra data": "record.json.extra_data",
    "Illegal trailing comma before end of object": "record.json.trailing_comma_object",
    "Illegal trailing comma before end of array": "record.json.trailing_comma_array",
}
"""The json module's messages (its C scanner's, Python 3.11 and later), by key."""

_TOO_MANY_DIGITS = re.compile(
    r"Exceeds the limit \((\d+) digits\) for integer string conversion: "
    r"value has (\d+) digits; use sys\.set_int_max_str_digits\(\) to increase the limit"
)


class _At(TypedDict):
    """Where in the text the JSON is bad."""

    line: int
    column: int
    char: int


def _bad_json(exc: ValueError) -> RecordError:
    """The RecordError of what ``json.loads`` raised."""
    if isinstance(exc, json.JSONDecodeError):
        at = _At(line=exc.lineno, column=exc.colno, char=exc.pos)
        key = _JSON_MESSAGES.get(exc.msg)
        if key is None:  # a message of another version: said as it is
            return RecordError(key="record.json_at", why=exc.msg, **at)
        return RecordError(key=key, **at)
    if isinstance(exc, _DuplicateKey):
        return RecordError(key="record.json_duplicate_key", name=repr(exc.key))
    digits = _TOO_MANY_DIGITS.fullmatch(str(exc))
    if digits is not None:
        return RecordError(
            key="record.json_number_too_long", limit=digits.group(1), digits=digits.group(2)
        )
    return RecordError(key="record.json", why=exc)


def _parse_json(text: str) -> object:
    try:
        return json.loads(text, object_pairs_hook=_no_duplicate_keys)
    except RecursionError:
        raise RecordError(key="record.json_too_deep") from None
    except ValueError as exc:
        raise _bad_json(exc) from None


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
        raise RecordError(key="record.cannot_read_directory", path=os.fspath(path)) from None
    except OSError as exc:
        raise _cannot_read(os.fspath(path), exc) from None
    return loads_recorded_game(data)


_OS_REASONS = {
    errno.ENOENT: "record.cannot_read_missing",
    errno.EACCES: "record.cannot_read_denied",
    errno.ENOTDIR: "record.cannot_read_not_directory",
    errno.ENAMETOOLONG: "record.cannot_read_name_too_long",
}
"""The system's most common reasons for not reading a file, by key."""


def _cannot_read(path: str, exc: OSError) -> RecordError:
    why = exc.strerror or type(exc).__name__
    key = _OS_REASONS.get(exc.errno) if exc.errno is not None else None
    if key is not None and fill(REASONS[key], {"path": path}) == f"cannot read {path}: {why}":
        return RecordError(key=key, path=path)
    # in the system's own words (another system, or a rarer reason)
    return RecordError(key="record.cannot_read", path=path, why=why)


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
            raise RecordError(key="record.not_utf8", byte=exc.start) from None
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
            key="record.tile_not_string", round=round, play=play, value=_describe(value)
        )
    try:
        return parse_tile(value)
    except ValueError:
        raise RecordError(
            key="record.unknown_tile", round=round, play=play, value=_describe(value)
        ) from None


def _tile_list(value: object, *, round: int, seat: int | None = None) -> list[Tile]:
    """A hand's tiles (``seat``'s), or the unused tiles (no seat)."""
    if not isinstance(value, list):
        if seat is None:
            raise RecordError(key="record.unused_not_list", round=round, name="unused")
        raise RecordError(key="record.hand_not_list", round=round, seat=seat)
    return [_tile(v, round=round) for v in value]


class _Where(TypedDict):
    """Where in the record an error is: a round, and a play of it or None."""

    round: int
    play: int | None


def _check_keys(
    doc: dict[str, Any], allowed: set[str], required: set[str], what: str, where: _Where
) -> None:
    """Every key of ``doc`` allowed, every required one there; ``what`` is ``"round"`` or
    ``"play"``."""
    for key in doc:
        if key not in allowed:
            raise RecordError(key=f"record.{what}_unknown_key", name=repr(key), **where)
    for key in sorted(required):
        if key not in doc:
            raise RecordError(key=f"record.{what}_lacks_key", name=repr(key), **where)


def _deal(doc: object, number: int) -> tuple[list[TileSet], TileSet, list[Any]]:
    """Check one round's deal; return the hands, the unused tiles and the plays."""
    if not isinstance(doc, dict):
        raise RecordError(key="record.round_not_object", round=number)
    where = _Where(round=number, play=None)
    _check_keys(doc, {"hands", "unused", "plays"}, {"hands", "unused"}, "round", where)
    hands_doc = doc["hands"]
    if not isinstance(hands_doc, list):
        raise RecordError(key="record.hands_not_list", round=number, name="hands", seats=SEATS)
    if len(hands_doc) != SEATS:
        raise RecordError(key="record.hand_count", round=number, seats=SEATS, count=len(hands_doc))
    hands = [_tile_list(h, round=number, seat=s) for s, h in enumerate(hands_doc)]
    unused = _tile_list(doc["unused"], round=number)
    seen = 0
    for t in [t for h in hands for t in h] + unused:
        if seen >> t & 1:
            raise RecordError(key="record.dealt_twice", round=number, tile=tile_name(t))
        seen |= 1 << t
    if seen != FULL_SET:
        missing = next(tiles_of(FULL_SET & ~seen))
        raise RecordError(key="record.missing_from_deal", round=number, tile=tile_name(missing))
    for seat, hand in enumerate(hands):
        if len(hand) != HAND_SIZE:
            raise RecordError(
                key="record.hand_size", round=number, seat=seat, count=len(hand), size=HAND_SIZE
            )
    # With 28 distinct tiles and five hands of five, three are unused.
    plays = doc.get("plays", [])
    if not isinstance(plays, list):
        raise RecordError(key="record.not_list", round=number, name="plays")
    return [sum(1 << t for t in h) for h in hands], sum(1 << t for t in unused), plays


def _fits(t: Tile, n: int) -> bool:
    return n in (HIGH[t], LOW[t])


def _stand_in(doc: dict[str, Any], where: _Where) -> bool:
    """Whether a play is marked as a stand-in's: ``true``, or ``false`` / no key."""
    value = doc.get("stand_in", False)
    if not isinstance(value, bool):
        raise RecordError(
            key="record.either",
            name="stand_in",
            one="true",
            other="false",
            value=_describe(value),
            **where,
        )
    return value


def _move_of(r: Round, doc: object, number: int, k: int) -> Move:
    """The move that play ``k`` (1-based) of round ``number`` makes, checked against ``r``."""
    where = _Where(round=number, play=k)
    if r.turn is None:
        raise RecordError(key="record.after_end", **where)
    if not isinstance(doc, dict):
        raise RecordError(key="record.play_not_object", example='{"tile": "6-4"}', **where)
    _check_keys(doc, {"seat", "tile", "end", "stand_in"}, {"tile"}, "play", where)
    _stand_in(doc, where)
    t = _tile(doc["tile"], round=number, play=k)
    turn = r.turn
    if "seat" in doc:
        seat = doc["seat"]
        if not _is_int(seat) or not 0 <= seat < SEATS:
            raise RecordError(key="record.seat_range", name="seat", value=_describe(seat), **where)
        if seat != turn:
            raise RecordError(key="record.out_of_turn", seat=seat, turn=turn, **where)
    name = tile_name(t)
    if not r.hands[turn] >> t & 1:
        if not r.dealt[turn] >> t & 1:
            raise RecordError(key="record.not_in_hand", tile=name, seat=turn, **where)
        raise RecordError(key="record.played_already", tile=name, seat=turn, **where)
    ends = r.ends
    if ends is None:
        if r.opening_tile is not None and t != r.opening_tile:
            raise RecordError(
                key="record.wrong_opening",
                number=number,
                opening=tile_name(r.opening_tile),
                tile=name,
                **where,
            )
        return move(t, End.RIGHT)  # the first tile's end is ignored, whatever it says
    end: End | None = None
    if "end" in doc:
        word = doc["end"]
        if word not in ("left", "right"):
            raise RecordError(
                key="record.either",
                name="end",
                one='"left"',
                other='"right"',
                value=_describe(word),
                **where,
            )
        end = End.parse(word)
    left, right = ends
    fits_left, fits_right = _fits(t, left), _fits(t, right)
    if not fits_left and not fits_right:
        raise RecordError(key="record.no_fit", tile=name, left=left, right=right, **where)
    if end is None:
        if fits_left and fits_right and left != right:
            raise RecordError(
                key="record.fits_both",
                tile=name,
                left=left,
                right=right,
                one='"end": "left"',
                other='"right"',
                **where,
            )
        return move(t, End.LEFT if fits_left and not fits_right else End.RIGHT)
    shown = left if end is End.LEFT else right
    if not _fits(t, shown):
        raise RecordError(key=f"record.no_fit_{end.word}", tile=name, shown=shown, **where)
    return move(t, end)


def _players(doc: dict[str, Any]) -> list[str]:
    if "players" not in doc:
        return [f"Seat {s}" for s in range(SEATS)]
    players = doc["players"]
    if not isinstance(players, list) or len(players) != SEATS:
        raise RecordError(key="record.players_not_list", name="players", seats=SEATS)
    for name in players:
        if not isinstance(name, str) or not name.strip():
            raise RecordError(key="record.player_name", value=_describe(name))
    return list(players)


def _variants(doc: object) -> Variants:
    """The record's variants, checked here so that each error has its key (the English is
    ``Variants.from_json``'s)."""
    if not isinstance(doc, dict):
        raise RecordError(key="record.variants_not_object", name="variants")
    unknown = sorted(set(doc) - {"opening", "block_passes", "rounds"})
    if unknown:
        raise RecordError(key="record.unknown_variant", name=repr(unknown[0]))
    kinds: tuple[tuple[str, type[StrEnum]], ...] = (
        ("opening", Opening),
        ("block_passes", BlockPasses),
        ("rounds", Rounds),
    )
    for name, kind in kinds:
        value = doc.get(name, getattr(Variants(), name).value)
        allowed = [v.value for v in kind]
        if value not in allowed:
            one, other = (repr(v) for v in allowed)
            raise RecordError(
                key="record.bad_variant", name=name, one=one, other=other, value=repr(value)
            )
    try:
        return Variants.from_json(doc)
    except ValueError as exc:  # pragma: no cover - the checks above come first
        raise RecordError(key="record.refused", why=f"bad variants: {exc}") from None


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
        raise RecordError(key="record.not_object")
    if "format" not in doc:
        raise RecordError(key="record.no_format", name="format", format=FORMAT)
    if doc["format"] != FORMAT:
        raise RecordError(
            key="record.wrong_format", name="format", value=_describe(doc["format"]), format=FORMAT
        )
    variants = _variants(doc.get("variants", {}))
    players = _players(doc)
    if "rounds" not in doc:
        raise RecordError(key="record.no_rounds", name="rounds")
    rounds = doc["rounds"]
    if not isinstance(rounds, list):
        raise RecordError(key="record.not_list", name="rounds")
    game = Game(variants)
    stand_ins: list[frozenset[int]] = []
    for i, round_doc in enumerate(rounds):
        number = i + 1
        if game.rounds and not game.round.finished:
            last = game.round
            raise RecordError(
                key="record.unfinished",
                previous=number - 1,
                seat=last.turn,
                number=number,
                round=number - 1,
                play=len(last.plays) + 1,
            )
        hands, unused, plays = _deal(round_doc, number)
        try:
            r = game.start_round(hands, unused)
        except ValueError as exc:  # pragma: no cover - _deal checks the deal first
            raise RecordError(key="record.refused", why=exc, round=number) from None
        marked: set[int] = set()
        for k, play in enumerate(plays, start=1):
            m = _move_of(r, play, number, k)  # checks ``stand_in`` too
            try:
                r.play(m)
            except IllegalMoveError as exc:  # pragma: no cover - the checks above come first
                raise RecordError(key="record.refused", why=exc, round=number, play=k) from None
            if _stand_in(play, _Where(round=number, play=k)):
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
