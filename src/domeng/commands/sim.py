"""`domeng sim`: a tournament of computer players, duplicate play with seat rotation."""

from __future__ import annotations

import json
import os
import signal
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import click
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from domeng.bots import player_names, shipped_names
from domeng.commands.duplicate import MAX_TABLES, duplicate_command
from domeng.commands.options import variant_options
from domeng.engine import SEATS, BlockPasses, Game, Opening, Variants
from domeng.i18n import current
from domeng.i18n.errors import say_error
from domeng.sim import (
    DEFAULT_GAME_ROUNDS,
    PlayerError,
    Settings,
    Summary,
    default_workers,
    run,
    stop_workers,
)

_HELP_EPILOG = """\b
How rounds count: --rounds N is the number of rounds every entry plays (all
five play every round), a multiple of 5. The N/5 deals are grouped in games of
--rounds-per-game deals (the last game may be shorter); STONES, the CAMAT and
its titles carry over from round to round within a game. Every game is played
five times, once per seat rotation, with the same deals, so every entry holds
every hand (duplicate play). The 95% intervals treat each game (its five
rotations together) as one independent unit.
"""


def _parse_players(value: str) -> tuple[str, ...]:
    """The five entries of ``--players``; a clear error, in the language, for a wrong
    count or an unknown player (before the tournament's own English checks)."""
    w = current()
    names = tuple(n.strip() for n in value.split(","))
    if any(not n for n in names):
        raise click.BadParameter(w("sim.empty_player", value=repr(value)), param_hint="'--players'")
    if len(names) != SEATS:
        said = w("sim.player_count", seats=SEATS, count=len(names), names=",".join(names))
        raise click.BadParameter(said, param_hint="'--players'")
    known = player_names(for_people=False)
    for name in names:
        if name not in known:
            said = w("sim.unknown_player", name=repr(name), known=", ".join(sorted(known)))
            raise click.BadParameter(said, param_hint="'--players'")
    return names


@click.command("sim", epilog=_HELP_EPILOG)
@click.option(
    "--players",
    "players",
    required=True,
    metavar="A,B,C,D,E",
    help="The five entries, comma-separated, e.g. expert,basic,basic,basic,basic; "
    f"the players: {', '.join(shipped_names(for_people=False))}.",
)
@click.option(
    "--rounds",
    type=click.IntRange(min=SEATS),
    default=1000,
    show_default=True,
    help="Rounds every entry plays: a multiple of 5 (each deal in all 5 rotations).",
)
@click.option(
    "--seed", type=int, default=1, show_default=True, help="Seed of all deals and players."
)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes (default: all cores).",
)
@click.option(
    "--rounds-per-game",
    "game_rounds",
    type=click.IntRange(min=1),
    default=DEFAULT_GAME_ROUNDS,
    show_default=True,
    help="Deals per game (STONES and CAMAT carry over within a game).",
)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document instead.")
@click.option(
    "--record",
    "record_dir",
    type=click.Path(file_okay=False, writable=True),
    default=None,
    help="Write every game (each rotation) as a domeng.record/1 file in this folder.",
)
@click.option(
    "--calibrate",
    "calibrate_file",
    type=click.Path(dir_okay=False, writable=True, path_type=Path),
    default=None,
    help="Rate every round of the games played (OpenSkill Plackett-Luce) and write the "
    "levels' ratings to this file: the computer players' first ratings (domeng serve "
    "--calibration FILE; docs/players.md).",
)
@click.option(
    "--duplicate-tables",
    "duplicate_tables",
    default=None,
    metavar="N[,N...]",
    help="Instead: how much duplicate scoring narrows the first entry's 95% interval "
    "against plain STONES, the other four the field, each deal played at N tables "
    "(--rounds deals; docs/tournaments.md).",
)
@variant_options
def command(
    players: str,
    rounds: int,
    seed: int,
    workers: int | None,
    game_rounds: int,
    as_json: bool,
    record_dir: str | None,
    calibrate_file: Path | None,
    duplicate_tables: str | None,
    opening: str,
    block_passes: str,
) -> None:
    """Play computer players against each other and show how each fared.

    Example: domeng sim --players expert,basic,basic,basic,basic --rounds 2000
    --seed 1 --workers 2
    """
    names = _parse_players(players)
    if rounds % SEATS:
        raise click.BadParameter(
            current()("sim.not_multiple", rounds=rounds, seats=SEATS), param_hint="'--rounds'"
        )
    if duplicate_tables is not None:
        # it runs in one process, each deal a fresh game's first round: no workers, no games
        given_rounds = click.get_current_context().get_parameter_source("game_rounds")
        per_game = game_rounds if given_rounds == click.core.ParameterSource.COMMANDLINE else None
        apart = (
            ("--record", record_dir),
            ("--calibrate", calibrate_file),
            ("--workers", workers),
            ("--rounds-per-game", per_game),
        )
        for option, given in apart:
            if given is not None:
                raise click.UsageError(current()("sim.dup.alone", option=option))
        variants = Variants(Opening(opening), BlockPasses(block_passes))
        duplicate_command(names, _parse_tables(duplicate_tables), rounds, seed, variants, as_json)
        return
    scratch = None
    if calibrate_file is not None and record_dir is None:  # the records are rated after
        scratch = tempfile.TemporaryDirectory(prefix="domeng-calibrate-")
        record_dir = scratch.name
    settings = Settings(
        names=names,
        rounds=rounds,
        seed=seed,
        game_rounds=game_rounds,
        variants=Variants(Opening(opening), BlockPasses(block_passes)),
        record_dir=record_dir,
    )
    try:
        settings.check()
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'--players'") from None
    if record_dir is not None:
        old = sorted(Path(record_dir).glob("game-*-rotation-*.json"))
        if old:
            click.echo(current()("sim.note_old", folder=record_dir, n=len(old)), err=True)
    n_workers = workers or default_workers()
    # Ctrl-C or SIGTERM: stop the workers and leave at once (see _interrupted).
    previous = {
        sig: signal.signal(sig, _interrupted)
        for sig in (signal.SIGINT, signal.SIGTERM)
        if threading.current_thread() is threading.main_thread()
        and signal.getsignal(sig) is not signal.SIG_IGN
    }
    err = Console(stderr=True)
    started = time.perf_counter()
    try:
        if err.is_terminal:
            with Progress(
                TextColumn("[bold]domeng sim"),
                BarColumn(),
                MofNCompleteColumn(),
                TextColumn(current()("sim.rounds_word")),
                TimeElapsedColumn(),
                TimeRemainingColumn(),
                console=err,
                # No refresh thread: worker processes are forked while the bar runs.
                auto_refresh=False,
                transient=True,
            ) as bar:
                job = bar.add_task("sim", total=rounds)

                shown = [0.0]

                def advance(n: int) -> None:
                    bar.advance(job, n)
                    now = time.monotonic()
                    if now - shown[0] >= 0.2:
                        shown[0] = now
                        bar.refresh()

                bar.refresh()
                summary = run(settings, n_workers, advance)
        else:
            summary = run(settings, n_workers)
    except PlayerError as exc:
        raise click.ClickException(say_error(exc)) from None
    except OSError as exc:
        raise click.ClickException(current()("sim.cannot_write", why=exc)) from None
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps(summary.to_json(), indent=2))
    else:
        _print_table(summary, seconds, n_workers)
    if calibrate_file is not None and record_dir is not None:
        _calibrate(Path(record_dir), calibrate_file, rounds)
    if scratch is not None:
        scratch.cleanup()


def _parse_tables(value: str) -> list[int]:
    """The table counts of ``--duplicate-tables`` (each 2 to 100)."""
    try:
        counts = [int(x) for x in value.split(",")]
    except ValueError:
        counts = []
    if not counts or any(not 2 <= n <= MAX_TABLES for n in counts):
        said = current()("sim.dup.bad_tables", value=repr(value), most=MAX_TABLES)
        raise click.BadParameter(said, param_hint="'--duplicate-tables'")
    return counts


def _calibrate(record_dir: Path, out: Path, rounds: int) -> None:
    """Rate the rounds of the records just written, in the order played, into ``out``."""
    from domeng.engine.record import load_recorded_game
    from domeng.history.calibration import calibrate, document

    def games() -> Iterator[tuple[list[str], Game]]:
        for path in sorted(record_dir.glob("game-*-rotation-*.json")):
            got = load_recorded_game(path)
            yield list(got.players), got.game

    ratings = calibrate(games())
    command = "domeng " + " ".join(sys.argv[1:]) if sys.argv[1:2] == ["sim"] else "domeng sim"
    doc = document(ratings, rounds=rounds, command=command)
    out.write_text(json.dumps(doc, indent=2) + "\n", encoding="utf-8")
    w = current()
    lines = ", ".join(
        w("sim.calibrated_level", level=n, mu=w.number(r["mu"], 2), sigma=w.number(r["sigma"], 2))
        for n, r in doc["levels"].items()
    )
    click.echo(w("sim.calibrated", path=out, levels=lines), err=True)


def _interrupted(signum: int, frame: object) -> None:
    """Stop the worker processes and exit at once.

    Raising an exception here could leave a lock of the worker pool held by the
    interrupted main thread, and the interpreter would then hang at exit; so
    this writes without locks and leaves with ``os._exit``.
    """
    stop_workers()
    if sys.stderr.isatty():
        os.write(2, b"\x1b[?25h")  # the progress bar hid the cursor
    from domeng.i18n.clickwords import translate

    os.write(2, f"\n{translate('Aborted!')}\n".encode())
    os._exit(128 + signum)


def _fmt(x: float, digits: int = 3) -> str:
    """A figure with the language's decimal sign."""
    return current().number(x, digits)


def _print_table(summary: Summary, seconds: float, workers: int) -> None:
    w = current()
    s = summary.settings
    out = Console(file=sys.stdout, width=max(120, Console().width))
    title = w(
        "sim.title",
        rounds=s.rounds,
        deals=s.rounds // SEATS,
        seats=SEATS,
        games=w.count("sim.n_games", summary.games, deals=s.game_rounds),
        seed=s.seed,
        opening=s.variants.opening.value,
        block_passes=s.variants.block_passes.value,
    )
    table = Table(title=title, title_justify="left")
    table.add_column("", style="bold", no_wrap=True)
    for i, e in enumerate(summary.entries):
        table.add_column(f"{i + 1}. {e.name}", justify="right", no_wrap=True)
    docs = [e.to_json() for e in summary.entries]

    def row(label: str, cell: object) -> None:
        table.add_row(label, *(str(cell(d)) if callable(cell) else str(cell) for d in docs))

    def ci(key: str) -> object:
        def cell(d: dict[str, object]) -> str:
            v = d[key]
            if isinstance(v, list):
                # "[0,125; 0,250]" where the decimal sign is a comma
                between = "; " if "," in _fmt(0.5, 1) else ", "
                return f"[{_fmt(v[0])}{between}{_fmt(v[1])}]"
            return "-"

        return cell

    def num(key: str, digits: int = 3) -> object:
        def cell(d: dict[str, object]) -> str:
            v = d[key]
            return _fmt(v, digits) if isinstance(v, float) else str(v)

        return cell

    interval = "  " + w("sim.row.interval")
    row(w("sim.row.rounds"), num("rounds"))
    row(w("sim.row.received"), num("stones_per_round"))
    row(interval, ci("stones_per_round_ci95"))
    row("  " + w("sim.row.vs_others"), num("stones_per_round_vs_others"))
    row(interval, ci("stones_per_round_vs_others_ci95"))
    row(w("sim.row.given"), num("given_per_round"))
    row(w("sim.row.net"), num("net_stones_per_round"))
    row(interval, ci("net_stones_per_round_ci95"))
    row(w("sim.row.titles_100"), num("camat_per_100_rounds", 2))
    row(w("sim.row.titles"), num("camat"))
    row(w("sim.row.wins"), num("wins"))
    row(w("sim.row.win_rate"), num("win_rate"))
    row("FIRST CAPPU", num("first_cappu"))
    row("  CEKI", num("ceki"))
    row("  POLLO", num("pollo"))
    row("MANGUNO", num("manguno"))
    row("MATTIKKENG", num("mattikkeng"))
    row(w("sim.row.passes"), num("passes_per_round"))
    row("  " + w("sim.row.passebunge"), num("passebunge_per_round"))
    row(w("sim.row.think"), num("ms_per_move", 2))
    out.print(table)
    rate = _fmt(s.rounds / seconds if seconds else 0, 0)
    # the workers counted as the language counts ("1 werkproces", not "werkproces(sen)")
    footer = w.count("sim.footer", workers, rounds=s.rounds, seconds=_fmt(seconds, 1), rate=rate)
    out.print(f"{footer} {w('sim.note')}")
