"""Tables that fit the terminal's width with every word whole.

Given too little room, ``rich`` narrows a table's columns until a word no longer fits
and cuts it ("Mast…" for "Master", 50 columns). :func:`fitted` lays the table out so
that no word is cut: its columns as narrow as their longest word, when that is needed
to fit; and when even that does not fit, the columns that do not go to a table of their
own under the first, each row named again by its first columns (as the final standings
of a game put the counts of CEKI, POLLO, MANGUNO and MATTIKKENG under the figures).

>>> from io import StringIO
>>> from rich.console import Console
>>> columns = [Column("player"), Column("rating", "right", no_wrap=True),
...            Column("games", "right"), Column("CAMAT titles / 100 rounds", "right")]
>>> rows = [["Master", "27.04 ± 3.75", "0", "0"], ["Andi Mappasessu", "25.48 ± 10.51", "6", "0"]]
>>> out = StringIO()
>>> for table in fitted(columns, rows, 40, keys=1, title="Leaderboard"):
...     Console(file=out, width=40).print(table)
>>> for line in out.getvalue().splitlines():
...     print(line.rstrip())
Leaderboard
┏━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━┳━━━━━━━┓
┃ player       ┃        rating ┃ games ┃
┡━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━╇━━━━━━━┩
│ Master       │  27.04 ± 3.75 │     0 │
│ Andi         │ 25.48 ± 10.51 │     6 │
│ Mappasessu   │               │       │
└──────────────┴───────────────┴───────┘
┏━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━┓
┃                 ┃ CAMAT titles / 100 ┃
┃ player          ┃             rounds ┃
┡━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━┩
│ Master          │                  0 │
│ Andi Mappasessu │                  0 │
└─────────────────┴────────────────────┘
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rich.console import JustifyMethod
from rich.table import Table

from .widths import cell_width

__all__ = ["Column", "fitted"]


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a table: its heading, how its cells are justified, and whether they
    stay on one line (a rating such as ``26,6 ± 16,3``)."""

    heading: str
    justify: JustifyMethod = "left"
    no_wrap: bool = False


def _least(column: Column, cells: Sequence[str]) -> int:
    """The fewest cells the column can be without cutting a word (a text of a column
    that does not wrap, its heading too: all of it)."""
    texts = [column.heading, *cells]
    if column.no_wrap:
        return max(cell_width(text) for text in texts)
    return max((cell_width(word) for text in texts for word in text.split()), default=1)


def _most(column: Column, cells: Sequence[str]) -> int:
    """The cells the column takes with room to spare: its widest text on one line."""
    return max([cell_width(column.heading), *(cell_width(cell) for cell in cells)])


def fitted(
    columns: Sequence[Column],
    rows: Sequence[Sequence[str]],
    width: int,
    *,
    keys: int = 1,
    title: str | None = None,
    **options: Any,
) -> list[Table]:
    """``rows`` (a text a column) in one table, or several one under the other, each at
    most ``width`` cells wide with no word cut: the first ``keys`` columns (what names a
    row) begin every table. ``title`` is the first table's; ``options`` go to each
    :class:`rich.table.Table` (its box, its padding: ``(0, 1)`` is taken, the default;
    with ``box=None`` there are no borders to make room for). Only a row's own columns
    wider than the width on their own are left to rich."""
    cells = [[row[k] for row in rows] for k in range(len(columns))]
    least = [_least(c, cells[k]) for k, c in enumerate(columns)]
    most = [_most(c, cells[k]) for k, c in enumerate(columns)]
    body = [max([least[k], *(cell_width(cell) for cell in cells[k])]) for k in range(len(columns))]

    border = 0 if "box" in options and options["box"] is None else 1

    def room(chosen: Sequence[int]) -> int:
        # a column's padding (1 either side) and border (1), and the last border
        return sum(least[k] + 2 + border for k in chosen) + border

    key_columns = list(range(keys))
    groups: list[list[int]] = []
    for k in range(keys, len(columns)):
        if groups and room(key_columns + groups[-1] + [k]) <= width:
            groups[-1].append(k)
        else:
            groups.append([k])
    tables: list[Table] = []
    for group in groups or [[]]:
        chosen = key_columns + group
        widths: list[int | None] = [None] * len(chosen)  # rich's own, when all fit
        spare = width - room(chosen)
        if sum(most[k] - least[k] for k in chosen) > spare:
            # each column as narrow as its longest word, then the room left shared out,
            # first for the rows' cells (a name on one line), then for the headings:
            # no column more than an even share of it, so that what a column does not
            # need goes to those that want more
            widths = [least[k] for k in chosen]
            for goal in (body, most):
                wants = [max(0, goal[k] - (widths[i] or 0)) for i, k in enumerate(chosen)]
                order = sorted(range(len(chosen)), key=lambda i: wants[i])
                for n, i in enumerate(order):
                    more = min(wants[i], max(0, spare) // (len(order) - n))
                    widths[i] = (widths[i] or 0) + more
                    spare -= more
        table = Table(title=title if not tables else None, title_justify="left", **options)
        for k, fixed in zip(chosen, widths, strict=True):
            c = columns[k]
            table.add_column(c.heading, justify=c.justify, no_wrap=c.no_wrap, width=fixed)
        for row in rows:
            table.add_row(*(row[k] for k in chosen))
        tables.append(table)
    return tables
