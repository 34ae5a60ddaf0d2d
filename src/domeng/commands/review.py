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

Every text this command prints is a catalog key ``review.*`` of the terminal's group; a
reason's sentence is the browser's own, ``coach.reason.<key>``
(:data:`domeng.bots.reasons.KEYS`), its ``{end}`` the browser's ``coach.end_<end>``.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from dataclasses import replace
from decimal import ROUND_HALF_EVEN, Decimal
from pathlib import Path

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from domeng.bots.coach import MoveValue
from domeng.bots.expert import LEVELS
from domeng.bots.reasons import Why
from domeng.bots.review import (
    Decision,
    decisions,
    review_document,
    stones_received,
)
from domeng.commands.output import echo_all, fail
from domeng.engine.game import Game
from domeng.engine.record import RecordedGame, RecordError, load_recorded_game, loads_recorded_game
from domeng.i18n import Words, current
from domeng.i18n.errors import say_error
from domeng.terminal.render import bare_name, seat_label

EXIT_INVALID = 2
"""Exit status for an invalid record (as ``domeng replay``)."""


def _end(end: str | None, w: Words) -> str:
    """A move's end (``"left"``, ``"right"``) in the terminal's language."""
    return w(f"review.end.{end}") if end in ("left", "right") else end or ""


def reason_text(why: Why, names: Sequence[str], w: Words | None = None) -> str:
    """One reason as a sentence, seats by name: the sentence the browser's hint says
    (``web/js/coach.js``), from the same catalog key."""
    w = w or current()
    seat = names[why.seat] if why.seat is not None else ""
    stones = w.number(why.stones, 2) if why.stones is not None else ""
    return w(
        f"coach.reason.{why.key}",
        seat=seat,
        number=why.number,
        other=why.other,
        tile=why.tile,
        end=w(f"coach.end_{why.end}") if why.end in ("left", "right") else why.end or "",
        finish=why.finish,
        stones=stones,
    )


def hundredths(x: float) -> float:
    """``x`` as the review shows it, to the hundredth (as Babel rounds it for the page)."""
    return float(Decimal(str(x)).quantize(Decimal("0.01"), rounding=ROUND_HALF_EVEN))


def shown_loss(d: Decision) -> float:
    """The loss from the values as the review shows them (the best's less the played
    move's), so that its numbers agree with one another: -1.96 and -2.07 shown, the loss
    is 0.11, even when the values themselves are 0.104 apart."""
    return hundredths(hundredths(d.best.value) - hundredths(d.played.value))


def _move_text(mv: MoveValue, w: Words) -> str:
    return f"{mv.tile} {_end(mv.end, w)} ({w.number(mv.value, 2, sign=True)})"


def tell(d: Decision, names: Sequence[str], w: Words | None = None) -> list[str]:
    """The lines of one decision."""
    w = w or current()
    mark = " - " + w(f"review.{d.mark}") if d.mark else ""
    value = w.number(d.played.value, 2, sign=True)
    played = f"{d.played.tile} {_end(d.played_move.end.word, w)} ({value})"
    moves = ", ".join(
        f"{mv.tile} {_end(mv.end, w)} {w.number(mv.value, 2, sign=True)} ±{w.number(mv.error, 2)}"
        for mv in d.judgement.moves
    )
    lines = [
        w(
            "review.decision",
            round=d.round,
            index=d.index + 1,
            played=played,
            best=_move_text(d.best, w),
            loss=w.number(shown_loss(d), 2),
            mark=mark,
        ),
        "  " + w("review.moves", moves=moves),
    ]
    if d.reasons:
        # a difference in stones is the loss as shown ("close: 0.09 STONES apart")
        said = [r if r.stones is None else replace(r, stones=shown_loss(d)) for r in d.reasons]
        why = " ".join(reason_text(r, names, w) for r in said)
        lines.append("  " + w("review.why", why=why))
    seen = d.hindsight[0]
    played_seen = w.number(d.hindsight_of(d.played_move).value, 2, sign=True)
    lines.append("  " + w("review.hindsight", played=played_seen, best=_move_text(seen, w)))
    if d.stand_in:
        lines.append("  " + w("review.stand_in", name=names[d.seat]))
    return lines


def tell_review(recorded: RecordedGame, seat: int, level: str, found: list[Decision]) -> str:
    w = current()
    # the seat reviewed as the table showed it, "Cicci (Club player)"; in the sentences
    # after it every seat by its name alone, as the browser's review says them
    names = [bare_name(n) for n in recorded.players]
    title = seat_label(recorded.players[seat])
    lines = [w("review.title", name=title, seat=seat, level=level), ""]
    if not found:
        lines.append(w("review.none", name=names[seat]))
        return "\n".join(lines)
    for d in found:
        lines += tell(d, names, w)
        lines.append("")
    total = hundredths(sum(shown_loss(d) for d in found))
    lines.append(
        w.count(
            "review.total",
            len(found),
            loss=w.number(total, 2),
            mistakes=sum(d.mark == "mistake" for d in found),
            blunders=sum(d.mark == "blunder" for d in found),
        )
    )
    received = stones_received(recorded, seat)
    lines.append(
        w(
            "review.luck_skill",
            received=received,
            skill=w.number(total, 2),  # the decisions' part as the losses shown add up
            luck=w.number(received - total, 2),
        )
    )
    # how the marks are given, as under the browser's review (a loss of 1.66 marked only
    # "a mistake" looked wrong without it)
    lines += ["", w("coach.trust")]
    return "\n".join(lines)


def choices(game: Game, seat: int) -> int:
    """How many plays of ``seat`` in ``game`` had more than one legal move (the
    decisions the coach reviews), the positions rebuilt by the engine."""
    count = 0
    replay = Game(game.variants)
    for r in game.rounds:
        fresh = replay.start_round(list(r.dealt), r.unused)
        for who, m in r.plays:
            if who == seat and len(fresh.legal_moves()) > 1:
                count += 1
            fresh.play(m)
    return count


def _reviewed(recorded: RecordedGame, seat: int, level: str) -> list[Decision]:
    """The seat's decisions judged; on a terminal, a progress bar on standard error
    counts them as the coach goes (a game's review takes seconds)."""
    err = Console(stderr=True)
    if not err.is_terminal:
        return decisions(recorded, seat, LEVELS[level])
    w = current()
    with Progress(
        TextColumn("[bold]domeng review"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn(w("review.progress_word")),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as bar:
        job = bar.add_task("review", total=choices(recorded.game, seat))
        return decisions(
            recorded, seat, LEVELS[level], progress=lambda number, index: bar.advance(job)
        )


@click.command(
    "review",
    help="Review one seat's decisions in the game RECORD (a domeng.record/1 file; - reads "
    "standard input): for each play with a choice, the expert's value of every legal move, "
    "the best one, the loss and why. An invalid record prints one line on standard error "
    "and exits with status 2.",
)
@click.argument("record", type=click.Path(path_type=Path, allow_dash=True))
@click.option("--seat", type=int, default=0, show_default=True, help="The seat to review (0-4).")
@click.option(
    "--level",
    type=click.Choice(list(LEVELS)),
    default="expert",
    show_default=True,
    help="How long the coach thinks about each decision.",
)
@click.option(
    "--json", "as_json", is_flag=True, help="Print the review as one JSON document instead."
)
def command(record: Path, seat: int, level: str, as_json: bool) -> None:
    if not 0 <= seat < 5:
        fail("review", current()("review.no_seat", seat=seat), EXIT_INVALID)
        return
    try:
        if os.fspath(record) == "-":
            recorded = loads_recorded_game(sys.stdin.buffer.read())
        else:
            recorded = load_recorded_game(record)
        found = _reviewed(recorded, seat, level)
        if as_json:
            doc = review_document(seat, found, stones_received(recorded, seat))
            doc["level"] = level  # the level the coach judged at, as the service says it
            text = json.dumps(doc, ensure_ascii=False, indent=2)
        else:
            text = tell_review(recorded, seat, level, found)
    except RecordError as exc:
        fail("review", say_error(exc), EXIT_INVALID)
        return
    except Exception as exc:  # never a traceback, even for a bug
        fail("review", current()("review.internal_error", why=f"{type(exc).__name__}: {exc}"), 1)
        return
    echo_all(text, wrap=not as_json)  # a terminal shows the sentences by words
