"""What a command prints on standard output, and a reader that goes away."""

from __future__ import annotations

import os
import sys

import click


def echo_all(text: str) -> None:
    """Print ``text``; if the reader went away (``| head``), stop quietly, with no
    traceback at exit either (standard output then goes nowhere)."""
    try:
        click.echo(text)
        sys.stdout.flush()
    except BrokenPipeError:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
