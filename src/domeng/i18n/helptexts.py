"""Every command's ``--help`` in the current language, and the ``--lang`` option.

The English of a command's help is written where the command is (its docstring,
each option's ``help=``), as click has it; the catalogs hold it again under keys
named after the command, so that every language has it:

- ``<command>.help``: the command's help (``cli.help`` for ``domeng`` itself);
- ``<command>.epilog``: the text after its options, if it has one;
- ``<command>.opt.<parameter>``: the help of each option;
- ``<command>.default.<parameter>`` (where the default is a word): the default
  as ``[default: ...]`` shows it;
- ``meta.<METAVAR>``: a metavar (``FILE``, ``NAME``, ``INTEGER``; an argument's, such as
  ``stats``'s ``NAME``, if the key exists), and
  ``cli.meta_options``, ``cli.meta_command`` for the usage line.

:func:`localize` sets these texts on the commands before click reads them; a
text a language lacks stays in English, and a test checks that every language
has every command's texts and that the English ones are the commands' own.
Adding a command means adding its keys to the ``"terminal"`` group of each
``web/i18n/<code>.json`` (``architecture.md``, "Languages").
"""

from __future__ import annotations

import copy
import inspect
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import click

from .catalog import LANGUAGES, Words, words
from .choose import BadLanguage, choose, current
from .clickwords import translate

__all__ = ["English", "help_keys", "lang_option", "localize", "walk"]


@dataclass(frozen=True, slots=True)
class English:
    """A command's own English texts, kept when :func:`localize` first changes them."""

    help: str | None
    epilog: str | None
    options: dict[str, str | None]
    metavars: dict[str, str | None]
    """Each parameter's own metavar (None: click's, from its type)."""


_ENGLISH: dict[int, English] = {}


def walk(
    command: click.Command, name: str = "cli", *, loaded_only: bool = False
) -> Iterator[tuple[str, click.Command]]:
    """``command`` and every sub-command, each with the name its keys start with.
    ``loaded_only``: of sub-commands imported when first asked for
    (:class:`domeng.cli.Commands`), only those imported already."""
    yield name, command
    if isinstance(command, click.Group):
        imported = getattr(command.commands, "imported", None) if loaded_only else None
        subs = imported() if imported is not None else command.commands.items()
        for sub_name, sub in sorted(subs):
            yield from walk(
                sub, sub_name if name == "cli" else f"{name}.{sub_name}", loaded_only=loaded_only
            )


def english(command: click.Command) -> English:
    """The command's texts as written in the code (before any :func:`localize`)."""
    kept = _ENGLISH.get(id(command))
    if kept is None:
        options = {p.name: p.help for p in command.params if isinstance(p, click.Option) and p.name}
        metavars = {p.name: p.metavar for p in command.params if p.name}
        kept = English(command.help, command.epilog, options, metavars)
        _ENGLISH[id(command)] = kept
    return kept


def help_keys(command: click.Command) -> dict[str, str]:
    """Every help key of ``command`` and its sub-commands, with its English text
    (the options without a help text of their own, such as ``--help``, aside)."""
    out: dict[str, str] = {}
    for name, cmd in walk(command):
        own = english(cmd)
        if own.help:
            out[f"{name}.help"] = inspect.cleandoc(own.help)
        if own.epilog:
            out[f"{name}.epilog"] = inspect.cleandoc(own.epilog)
        for option, text in own.options.items():
            if text:
                out[f"{name}.opt.{option}"] = inspect.cleandoc(text)
    out["cli.opt.lang"] = lang_option().help or ""
    return out


def _check_lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    try:
        choose(value)
    except BadLanguage as e:
        said = current()(
            "cli.bad_lang", source=e.source, value=repr(e.value), languages=", ".join(LANGUAGES)
        )
        raise click.BadParameter(said) from None
    return value


def lang_option() -> click.Option:
    """``--lang CODE``: the language to speak (read before click parses the command
    line, see :class:`domeng.cli.Domeng`; checked here)."""
    return click.Option(
        ["--lang"],
        metavar="|".join(LANGUAGES),
        default=None,
        expose_value=False,
        is_eager=True,
        callback=_check_lang,
        help="The language: " + ", ".join(LANGUAGES) + " (default: DOMENG_LANG, else the "
        "system's, else en).",
    )


def localize(
    root: click.Command, w: Words, root_name: str = "cli", *, loaded_only: bool = False
) -> None:
    """Give ``root`` (whose keys start with ``root_name``) and its sub-commands their help
    texts in ``w``'s language, and each a ``--lang`` option (``loaded_only``: as
    :func:`walk`)."""
    for name, cmd in walk(root, root_name, loaded_only=loaded_only):
        own = english(cmd)  # before --lang is added: it has one key for all commands
        if not any(p.name == "lang" for p in cmd.params):
            cmd.params.append(lang_option())
        cmd.help = _text(w, f"{name}.help", own.help)
        cmd.epilog = _text(w, f"{name}.epilog", own.epilog)
        cmd._help_option = None  # made again, with click's words in this language
        cmd.options_metavar = w("cli.meta_options")
        if isinstance(cmd, click.Group):
            cmd.subcommand_metavar = w("cli.meta_command")
        for p in cmd.params:
            _metavar(p, own, w)
            _type_word(p, w)
            if not isinstance(p, click.Option) or not p.name:
                continue
            if p.name == "lang":
                p.help = _text(w, "cli.opt.lang", lang_option().help)
            else:
                p.help = _text(w, f"{name}.opt.{p.name}", own.options.get(p.name, p.help))
            shown = f"{name}.default.{p.name}"  # a default said in words ("You": "Anda")
            if words("en").has(shown):
                p.show_default = w(shown)


def _path_word(kind: click.Path) -> str:
    """Click's word for a path type (its name, shown as the metavar and in errors)."""
    if kind.file_okay and not kind.dir_okay:
        return "file"
    if kind.dir_okay and not kind.file_okay:
        return "directory"
    return "path"


def _metavar(p: click.Parameter, own: English, w: Words) -> None:
    """The parameter's metavar in ``w``'s language: ``FILE``, ``NAME``, ``INTEGER``...
    from the keys ``meta.<ENGLISH>``; a path's from click's own word (``file``)."""
    if isinstance(p.type, click.Path):
        p.type.name = translate(_path_word(p.type))
    if isinstance(p, click.Option) and (p.is_flag or p.count or p.name == "lang"):
        return  # --lang's metavar is the languages' codes, the same in every language
    english_meta = own.metavars.get(p.name or "")
    if english_meta is None and isinstance(p, click.Argument):
        _argument_metavar(p, w)
        return
    if english_meta is None and isinstance(p.type, click.Path | click.Choice):
        return
    shown = english_meta or _english_type_name(p.type).upper()
    key = f"meta.{shown}"
    if words("en").has(key):
        p.metavar = english_meta if w.code == "en" else w(key)


_ENGLISH_NAME = "_domeng_english_name"
"""The attribute that keeps a parameter type's English name once it is said in words."""


def _english_type_name(kind: click.ParamType[Any]) -> str:
    return str(getattr(kind, _ENGLISH_NAME, kind.name))


def _type_word(p: click.Parameter, w: Words) -> None:
    """A number's type as click names it in an error ("'abc' is not a valid integer"):
    the key ``type.<name>`` (``type.integer``). Click's shared types (``click.INT``) are
    copied first, so that each parameter has its own."""
    english_name = _english_type_name(p.type)
    key = f"type.{english_name}"
    if not words("en").has(key):
        return
    if not hasattr(p.type, _ENGLISH_NAME):
        p.type = copy.copy(p.type)
        setattr(p.type, _ENGLISH_NAME, english_name)
    p.type.name = w(key)


def _argument_metavar(p: click.Argument, w: Words) -> None:
    """An argument's metavar is its name (``NAME``; ``[NAME]`` when optional): the key
    ``meta.<NAME>`` if there is one, else click's (``RECORD`` stays)."""
    shown = (p.name or "").upper()
    key = f"meta.{shown}"
    if w.code == "en" or not words("en").has(key):
        p.metavar = None
        return
    meta = w(key)
    if not p.required:
        meta = f"[{meta}]"
    p.metavar = meta + ("..." if p.nargs != 1 else "")


def _text(w: Words, key: str, fallback: str | None) -> str | None:
    if fallback is None:
        return None
    if w.has(key) or words("en").has(key):
        return w(key)
    return translate(fallback)  # click's own text, or English until the key is added
