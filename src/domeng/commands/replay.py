"""`domeng replay RECORD [--json]`: replay a game record and tell it.

With ``--json`` it prints exactly the document of record.md (``replay_summary``);
without, the same game told for people, round by round. An invalid record
prints one line on standard error naming the round, the play and the reason,
nothing on standard output, and exits with status 2.
"""

from __future__ import annotations

import io
import json
import os
import sys
from collections.abc import Collection, Sequence
from pathlib import Path

import click
from rich.cells import cell_len
from rich.console import Console

from domeng.account import (
    describe,
    pips,
    shortfall,
    standings_sentence,
    stones,
)
from domeng.commands.output import echo_all, fail, terminal_width
from domeng.engine.events import CamatElected, Event, Passed, Played, RoundEnded, StonesMoved
from domeng.engine.game import Game
from domeng.engine.moves import SEATS, End
from domeng.engine.record import (
    RecordError,
    StandIns,
    load_recorded_game,
    loads_recorded_game,
    replay_summary,
)
from domeng.engine.round import Round
from domeng.engine.standings import standings
from domeng.engine.tiles import HIGH, LOW, TileSet, pip_total, tile_name, tiles_of
from domeng.i18n import Words, current
from domeng.i18n.errors import say_error
from domeng.terminal.render import bare_name, full_stop, pad, person_seat, seat_label
from domeng.terminal.tables import Column, fitted

EXIT_INVALID = 2
"""Exit status for an invalid record (record.md)."""

# -- the --json document ----------------------------------------------------


def format_summary(summary: dict[str, object]) -> str:
    """The replay document as JSON text laid out like record.md: one key a line in
    each round, short values on that line."""

    def dumps(value: object) -> str:
        return json.dumps(value, ensure_ascii=False)

    rounds = summary["rounds"]
    assert isinstance(rounds, list)
    out = ["{", '  "rounds": [' if rounds else '  "rounds": [],']
    for i, rd in enumerate(rounds):
        assert isinstance(rd, dict)
        out.append("    {")
        items = list(rd.items())
        for k, (key, value) in enumerate(items):
            if key == "passes" and value:
                assert isinstance(value, list)
                out.append(f"      {dumps(key)}: [")
                out += [
                    f"        {dumps(p)}{',' if j < len(value) - 1 else ''}"
                    for j, p in enumerate(value)
                ]
                out.append("      ]" + ("," if k < len(items) - 1 else ""))
            else:
                comma = "," if k < len(items) - 1 else ""
                out.append(f"      {dumps(key)}: {dumps(value)}{comma}")
        out.append("    }" + ("," if i < len(rounds) - 1 else ""))
    if rounds:
        out.append("  ],")
    out.append(f'  "next_starter": {dumps(summary["next_starter"])}')
    out.append("}")
    return "\n".join(out)


# -- the telling for people -------------------------------------------------


def _tiles(mask: TileSet, w: Words) -> str:
    tiles = sorted(tiles_of(mask), reverse=True)
    return " ".join(tile_name(t) for t in tiles) if tiles else w("replay.none")


def _line_text(line: Sequence[tuple[int, int]]) -> str:
    return "".join(f"[{a}|{b}]" for a, b in line)


def _grow(line: list[tuple[int, int]], e: Played) -> None:
    """Put the played tile on the line as the engine does (the first tile higher half left)."""
    t = e.tile
    if e.opening:
        line.append((HIGH[t], LOW[t]))
    elif End(e.end) is End.LEFT:
        inner = HIGH[t] if LOW[t] == e.left else LOW[t]
        line.insert(0, (e.left, inner))
    else:
        inner = HIGH[t] if LOW[t] == e.right else LOW[t]
        line.append((inner, e.right))


def _stones_text(held: Sequence[int], table: int, names: Sequence[str], w: Words) -> str:
    each = ", ".join(f"{names[s]} {held[s]}" for s in range(SEATS))
    return w("replay.stones_line", each=each, table=table)


def _why_starts(game: Game, r: Round, names: Sequence[str], w: Words, you: int | None) -> str:
    who = names[r.starter]
    # the person's own sentences: replay.you_start_... for replay.starts_...
    mine = "replay.you_start_" if r.starter == you else "replay.starts_"
    if r.number == 1:
        lempa = next(
            tile_name(t) for t in sorted(tiles_of(r.dealt[r.starter]), reverse=True) if t in _LEMPA
        )
        key = mine + ("lempa" if r.opening_tile is not None else "lempa_any")
        return w(key, who=who, tile=lempa)
    # The CAMAT as the round began: the one after the round before (this round's
    # ``camat`` may already be a CAMAT elected at its end).
    camat = game.rounds[r.number - 2].camat
    if camat is not None and camat == r.starter:
        return w(mine + "camat", who=who)
    return w(mine + "winner", who=who, n=r.number - 1)


_LEMPA = frozenset(t for t in range(28) if HIGH[t] == LOW[t] and HIGH[t] >= 3)


def _tell_round(
    game: Game,
    r: Round,
    names: Sequence[str],
    width: int,
    stand_ins: Collection[int],
    you: int | None,
) -> list[str]:
    w = current()
    heading = w("play.round_n", n=r.number)
    out = [heading, "=" * cell_len(heading)]
    out.append(full_stop(_why_starts(game, r, names, w, you)))
    out.append(w("replay.deal"))
    for s in range(SEATS):
        out.append(f"  {pad(names[s], width)}  {_tiles(r.dealt[s], w)}")
    out.append(f"  {pad(w('replay.unused'), width)}  {_tiles(r.unused, w)}")
    out.append(w("replay.plays_heading"))
    line: list[tuple[int, int]] = []
    events: list[Event] = r.events
    i = 0
    plays = 0
    while i < len(events):
        e = events[i]
        if isinstance(e, Played):
            plays += 1
            _grow(line, e)
            text = describe(e, names, stand_in=plays - 1 in stand_ins, w=w, you=you)
            out.append(f"  {plays:>2}. {full_stop(text)}")
            out.append(f"      {w('replay.line', line=_line_text(line))}")
            i += 1
            continue
        if isinstance(e, Passed):
            j = i + 1
            while j < len(events) and isinstance(events[j], StonesMoved):
                j += 1
            told = [describe(e, names, w=w, you=you) for e in events[i:j]]
            out += [f"      {full_stop(text)}" for text in told]
            i = j
            continue
        break
    if r.result is None:
        turn = r.turn if r.turn is not None else r.starter
        key = "replay.you_not_finished" if turn == you else "replay.not_finished"
        out.append(w(key, who=names[turn]))
        out.append(w.count("replay.after_plays", plays, line=_standing_line(r, names, w)))
        return out
    out.append(w("replay.end"))
    ended: RoundEnded = r.result
    short = shortfall(events, names, w, you)
    for e in events[i:]:
        if isinstance(e, CamatElected) and short is not None:
            out.append(f"  {short}")  # before the election's reset
            short = None
        if isinstance(e, RoundEnded):
            out.append(f"  {full_stop(describe(e, names, w=w, you=you))}")
            out.append("  " + w("replay.unplayed"))
            for s in range(SEATS):
                hand = ended.hands[s]
                shown = f"{_tiles(hand, w)} ({pips(pip_total(hand), w)})" if hand else "-"
                out.append(f"    {pad(names[s], width)}  {shown}")
        elif isinstance(e, StonesMoved | CamatElected):
            out.append(f"  {full_stop(describe(e, names, w=w, you=you))}")
    if short is not None:
        out.append(f"  {short}")
    out.append(w("replay.after_round", n=r.number, line=_standing_line(r, names, w)))
    return out


def _standing_line(r: Round, names: Sequence[str], w: Words) -> str:
    camat = names[r.camat] if r.camat is not None else w("replay.no_camat")
    return w("replay.standing_line", stones=_stones_text(r.stones, r.table, names, w), camat=camat)


def _standings_title(game: Game, w: Words) -> str:
    """``"Standings after 4 rounds"``; a round being played is said as such."""
    if not game.rounds:
        return w("replay.standings_none")
    finished = sum(1 for r in game.rounds if r.finished)
    if game.round.finished:
        return w.count("replay.standings_after", finished)
    during = w.count("replay.plays_of_round", len(game.round.plays), round=game.round.number)
    if not finished:
        return w("replay.standings_during", plays=during)
    rounds = w.count("replay.n_rounds", finished)
    return w("replay.standings_after_during", rounds=rounds, plays=during)


_FIGURES = (
    "standings.received",
    "standings.rounds_won",
    "CEKI",
    "POLLO",
    "MANGUNO",
    "MATTIKKENG",
)


def _tell_standings(
    game: Game, names: Sequence[str], width: int, you: int | None, terminal: int | None
) -> list[str]:
    """The standings of the game so far: the rank order (most CAMAT titles, then fewest
    stones, then fewest received), who leads, and every player's figures over the game
    (a table that fits ``terminal`` columns; None: a pipe or a file, one table)."""
    w = current()
    title = _standings_title(game, w)
    out = [title, "=" * cell_len(title)]
    table = standings(game)
    for st in table:
        s = st.seat
        mark = "  CAMAT" if game.camat == s else ""
        out.append(
            f"  {st.rank}. {pad(names[s], width)}  {pad(stones(st.stones, w), 10, right=True)}  "
            f"{w.count('account.n_titles', st.titles)}{mark}"
        )
    table_stones = pad(stones(game.table, w), 10, right=True)
    out.append(f"     {pad(w('replay.table'), width)}  {table_stones}")
    if not game.rounds:
        return out
    leads = standings_sentence(table, names, over=False, w=w, you=you)
    out.append(full_stop(leads))
    if terminal is None:  # a pipe or a file: the rows as they always were, for programs
        figures = [w(k) if "." in k else k for k in _FIGURES]
        out += [w("replay.over_the_game"), f"  {pad('', width)}  " + "  ".join(figures)]
        for st in table:
            values = (st.received, st.rounds_won, st.ceki, st.pollo, st.manguno, st.mattikkeng)
            cells = "  ".join(
                pad(str(v), cell_len(h), right=True) for v, h in zip(values, figures, strict=True)
            )
            out.append(f"  {pad(names[st.seat], width)}  {cells}")
        return out
    out.append(w("replay.over_the_game"))
    # the game's words never wrap; the others' headings may go on two lines, between
    # words; what still does not fit the terminal goes to a table under the first, each
    # row named again (86 columns in Indonesian, laid out by hand, broke in 80)
    columns = [Column("")]
    columns += [Column(w(k), "right") if "." in k else Column(k, "right", True) for k in _FIGURES]
    rows = [
        [names[st.seat]]
        + [str(n) for n in (st.received, st.rounds_won, st.ceki, st.pollo, st.manguno)]
        + [str(st.mattikkeng)]
        for st in table
    ]
    shown = io.StringIO()
    console = Console(file=shown, width=terminal or _UNLIMITED, color_system=None)
    for part in fitted(columns, rows, terminal or _UNLIMITED, box=None):
        console.print(part)
    out += [line.rstrip() for line in shown.getvalue().splitlines()]
    return out


_UNLIMITED = 10_000
"""The width a table is laid out in for a pipe or a file: all of it on one line."""


def tell(
    game: Game, players: Sequence[str], stand_ins: StandIns = (), width: int | None = None
) -> str:
    """The game told for people, round by round, with the standings at the end; its
    table fits ``width`` columns (a terminal's; None: a pipe or a file).

    ``stand_ins`` (per round, the indices in ``Round.plays`` of a stand-in's plays, as
    :class:`~domeng.engine.record.RecordedGame` has them): those plays are told as
    a computer's made for the person."""
    w = current()
    you = person_seat(players)
    # each seat named once as the table showed it ("Besse (Club player)"), then by its
    # name alone, as the browser's replay does
    names = [bare_name(n) for n in players]
    name_width = max(cell_len(n) for n in [*names, w("replay.unused"), w("replay.table")])
    v = game.variants
    variants = w(
        "play.variants",
        opening=w(f"variant.opening.{v.opening.value}"),
        block_passes=w(f"variant.block_passes.{v.block_passes.value}"),
    )
    seated = ", ".join(
        w("replay.at_seat", who=seat_label(players[s]), seat=s) for s in range(SEATS)
    )
    out = [
        w.count("replay.title", len(game.rounds), variants=variants),
        w("replay.players", players=seated),
    ]
    for i, r in enumerate(game.rounds):
        out.append("")
        marked = stand_ins[i] if i < len(stand_ins) else frozenset[int]()
        out += _tell_round(game, r, names, name_width, marked, you)
    out += ["", *_tell_standings(game, names, name_width, you, terminal=width)]
    nxt = game.next_starter()
    if nxt is not None:
        key = "replay.you_next_to_start" if nxt == you else "replay.next_to_start"
        out.append(w(key, who=names[nxt]))
    elif game.rounds:
        out.append(w("replay.last_not_finished"))
    return "\n".join(out)


# -- the command ------------------------------------------------------------


@click.command("replay")
@click.argument("record", type=click.Path(path_type=Path, allow_dash=True))
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print the replay as one JSON document (rounds, passes, STONES, CAMAT) instead.",
)
def command(record: Path, as_json: bool) -> None:
    """Replay the game RECORD (a domeng.record/1 file; - reads standard input) and tell it.

    An invalid record prints one line naming the round, the play and the reason
    on standard error and exits with status 2.
    """
    try:
        if os.fspath(record) == "-":
            recorded = loads_recorded_game(sys.stdin.buffer.read())
        else:
            recorded = load_recorded_game(record)
        game = recorded.game
        if as_json:
            text = format_summary(replay_summary(game))
        else:
            text = tell(game, recorded.players, recorded.stand_ins, terminal_width())
    except RecordError as exc:
        fail("replay", say_error(exc), EXIT_INVALID)
        return
    except Exception as exc:  # never a traceback, even for a bug
        fail("replay", current()("replay.internal_error", why=f"{type(exc).__name__}: {exc}"), 1)
        return
    echo_all(text, wrap=not as_json)  # a terminal shows the sentences by words
