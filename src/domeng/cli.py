"""The `domeng` command: one command, with sub-commands; `domeng` alone plays in the browser."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import click

from domeng import __version__
from domeng.i18n import BadLanguage, choose, set_language
from domeng.i18n.choose import asked_for
from domeng.i18n.clickwords import install as install_click_words
from domeng.i18n.helptexts import localize
from domeng.terminal.widths import install as install_widths


def asked_language(args: Sequence[str]) -> str | None:
    """The value of ``--lang`` on a command line (``--lang id`` or ``--lang=id``), if any.

    >>> asked_language(["play", "--lang", "id"]), asked_language(["--lang=tr", "play"])
    ('id', 'tr')
    >>> asked_language(["play", "--", "--lang", "id"]) is None
    True
    """
    for i, arg in enumerate(args):
        if arg == "--":
            return None
        if arg == "--lang" and i + 1 < len(args):
            return args[i + 1]
        if arg.startswith("--lang="):
            return arg.partition("=")[2]
    return None


def speak(root: click.Command, args: Sequence[str]) -> None:
    """Choose the language for this command line and give click and every command's
    help its words. A language Domeng does not speak is reported by ``--lang``'s own
    check, in the language of DOMENG_LANG or the system (else English)."""
    asked = asked_language(args)
    try:
        code, named = choose(asked), asked_for(asked)
    except BadLanguage:
        try:
            code, named = choose(None), False
        except BadLanguage:
            code, named = "en", False
    words = set_language(code, named)
    install_click_words()
    localize(root, words)
    install_widths()  # rich's tables (sim, stats, play) measure Devanagari as terminals


class Domeng(click.Group):
    """The root command: it chooses the language before click reads the command line."""

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        speak(self, args)
        return super().make_context(info_name, args, parent, **extra)


@click.group(
    cls=Domeng,
    context_settings={"help_option_names": ["-h", "--help"]},
    invoke_without_command=True,
)
@click.version_option(__version__, prog_name="domeng")
@click.pass_context
def main(ctx: click.Context) -> None:
    """Domeng, the five-player domino game from South Sulawesi.

    Without a command it plays in the browser, as domeng serve does.
    """
    if ctx.invoked_subcommand is None:
        ctx.invoke(main.commands["serve"])


def _register() -> None:
    # Each sub-command lives in its own module under domeng.commands.
    from domeng.commands import play, replay

    for module in (play, replay):
        main.add_command(module.command)
    main.add_command(__import__("domeng.commands.sim", fromlist=["command"]).command)
    main.add_command(__import__("domeng.commands.serve", fromlist=["command"]).command)
    main.add_command(__import__("domeng.commands.stats", fromlist=["command"]).command)
    main.add_command(__import__("domeng.commands.review", fromlist=["command"]).command)
    main.add_command(__import__("domeng.commands.members", fromlist=["command"]).command)


_register()
