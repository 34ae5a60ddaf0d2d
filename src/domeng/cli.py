"""The `domeng` command: one command, with sub-commands."""

from __future__ import annotations

import click

from domeng import __version__


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="domeng")
def main() -> None:
    """Domeng, the five-player domino game from South Sulawesi."""


def _register() -> None:
    # Each sub-command lives in its own module under domeng.commands.
    from domeng.commands import play, replay

    for module in (play, replay):
        main.add_command(module.command)
    main.add_command(__import__("domeng.commands.sim", fromlist=["command"]).command)
    main.add_command(__import__("domeng.commands.serve", fromlist=["command"]).command)
    main.add_command(__import__("domeng.commands.review", fromlist=["command"]).command)


_register()
