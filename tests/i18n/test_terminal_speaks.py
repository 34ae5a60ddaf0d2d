"""The terminal game, in each language, plays a round from piped input with no English
sentence left (the game's words aside); so do the replay's telling, the sim's table, a
player's page and the leaderboard (domeng stats) and the coach's review."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from domeng.bots.expert import Level
from domeng.bots.reasons import KEYS, Why
from domeng.bots.review import Decision, decisions
from domeng.cli import main
from domeng.commands.review import reason_text, tell_review
from domeng.engine.record import RecordedGame, load_recorded_game
from domeng.i18n import LANGUAGES, catalog, current, set_language, words

EXAMPLES = Path(__file__).resolve().parent.parent.parent / "examples"
TERMS = (
    *("LAST DOMINO", "LAST MAPPANO", "FIRST CAPPU", "MAPPAKULING", "PASSEBUNGE"),
    *("MATTIKKENG", "MANGUNO", "STONES", "STONE", "LEMPA", "CUCUQ", "CAMAT", "CEKI"),
    *("POLLO", "PASS"),
)
NAMES = ("Besse", "Cicci", "Daeng", "Emba", "Andi", "Domeng")
WORD = re.compile(r"[A-Za-z]{3,}")
# the answers: a tile number, then an end, for every number; wrong answers are asked again
ANSWERS = "".join(f"{k}\nl\n" for k in range(1, 8)) * 30


def _strings(value: object) -> list[str]:
    """Every text in ``value``, its placeholders taken out (``{tile}`` is no word)."""
    if isinstance(value, str):
        return [re.sub(r"\{[\w!]+\}|%\(\w+\)s", " ", value)]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def english_only_words(code: str) -> set[str]:
    """Words of the English catalog (the browser's and the terminal's) that ``code``'s
    never uses, the game's words aside."""
    en = {w.lower() for s in _strings(catalog("en")) for w in WORD.findall(s)}
    other = {w.lower() for s in _strings(catalog(code)) for w in WORD.findall(s)}
    return en - other - {w.lower() for t in TERMS for w in t.split()}


def english_left(text: str, code: str) -> set[str]:
    """The English words in ``text`` (paths, command lines and names taken out)."""
    text = re.sub(r"\S*[/\\]\S*", " ", text)  # paths
    text = re.sub(r"domeng \w+( --?\w[\w-]*( \S+)?)*", " ", text)  # command lines
    text = re.sub(r"--[\w-]+", " ", text)
    text = re.sub(r"(?m)^  [a-z]+(?=  )", " ", text)  # the sub-commands' names in a list
    for name in NAMES:
        text = text.replace(name, " ")
    return {w.lower() for w in WORD.findall(text)} & english_only_words(code)


def test_the_check_finds_english() -> None:
    for code in LANGUAGES[1:]:
        assert {"the", "round", "tile", "plays", "cannot"} <= english_only_words(code), code
    assert english_left("Besse plays [6|4] at the right end.", "id") >= {"plays", "the"}


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_a_round_in_the_terminal_has_no_english_sentence(code: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(
        main,
        ["play", "--lang", code, "--seed", "11", "--until", "rounds=1", "--pause", "0"],
        input=ANSWERS,
        env={"DOMENG_DATA_DIR": str(tmp_path)},
    )
    out = result.output
    assert result.exit_code == 0, out
    games = list((tmp_path / "games").glob("*.json"))
    assert len(games) == 1
    assert '"plays"' in games[0].read_text("utf-8")
    assert out.count("[") > 20  # the round was played and told
    assert catalog(code)["terminal"]["play.replay_with"].split("{")[0] in out  # type: ignore[index]
    assert english_left(out, code) == set(), out


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_the_replay_s_telling_has_no_english_sentence(code: str) -> None:
    for example in ("02-ceki", "09-giver-too-few", "10-camat", "13-stand-in"):
        result = CliRunner().invoke(
            main, ["--lang", code, "replay", str(EXAMPLES / f"{example}.json")]
        )
        assert result.exit_code == 0, result.output
        assert english_left(result.output, code) == set(), (example, result.output)


@pytest.mark.parametrize("code", ["id", "hi"])
def test_the_sim_s_table_has_no_english_sentence(code: str) -> None:
    args = ["--lang", code, "sim", "--players", "basic,random,random,random,random"]
    result = CliRunner().invoke(main, [*args, "--rounds", "10", "--workers", "1"])
    assert result.exit_code == 0, result.output
    table = result.output.replace("basic", " ").replace("random", " ")
    assert english_left(table, code) == set(), result.output


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_every_help_has_no_english_sentence(code: str) -> None:
    for command in ([], *([name] for name in sorted(main.commands))):
        result = CliRunner().invoke(main, ["--lang", code, *command, "--help"], prog_name="domeng")
        assert result.exit_code == 0, result.output
        shown = result.output
        for name in main.commands:  # the list of commands names them as they are typed
            shown = re.sub(rf"^(\s+){name}\b", r"\1", shown, flags=re.MULTILINE)
        assert english_left(shown, code) == set(), (command, result.output)


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A data folder whose database holds one terminal game of the player Andi."""
    data = tmp_path_factory.mktemp("data")
    args = ["play", "--lang", "en", "--player", "Andi", "--seed", "3", "--until", "rounds=1"]
    result = CliRunner().invoke(
        main, [*args, "--pause", "0"], input=ANSWERS, env={"DOMENG_DATA_DIR": str(data)}
    )
    assert result.exit_code == 0, result.output
    return data


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_the_stats_have_no_english_sentence(
    code: str, played: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import domeng.server.history as history

    def stats(*args: str) -> str:
        result = CliRunner().invoke(
            main, ["--lang", code, "stats", *args], env={"DOMENG_DATA_DIR": str(played)}
        )
        assert result.exit_code in (0, 1), result.output
        return result.output

    page, empty, missing = stats("Andi"), stats(), stats("Besse")
    assert words(code)("stats.figures") in page
    assert words(code).count("stats.empty", history.LEADERBOARD_GAMES) in empty
    monkeypatch.setattr(history, "LEADERBOARD_GAMES", 1)
    board = stats()
    assert words(code).count("stats.board", 1) in board
    for out in (page, empty, missing, board):
        shown = out.replace("basic", " ")  # the computer player's profile name
        assert english_left(shown, code) == set(), out


TINY = Level("review:test", 60, 30.0)


@pytest.fixture(scope="module")
def reviewed() -> tuple[RecordedGame, list[Decision]]:
    recorded = load_recorded_game(EXAMPLES / "10-camat.json")
    return recorded, decisions(recorded, 2, TINY)


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_the_review_has_no_english_sentence(
    code: str, reviewed: tuple[RecordedGame, list[Decision]]
) -> None:
    recorded, found = reviewed
    assert found
    previous = current()
    try:
        set_language(code)
        text = tell_review(recorded, 2, "expert", found)
        none = tell_review(recorded, 2, "expert", [])
        every = [
            reason_text(
                Why(key, 1.0, seat=1, number=5, other=3, tile="6-4", end="left",
                    finish="FIRST CAPPU", stones=0.25),
                recorded.players,
            )
            for key in KEYS
        ]  # fmt: skip
    finally:
        set_language(previous.code)
    assert words(code)("review.title", name=recorded.players[2], seat=2, level="expert") in text
    for out in (text, none, *every):
        shown = out.replace("expert", " ")  # the level, as --level names it
        assert english_left(shown, code) == set(), out
