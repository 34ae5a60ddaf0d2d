"""What a command prints: on standard output, to a reader that may go away, and the
one line of a failure on standard error."""

from __future__ import annotations

import io
import os
import re
import shutil
import sys

import click

__all__ = ["echo_all", "fail", "terminal_width", "wrapped"]

_TABLE_ROW = re.compile(r"\S {2,}\S")
"""Cells laid out by hand (``pad``), two spaces or more apart: a row of a table."""


def terminal_width() -> int | None:
    """The width of the terminal standard output shows, or None when it goes elsewhere
    (a pipe, a file: there every line stays whole, one a line, for a program)."""
    if not sys.stdout.isatty():
        return None
    return shutil.get_terminal_size().columns


def wrapped(text: str, width: int) -> str:
    """``text`` with each of its lines wider than ``width`` put on lines by words, its
    indent kept (:class:`domeng.terminal.render.Wrapped`): a terminal left to break it
    cut words anywhere. A row of a table laid out by hand stays as it is (broken by
    words its cells would stand under the wrong headings).

    >>> print(wrapped("Round 1\\n  reason: Keeps the 6 for later: 4 tiles of 6 unseen.", 30))
    Round 1
      reason: Keeps the 6 for
      later: 4 tiles of 6 unseen.
    """
    from rich.console import Console
    from rich.text import Text

    from domeng.terminal.render import Wrapped

    out = io.StringIO()
    console = Console(file=out, width=width, color_system=None, highlight=False)
    for line in text.split("\n"):
        if _TABLE_ROW.search(line.strip()):
            out.write(line + "\n")
        else:
            console.print(Wrapped(Text(line)), crop=False)
    return out.getvalue().removesuffix("\n")


def echo_all(text: str, *, wrap: bool = False) -> None:
    """Print ``text``; if the reader went away (``| head``), stop quietly, with no
    traceback at exit either (standard output then goes nowhere). ``wrap``: a terminal
    shows its long lines by words (:func:`wrapped`)."""
    width = terminal_width() if wrap else None
    if width is not None:
        text = wrapped(text, width)
    try:
        click.echo(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


def fail(command: str, message: str, status: int) -> None:
    """Say why ``domeng COMMAND`` failed, on one line of standard error, and exit with
    ``status``."""
    click.echo(f"domeng {command}: {' '.join(message.split())}", err=True)
    sys.exit(status)
