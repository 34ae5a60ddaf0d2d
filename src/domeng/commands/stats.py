"""`domeng stats [NAME] [--json]`: a player's page, or the leaderboard, in the terminal.

The same figures as the browser's pages (``domeng.server.history``), read from the
database the table service and the terminal share; ``--json`` prints the document the
service answers (``GET /api/profiles/{id}``, ``GET /api/leaderboard``).
"""

from __future__ import annotations

import json
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from domeng.i18n import current
from domeng.terminal.render import level_words
from domeng.terminal.tables import Column, fitted


def _n(x: object) -> str:
    """A figure with the language's decimal sign (a count as it is)."""
    return current().number(x) if isinstance(x, float) else str(x)


def _rating(rating: object, uncertainty: object) -> str:
    return f"{_n(rating)} ± {_n(uncertainty)}"


def _when(at: float) -> str:
    return datetime.fromtimestamp(at).strftime("%Y-%m-%d %H:%M") if at else "-"


def _player(out: Console, doc: dict[str, Any]) -> None:
    w = current()
    p, f = doc["profile"], doc["figures"]
    kind = w(f"stats.{p['kind']}")
    out.print(
        w(
            "stats.player",
            name=p["name"],
            kind=kind,
            rating=_n(p["rating"]),
            uncertainty=_n(p["uncertainty"]),
        ),
        style="bold",
    )
    figures = Table(title=w("stats.figures"), title_justify="left", show_header=False)
    figures.add_column("")
    figures.add_column("", justify="right")
    for key, label in (
        ("games", "games"),
        ("rounds", "rounds"),
        ("stones_per_round", "stones_per_round"),
        ("camat", "camat"),
        ("camat_per_100_rounds", "camat_per_100"),
        ("rounds_won", "rounds_won"),
    ):
        figures.add_row(w(f"stats.{label}"), _n(f[key]))
    for word in ("ceki", "pollo", "manguno", "mattikkeng"):
        figures.add_row(word.upper(), _n(f[word]))
    figures.add_row(w("stats.passebunge_per_round"), _n(f["passebunge_per_round"]))
    out.print(figures)
    if doc["recent"]:
        columns = [
            Column(
                w(f"stats.{label}"),
                "left" if label in ("when", "where") else "right",
                no_wrap=label == "rating_after",  # "26,6 ± 16,3" on one line
            )
            for label in ("when", "where", "rounds", "stones_per_round", "camat", "rating_after")
        ]
        rows = [
            [
                _when(g["last"]),
                w(f"stats.source.{g['source']}"),
                _n(g["rounds"]),
                _n(g["stones_per_round"]),
                _n(g["camat"]),
                _rating(g["rating"], g["uncertainty"]),
            ]
            for g in doc["recent"]
        ]
        _print(out, fitted(columns, rows, out.width, title=w("stats.recent")))
    if doc["head_to_head"]:
        columns = [Column(w("stats.opponent"))] + [
            Column(w(f"stats.{label}", name=p["name"]), "right")
            for label in ("together", "mine", "theirs")
        ]
        rows = [
            [
                _opponent(h["opponent"]),
                _n(h["rounds"]),
                _n(h["stones_per_round"]),
                _n(h["opponent_stones_per_round"]),
            ]
            for h in doc["head_to_head"]
        ]
        _print(out, fitted(columns, rows, out.width, title=w("stats.heads")))


def _opponent(o: dict[str, Any]) -> str:
    """An opponent as players know it: a computer level by the ladder's name ("Club
    player", not ``expert:fast``), as the leaderboard and the table name it."""
    return level_words(o["name"]) if o["kind"] == "computer" else str(o["name"])


def _print(out: Console, tables: list[Table]) -> None:
    """A table, or the tables it was split into to fit the terminal (:func:`fitted`)."""
    for table in tables:
        out.print(table)


def _level_named(name: str) -> str:
    """The computer level ``name`` is the ladder's name of, in any language ("Club
    player", "pemain klub": ``expert:fast``), as the leaderboard shows it; else ``name``."""
    from domeng.bots.levels import LADDER
    from domeng.engine.seatname import name_key
    from domeng.i18n import LANGUAGES, words

    wanted = name_key(name)
    for code in LANGUAGES:
        w = words(code)
        for level in LADDER:
            if name_key(w(f"ladder.{level}")) == wanted:
                return level
    return name


def _board(out: Console, rows: list[dict[str, Any]], n: int) -> None:
    w = current()
    if not rows:
        out.print(w.count("stats.empty", n))
        return
    columns = [
        Column(
            w(f"stats.{label}"),
            "left" if label == "name" else "right",
            no_wrap=label == "rating",
        )
        for label in ("place", "name", "rating", "games", "stones_per_round", "camat_per_100")
    ]
    board: list[list[str]] = []
    for r in rows:
        f = r["figures"]
        # a computer level by the ladder's name for players ("Club player"), as the
        # browser's table names it: with the technical name too, a column of 80 cut it
        name = level_words(r["name"]) if r["kind"] == "computer" else r["name"]
        board.append([
            str(r["place"]), name, _rating(r["rating"], r["uncertainty"]), _n(f["games"]),
            _n(f["stones_per_round"]), _n(f["camat_per_100_rounds"]),
        ])  # fmt: skip
    # in a narrow terminal, the figures that do not fit beside the place and the name go
    # under them, in a table of their own ("Mast…" cut otherwise, 50 columns)
    _print(out, fitted(columns, board, out.width, keys=2, title=w.count("stats.board", n)))
    # why levels with fewer games than the title's are on it (as the browser's page says)
    out.print(w("players.leaderboard_levels"))


@click.command(
    "stats", help="A player's figures, recent games and opponents (NAME), or the leaderboard."
)
@click.argument("name", required=False)
@click.option(
    "--db",
    default=None,
    metavar="FILE|URL",
    help="The database: a SQLite file (default: the one domeng serve and domeng play share), "
    "or a PostgreSQL database as postgresql://USER@HOST/DB.",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead.")
def command(name: str | None, db: str | None, as_json: bool) -> None:
    from domeng.history.pending import record_pending
    from domeng.paths import database, pending_dir
    from domeng.server.history import LEADERBOARD_GAMES, leaderboard, player_page
    from domeng.storage import is_postgres
    from domeng.storage.opening import shown
    from domeng.terminal.profiled import DatabaseHeld, open_database

    where: str | Path = database() if db is None else db if is_postgres(db) else Path(db)
    path = shown(where)
    try:
        storage = open_database(where)
    except DatabaseHeld:
        raise click.ClickException(current()("stats.held", path=path)) from None
    try:
        if db is None:
            record_pending(storage, pending_dir())
        if name is None:
            doc: Any = {"min_games": LEADERBOARD_GAMES, "players": leaderboard(storage)}
        else:
            found = storage.profile(name=name) or storage.profile(name=_level_named(name))
            if found is None:
                raise click.ClickException(current()("stats.no_player", name=repr(name)))
            doc = player_page(storage, found.id)
    finally:
        storage.close()
    if as_json:
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    out = Console(file=sys.stdout, highlight=False)
    if name is None:
        _board(out, doc["players"], doc["min_games"])
    else:
        _player(out, doc)
