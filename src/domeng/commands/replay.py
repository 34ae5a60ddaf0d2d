"""`domeng replay` (being written)."""

import click


@click.command("replay")
def command() -> None:
    """Not written yet."""
    raise click.ClickException("domeng replay is not written yet")
