"""The `domeng` command."""

import click


@click.group()
def main() -> None:
    """Domeng, the five-player domino game from South Sulawesi."""
