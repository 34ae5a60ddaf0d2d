"""`domeng play`: play Domeng in the terminal, you at seat 0 against four computer players.

The game is saved as a ``domeng.record/1`` file after every move, in
``<data folder>/games/<timestamp>-<seed>.json``; ``domeng play --resume FILE``
continues a saved game exactly where it stopped.
"""

from __future__ import annotations

import functools
import random
import re
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.text import Text

from domeng.bots import player_names, shipped_names
from domeng.commands.invocation import command_line
from domeng.commands.options import variant_options
from domeng.engine import BlockPasses, Game, Opening, Variants
from domeng.engine.record import RecordError, load_recorded_game
from domeng.i18n import current
from domeng.i18n.errors import say_error
from domeng.paths import games_dir
from domeng.terminal import PlaySession, Until, new_seats, resumed_seats
from domeng.terminal.render import Wrapped, level_label, level_words

_SEED_IN_NAME = re.compile(r"-(-?\d+)\.json$")


def _new_path(seed: int) -> Path:
    """A fresh file for a new game: ``<timestamp>-<seed>.json`` in the games folder."""
    folder = games_dir()
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    path = folder / f"{stamp}-{seed}.json"
    k = 2
    while path.exists():
        path = folder / f"{stamp}-{k}-{seed}.json"
        k += 1
    return path


def _check_opponents(ctx: click.Context, param: click.Parameter, value: str) -> str:
    known = player_names(for_people=True)
    if value not in known:
        raise click.BadParameter(
            current()("play.bad_opponents", value=repr(value), known=", ".join(known))
        )
    return value


def _check_name(ctx: click.Context, param: click.Parameter, value: str) -> str:
    name = " ".join(value.split())
    if not name:
        raise click.BadParameter(current()("play.empty_name"))
    return name


def _check_until(ctx: click.Context, param: click.Parameter, value: str | None) -> Until | None:
    if value is None:
        return None
    try:
        return Until.parse(value)
    except ValueError:
        w = current()
        what, sep, _ = value.partition("=")
        shown = repr(value.strip())
        if sep and what.strip().lower() in ("titles", "rounds"):
            why = w("play.until_count", value=shown)
        else:
            why = w("play.until_not_form", value=shown)
        raise click.BadParameter(w("play.bad_until", why=why)) from None


def _given(ctx: click.Context, name: str) -> bool:
    source = ctx.get_parameter_source(name)
    return source is not None and source is not click.core.ParameterSource.DEFAULT


@click.command("play")
@click.option(
    "--seed",
    type=int,
    default=None,
    help="Seed of the deals and the computer players (default: a random one, printed).",
)
@variant_options
@click.option("--name", default="You", show_default=True, callback=_check_name, help="Your name.")
@click.option(
    "--opponents",
    metavar="NAME",
    default="basic",
    show_default=True,
    callback=_check_opponents,
    help="The computer players: " + ", ".join(shipped_names()) + ".",
)
@click.option(
    "--resume",
    metavar="FILE",
    type=click.Path(path_type=Path, dir_okay=False),
    default=None,
    help="Continue a saved game (its record file) where it stopped.",
)
@click.option(
    "--until",
    metavar="titles=N|rounds=N",
    default=None,
    callback=_check_until,
    help="End the game once a player has N CAMAT titles, or after N rounds, and show the "
    "final standings (default: play on until you quit). With --resume it counts the saved "
    "rounds too; the saved game does not keep it, so give it again.",
)
@click.option(
    "--pause",
    metavar="SECONDS",
    type=click.FloatRange(min=0),
    default=None,
    help="Wait before each computer play (default: 0.5 in a terminal, else 0).",
)
@click.option(
    "--player",
    metavar="NAME",
    default=None,
    callback=lambda ctx, param, value: None if value is None else _check_name(ctx, param, value),
    help="Play under this profile (made if new): every finished round counts on its page "
    "and rating, in the database the table service shares (domeng stats NAME).",
)
@click.pass_context
def command(
    ctx: click.Context,
    seed: int | None,
    opening: str,
    block_passes: str,
    name: str,
    opponents: str,
    resume: Path | None,
    until: Until | None,
    pause: float | None,
    player: str | None,
) -> None:
    """Play Domeng in the terminal: you at seat 0 against four computer players.

    Pick a tile by its number; when it fits both ends you are asked which end.
    q, Ctrl-C or Ctrl-D saves the game and quits; --resume FILE continues it.
    The game goes on round after round until you quit, or until --until says it
    ends (--until titles=3, --until rounds=20); then the final standings are shown.
    Games are saved after every move in the games folder of the user's data
    folder (DOMENG_DATA_DIR overrides it); the path is printed at the start.
    """
    console = Console(highlight=False)
    w = current()
    if player is not None and not _given(ctx, "name"):
        name = player  # the profile's name at the seat
    if pause is None:
        pause = 0.5 if sys.stdin.isatty() and sys.stdout.isatty() else 0.0
    # the profile first: a name no person may take fails before the game is announced
    profiled = _profiled(player, console)
    stand_ins: tuple[frozenset[int], ...] = ()
    if resume is not None:
        try:
            recorded = load_recorded_game(resume)
        except RecordError as exc:
            why = say_error(exc, w)
            raise click.ClickException(w("play.cannot_resume", path=resume, why=why)) from None
        game, names, stand_ins = recorded.game, recorded.players, recorded.stand_ins
        for option in ("opening", "block_passes", "name"):
            if _given(ctx, option):
                console.print(
                    Text(w("play.note_saved", option="--" + option.replace("_", "-"))),
                    style="yellow",
                )
        found = _SEED_IN_NAME.search(resume.name)
        if seed is not None:
            pass  # --seed given: the next rounds are dealt from it
        elif found is not None:
            seed = int(found.group(1))
        else:
            seed = random.SystemRandom().randrange(1, 1_000_000)
        seats = resumed_seats(names, opponents, seed, game, player_names(for_people=True))
        kept = sorted({s.kind for s in seats[1:] if s.kind is not None and s.kind != opponents})
        if _given(ctx, "opponents") and kept:
            console.print(
                Text(w("play.note_kept", kinds=", ".join(level_words(k) for k in kept))),
                style="yellow",
            )
        path = resume
        _say(console, Text(w("play.resuming", path=path), style="bold"), str(path))
        _say(console, Text(w("play.seed_resumed", seed=seed)))
    else:
        if seed is None:
            seed = random.SystemRandom().randrange(1, 1_000_000)
        game = Game(Variants(Opening(opening), BlockPasses(block_passes)))
        if name == "You" and not _given(ctx, "name"):
            name = w("lobby.default_name")  # "You" in the terminal's language
        seats = new_seats(name, opponents, seed)
        path = _new_path(seed)
        v = game.variants
        console.print(
            Text(w("play.welcome", name=name, level=level_label(opponents)), style="bold")
        )
        again = command_line("play", "--seed", seed)
        _say(console, Text(w("play.seed", seed=seed, command=again)), again)
        console.print(
            Text(
                w(
                    "play.variants",
                    opening=w(f"variant.opening.{v.opening.value}"),
                    block_passes=w(f"variant.block_passes.{v.block_passes.value}"),
                )
            )
        )
        _say(console, Text(w("play.saved_as_it_goes", path=path)), str(path))
    if until is not None:
        console.print(Text(w("play.ends_when", until=until.words(), option=f"--until {until}")))
    console.print(Text(w("play.h_q"), style="dim"))
    session = (profiled or PlaySession)(
        game,
        seats,
        path=path,
        seed=seed,
        console=console,
        pause=pause,
        echo=not sys.stdin.isatty(),
        until=until,
        stand_ins=stand_ins,
    )
    session.run()


def _say(console: Console, text: Text, *whole: str) -> None:
    """Print ``text`` wrapped by words at the terminal's width, each of ``whole`` (a path,
    a command to type) on one line (:class:`domeng.terminal.render.Wrapped`)."""
    console.print(Wrapped(text, whole), crop=False)


def _profiled(player: str | None, console: Console) -> Any:
    """The session for ``--player`` (its profile found or made first), or None."""
    if player is None:
        return None
    from domeng.paths import database, pending_dir
    from domeng.terminal.profiled import ProfiledSession, start

    try:
        said = start(database(), pending_dir(), player)
    except ValueError as e:
        raise click.BadParameter(str(e), param_hint="'--player'") from None
    if said:
        _say(console, Text(said))
    return functools.partial(
        ProfiledSession, player=player, database=database(), pending=pending_dir()
    )
