"""Keep the docs honest: the glossary, the commands the README names, the links.

- docs/rules.md has a glossary entry for every term of the rules' terms table;
- every `domeng` sub-command and option the README shows exists in the CLI
  (checked through `domeng <cmd> --help`), and a command that does not exist
  yet is said to be "not yet" there on the same line; every sub-command the
  CLI has is in the README;
- every relative link in README.md and docs/*.md reaches an existing file
  (and heading, for links with a #fragment into a Markdown file);
- the README's quick start is `make run` and `make test`, and the Makefile has
  both targets;
- the documented variants and `domeng replay --json` keys match the code.
"""

from __future__ import annotations

import itertools
import json
import random
import re
from dataclasses import dataclass
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from domeng.bots import player_names
from domeng.cli import main
from domeng.engine import BlockPasses, Game, Opening, Reason, Rounds, Variants
from domeng.engine.record import FORMAT, game_from_record, replay_summary

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = ROOT / "docs"
RULES_DOC = DOCS / "rules.md"
RECORD_DOC = DOCS / "record.md"
SPEC_RULES = ROOT.parent / "shared" / "spec" / "rules.md"
"""The rules' authority, beside the repository (absent from a bare clone)."""

TERMS = (
    "LEMPA",
    "PASS",
    "PASSEBUNGE",
    "LAST DOMINO",
    "LAST MAPPANO",
    "FIRST CAPPU",
    "MAPPAKULING",
    "CEKI",
    "POLLO",
    "MANGUNO",
    "MATTIKKENG",
    "CUCUQ",
    "STONES",
    "CAMAT",
)
"""The terms table of the rules (shared/spec/rules.md), in its order."""

NOT_YET = re.compile(r"not\s+yet", re.IGNORECASE)


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def _section(markdown: str, heading: str) -> str:
    """The text under the ``## heading...`` line up to the next heading of level 1 or 2."""
    pattern = rf"^##\s+{re.escape(heading)}\b[^\n]*$(.*?)(?=^#{{1,2}}\s|\Z)"
    match = re.search(pattern, markdown, re.M | re.S)
    assert match, f"no '## {heading}' section"
    return match.group(1)


def _first_cells(table_text: str) -> list[str]:
    """The first cell of every row of the Markdown tables in ``table_text``."""
    cells = []
    for line in table_text.splitlines():
        match = re.match(r"^\|\s*([^|]*?)\s*\|", line)
        if match and not re.fullmatch(r":?-+:?", match.group(1)):
            cells.append(match.group(1))
    return cells


# -- the glossary -------------------------------------------------------------


def test_docs_terms_list_matches_the_rules_spec() -> None:
    if not SPEC_RULES.exists():
        pytest.skip(f"the rules spec is not beside this checkout ({SPEC_RULES})")
    rows = re.findall(r"^\|\s*\d+\s*\|\s*([^|]+?)\s*\|", _section(_read(SPEC_RULES), "Terms"), re.M)
    spec_terms = tuple(re.sub(r"\s*\(.*\)$", "", row) for row in rows)
    assert spec_terms == TERMS


def test_docs_rules_glossary_has_every_term() -> None:
    glossary = _first_cells(_section(_read(RULES_DOC), "Glossary"))
    missing = [term for term in TERMS if term not in glossary]
    assert not missing, f"docs/rules.md's glossary lacks {missing}"


def test_docs_rules_marks_every_project_choice() -> None:
    # The spec marks seven [decision]s; the rules page lists them all, numbered.
    choices = _section(_read(RULES_DOC), "Project's choices")
    assert re.findall(r"^(\d+)\. \*\*", choices, re.M) == [str(n) for n in range(1, 8)]


def test_docs_rules_variants_match_the_engine() -> None:
    variants = _section(_read(RULES_DOC), "Variants")
    defaults = Variants()
    rows = {
        cells[0].strip("` "): cells
        for line in variants.splitlines()
        if line.startswith("|")
        and (cells := [c.strip() for c in line.strip().strip("|").split("|")])[0].startswith("`")
    }
    assert set(rows) == {"opening", "block_passes", "rounds"}
    for name, enum, default in (
        ("opening", Opening, defaults.opening),
        ("block_passes", BlockPasses, defaults.block_passes),
        ("rounds", Rounds, defaults.rounds),
    ):
        values = re.findall(r"`([a-z_]+)`", rows[name][1])
        assert values == [v.value for v in enum], name
        assert rows[name][2] == f"`{default.value}`", name
    assert "domeng play --opening free --block-passes free" in variants


def test_docs_rules_stones_table_names_every_reason() -> None:
    awards = _section(_read(RULES_DOC), "Every stones award")
    reasons = {
        cells[1]
        for line in awards.splitlines()
        if line.startswith("|")
        and len(cells := [c.strip() for c in line.strip().strip("|").split("|")]) > 1
    }
    assert {r.value for r in Reason} <= reasons


def test_docs_drawn_lines_are_real_lines() -> None:
    # Every line of tiles drawn in the docs, like [6|6][6|3][3|2]: touching halves
    # match and no tile is there twice.
    for path in _doc_files():
        for drawn in re.findall(r"(?:\[\d\|\d\]){2,}", _read(path)):
            pairs = [(int(a), int(b)) for a, b in re.findall(r"\[(\d)\|(\d)\]", drawn)]
            for (_, right), (left, _) in itertools.pairwise(pairs):
                assert right == left, f"{path.name}: {drawn} does not join at {right}|{left}"
            tiles = [tuple(sorted(p)) for p in pairs]
            assert len(set(tiles)) == len(tiles), f"{path.name}: a tile twice in {drawn}"


def test_docs_rules_block_example_adds_up() -> None:
    rules = _read(RULES_DOC)
    line = re.search(r"^(\[5\|2\](?:\[\d\|\d\])+)\s+ends 5 and 5", rules, re.M)
    assert line, "the MANGUNO example's line"
    on_line = [(int(a), int(b)) for a, b in re.findall(r"\[(\d)\|(\d)\]", line.group(1))]
    unused = [(5, 0), (5, 1), (1, 0)]
    assert "`[5|0]`, `[5|1]` and `[1|0]`" in rules
    fives = [t for t in on_line + unused if 5 in t]
    assert len(fives) == 7  # nobody holds a 5: the line is blocked
    in_hands = 28 - len(on_line) - len(unused)
    pips = 168 - sum(a + b for a, b in on_line + unused)
    assert f"The {in_hands} tiles still in hands carry {pips} pips" in rules
    table = _section(rules, "How a round ends").split("| Andi | Besse |")[1]
    for row in re.findall(
        r"^\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|\s*(\d+)", table, re.M
    ):
        assert sum(map(int, row)) == pips, row


def test_docs_record_example_replays_as_described() -> None:
    page = _read(RECORD_DOC)
    example = re.search(r"```json\n(\{\n  \"format\".*?)\n```", page, re.S)
    assert example, "the example record"
    game, players = game_from_record(json.loads(example.group(1)))
    assert players[0] == "Andi"
    assert game.round.line() == [(6, 6), (6, 3), (3, 2)]
    assert game.turn == 3
    assert "so it is seat 3's turn" in page


# -- the commands the README names ---------------------------------------------


@dataclass(frozen=True)
class Mention:
    """A `domeng` sub-command ("" for the group itself) and perhaps one of its options."""

    command: str
    option: str | None
    line: int
    text: str


_COMMAND = re.compile(r"(?<![\w./-])domeng(?=\s|$)(.*)")


def _code_texts(markdown: str) -> list[tuple[int, str, str]]:
    """(line number, code text, whole line) for each fenced code line and inline code span,
    in document order."""
    found: list[tuple[int, str, str]] = []
    fenced = False
    for number, line in enumerate(markdown.splitlines(), start=1):
        if line.lstrip().startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            found.append((number, line, line))
        else:
            found += [(number, span, line) for span in re.findall(r"`([^`\n]+)`", line)]
    return found


def _options(words: str) -> list[str]:
    tokens = re.split(r"\s+|&&|;|\|", words.split("#", 1)[0])
    return [t.split("=", 1)[0] for t in tokens if re.fullmatch(r"--?[a-z][a-z0-9-]*(=.*)?", t)]


def readme_mentions(markdown: str) -> list[Mention]:
    """Every `domeng ...` in the README's code, and every bare `--option` span, which
    belongs to the command named last before it."""
    mentions: list[Mention] = []
    current: str | None = None
    for number, code, line in _code_texts(markdown):
        match = _COMMAND.search(code)
        if match:
            rest = match.group(1).split("#", 1)[0].split()
            command = rest[0] if rest and re.fullmatch(r"[a-z][a-z-]*", rest[0]) else ""
            group = main.commands.get(command) if command else None
            if isinstance(group, click.Group) and len(rest) > 1 and rest[1] in group.commands:
                command = f"{command} {rest[1]}"  # a group's sub-command: domeng members add
            current = command
            mentions.append(Mention(command, None, number, line))
            mentions += [Mention(command, o, number, line) for o in _options(match.group(1))]
        elif code.startswith("-"):
            assert current is not None, f"README line {number}: {code!r} before any command"
            mentions += [Mention(current, o, number, line) for o in _options(code)]
    return mentions


def _help(command: str) -> str:
    args = [*command.split(), "--help"] if command else ["--help"]
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 0, f"domeng {' '.join(args)} failed:\n{result.output}"
    return result.output


def _commands() -> set[str]:
    assert isinstance(main, click.Group)
    return set(main.commands)


def test_docs_readme_names_only_commands_and_options_that_exist() -> None:
    mentions = readme_mentions(_read(README))
    assert {m.command for m in mentions} >= {"play", "replay"}
    existing = _commands()
    problems = []
    helps: dict[str, str] = {}
    for m in mentions:
        if m.command and m.command.split()[0] not in existing:
            if m.option is None and not NOT_YET.search(m.text):
                problems.append(
                    f"line {m.line}: `domeng {m.command}` does not exist; "
                    "say it is not yet there on that line"
                )
            continue
        if m.option is None:
            continue
        help_text = helps.setdefault(m.command, _help(m.command))
        if not re.search(rf"(?<![\w-]){re.escape(m.option)}(?![\w-])", help_text):
            problems.append(f"line {m.line}: `domeng {m.command}` has no option {m.option}")
    assert not problems, "\n".join(problems)


def test_docs_readme_names_every_command_the_cli_has() -> None:
    named = {m.command.split()[0] for m in readme_mentions(_read(README)) if m.command}
    assert not _commands() - named, "README.md does not show these sub-commands"


def test_docs_readme_mention_parser() -> None:
    text = (
        "Run `domeng play --seed 7 --name=Andi`, then:\n"
        "```\n"
        "domeng replay game.json --json   # the summary\n"
        "domeng serve --port 8080         # not yet there\n"
        "```\n"
        "- `--opening free` (see `domeng.record/1`)\n"
    )
    got = [(m.command, m.option, m.line) for m in readme_mentions(text)]
    assert got == [
        ("play", None, 1),
        ("play", "--seed", 1),
        ("play", "--name", 1),
        ("replay", None, 3),
        ("replay", "--json", 3),
        ("serve", None, 4),
        ("serve", "--port", 4),
        ("serve", "--opening", 6),
    ]


def test_docs_readme_quick_start_is_make_run_and_make_test() -> None:
    readme = _read(README)
    assert "make run" in readme
    assert "make test" in readme
    makefile = _read(ROOT / "Makefile")
    for target in ("run", "test"):
        assert re.search(rf"^{target}:", makefile, re.M), f"Makefile has no '{target}' target"
    run = re.search(r"^run:.*\n((?:\t.*\n?)+)", makefile, re.M)
    assert run and "domeng serve" in run.group(1), "make run should start domeng serve (issue 5)"
    play = re.search(r"^play:.*\n((?:\t.*\n?)+)", makefile, re.M)
    assert play and "domeng play" in play.group(1), "make play should start domeng play"


def test_docs_readme_make_targets_exist() -> None:
    makefile = _read(ROOT / "Makefile")
    named = set(re.findall(r"(?<![\w-])make ([a-z][a-z-]*)", _read(README)))
    missing = sorted(t for t in named if not re.search(rf"^{t}:", makefile, re.M))
    assert not missing, f"README.md names make targets the Makefile lacks: {missing}"


def test_docs_readme_names_every_computer_player_offered_to_people() -> None:
    readme = _read(README)
    missing = [name for name in player_names(for_people=True) if f"`{name}`" not in readme]
    assert not missing, f"README.md does not name {missing}"


# -- links ---------------------------------------------------------------------


def _slug(heading: str) -> str:
    """GitHub's anchor for a heading."""
    text = re.sub(r"[`*_]|<[^>]+>", "", heading).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def _anchors(markdown: str) -> set[str]:
    anchors: set[str] = set()
    seen: dict[str, int] = {}
    for heading in re.findall(r"^#{1,6}\s+(.+?)\s*#*$", _without_fences(markdown), re.M):
        slug = _slug(heading)
        count = seen.get(slug, 0)
        seen[slug] = count + 1
        anchors.add(slug if count == 0 else f"{slug}-{count}")
    return anchors


def _without_fences(markdown: str) -> str:
    return re.sub(r"^```.*?^```[^\n]*$", "", markdown, flags=re.M | re.S)


def _without_code(markdown: str) -> str:
    return re.sub(r"`[^`\n]*`", "", _without_fences(markdown))


def links(markdown: str) -> list[str]:
    """The targets of the inline, image and reference links, outside code."""
    text = _without_code(markdown)
    targets = re.findall(r"\]\(\s*<?([^)\s>]*)>?(?:\s+\"[^\"]*\")?\s*\)", text)
    targets += re.findall(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", text, re.M)
    return targets


def _doc_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


@pytest.mark.parametrize("path", _doc_files(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_docs_relative_links_reach_existing_files(path: Path) -> None:
    problems = []
    for target in links(_read(path)):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
            continue  # http:, https:, mailto:: not checked here
        file_part, _, fragment = target.partition("#")
        dest = (path.parent / file_part).resolve() if file_part else path
        if not dest.exists():
            problems.append(f"{target}: no such file")
        elif fragment and dest.suffix == ".md" and fragment not in _anchors(_read(dest)):
            problems.append(f"{target}: no heading #{fragment} in {dest.name}")
    assert not problems, f"{path.name}:\n" + "\n".join(problems)


def test_docs_link_parser() -> None:
    text = (
        'See [rules](docs/rules.md#glossary), ![shot](docs/t.png "Table"), '
        "[site](https://example.org) and [top](#quick-start).\n"
        "`[not](a-link.md)`\n```\n[nor](this.md)\n```\n[ref]: docs/record.md\n"
    )
    assert links(text) == [
        "docs/rules.md#glossary",
        "docs/t.png",
        "https://example.org",
        "#quick-start",
        "docs/record.md",
    ]
    assert _slug("Project's choices") == "projects-choices"
    assert _slug("1. FIRST CAPPU: somebody plays") == "1-first-cappu-somebody-plays"
    assert _anchors("# A\n```\n# not a heading\n```\n### `--json`\n## A\n") == {
        "a",
        "--json",
        "a-1",
    }


# -- the record format page ------------------------------------------------------


def test_docs_record_page_names_every_replay_json_key() -> None:
    page = _read(RECORD_DOC)
    assert f"`{FORMAT}`" in page
    game = Game()
    game.deal(random.Random(1))
    summary = replay_summary(game)
    rounds = summary["rounds"]
    assert isinstance(rounds, list)
    keys = set(summary) | set(rounds[0])
    missing = sorted(k for k in keys if f"`{k}`" not in page)
    assert not missing, f"docs/record.md does not explain {missing}"
