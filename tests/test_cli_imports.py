"""A ``domeng`` command imports what it needs: each sub-command's module is imported
when the command line names it (``domeng.cli.Commands``), so ``domeng serve`` (started
by every browser test, and at each restart of a service) does not import the terminal's
game, the simulator or the review."""

from __future__ import annotations

import subprocess
import sys

import click

from domeng.cli import COMMANDS, Commands

OTHERS = (
    "domeng.terminal.session",
    "domeng.commands.play",
    "domeng.commands.sim",
    "domeng.commands.review",
    "domeng.sim",
    "rich.progress",
)


def fresh_python(program: str) -> subprocess.CompletedProcess[str]:
    """``program`` run by a Python of its own: nothing imported by the tests before."""
    return subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=60, check=True
    )


def imported_by(args: list[str]) -> list[str]:
    program = (
        "import sys\n"
        "from domeng.cli import main\n"
        "try:\n"
        f"    main({args!r})\n"
        "except SystemExit:\n"
        "    pass\n"
        f"print(sorted(m for m in {OTHERS!r} if m in sys.modules), file=sys.stderr)\n"
    )
    return fresh_python(program).stderr.strip().splitlines()[-1:]


def test_serve_imports_neither_the_terminal_game_nor_the_simulator() -> None:
    assert imported_by(["serve", "--lang", "tr", "--help"]) == ["[]"]
    # the list of every command imports them all (and says each in the language asked)
    assert imported_by(["--help"]) != ["[]"]


def test_the_commands_are_imported_when_asked_for_and_told_once() -> None:
    told: list[str] = []
    commands = Commands(COMMANDS, lambda name, command: told.append(name))
    assert commands.imported() == []
    assert "serve" in commands and "nothing" not in commands
    assert [name for name, _ in commands.imported()] == ["serve"] == told
    assert isinstance(commands["serve"], click.Command) and told == ["serve"]
    assert len(commands) == len(COMMANDS)
    assert told == ["serve"]  # counting them imports none
    assert sorted(commands) == sorted(COMMANDS)  # listing them imports every one, once
    assert sorted(told) == sorted(COMMANDS)
    assert all(commands[name].name == name for name in COMMANDS)


def test_a_command_imported_after_a_register_names_only_the_shipped_players() -> None:
    # a benchmark or a test may register players before the command is first asked for
    program = (
        "from domeng.bots import RandomPlayer, register\n"
        "register('extra', RandomPlayer)\n"
        "from domeng.cli import main\n"
        "for name in ('sim', 'play'):\n"
        "    helps = [p.help or '' for p in main.commands[name].params]\n"
        "    said = ' '.join(helps)\n"
        "    print(name, 'extra' in said, 'expert:fast' in said)\n"
    )
    assert fresh_python(program).stdout.split("\n")[:2] == ["sim False True", "play False True"]
