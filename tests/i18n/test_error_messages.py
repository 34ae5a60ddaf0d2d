"""A broken record and a failed player are said in every language: each RecordError,
IllegalMoveError and PlayerError carries a key of the catalogs' terminal group (with
the English exactly the engine's) and the values of its placeholders, and `domeng
--lang id replay broken.json` (play --resume, sim) prints no English sentence."""

from __future__ import annotations

import ast
import copy
import importlib.util
import json
import pickle
import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from click.testing import CliRunner

import domeng.bots as bots
from domeng.bots.base import Player
from domeng.cli import main
from domeng.engine import End, Game, IllegalMoveError, Move, SeatView, move
from domeng.engine.keyed import PLACEHOLDER
from domeng.engine.moves import ILLEGAL_REASONS
from domeng.engine.record import REASONS, WHERE, RecordError, game_from_record, loads_record
from domeng.i18n import GROUP, LANGUAGES, catalog, words
from domeng.i18n.errors import say_error
from domeng.sim import PlayerError
from domeng.sim.plan import Task
from domeng.sim.runner import PLAYER_REASONS, play_game

from .test_terminal_speaks import english_left

TESTS = Path(__file__).resolve().parents[1]
SRC = TESTS.parent / "src" / "domeng"


def _load(path: Path) -> ModuleType:
    """A test module of another folder (the tests are no package: no import reaches it)."""
    spec = importlib.util.spec_from_file_location(f"_errors_{path.stem}", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# every invalid record of record.md, as the engine's tests make them
_cases = _load(TESTS / "engine" / "test_record_errors.py")
BASE: dict[str, Any] = _cases.BASE
CASES: list[tuple[str, Callable[[dict[str, Any]], object], int | None, int | None, str]] = (
    _cases.CASES
)
ENGLISH = {**WHERE, **REASONS, **ILLEGAL_REASONS, **PLAYER_REASONS}


def _group(code: str) -> dict[str, object]:
    group = catalog(code)[GROUP]
    assert isinstance(group, dict)
    return group


def _holes(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


# -- the keys and the catalogs ----------------------------------------------------------


def test_the_keys_have_their_own_prefix_and_en_json_has_the_engine_s_english() -> None:
    en = _group("en")
    for key, english in ENGLISH.items():
        assert key.startswith(("record.", "sim_player.")), key
        assert en.get(key) == english, f"en.json's {key} is not the code's English"


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_every_language_says_every_error_with_the_same_placeholders(code: str) -> None:
    group = _group(code)
    for key, english in ENGLISH.items():
        theirs = group.get(key)
        assert isinstance(theirs, str), (code, key)
        assert _holes(theirs) == _holes(english), (code, key)
        if _holes(english) != {"why"}:  # a text that is only the quoted error's is the same
            assert theirs != english, (code, key, "not translated")


def _calls(path: Path, name: str) -> list[ast.Call]:
    tree = ast.parse(path.read_text("utf-8"))
    return [
        node
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == name
    ]


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("engine/record.py", "RecordError"),
        ("engine/round.py", "IllegalMoveError"),
        ("sim/runner.py", "PlayerError"),
    ],
)
def test_every_error_raised_in_the_code_has_a_key(module: str, name: str) -> None:
    calls = _calls(SRC / module, name)
    assert calls, module
    for call in calls:
        assert not call.args, f"{module}:{call.lineno}: {name} with a text, not a key"
        keys = [k for k in call.keywords if k.arg == "key"]
        assert len(keys) == 1, f"{module}:{call.lineno}: {name} without key="
        value = keys[0].value
        if isinstance(value, ast.Constant):
            assert value.value in ENGLISH, f"{module}:{call.lineno}: unknown key {value.value}"


def test_the_engine_does_not_import_the_languages() -> None:
    code = (
        "import sys, domeng.engine, domeng.engine.record, domeng.sim.runner\n"
        "print(sorted(m for m in sys.modules if m.startswith('domeng.i18n')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
    for path in (SRC / "engine").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Import):
                assert not any("i18n" in a.name for a in node.names), path
            elif isinstance(node, ast.ImportFrom):
                assert "i18n" not in (node.module or ""), path


# -- the errors a broken record raises ------------------------------------------------


def _edit(change: Callable[[dict[str, Any]], object]) -> dict[str, Any]:
    doc = copy.deepcopy(BASE)
    change(doc)
    return doc


BAD_TEXTS = [
    "{",
    "",
    "{not json",
    "[1 2]",
    '{"a" 1}',
    '"abc',
    '"a\x01"',
    '"\\x"',
    '"\\u12"',
    "1 2",
    '{"format": "domeng.record/1", "format": "x"}',
    "[" * 100_000 + "]" * 100_000,
    "1" * 5000,
    "[1, 2]",
]


def _record_errors(tmp_path: Path) -> list[RecordError]:
    """One RecordError for each broken record of the tests, bad JSON and files too."""
    found: list[RecordError] = []
    for _name, change, *_ in CASES:
        with pytest.raises(RecordError) as info:
            game_from_record(_edit(change))
        found.append(info.value)
    for text in BAD_TEXTS:
        with pytest.raises(RecordError) as info:
            loads_record(text)
        found.append(info.value)
    with pytest.raises(RecordError) as info:
        loads_record(b"\xff\xfe\x00{")
    found.append(info.value)
    from domeng.engine.record import load_record

    for path in (tmp_path / "missing.json", tmp_path, tmp_path / "two\nlines.json"):
        with pytest.raises(RecordError) as info:
            load_record(path)
        found.append(info.value)
    with pytest.raises(RecordError) as info:  # a record that names another variant
        game_from_record({**BASE, "variants": {"block_passes": "maybe"}})
    found.append(info.value)
    return found


def test_every_record_error_has_a_key_whose_english_is_its_reason(tmp_path: Path) -> None:
    errors = _record_errors(tmp_path)
    en = words("en")
    keys = set()
    for e in errors:
        assert e.key in REASONS, e
        keys.add(e.key)
        assert _holes(REASONS[e.key]) <= set(e.values), e.key
        assert say_error(e, en) == str(e)
        for code in LANGUAGES:
            said = say_error(e, words(code))
            assert "\n" not in said
            assert not PLACEHOLDER.search(said.replace('{"tile": "6-4"}', "")), (code, said)
    # the JSON messages of the json module each have their own key (none said in English)
    assert "record.json_at" not in keys and "record.json" not in keys
    assert {"record.json.expecting_value", "record.json.bad_escape"} <= keys
    assert "record.json_number_too_long" in keys and "record.cannot_read_missing" in keys


def test_the_errors_keep_their_key_through_a_worker_process() -> None:
    e = RecordError(key="record.no_fit", tile="6-3", left=4, right=1, round=2, play=7)
    again = pickle.loads(pickle.dumps(e))
    assert (str(again), again.key, again.values, again.round, again.play) == (
        str(e),
        e.key,
        e.values,
        2,
        7,
    )
    illegal = IllegalMoveError(key="sim_player.why.not_held", seat=2, tile="6-6")
    where = {"game": 1, "rotation": 0, "round": 3}
    p = PlayerError(key="sim_player.illegal_left", name="'x'", tile="6-6", why=illegal, **where)
    back = pickle.loads(pickle.dumps(p))
    assert str(back) == str(p) and say_error(back, words("id")) == say_error(p, words("id"))


# -- through the command line -----------------------------------------------------------

QUOTED = re.compile(r"\"[^\"]*\"|'[^']*'|\{[^{}]*\}")


def english_in(text: str, code: str) -> set[str]:
    """The English words in ``text``, leaving out what the record itself wrote (quoted,
    or a JSON value) and the JSON literals true and false."""
    text = QUOTED.sub(" ", text).replace("true", " ").replace("false", " ")
    return english_left(text, code)


def _runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()


def test_the_check_finds_an_english_reason() -> None:
    assert english_in("domeng replay: round 1: a deal has 5 hands, not 4", "id") >= {"deal"}


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_replay_of_a_broken_record_says_no_english_sentence(code: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    runner = _runner()
    records = [json.dumps(_edit(change)) for _name, change, *_ in CASES] + BAD_TEXTS[:11]
    for text in records:
        path.write_text(text, "utf-8")
        result = runner.invoke(main, ["--lang", code, "replay", str(path)])
        assert result.exit_code == 2, result.output
        assert result.stdout == ""
        err = result.stderr
        assert err.count("\n") == 1, err
        assert english_in(err, code) == set(), err
    missing = runner.invoke(main, ["--lang", code, "replay", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and english_in(missing.stderr, code) == set(), missing.stderr


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_play_resume_of_a_broken_record_says_no_english_sentence(code: str, tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    change = {case[0]: case[1] for case in CASES}["tile that does not fit"]
    path.write_text(json.dumps(_edit(change)), "utf-8")
    result = CliRunner().invoke(
        main,
        ["--lang", code, "play", "--resume", str(path)],
        env={"DOMENG_DATA_DIR": str(tmp_path)},
    )
    assert result.exit_code == 1, result.output
    assert "5-5" in result.output
    assert english_in(result.output, code) == set(), result.output


# -- a player that fails -----------------------------------------------------------------


class _Broken(Player):
    """A player that goes wrong as ``how`` says: raise, return no Move, play illegally."""

    def __init__(self, how: str) -> None:
        self.how = how
        self.name = f"broken-{how}"

    def choose(self, view: SeatView) -> Move:
        if self.how == "raise":
            raise ZeroDivisionError("division by zero")
        if self.how == "none":
            return None  # type: ignore[return-value]
        legal = set(view.legal_moves)
        for t in range(28):
            for end in (End.LEFT, End.RIGHT):
                if move(t, end) not in legal:
                    return move(t, end)
        raise AssertionError("every move is legal")  # pragma: no cover


HOW = ["raise", "none", "illegal"]


@pytest.fixture
def broken_players(monkeypatch: pytest.MonkeyPatch) -> None:
    for how in HOW:
        monkeypatch.setitem(bots._FACTORIES, f"broken-{how}", lambda seed, how=how: _Broken(how))


@pytest.mark.usefixtures("broken_players")
@pytest.mark.parametrize("how", HOW)
def test_a_failed_player_has_a_key_and_is_said_in_every_language(how: str) -> None:
    task = Task(
        index=0,
        seed=3,
        game=0,
        rotation=0,
        deals=2,
        names=(f"broken-{how}", "random", "random", "random", "random"),
        variants=Game().variants,
        record_dir=None,
    )
    with pytest.raises(PlayerError) as info:
        play_game(task)
    e = info.value
    assert e.key in PLAYER_REASONS
    assert say_error(e, words("en")) == str(e)
    for code in LANGUAGES[1:]:
        said = say_error(e, words(code))
        assert not PLACEHOLDER.search(said), said
        words_only = said
        for value in e.values.values():  # the program's own: a repr, a class's name
            if isinstance(value, str):
                words_only = words_only.replace(value, " ")
        assert english_in(words_only, code) == set(), said


@pytest.mark.usefixtures("broken_players")
@pytest.mark.parametrize("code", ["id", "hi"])
def test_sim_with_a_failed_player_says_no_english_sentence(code: str) -> None:
    args = ["--lang", code, "sim", "--players", "broken-illegal,random,random,random,random"]
    result = CliRunner().invoke(main, [*args, "--rounds", "5", "--workers", "1"])
    assert result.exit_code == 1, result.output
    assert "broken-illegal" in result.output
    assert english_in(result.output.replace("broken-illegal", " "), code) == set(), result.output
