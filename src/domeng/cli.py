"""The `domeng` command: one command, with sub-commands; `domeng` alone plays in the browser."""

from __future__ import annotations

from collections.abc import Callable, Iterator, MutableMapping, Sequence
from importlib import import_module
from typing import Any

import click

from domeng import __version__
from domeng.i18n import BadLanguage, Words, choose, set_language
from domeng.i18n.choose import asked_for
from domeng.i18n.clickwords import install as install_click_words
from domeng.i18n.helptexts import localize
from domeng.terminal.widths import install as install_widths

COMMANDS = {
    "play": "domeng.commands.play",
    "replay": "domeng.commands.replay",
    "sim": "domeng.commands.sim",
    "serve": "domeng.commands.serve",
    "stats": "domeng.commands.stats",
    "review": "domeng.commands.review",
    "members": "domeng.commands.members",
}
"""Each sub-command and the module under :mod:`domeng.commands` that holds it (as
``command``)."""


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
    localize(root, words, loaded_only=True)  # a sub-command imported later: Commands
    if isinstance(root, Domeng):
        root.words = words
    install_widths()  # rich's tables (sim, stats, play) measure Devanagari as terminals


class Commands(MutableMapping[str, click.Command]):
    """The root's sub-commands, each imported when first asked for: ``domeng serve``
    does not import the terminal's game, the simulator or the review (``rich``, the
    search), 0.1 s of CPU at each start. Asking for them all (their list, ``--help``)
    imports them all. ``loaded`` is told each one imported."""

    def __init__(self, modules: dict[str, str], loaded: Callable[[str, click.Command], None]):
        self._modules = modules
        self._loaded = loaded
        self._commands: dict[str, click.Command] = {}

    def _load(self, name: str) -> None:
        if name in self._commands or name not in self._modules:
            return
        command: click.Command = import_module(self._modules[name]).command
        self._commands[name] = command
        self._loaded(name, command)

    def imported(self) -> list[tuple[str, click.Command]]:
        """The sub-commands imported so far (none is imported by asking)."""
        return list(self._commands.items())

    def __getitem__(self, name: str) -> click.Command:
        self._load(name)
        return self._commands[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._commands[name] = command

    def __delitem__(self, name: str) -> None:
        self._load(name)
        del self._commands[name]
        self._modules = {k: v for k, v in self._modules.items() if k != name}

    def __iter__(self) -> Iterator[str]:
        for name in self._modules:
            self._load(name)
        return iter(list(self._commands))

    def __len__(self) -> int:
        return len(set(self._modules) | set(self._commands))


class Domeng(click.Group):
    """The root command: it chooses the language before click reads the command line."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = Commands(COMMANDS, self._imported)
        self.words: Words | None = None
        """The language of this command line, once :func:`speak` chose it."""

    def _imported(self, name: str, command: click.Command) -> None:
        if self.words is not None:  # said in the language already chosen
            localize(command, self.words, name)

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
