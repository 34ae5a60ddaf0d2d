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
    # the command after it, or under it when it does not fit beside it
    assert catalog(code)["terminal"]["play.replay_with"].split("{")[0].strip() in out  # type: ignore[index]
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
    code: str, played: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    import domeng.server.history as history

    def stats(*args: str) -> str:
        result = CliRunner().invoke(
            main, ["--lang", code, "stats", *args], env={"DOMENG_DATA_DIR": str(played)}
        )
        assert result.exit_code in (0, 1), result.output
        return result.output

    page, levels, missing = stats("Andi"), stats(), stats("Besse")
    assert words(code)("stats.figures") in page
    # the computer levels are on the board from the start, by their names in the language
    assert words(code).count("stats.board", history.LEADERBOARD_GAMES) in levels
    assert words(code)("ladder.basic") in levels  # by the ladder's name for players
    empty = stats("--db", str(tmp_path / "nobody.sqlite3"))  # no one at all yet
    assert words(code).count("stats.empty", history.LEADERBOARD_GAMES) in empty
    monkeypatch.setattr(history, "LEADERBOARD_GAMES", 1)
    board = stats()
    assert words(code).count("stats.board", 1) in board
    for out in (page, levels, empty, missing, board):
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


# -- the person at the keyboard, in every language ------------------------------------


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_person_s_own_sentences_are_in_the_second_person(code: str, tmp_path: Path) -> None:
    from domeng.account import describe
    from domeng.terminal.render import full_stop

    args = ["play", "--lang", code, "--seed", "11", "--until", "rounds=1", "--pause", "0"]
    result = CliRunner().invoke(main, args, input=ANSWERS, env={"DOMENG_DATA_DIR": str(tmp_path)})
    assert result.exit_code == 0, result.output
    out = result.output
    recorded = load_recorded_game(next((tmp_path / "games").glob("*.json")))
    w = words(code)
    names = [w("play.default.name"), *recorded.players[1:]]
    mine = 0
    for e in recorded.game.rounds[0].events:
        told = describe(e, names, w=w, you=0)
        if told == describe(e, ["Andi", *names[1:]], w=w):
            continue  # not about the person
        mine += 1
        assert full_stop(told, w) in out, (code, told)
        named = describe(e, names, w=w)  # the default name as a third person
        if named != told:  # ("Anda memainkan" is both in Indonesian)
            assert full_stop(named, w) not in out, (code, named)
    assert mine >= 3  # the person's plays, passes and stones were told


def _say(code: str, *args: str) -> str:
    result = CliRunner().invoke(main, ["--lang", code, *args], prog_name="domeng")
    return result.output


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_click_s_words_and_the_argument_names_are_in_the_language(code: str) -> None:
    w = words(code)
    required = _say(code, "sim", "--help")
    assert "[required]" not in required and f"[{w('click.required')}]" in required
    integer = _say(code, "play", "--seed", "abc")
    assert "integer" not in integer and w("type.integer") in integer
    pause = _say(code, "play", "--pause", "x")
    assert "float" not in pause and w("type.float range") in pause
    missing = _say(code, "replay")
    assert "RECORD" not in missing and w("meta.RECORD") in missing
    for command in ("replay", "review"):
        assert "RECORD" not in _say(code, command, "--help"), command
    assert "NAME" not in _say(code, "stats", "--help")
    for shown in (required, integer, pause, missing):
        assert english_left(shown, code) == set(), shown


@pytest.mark.parametrize("code", LANGUAGES)
def test_a_missing_argument_or_option_is_said_in_the_language_s_order(code: str) -> None:
    """Click glued its words before the name and a full stop after ("Eksik argüman
    'KAYIT'.", "तर्क नहीं दिया गया 'रिकॉर्ड'."): the sentence is the language's own."""
    w = words(code)
    record = f"'{w('meta.RECORD')}'"
    said = {
        "argument": _say(code, "replay").strip().splitlines()[-1],
        "option": _say(code, "sim").strip().splitlines()[-1],
    }
    for kind, hint in (("argument", record), ("option", "'--players'")):
        assert said[kind] == w("click.error", message=w(f"cli.missing.{kind}", hint=hint))


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_sim_s_player_errors_are_in_the_language(code: str) -> None:
    for players in ("x,basic,basic,basic,basic", "basic,basic"):
        out = _say(code, "sim", "--players", players, "--rounds", "5")
        said = out.replace("--players", " ").replace("basic", " ")
        assert "Error" not in said and "player" not in said, out
        assert words(code)("click.error", message="").strip() in out
        assert english_left(said, code) == set(), out


@pytest.mark.parametrize("code", LANGUAGES)
def test_why_a_port_cannot_be_listened_on_is_in_the_language(code: str) -> None:
    import errno
    import socket

    from domeng.commands.serve import os_words

    previous = current()
    set_language(code)
    try:
        said = {
            number: os_words(OSError(number, "English words of the system"))
            for number in (errno.EADDRINUSE, errno.EACCES, errno.EADDRNOTAVAIL)
        }
        unknown = os_words(socket.gaierror(socket.EAI_NONAME, "Name or service not known"))
        other = os_words(OSError(errno.EIO, "I/O error"))
    finally:
        set_language(previous.code)
    assert said[errno.EADDRINUSE] == words(code)("serve.why.in_use")
    assert said[errno.EACCES] == words(code)("serve.why.denied")
    assert said[errno.EADDRNOTAVAIL] == words(code)("serve.why.not_here")
    assert unknown == words(code)("serve.why.unknown_host")
    assert other == "I/O error"  # a rarer reason: the system's own words
    if code != "en":
        assert english_left(" ".join([*said.values(), unknown]), code) == set()


@pytest.mark.parametrize(("code", "sign"), [("en", "."), ("hi", "."), ("id", ","), ("tr", ",")])
def test_numbers_have_the_language_s_decimal_sign(code: str, sign: str) -> None:
    w = words(code)
    assert w.number(1.2, 3) == f"1{sign}200"
    assert w.number(-0.25, 2, sign=True) == f"-0{sign}25"
    assert w.number(0.25, 2, sign=True) == f"+0{sign}25"
    assert w.number(-0.0001, 2, sign=True) in (f"+0{sign}00", f"-0{sign}00")
    args = ["sim", "--players", "basic,random,random,random,random", "--rounds", "10"]
    table = _say(code, *args, "--workers", "1")
    # fractions alone (0.025, -0.225): a count of moves a second may be grouped (1,234)
    figures = re.findall(r"(?<![\d.,])-?0[.,]\d{3}\b", table)
    assert figures and all(sign in f for f in figures), table


@pytest.mark.parametrize("code", ["id", "pt", "nl", "tr"])
def test_the_review_and_the_rating_use_the_decimal_comma(
    code: str, reviewed: tuple[RecordedGame, list[Decision]], played: Path
) -> None:
    recorded, found = reviewed
    previous = current()
    try:
        set_language(code)
        text = tell_review(recorded, 2, "expert", found)
    finally:
        set_language(previous.code)
    assert re.search(r"[+-]\d+,\d\d", text), text
    # every figure, signed or not (the luck-and-skill line had "0.14" and "-0.14")
    assert not re.search(r"\d\.\d", text), text
    page = CliRunner().invoke(
        main, ["--lang", code, "stats", "Andi"], env={"DOMENG_DATA_DIR": str(played)}
    )
    assert re.search(r"\d+,\d+ ± \d+,\d+", page.output), page.output


# -- one word for one thing ------------------------------------------------------------


def _texts(code: str, *groups: str) -> list[str]:
    whole = catalog(code)
    return [s for g in groups for s in _strings(whole.get(g, []))]


def _keyed(code: str, group: str) -> list[tuple[str, str]]:
    """Each text of ``group`` with its key, placeholders kept (each form of a count on
    its own)."""
    out: list[tuple[str, str]] = []
    for key, value in dict(catalog(code)[group]).items():  # type: ignore[call-overload]
        forms = value.values() if isinstance(value, dict) else [value]
        out += [(key, text) for text in forms if isinstance(text, str)]
    return out


@pytest.mark.parametrize(("code", "other"), [("pt", "pedra"), ("id", "batu"), ("hi", "पत्थर")])
def test_a_tile_is_said_one_way(code: str, other: str) -> None:
    """A tile is "peça", "kartu", "गोटी" everywhere: the tournaments' help had "as mesmas
    pedras" and "memegang batu", which read as stones."""
    for text in _texts(code, *catalog(code)):
        assert not re.search(rf"\b{other}", text, re.IGNORECASE), text


def test_turkish_says_sira_for_the_line() -> None:
    # the line is "sıra" in the account, the board and the terminal: the tracker, the
    # coach and a refusal said "dizi"
    for text in _texts("tr", *catalog("tr")):
        if "JSON" not in text:  # an escape sequence of a broken record is a "dizi"
            assert "dizi" not in text.lower(), text


def test_hindi_says_katar_for_the_line_and_ank_for_pips() -> None:
    # the line is कतार and a tile's pips अंक, as the terminal and the board say them:
    # the coach said लाइन and बिंदु, a refusal पंक्ति (a line of text stays a पंक्ति)
    for text in _texts("hi", *catalog("hi")):
        assert "लाइन" not in text and "बिंदु" not in text, text
        if "सिरा" in text or "सिरे" in text:
            assert "पंक्ति" not in text, text


def test_turkish_names_own_through_oyuncusu() -> None:
    """A name takes no suffix by hand ("Andi'nin", "Daeng'in" differ): the owner is
    "{who} oyuncusunun ..."; "El 1: Andi kararları" lacked the genitive."""
    owned = re.compile(r"\{(who|name|seat)\} [a-zçğıöşü]+(ları|leri)\b")
    whole = catalog("tr")
    texts = [(k, v) for k, v in whole.items() if isinstance(v, str)]
    for group in (g for g, v in whole.items() if isinstance(v, dict)):
        texts += _keyed("tr", group)
    assert len(texts) > 500
    for key, text in texts:
        assert not owned.search(text), (key, text)


def test_hindi_says_title_one_way() -> None:
    # a CAMAT title is ख़िताब everywhere: the summary's, the terminal's and the
    # leaderboard's ("CAMAT उपाधियाँ" there) headings say the same thing
    for text in _texts("hi", *catalog("hi")):
        assert "उपाधि" not in text, text


def test_hindi_says_pass_and_round_one_way() -> None:
    # पास also means "near" and "has" (के पास): the game's PASS is written PASS
    shown = _texts("hi", "terminal", "terms", "rules", "coach")
    for text in shown:
        assert "दौर" not in text, text  # a round is राउंड, as the browser says it
        assert re.sub(r"के पास|की पास", "", text).count("पास") == 0, text


def test_turkish_says_el_for_a_round() -> None:
    for text in _texts("tr", "terminal"):
        found = re.findall(r"(?<![\wçğıöşü])[Tt]ur[a-zçğıöşü]*", text)
        assert [f for f in found if f != "turuncu"] == [], text


def test_portuguese_is_brazilian() -> None:
    european = re.compile(
        r"\b(ficheiros?|regist[oa]s?|ecrã|utilizador\w*|telemóve\w*|equipa|está a|estão a"
        r"|a pensar|ronda|premir|prima|carregue)\b",
        re.IGNORECASE,
    )
    for text in _strings(catalog("pt")):
        assert not european.search(text), text


def test_an_amount_of_stones_is_said_stones() -> None:
    """The coach's and the review's amounts are the game's STONES, never an everyday word:
    "taş" in Turkish and "stenen" in Dutch are the tiles ("kayıp 0,14 taş" read as
    tiles lost)."""
    everyday = {"stones", "batu", "taş", "pedras", "stenen", "पत्थर", "पत्थरों"}
    unit = re.compile(r"\{(?:stones|loss|received)\} (\S+)")
    for code in LANGUAGES:
        said = 0
        for key, text in [
            *_keyed(code, "coach"),
            *((k, v) for k, v in _keyed(code, "terminal") if k.startswith("review.")),
        ]:
            for word in unit.findall(text):
                assert word.strip(".,;:()") not in everyday, (code, key, text)
                said += word.startswith("STONES")
        assert said >= 4, code


def test_no_text_hedges_a_plural() -> None:
    """'worker(s)', 'werkproces(sen)', 'processo(s)': a count is said in its form (the
    sim's footer counts its workers with w.count)."""
    hedge = re.compile(r"[^\W\d_]\((s|sen|es|en|n|e)\)")
    for code in LANGUAGES:
        for text in _texts(code, *catalog(code)):
            assert not hedge.search(text), (code, text)


@pytest.mark.parametrize(("code", "one"), [("nl", "1 werkproces ("), ("hi", "1 प्रक्रिया पर")])
def test_the_sim_counts_its_workers(code: str, one: str) -> None:
    args = ["--lang", code, "sim", "--players", "basic,random,random,random,random"]
    result = CliRunner().invoke(main, [*args, "--rounds", "5", "--workers", "1"])
    assert result.exit_code == 0, result.output
    assert one in result.output, result.output
