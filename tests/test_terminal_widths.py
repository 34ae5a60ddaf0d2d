"""The terminal's tables line up in Hindi: every cell is measured as a terminal draws it
(a Devanagari vowel sign of category Mc takes a cell, as wcwidth says and as xterm, VTE
and tmux draw it; a combining mark of category Mn takes none)."""

from __future__ import annotations

import io
import random
import re
import unicodedata
from itertools import takewhile
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table

from domeng.engine import Game
from domeng.engine.standings import standings
from domeng.i18n import LANGUAGES, Words, current, set_language, words
from domeng.i18n.catalog import catalog
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


# -- a narrow terminal: the hand, the sentences, the stats ------------------------------

WIDTHS = (50, 80)


def _fits(lines: list[str], width: int, whole: tuple[str, ...] = ()) -> list[str]:
    """The lines wider than ``width`` columns, but for one that holds a path or a command
    of ``whole`` and little else (left unbroken on a line of its own, for the terminal)."""
    return [
        line
        for line in lines
        if terminal_width(line.rstrip()) > width
        and not any(p in line and terminal_width(line.replace(p, "").strip()) <= 2 for p in whole)
    ]


def _split_tiles(lines: list[str]) -> list[str]:
    """The lines that end on a tile's number ("4)"), its tile on the next line."""
    return [line for line in lines if re.search(r"(^|\s)\d\)$", line.rstrip())]


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_hand_keeps_each_tile_beside_its_number_at_any_width(code: str) -> None:
    """At 50 columns the hand line broke between "4)" and "[3|0]": a player could not tell
    which number went with which tile."""
    from domeng.terminal.render import status

    game = Game()
    game.deal(random.Random(5))
    seat = game.round.turn
    assert seat is not None
    names = ["Andi Mappasessu", "Besse", "Cicci", "Daeng", "Emba"]
    previous = current()
    set_language(code)
    try:
        for width in range(30, 81):
            out = io.StringIO()
            shown = status(game.view(seat), names, ["", *["expert:fast"] * 4])
            Console(file=out, width=width, color_system=None).print(shown)
            lines = out.getvalue().splitlines()
            assert not _split_tiles(lines), (width, out.getvalue())
            assert not _fits(lines, width), (width, out.getvalue())
            hand = [line for line in lines if "1) [" in line]
            assert len(hand) == 1, out.getvalue()  # printed with plain spaces
    finally:
        set_language(previous.code)


_CUT_TILE = re.compile(r"\[(?!\d\|\d\])|(?<!\[\d\|\d)\]")
"""A bracket of a tile whose other half is on another line (``[6|`` / ``3]``)."""


def _cut_tiles(lines: list[str]) -> list[str]:
    """The lines with a tile cut in two: a line that ends inside a tile, or begins so."""
    return [line for line in lines if _CUT_TILE.search(line)]


def _long_line() -> Game:
    """A round played until its line holds 16 tiles (80 cells of tiles, no space)."""
    for seed in range(100):
        game = Game()
        rng = random.Random(seed)
        game.deal(rng)
        while not game.round.finished and len(game.round.line()) < 16:
            game.play(rng.choice(game.legal_moves()))
        if not game.round.finished:
            return game
    raise AssertionError("no round with a line of 16 tiles")


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_line_of_play_goes_on_between_tiles_at_any_width(code: str) -> None:
    """The line of play (``[6|6][6|3]...``, no space in it) was cut by rich at the
    terminal's exact width, a tile in two ("[6|" / "3]"): it goes on to the next line
    between two tiles, every tile whole, every line within the width, the tiles in order."""
    from domeng.terminal.render import line_text, status

    game = _long_line()
    seat = game.round.turn
    assert seat is not None
    view = game.view(seat)
    names = ["Andi Mappasessu", "Besse", "Cicci", "Daeng", "Emba"]
    previous = current()
    set_language(code)
    try:
        label = words(code)("play.line")
        for width in range(30, 121):
            out = io.StringIO()
            shown = status(view, names, ["", *["expert:fast"] * 4])
            Console(file=out, width=width, color_system=None).print(shown)
            lines = out.getvalue().splitlines()
            assert not _cut_tiles(lines), (width, out.getvalue())
            assert not _fits(lines, width), (width, out.getvalue())
            start = next(k for k, line in enumerate(lines) if line.startswith(label))
            shown = [lines[start]]  # and the lines of tiles it goes on to
            shown += takewhile(
                lambda line: re.fullmatch(r"(\[\d\|\d\])+", line.rstrip()), lines[start + 1 :]
            )
            told = "".join(re.findall(r"\[\d\|\d\]", "".join(shown)))
            assert told == line_text(view.line), (width, out.getvalue())
            assert "\u200b" not in out.getvalue()
    finally:
        set_language(previous.code)


def _play(code: str, width: int, data: Path, answers: str) -> tuple[str, tuple[str, ...]]:
    """``domeng play --seed 5`` in ``code`` at ``width`` columns, answered ``answers``:
    what it printed, and the paths and commands it printed (kept whole)."""
    from click.testing import CliRunner

    from domeng.cli import main
    from domeng.commands.invocation import command_line

    env = {"COLUMNS": str(width), "DOMENG_DATA_DIR": str(data)}
    args = ["--lang", code, "play", "--seed", "5"]
    result = CliRunner().invoke(main, args, input=answers, env=env)
    assert result.exit_code == 0, result.output
    (path,) = (data / "games").glob("*.json")
    whole = (str(path), command_line("play", "--seed", 5), command_line("play", "--resume", path))
    return result.output, whole


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("code", LANGUAGES)
def test_the_sentences_of_a_game_are_wrapped_by_words(
    code: str, width: int, tmp_path: Path
) -> None:
    """A sentence wider than the terminal (the help, an error, a play told) was printed
    as one line, for the terminal to cut anywhere ("menun" / "jukkan"): each is put on
    lines by words, at the terminal's width; a path or a command stays in one piece."""
    # Seed 5: the hand is [6|3] [5|3] [3|3] [3|0] [1|0], 1 and 5 playable. The help, a
    # number with no tile, a word, a tile that does not fit (an error that lists the
    # playable tiles with their numbers), then quit.
    out, whole = _play(code, width, tmp_path, "h\n9\nxx\n2\nq\n")
    lines = out.splitlines()
    assert not _fits(lines, width, whole), out
    assert not _split_tiles(lines), out
    w = words(code)
    words_said = set(out.split())
    for key in ("play.how_to", "play.rules_hint"):
        assert set(w(key).split()) <= words_said, (key, out)
    for piece in whole[1:]:  # each command on one line, ready to copy
        assert any(piece in line for line in lines), (piece, out)


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_terminal_s_sentence_has_no_line_breaks_of_its_own(code: str) -> None:
    """The help said in the game (``play.how_to``) broke its lines near 80 columns, which
    at 50 columns left every other line half empty and at 80 cut the Indonesian's: the
    terminal wraps a sentence, only the texts of ``--help`` (click wraps them, a blank
    line between paragraphs) have lines of their own."""
    texts = catalog(code)["terminal"]
    assert isinstance(texts, dict)
    for key, text in texts.items():
        forms = text.values() if isinstance(text, dict) else [text]
        if key.endswith((".help", ".epilog")):
            continue
        assert all("\n" not in form for form in forms), key


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder where "Andi Mappasessu" played one round (the computer levels'
    profiles are on the leaderboard from the start)."""
    from click.testing import CliRunner

    from domeng.cli import main

    data = tmp_path_factory.mktemp("data")
    args = ["play", "--player", "Andi Mappasessu", "--seed", "3", "--until", "rounds=1"]
    answers = "1\n2\n3\n4\n5\nl\n" * 40
    result = CliRunner().invoke(main, args, input=answers, env={"DOMENG_DATA_DIR": str(data)})
    assert result.exit_code == 0, result.output
    return data


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("code", LANGUAGES)
def test_the_stats_tables_fit_with_every_word_whole(code: str, width: int, played: Path) -> None:
    """At 50 columns rich narrowed the leaderboard's and the player's tables until it
    cut their words ("Mast…", "play…", "rece…"): the columns that do not fit go to a table
    of their own under the first, each row named again; at 80 the leaderboard is one
    table, as before."""
    from click.testing import CliRunner

    from domeng.bots.levels import LADDER
    from domeng.cli import main

    w = words(code)
    env = {"DOMENG_DATA_DIR": str(played), "COLUMNS": str(width)}
    board = CliRunner().invoke(main, ["--lang", code, "stats"], env=env)
    page = CliRunner().invoke(main, ["--lang", code, "stats", "Andi Mappasessu"], env=env)
    for result in (board, page):
        assert result.exit_code == 0, result.output
        assert "…" not in result.output, result.output
        assert not _fits(result.output.splitlines(), width), result.output
    said = set(board.output.split())
    for level in LADDER:  # each on one line: the rows' cells have room before the headings
        assert w(f"ladder.{level}") in board.output, (level, board.output)
    labels = ["place", "name", "rating", "games", "stones_per_round", "camat_per_100"]
    for label in labels:
        assert set(w(f"stats.{label}").split()) <= said, (label, board.output)
    said = set(page.output.split())
    labels = ["when", "where", "rounds", "stones_per_round", "camat", "rating_after"]
    labels += ["opponent", "together", "mine", "theirs"]
    for label in labels:
        assert set(w(f"stats.{label}", name="Andi Mappasessu").split()) <= said, label
    if width == 80:  # room for the whole leaderboard in one table
        master = w(f"ladder.{LADDER[-1]}")
        assert sum(master in line for line in board.output.splitlines()) == 1, board.output


EXAMPLE = Path(__file__).parent.parent / "examples" / "02-ceki.json"


def _words(text: str) -> list[str]:
    """The words of ``text``, a line of tiles one word however it goes on to other lines."""
    return re.sub(r"\]\s+\[", "][", text).split()


@pytest.mark.parametrize("width", WIDTHS)
@pytest.mark.parametrize("code", LANGUAGES)
def test_replay_and_review_tell_a_terminal_by_words(
    code: str, width: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``domeng replay`` and ``domeng review`` printed each sentence (a reason of the
    coach, a play told) on one line, for the terminal to cut anywhere: on a terminal they
    are put on lines by words, at its width; a row of a table laid out by hand and a
    line of tiles goes on between two tiles; into a pipe or a file every line stays
    whole, as before."""
    from click.testing import CliRunner

    from domeng.cli import main
    from domeng.commands import output

    for args in (["replay", str(EXAMPLE)], ["review", str(EXAMPLE), "--level", "expert:fast"]):
        piped = CliRunner().invoke(main, ["--lang", code, *args])
        assert piped.exit_code == 0, piped.output
        monkeypatch.setattr(output, "terminal_width", lambda: width)
        shown = CliRunner().invoke(main, ["--lang", code, *args])
        monkeypatch.undo()
        assert shown.exit_code == 0, shown.output
        lines = shown.output.splitlines()
        # left whole: a row of a table laid out by hand; a line of tiles goes on to the
        # next line between two tiles (it was left whole, for the terminal to cut)
        wide = [line for line in _fits(lines, width) if not output._TABLE_ROW.search(line.strip())]
        assert not wide, shown.output
        assert not _cut_tiles(lines), shown.output
        # the same words, none cut (tiles side by side, as on the line, counted as one)
        assert _words(shown.output) == _words(piped.output)
        # a pipe still gets each sentence on a line of its own
        assert any(terminal_width(line) > 80 for line in piped.output.splitlines()), args


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_replay_s_figures_over_the_game_fit_the_terminal(code: str) -> None:
    """``domeng replay``'s table of the figures over the game was laid out by hand, 86
    columns wide in Indonesian, for the terminal to break: at every width from 40 to 120
    it fits, in one table where it can (80 columns, every language), else in tables one
    under the other, each row named again; every figure under its heading, every word
    of the headings whole."""
    from domeng.commands.output import wrapped
    from domeng.commands.replay import tell
    from domeng.engine.record import load_recorded_game
    from domeng.engine.standings import standings

    recorded = load_recorded_game(Path(__file__).parent.parent / "examples" / "10-camat.json")
    names = list(recorded.players)
    figures = {
        names[st.seat]: [st.received, st.rounds_won, st.ceki, st.pollo, st.manguno, st.mattikkeng]
        for st in standings(recorded.game)
    }
    w = words(code)
    headings = [w("standings.received"), w("standings.rounds_won")]
    headings += ["CEKI", "POLLO", "MANGUNO", "MATTIKKENG"]
    previous = current()
    set_language(code)
    try:
        for width in [None, *range(40, 121)]:
            told = tell(recorded.game, recorded.players, recorded.stand_ins, width).split("\n")
            # from the table's title on (the sentences before it are wrapped elsewhere)
            told = told[told.index(w("replay.over_the_game")) :]
            shown = (wrapped("\n".join(told), width) if width else "\n".join(told)).splitlines()
            start = shown.index(w("replay.over_the_game"))
            part = shown[start + 1 : start + 1 + next(
                k for k, line in enumerate(shown[start + 1 :]) if not line.startswith(" ")
            )]  # fmt: skip
            if width is not None:
                assert not _fits(part, width), (width, "\n".join(part))
            rows = [line.split() for line in part if line.split()[0] in figures]
            for name, values in figures.items():  # every figure, in its order
                cells = [cell for row in rows if row[0] == name for cell in row[1:]]
                assert cells == [str(v) for v in values], (width, name, "\n".join(part))
            said = " ".join(part).split()
            for heading in headings:  # its words whole
                assert set(heading.split()) <= set(said), (width, heading, "\n".join(part))
            assert "…" not in " ".join(part)
            tables = len(rows) // len(figures)
            if width is None or width >= 80:
                assert tables == 1, (width, "\n".join(part))
    finally:
        set_language(previous.code)


def test_a_table_with_no_box_is_given_all_the_width_it_can_use() -> None:
    """:func:`fitted` made room for borders a table with ``box=None`` does not draw: the
    replay's figures in Indonesian, 77 columns, had their headings put on two lines in 80.
    With no box, the table keeps its headings on one line whenever it fits."""
    from domeng.terminal.tables import Column, fitted

    columns = [Column("")] + [Column(h, "right") for h in ("STONES diterima", "Ronde won")]
    columns.append(Column("MATTIKKENG", "right", no_wrap=True))
    rows = [["Andi", "1", "12", "0"], ["Besse", "4", "0", "1"]]
    natural = sum(cell_width(c.heading) + 2 for c in columns[1:]) + 5 + 2
    for width in range(20, 60):
        out = io.StringIO()
        tables = fitted(columns, rows, width, box=None)
        for table in tables:
            Console(file=out, width=width, color_system=None).print(table)
        lines = out.getvalue().splitlines()
        assert not _fits(lines, width), (width, out.getvalue())
        one_line = len(tables) == 1 and len(lines) == 1 + len(rows)
        assert one_line == (width >= natural), (width, out.getvalue())
