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
            rating=p["rating"],
            uncertainty=p["uncertainty"],
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
        figures.add_row(w(f"stats.{label}"), str(f[key]))
    for word in ("ceki", "pollo", "manguno", "mattikkeng"):
        figures.add_row(word.upper(), str(f[word]))
    figures.add_row(w("stats.passebunge_per_round"), str(f["passebunge_per_round"]))
    out.print(figures)
    if doc["recent"]:
        recent = Table(title=w("stats.recent"), title_justify="left")
        for label in ("when", "where", "rounds", "stones_per_round", "camat", "rating_after"):
            recent.add_column(
                w(f"stats.{label}"), justify="left" if label in ("when", "where") else "right"
            )
        for g in doc["recent"]:
            recent.add_row(
                _when(g["last"]), w(f"stats.source.{g['source']}"), str(g["rounds"]),
                str(g["stones_per_round"]), str(g["camat"]), f"{g['rating']} ± {g['uncertainty']}",
            )  # fmt: skip
        out.print(recent)
    if doc["head_to_head"]:
        heads = Table(title=w("stats.heads"), title_justify="left")
        heads.add_column(w("stats.opponent"))
        for label in ("together", "mine", "theirs"):
            heads.add_column(w(f"stats.{label}", name=p["name"]), justify="right")
        for h in doc["head_to_head"]:
            heads.add_row(
                h["opponent"]["name"], str(h["rounds"]), str(h["stones_per_round"]),
                str(h["opponent_stones_per_round"]),
            )  # fmt: skip
        out.print(heads)


def _board(out: Console, rows: list[dict[str, Any]], n: int) -> None:
    w = current()
    if not rows:
        out.print(w.count("stats.empty", n))
        return
    board = Table(title=w.count("stats.board", n), title_justify="left")
    for label in ("place", "name", "rating", "games", "stones_per_round", "camat_per_100"):
        board.add_column(w(f"stats.{label}"), justify="left" if label == "name" else "right")
    for r in rows:
        f = r["figures"]
        board.add_row(
            str(r["place"]), r["name"], f"{r['rating']} ± {r['uncertainty']}", str(f["games"]),
            str(f["stones_per_round"]), str(f["camat_per_100_rounds"]),
        )  # fmt: skip
    out.print(board)


@click.command(
    "stats", help="A player's figures, recent games and opponents (NAME), or the leaderboard."
)
@click.argument("name", required=False)
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The SQLite file (default: the one domeng serve and domeng play share).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead.")
def command(name: str | None, db: Path | None, as_json: bool) -> None:
    from domeng.history.pending import record_pending
    from domeng.paths import database, pending_dir
    from domeng.server.history import LEADERBOARD_GAMES, leaderboard, player_page
    from domeng.terminal.profiled import DatabaseHeld, open_database

    path = db if db is not None else database()
    try:
        storage = open_database(path)
    except DatabaseHeld:
        raise click.ClickException(current()("stats.held", path=path)) from None
    try:
        if db is None:
            record_pending(storage, pending_dir())
        if name is None:
            doc: Any = {"min_games": LEADERBOARD_GAMES, "players": leaderboard(storage)}
        else:
            found = storage.profile(name=name)
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
