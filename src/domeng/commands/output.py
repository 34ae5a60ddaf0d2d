"""What a command prints: on standard output, to a reader that may go away, and the
one line of a failure on standard error."""

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


def fail(command: str, message: str, status: int) -> None:
    """Say why ``domeng COMMAND`` failed, on one line of standard error, and exit with
    ``status``."""
    click.echo(f"domeng {command}: {' '.join(message.split())}", err=True)
    sys.exit(status)
