"""`domeng play` (being written)."""

import click


@click.command("play")
def command() -> None:
    """Not written yet."""
    raise click.ClickException("domeng play is not written yet")
