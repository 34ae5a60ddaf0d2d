"""The terminal's tables line up in Hindi: every cell is measured as a terminal draws it
(a Devanagari vowel sign of category Mc takes a cell, as wcwidth says and as xterm, VTE
and tmux draw it; a combining mark of category Mn takes none)."""

from __future__ import annotations

import io
import unicodedata

import pytest
from rich.console import Console
from rich.table import Table

from domeng.engine import Game
from domeng.engine.standings import standings
from domeng.i18n import LANGUAGES, Words, current, set_language
from domeng.terminal.render import final_standings
from domeng.terminal.widths import cell_width, install, pad


def terminal_width(text: str) -> int:
    """Columns as a wcwidth terminal draws ``text`` (independent of the code under test)."""
    width = 0
    for c in text:
        kind = unicodedata.category(c)
        if kind in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(c) in ("W", "F") else 1
    return width


def _columns(lines: list[str], marker: str) -> set[int]:
    """Where ``marker`` starts on each line that has it, in terminal columns."""
    return {terminal_width(line[: line.index(marker)]) for line in lines if marker in line}


def test_a_table_with_hindi_cells_lines_up() -> None:
    install()
    table = Table(box=None)
    table.add_column("खिलाड़ी")
    table.add_column("X")
    for name in ("आप", "बेस्से", "राउंड", "गोटियाँ", "Besse", "खिलाड़ी"):
        table.add_row(name, "|")
    out = io.StringIO()
    Console(file=out, width=80, color_system=None).print(table)
    lines = out.getvalue().splitlines()
    assert len(_columns(lines, "|")) == 1, out.getvalue()


def test_cell_width_and_pad() -> None:
    for text in ("राउंड", "खिलाड़ी", "गोटियाँ", "कुल", "Besse", "STONES", "आप"):
        assert cell_width(text) == terminal_width(text), text
        assert terminal_width(pad(text, 10)) == 10
        assert pad(text, 10, right=True).endswith(text)


def _two_rounds() -> Game:
    import random

    game = Game()
    rng = random.Random(3)
    for _ in range(2):
        game.deal(rng)
        while not game.round.finished:
            game.play(rng.choice(game.legal_moves()))
    return game


def _standings_in(code: str, width: int, told: int | None = None) -> tuple[str, list[str], Words]:
    """The final standings of two rounds printed ``width`` columns wide in language
    ``code`` (``told``: the width :func:`final_standings` is given), the seats' names
    and the language's words."""
    game = _two_rounds()
    previous = current()
    set_language(code)
    try:
        w = current()
        names = [w("play.default.name"), "Besse", "Cicci", "Daeng", "Emba"]
        out = io.StringIO()
        Console(file=out, width=width, color_system=None).print(final_standings(game, names, told))
    finally:
        set_language(previous.code)
    return out.getvalue(), names, w


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_final_standings_fit_80_columns_with_every_word_whole(code: str) -> None:
    """In 80 columns rich cut headings it had to narrow ("Peringk…", "Ontvang…",
    "CAMAT-ti…"): each heading keeps its words whole, on two lines if need be."""
    text, _, w = _standings_in(code, 80)
    headings = [w(k) for k in ("summary.titles", "standings.received", "standings.rounds_won")]
    assert "…" not in text, text
    assert all(terminal_width(line.rstrip()) <= 80 for line in text.splitlines()), text
    words = set(text.split())
    for heading in [*headings, w("summary.player"), "CEKI POLLO MANGUNO MATTIKKENG"]:
        assert set(heading.split()) <= words, (heading, text)


@pytest.mark.parametrize("code", ["en", "id"])
def test_on_a_narrow_terminal_the_final_standings_keep_the_names(code: str) -> None:
    """In 50 columns rich gave the rank and the names no room and showed numbers alone:
    the counts of the game's words go under, in a table of their own, each row named."""
    text, names, _ = _standings_in(code, 50, told=50)
    assert all(terminal_width(line.rstrip()) <= 50 for line in text.splitlines()), text
    lines = text.splitlines()
    for name in names:  # twice: in the figures' table and the counts'
        assert sum(line.split()[1:2] == [name] for line in lines) == 2, (name, text)
    assert "MATTIKKENG" in text and "…" not in text, text
    # given the room, one table as before
    wide, _, _ = _standings_in(code, 80, told=80)
    assert sum(line.split()[1:2] == ["Besse"] for line in wide.splitlines()) == 1


def _tables(text: str) -> int:
    """How many tables the standings printed are (each has a heading row with "#")."""
    return sum(line.lstrip().startswith("#") for line in text.splitlines())


def _widest(text: str) -> int:
    """The width of the widest table printed (a table's rows are padded to its width)."""
    return max(terminal_width(line) for line in text.splitlines() if line.lstrip()[:1] == "#")


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_final_standings_are_one_table_whenever_it_fits(code: str) -> None:
    """At every width where the two tables fit, the final standings are one table when
    that one fits, else two: never a word cut, nor a line too long, and their title once.
    The player's heading counts: in English "Player", wider than every name, was cut to
    "Play…" at the one width where the names alone would have fitted."""
    whole, _, w = _standings_in(code, 1000)
    two, _, _ = _standings_in(code, 1000, told=0)
    assert (_tables(whole), _tables(two)) == (1, 2)
    needs, narrowest = _widest(whole), _widest(two)
    title = w.count("play.final_standings", 2)
    for width in range(narrowest, needs + 10):
        text, _, _ = _standings_in(code, width, told=width)
        assert _tables(text) == (1 if needs <= width else 2), (width, needs, text)
        assert "…" not in text and text.count(title) == 1, (width, text)
        assert all(terminal_width(line.rstrip()) <= width for line in text.splitlines()), text


def test_the_winners_rows_of_the_final_standings_are_bold() -> None:
    game = _two_rounds()
    names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
    out = io.StringIO()
    console = Console(file=out, width=120, force_terminal=True, color_system="standard")
    console.print(final_standings(game, names, 120))
    rows = [line for line in out.getvalue().splitlines() if any(n in line for n in names)]
    ranks = {st.seat: st.rank for st in standings(game)}
    for seat, name in enumerate(names):
        (row,) = [line for line in rows[:5] if name in line]
        assert ("\x1b[1m" in row) is (ranks[seat] == 1), (name, row)


def test_the_final_standings_line_up_in_hindi() -> None:
    game = _two_rounds()
    previous = current()
    set_language("hi")
    try:
        out = io.StringIO()
        names = ["आप", "बेस्से", "चिच्ची", "दाएंग", "एम्बा"]
        Console(file=out, width=160, color_system=None).print(final_standings(game, names))
    finally:
        set_language(previous.code)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    # the right edge of the last column (MATTIKKENG, right-justified) is the same on
    # every row of the table: the heading's and each player's
    rows = [
        line.rstrip()
        for line in lines
        if "MATTIKKENG" in line or (line.lstrip()[:1].isdigit() and len(line.split()) >= 10)
    ]
    assert len(rows) == 6, out.getvalue()
    assert len({terminal_width(row) for row in rows}) == 1, out.getvalue()


def test_the_sim_s_table_lines_up_in_hindi() -> None:
    from click.testing import CliRunner

    from domeng.cli import main

    args = ["--lang", "hi", "sim", "--players", "basic,random,random,random,random"]
    result = CliRunner().invoke(main, [*args, "--rounds", "10", "--workers", "1"])
    assert result.exit_code == 0, result.output
    rows = [line.rstrip() for line in result.output.splitlines() if line[:1] in "┏┃┡│└"]
    assert len(rows) > 20
    assert len({terminal_width(row) for row in rows}) == 1, result.output
