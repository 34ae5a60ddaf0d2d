"""`domeng review RECORD [--seat N] [--level expert] [--json]`: the coach's review of one
seat's decisions in a recorded game.

For every play where the seat had more than one legal move: the round, the play's
index, the legal moves with their values, the move played, the best move, the loss
and the mark (mistake, blunder), with the reason and the hindsight value (knowing
every hand). ``--json`` prints one document (:func:`domeng.bots.review.review_document`).
Every position is rebuilt from the record by the engine, so an invalid record fails
as ``domeng replay`` does: one line on standard error, exit status 2.

The text numbers plays from 1 in each round, as record errors do; ``--json`` gives
``index``, the play's position in the round's ``plays``, from 0.

Every text this command prints is in :data:`TEXTS` and :data:`REASONS` below.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path

import click

from domeng.bots.coach import MoveValue
from domeng.bots.expert import LEVELS
from domeng.bots.reasons import Why
from domeng.bots.review import Decision, decisions, review_document
from domeng.engine.record import RecordedGame, RecordError, load_recorded_game, loads_recorded_game
from domeng.i18n.errors import say_error

EXIT_INVALID = 2
"""Exit status for an invalid record (as ``domeng replay``)."""

TEXTS: dict[str, str] = {
    "title": "Review of {name} (seat {seat}) by {level}, from what the seat knew at each play",
    "none": "{name} made no decision: every play had one legal move.",
    "decision": "Round {round}, play {index}: played {played}; best {best}; loss {loss}{mark}",
    "moves": "  moves: {moves}",
    "why": "  why: {why}",
    "hindsight": "  hindsight (knowing every hand): played {played}, best {best}",
    "stand_in": "  (a computer played this for {name})",
    "total": "Total: {loss} stones lost over {count} decisions (mistakes: {mistakes}, "
    "blunders: {blunders}).",
    "mistake": " - a mistake",
    "blunder": " - a BLUNDER",
    "error": "domeng review: {message}",
    "no_seat": "no seat {seat} (seats are 0-4)",
    "internal": "internal error: {kind}: {message}",
    "help": "Review one seat's decisions in the game RECORD (a domeng.record/1 file; - reads "
    "standard input): for each play with a choice, the expert's value of every legal move, "
    "the best one, the loss and why. An invalid record prints one line on standard error "
    "and exits with status 2.",
    "help_seat": "The seat to review (0-4).",
    "help_level": "How long the coach thinks about each decision.",
    "help_json": "Print the review as one JSON document instead.",
}
"""Every sentence ``domeng review`` prints (English; translated in one place later)."""

REASONS: dict[str, str] = {
    "cappu": "{tile} is your last tile: FIRST CAPPU.",
    "ceki": "{tile} is your last tile and makes a CEKI: the CUCUQ receives 3.",
    "pollo": "{tile} is your last tile and makes a POLLO: the CUCUQ receives 5.",
    "keeps_number": "Keeps a {number} for later: fewer PASSes.",
    "makes_pass": "{seat} lacks {number}: the {number} end makes {seat} PASS.",
    "likely_pass": "{seat} probably holds no {number}: a PASS is likely.",
    "one_tile": "{seat} has one tile left: leaving the ends at {number} and {other} risks a "
    "{finish}, and you would be the CUCUQ.",
    "one_tile_both": "{seat} has one tile left: leaving both ends at {number} risks a {finish}, "
    "and you would be the CUCUQ.",
    "cucuq": "Less risk of being the CUCUQ of someone's FIRST CAPPU.",
    "lempa": "Plays the LEMPA {tile} while it still fits.",
    "pips": "Sheds the heavy {tile}: fewer pips if the line blocks (MANGUNO, MATTIKKENG).",
    "camat": "Keeps the CAMAT election within reach.",
    "close": "The moves are close: {stones} stones apart, within the coach's margin.",
    "better": "{tile} {end} is worth {stones} stones more on average.",
}
"""The sentence of each reason (:data:`domeng.bots.reasons.KEYS`)."""


def reason_text(w: Why, names: Sequence[str]) -> str:
    """One reason as a sentence, seats by name."""
    seat = names[w.seat] if w.seat is not None else ""
    stones = f"{w.stones:.2f}" if w.stones is not None else ""
    return REASONS[w.key].format(
        seat=seat,
        number=w.number,
        other=w.other,
        tile=w.tile,
        end=w.end,
        finish=w.finish,
        stones=stones,
    )


def _move_text(mv: MoveValue) -> str:
    return f"{mv.tile} {mv.end} ({mv.value:+.2f})"


def tell(d: Decision, names: Sequence[str]) -> list[str]:
    """The lines of one decision."""
    mark = TEXTS[d.mark] if d.mark else ""
    played = f"{d.played.tile} {d.played_move.end.word} ({d.played.value:+.2f})"
    lines = [
        TEXTS["decision"].format(
            round=d.round,
            index=d.index + 1,
            played=played,
            best=_move_text(d.best),
            loss=f"{d.loss:.2f}",
            mark=mark,
        ),
        TEXTS["moves"].format(
            moves=", ".join(
                f"{mv.tile} {mv.end} {mv.value:+.2f} ±{mv.error:.2f}" for mv in d.judgement.moves
            )
        ),
    ]
    if d.reasons:
        lines.append(TEXTS["why"].format(why=" ".join(reason_text(w, names) for w in d.reasons)))
    seen = d.hindsight[0]
    lines.append(
        TEXTS["hindsight"].format(
            played=f"{d.hindsight_of(d.played_move).value:+.2f}", best=_move_text(seen)
        )
    )
    if d.stand_in:
        lines.append(TEXTS["stand_in"].format(name=names[d.seat]))
    return lines


def tell_review(recorded: RecordedGame, seat: int, level: str, found: list[Decision]) -> str:
    names = recorded.players
    lines = [TEXTS["title"].format(name=names[seat], seat=seat, level=level), ""]
    if not found:
        lines.append(TEXTS["none"].format(name=names[seat]))
        return "\n".join(lines)
    for d in found:
        lines += tell(d, names)
        lines.append("")
    lines.append(
        TEXTS["total"].format(
            loss=f"{sum(d.loss for d in found):.2f}",
            count=len(found),
            mistakes=sum(d.mark == "mistake" for d in found),
            blunders=sum(d.mark == "blunder" for d in found),
        )
    )
    return "\n".join(lines)


def _fail(message: str, status: int) -> None:
    click.echo(TEXTS["error"].format(message=" ".join(message.split())), err=True)
    sys.exit(status)


@click.command("review", help=TEXTS["help"])
@click.argument("record", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--seat", type=int, default=0, show_default=True, help=TEXTS["help_seat"])
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
    default="expert",
    show_default=True,
    help=TEXTS["help_level"],
)
@click.option("--json", "as_json", is_flag=True, help=TEXTS["help_json"])
def command(record: Path, seat: int, level: str, as_json: bool) -> None:
    if not 0 <= seat < 5:
        _fail(TEXTS["no_seat"].format(seat=seat), EXIT_INVALID)
        return
    try:
        if os.fspath(record) == "-":
            recorded = loads_recorded_game(sys.stdin.buffer.read())
        else:
            recorded = load_recorded_game(record)
        found = decisions(recorded, seat, LEVELS[level])
        if as_json:
            text = json.dumps(review_document(seat, found), ensure_ascii=False, indent=2)
        else:
            text = tell_review(recorded, seat, level, found)
    except RecordError as exc:
        _fail(say_error(exc), EXIT_INVALID)
        return
    except Exception as exc:  # never a traceback, even for a bug
        _fail(TEXTS["internal"].format(kind=type(exc).__name__, message=exc), 1)
        return
    try:
        click.echo(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
