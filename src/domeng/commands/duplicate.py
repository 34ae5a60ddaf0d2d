"""``domeng sim --duplicate-tables N[,N...]``: how much duplicate scoring narrows a
player's 95% interval against plain STONES (:mod:`domeng.sim.duplicate`), the figure a
club needs to choose a tournament's format (docs/tournaments.md)."""

from __future__ import annotations

import json
import sys
import time

import click
from rich.console import Console
from rich.table import Table

from domeng.engine import Variants
from domeng.i18n import current
from domeng.sim.duplicate import Interval, measure

MAX_TABLES = 100
"""The most tables ``--duplicate-tables`` takes."""


def duplicate_command(
    names: tuple[str, ...],
    tables: list[int],
    deals: int,
    seed: int,
    variants: Variants,
    as_json: bool,
) -> None:
    """Measure ``names[0]`` against the field ``names[1:]`` at each count of ``tables``
    over ``deals`` deals, and print the figures (a table, or one JSON document)."""
    player, field = names[0], names[1:]
    rows = []
    for n in tables:
        started = time.perf_counter()
        got = measure(deals, n, player, field, seed, variants)
        rows.append((n, got, time.perf_counter() - started))
    if as_json:
        doc = {
            "player": player,
            "field": list(field),
            "deals": deals,
            "seed": seed,
            "tables": [
                {
                    "tables": n,
                    "plain": got.plain._asdict(),
                    "against_field": got.field._asdict(),
                    "duplicate": got.duplicate._asdict(),
                    "ratio": got.ratio,
                    "plain_deals": got.plain_deals(deals),
                    "seconds": seconds,
                }
                for n, got, seconds in rows
            ],
        }
        click.echo(json.dumps(doc, indent=2))
        return
    w = current()
    title = w("sim.dup.title", player=player, field=",".join(field), deals=deals, seed=seed)
    table = Table(title=title, title_justify="left")
    for key in ("tables", "plain", "field", "duplicate", "ratio", "deals"):
        table.add_column(w(f"sim.dup.col.{key}"), justify="right")

    def shown(x: Interval) -> str:
        return f"{w.number(x.mean, 3)} ± {w.number(x.half, 3)}"

    for n, got, _ in rows:
        table.add_row(
            str(n),
            shown(got.plain),
            shown(got.field),
            shown(got.duplicate),
            w.number(got.ratio, 2),
            w.number(got.plain_deals(deals), 0),
        )
    out = Console(file=sys.stdout, width=max(120, Console().width))
    out.print(table)
    out.print(w("sim.dup.footer", deals=deals))
