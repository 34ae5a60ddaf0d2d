"""What the terminal shows: pure functions from the engine's state to ``rich`` text.

Nothing here knows a rule: what may be played comes from the seat's legal
moves, the sentences from :mod:`domeng.account`, the figures from the round.
Every text is in the terminal's language (:func:`domeng.i18n.current`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from rich._wrap import divide_line  # its words: widths.install() keeps NO_BREAK in one
from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from domeng.account import (
    describe,
    pips,
    shortfall,
    standings_sentence,
    stones,
)
from domeng.engine import (
    SEATS,
    CamatElected,
    Event,
    Game,
    Move,
    Passed,
    Played,
    Reason,
    Round,
    RoundEnded,
    SeatView,
    StonesMoved,
)
from domeng.engine.seatname import split_name
from domeng.engine.standings import standings as game_figures
from domeng.engine.tiles import HIGH, LOW, Tile, TileSet, pip_total, tiles_of
from domeng.i18n import Words, current
from domeng.i18n.catalog import catalog

from .widths import NO_BREAK, TILE_BREAK, cell_width, install, pad

install()  # rich measures Devanagari's vowel signs as terminals draw them

__all__ = [
    "Wrapped",
    "bare_name",
    "concerns",
    "domino",
    "end_choice",
    "final_standings",
    "full_stop",
    "glossary",
    "hand_tiles",
    "level_label",
    "level_words",
    "line_text",
    "numbered",
    "pad",
    "person_seat",
    "round_header",
    "round_summary",
    "rules",
    "seat_label",
    "sentence",
    "sentences",
    "standings",
    "status",
    "your_tiles",
]


class Wrapped:
    """A text put on lines by words at the terminal's width: a terminal left to break a
    long line cut its words anywhere ("menun" / "jukkan"). Each of ``whole`` (a path, a
    command to type again) stays on one line, on the next one when it does not fit the
    rest of this one; one wider than the terminal is left alone on its line, for the
    terminal to break (copied, it is one line again). Words joined by a no-break space
    (:func:`numbered`) stay together; it is printed as a plain space. Tiles side by side
    (the line of play, ``[6|6][6|3]``) go on to the next line between two tiles, never
    inside one. A line's indent (an event under the table) is kept on the lines it goes
    on to.

    >>> from io import StringIO
    >>> out = StringIO()
    >>> said = Wrapped(Text("Continue it with: domeng play --resume game.json"),
    ...                whole=["domeng play --resume game.json"])
    >>> Console(file=out, width=24).print(said, crop=False)
    >>> print(out.getvalue(), end="")
    Continue it with:
    domeng play --resume game.json
    >>> out = StringIO()
    >>> Console(file=out, width=24).print(Wrapped(Text("Line: [6|6][6|3][3|2][2|2]")))
    >>> print(out.getvalue(), end="")
    Line: [6|6][6|3][3|2]
    [2|2]
    """

    def __init__(self, text: Text, whole: Sequence[str] = ()) -> None:
        plain = text.plain
        for piece in whole:
            start = plain.find(piece) if piece else -1
            while start >= 0:
                end = start + len(piece)
                plain = plain[:start] + piece.replace(" ", NO_BREAK) + plain[end:]
                start = plain.find(piece, end)
        text = Text(plain, style=text.style, spans=list(text.spans), end="")
        # a place to break between two tiles: the text divided there, joined again by it
        between = [m.start() + 1 for m in _TOUCHING.finditer(plain)]
        self.text = Text(TILE_BREAK, end="").join(text.divide(between)) if between else text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        for paragraph in self.text.split("\n", allow_blank=True):
            indent = len(paragraph.plain) - len(paragraph.plain.lstrip(" "))
            width = max(1, options.max_width - indent)
            body = paragraph[indent:]
            for line in body.divide(divide_line(body.plain, width, fold=False)):
                line.rstrip()
                line = Text().join(line.split(TILE_BREAK, allow_blank=True))  # spans kept
                shown = Text(line.plain.replace(NO_BREAK, " "), style=line.style, spans=line.spans)
                yield Segment(" " * indent)
                yield from shown.render(console)
                yield Segment.line()

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self.text)


_TOUCHING = re.compile(r"\](?=\[)")
"""The end of a tile that another one follows with no space: ``[6|6][6|3]``."""


def domino(t: Tile) -> str:
    """A tile as a domino, higher number first: ``[6|4]``."""
    return f"[{HIGH[t]}|{LOW[t]}]"


def line_text(line: Sequence[tuple[int, int]]) -> str:
    """The line as dominoes from left to right: ``[6|6][6|3][3|2]``."""
    return "".join(f"[{a}|{b}]" for a, b in line) if line else current()("play.empty_line")


def hand_tiles(mask: TileSet) -> list[Tile]:
    """A hand's tiles in the order they are shown and numbered: highest first."""
    return sorted(tiles_of(mask), key=lambda t: (HIGH[t], LOW[t]), reverse=True)


PERSON = 0
"""The seat of the person at the keyboard: what it does is told in the second person."""


def person_seat(names: Sequence[str]) -> int | None:
    """In a record, the seat of the terminal's person: seat 0 when its name is the
    terminal's default name ("You") in one of the languages, else nobody.

    >>> person_seat(["You", "Besse"]), person_seat(["Sen", "Besse"]), person_seat(["Andi"])
    (0, 0, None)
    """
    from domeng.i18n import LANGUAGES, words

    defaults = {words(code)("play.default.name") for code in LANGUAGES}
    return PERSON if names and names[0] in defaults else None


def sentence(event: Event, names: Sequence[str], you: int | None = PERSON) -> str:
    """One event told for people (via :func:`domeng.account.describe`); the seat
    ``you`` (the person at the keyboard) in the second person."""
    return describe(event, names, w=current(), you=you)


def sentences(events: Sequence[Event], names: Sequence[str], you: int | None = PERSON) -> list[str]:
    """Events told for people, one sentence each (a pass, then its stones)."""
    return [sentence(e, names, you) for e in events]


def concerns(event: Event, seat: int) -> bool:
    """Whether ``event`` is something ``seat`` did or received (shown in bold)."""
    if isinstance(event, Played | Passed):
        return event.seat == seat
    if isinstance(event, StonesMoved):
        return seat in (event.receiver, event.giver)
    return False


def round_header(r: Round, names: Sequence[str]) -> Text:
    """The line that announces a new round."""
    w = current()
    who = names[r.starter]
    mine = "play.you_start_" if r.starter == PERSON else "play.starts_"
    if r.number > 1 and r.camat == r.starter:
        told = w(mine + "camat", who=who)
    elif r.number > 1:
        told = w(mine + "winner", who=who, n=r.number - 1)
    elif r.opening_tile is not None:
        told = w(mine + "lempa", who=who, tile=domino(r.opening_tile))
    else:
        told = w(mine + "any", who=who)
    text = Text()
    text.append(w("play.round_n", n=r.number), style="bold")
    text.append(f" — {told}")
    return text


def numbered(k: int, t: Tile) -> str:
    """A tile after the number to type for it, on one line whatever the width (a
    no-break space between them): ``1) [6|3]``."""
    return f"{k}){NO_BREAK}{domino(t)}"


def your_tiles(v: SeatView) -> Text:
    """The seat's tiles, numbered from 1; those it may play marked (``*``) when in turn.
    A narrow terminal puts the tiles on several lines, each tile beside its number."""
    playable = {m.tile for m in v.legal_moves}
    text = Text()
    for k, t in enumerate(hand_tiles(v.hand), start=1):
        if k > 1:
            text.append("   ")
        if t in playable:
            text.append(f"{numbered(k, t)}*", style="bold green")
        elif playable:
            text.append(f"{numbered(k, t)} ", style="dim")
        else:
            text.append(f"{numbered(k, t)} ")
    return text


def status(v: SeatView, names: Sequence[str], kinds: Sequence[str]) -> RenderableType:
    """The table as the seat sees it: players, tiles, stones, titles, the line, its tiles."""
    w = current()
    table = Table(box=None, pad_edge=False, show_edge=False, padding=(0, 2, 0, 0))
    table.add_column("")
    table.add_column(w("summary.player"))
    table.add_column(w("play.tiles"), justify="right")
    table.add_column(w("summary.stones"), justify="right")
    table.add_column(w("summary.titles"), justify="right")
    for s in range(SEATS):
        mark = "▶" if v.turn == s else ""
        who = names[s] + (f" ({level_words(kinds[s])})" if kinds[s] else "")
        if v.camat == s:
            who += "  CAMAT"
        table.add_row(
            mark,
            who,
            str(v.hand_counts[s]),
            str(v.stones[s]),
            str(v.titles[s]),
            style="bold" if s == v.seat else None,
        )
    camat = names[v.camat] if v.camat is not None else w("play.no_camat")
    header = Text(
        w("play.header", n=v.number, stones=stones(v.table, w), camat=camat), style="cyan"
    )
    line = Text(w("play.line") + " ", style="bold")
    line.append(line_text(v.line))
    parts: list[RenderableType] = [header, table, Wrapped(line)]  # no tile cut in two
    if v.ends is not None:
        parts.append(Text(w("play.ends", left=v.ends[0], right=v.ends[1])))
    tiles = Text(w("play.your_tiles") + " ", style="bold")
    tiles.append_text(your_tiles(v))
    parts.append(Wrapped(tiles))  # a tile never on another line than its number
    if v.legal_moves:
        parts.append(Text(w("play.star"), style="dim"))
    return Group(*parts)


def end_choice(v: SeatView, moves: Sequence[Move]) -> str:
    """The question for a tile that fits both ends: which end."""
    assert v.ends is not None
    left, right = v.ends
    t = moves[0].tile
    hi, lo = HIGH[t], LOW[t]
    # The half that stays open once the tile is laid against an end.
    left_open = lo if hi == left else hi
    right_open = lo if hi == right else hi
    return current()(
        "play.which_end",
        tile=domino(t),
        left=left,
        right=right,
        left_open=left_open,
        right_open=right_open,
    )


def standings(r: Round, names: Sequence[str]) -> RenderableType:
    """Everyone's stones and CAMAT titles after the round, the table's stones, the CAMAT."""
    w = current()
    table = Table(
        title=w("summary.standings"), title_justify="left", box=None, padding=(0, 2, 0, 0)
    )
    table.add_column(w("summary.player"))
    table.add_column(w("summary.stones"), justify="right")
    table.add_column(w("summary.titles"), justify="right")
    for s in range(SEATS):
        who = names[s] + ("  CAMAT" if r.camat == s else "")
        table.add_row(who, str(r.stones[s]), str(r.titles[s]))
    table.add_row(w("play.the_table"), str(r.table), "")
    return table


def _transfers(events: Sequence[Event], names: Sequence[str]) -> list[str]:
    """Every stone moved in the round: who received how many from whom, and why
    (seat by seat; transfers of the same kind added up, in the order they happened)."""
    w = current()
    totals: dict[tuple[int, int | None, Reason], int] = {}
    for e in events:
        if isinstance(e, StonesMoved):
            key = (e.receiver, e.giver, Reason(e.reason))
            totals[key] = totals.get(key, 0) + e.amount
    out: list[str] = []
    by_receiver = sorted(totals.items(), key=lambda item: item[0][0])
    for (receiver, giver, reason), amount in by_receiver:
        out.append(describe(StonesMoved(giver, receiver, amount, reason), names, w=w, you=PERSON))
    return out


def round_summary(r: Round, names: Sequence[str]) -> RenderableType:
    """After a round: how it ended, every hand and the unused tiles, the stones moved."""
    w = current()
    result = r.result
    assert result is not None
    parts: list[RenderableType] = []
    parts.append(Text(f"── {w('summary.title', n=r.number)} ──", style="bold"))
    after = False
    for e in r.events:
        if isinstance(e, RoundEnded):
            parts.append(Text(full_stop(sentence(e, names)), style="bold yellow"))
            after = True
        elif after and isinstance(e, CamatElected):
            parts.append(Text(full_stop(sentence(e, names)), style="bold magenta"))
    hands = Table(
        title=w("summary.tiles_left"), title_justify="left", box=None, padding=(0, 2, 0, 0)
    )
    hands.add_column(w("summary.player"))
    hands.add_column(w("play.tiles"))
    hands.add_column(w("summary.pips"), justify="right")
    for s in range(SEATS):
        mask = result.hands[s]
        shown = " ".join(domino(t) for t in hand_tiles(mask)) or "—"
        hands.add_row(names[s], shown, pips(pip_total(mask), w))
    unused = " ".join(domino(t) for t in hand_tiles(result.unused))
    hands.add_row(w("play.unused"), unused, "")
    parts.append(hands)
    moved = _transfers(r.events, names)
    parts.append(Text(w("play.stones_this_round"), style="bold"))
    if moved:
        parts.extend(Text(f"  {full_stop(m)}") for m in moved)
    else:
        parts.append(Text("  " + w("play.none_moved")))
    short = shortfall(r.events, names, w, PERSON)
    if short is not None:  # a CEKI that brought 1 stone, or none, looks like a mistake
        parts.append(Text(f"  {short}"))
    parts.append(standings(r, names))
    return Group(*parts)


def final_standings(game: Game, names: Sequence[str], width: int | None = None) -> RenderableType:
    """The game's final standings (:func:`domeng.engine.standings.standings`): a table in
    rank order with every player's figures over the game, and who won, in a sentence.
    On a terminal narrower than the whole table (``width`` columns), the counts of CEKI,
    POLLO, MANGUNO and MATTIKKENG have a table of their own under it: squeezed into one,
    rich gave the rank and the names no room at all (50 columns)."""
    w = current()
    rows = game_figures(game)
    # the names' column is as wide as its widest name, or its heading when that is wider
    # ("Player" over five-letter names: counted without it, 68 columns cut it, "Play…")
    name_width = max(cell_width(n) for n in [w("summary.player"), *names])
    # A heading of several words takes two lines, split between words (rich, left to
    # fit 80 columns itself, narrowed them all alike and cut "Ontvang…"); the game's
    # words never wrap.
    keys = ("summary.titles", "summary.stones", "standings.received", "standings.rounds_won")
    figures = [(w(k), two_lines(w(k)), False) for k in keys]
    counts = [(word, cell_width(word), True) for word in ("CEKI", "POLLO", "MANGUNO", "MATTIKKENG")]
    # "#" for the rank, as the leaderboard has it: a word there ("Peringkat") left the
    # other headings too little room in 80 columns, and rich cut them ("dimenan…").
    rank_width = len(str(len(rows)))
    cells = rank_width + name_width + sum(c for _, c, _ in figures + counts)
    together = width is None or cells + 2 + len(figures + counts) <= width
    parts: list[RenderableType] = []
    for k, columns in enumerate([figures + counts] if together else [figures, counts]):
        table = Table(
            title=w.count("play.final_standings", len(game.rounds)) if k == 0 else None,
            title_justify="left",
            title_style="bold",
            box=None,
            padding=(0, 1, 0, 0),
        )
        table.add_column("#", justify="right")
        table.add_column(w("summary.player"), min_width=name_width)
        for heading, width_of, word in columns:
            if word:  # the game's words never wrap
                table.add_column(heading, justify="right", no_wrap=True, min_width=width_of)
            else:
                table.add_column(heading, justify="right", width=width_of)
        for st in rows:
            numbers = [st.titles, st.stones, st.received, st.rounds_won]
            numbers += [st.ceki, st.pollo, st.manguno, st.mattikkeng]
            value = dict(zip([h for h, _, _ in figures + counts], numbers, strict=True))
            table.add_row(
                str(st.rank),
                names[st.seat],
                *(str(value[h]) for h, _, _ in columns),
                style="bold" if st.rank == 1 else None,
            )
        parts.append(table)
    winner = standings_sentence(rows, names, over=True, w=w, you=PERSON)
    return Group(*parts, Text(full_stop(winner), style="bold yellow"))


def two_lines(text: str) -> int:
    """The fewest cells in which ``text`` fits on two lines, split between two of its
    words (a single word: its width).

    >>> two_lines("Títulos de CAMAT"), two_lines("Ronde dimenangkan"), two_lines("CAMAT-titels")
    (8, 11, 12)
    """
    words = text.split()
    if len(words) < 2:
        return cell_width(text)
    return min(
        max(cell_width(" ".join(words[:k])), cell_width(" ".join(words[k:])))
        for k in range(1, len(words))
    )


def full_stop(sentence: str, w: Words | None = None) -> str:
    """A sentence with its final full stop (the account's sentences have none, a few
    of the browser's texts end with one or with "!").

    >>> full_stop("Besse wins the round"), full_stop("He was owed 3."), full_stop("CEKI!")
    ('Besse wins the round.', 'He was owed 3.', 'CEKI!')

    A Hindi sentence ends with the danda, whatever its last word (the game's words are
    written in Latin letters): a text with no Devanagari at all keeps the full stop.

    >>> from domeng.i18n import words
    >>> full_stop("बेस्से जीतता है", words("hi"))
    'बेस्से जीतता है।'
    >>> full_stop("Daeng नहीं खेल सकता — PASS: 1 STONES", words("hi"))
    'Daeng नहीं खेल सकता — PASS: 1 STONES।'
    >>> full_stop("PASS: 1 STONES", words("hi"))
    'PASS: 1 STONES.'
    """
    if sentence.endswith((".", "!", "?", "।")):
        return sentence
    hindi = (w or current()).code == "hi" and _devanagari(sentence)
    return sentence + ("।" if hindi else ".")


def _devanagari(text: str) -> bool:
    return any("\u0900" <= c <= "\u097f" for c in text)


def level_words(kind: str) -> str:
    """A computer level by the name players know it by, in the terminal's language: the
    ladder's (``expert:fast``: "Club player"; docs/bots.md, "The ladder"), as the browser
    names it; the level's own name when the ladder has none for it."""
    w = current()
    key = f"ladder.{kind}"
    return w(key) if w.has(key) else kind


def seat_label(name: str) -> str:
    """A seat's name as a record keeps it, told for people: a computer player by the
    ladder's name for its level (``"Besse (expert:fast)"``: "Besse (Club player)"), as
    the terminal's table and the browser's plates show it; a person's name as it is."""
    base, kind = split_name(name)
    return f"{base} ({level_words(kind)})" if kind is not None else name


def bare_name(name: str) -> str:
    """A seat's name without its level (``"Besse (expert:fast)"``: "Besse"), for the
    sentences that name it once its level has been said."""
    return split_name(name)[0]


def level_label(kind: str) -> str:
    """A level where it is chosen or ranked: the ladder's name beside the technical one
    ("Club player (expert:fast)"), as the browser's start page and leaderboard say it."""
    name = level_words(kind)
    return kind if name == kind else f"{name} ({kind})"


def glossary() -> RenderableType:
    """The game's words and what each means: the browser's glossary (its ``terms``),
    in the terminal's language; the words themselves stay as they are."""
    w = current()
    terms = catalog(w.code).get("terms") or catalog("en")["terms"]
    assert isinstance(terms, dict)
    text = Text()
    text.append(w("play.glossary_title"), style="bold")
    for word, meaning in terms.items():
        text.append("\n")
        text.append(word, style="bold")
        text.append(f" — {meaning}")
    return text


def rules() -> RenderableType:
    """The whole rules, as the browser's rules page has them (its ``rules``), in the
    terminal's language: headings in bold, a list's items after a bullet."""
    w = current()
    paragraphs = catalog(w.code).get("rules") or catalog("en")["rules"]
    assert isinstance(paragraphs, list)
    text = Text()
    text.append(w("rules.title"), style="bold underline")
    for paragraph in paragraphs:
        assert isinstance(paragraph, str)
        if paragraph.startswith("## "):
            text.append(f"\n\n{paragraph[3:]}", style="bold")
        elif paragraph.startswith("- "):
            text.append(f"\n  • {paragraph[2:]}")
        else:
            text.append(f"\n{paragraph}")
    return text
