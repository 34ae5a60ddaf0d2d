"""Every language has every message: the terminal's group of the catalogs, the help of
every command and option, click's own words; and the language is chosen as the issue
says (--lang, else DOMENG_LANG, else the system's locale, else English)."""

from __future__ import annotations

import inspect
import re
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

import domeng.i18n.clickwords as clickwords
from domeng.bots.coach import COACH_LEVEL
from domeng.cli import main
from domeng.i18n import GROUP, LANGUAGES, BadLanguage, catalog, choose, from_name, words
from domeng.i18n.helptexts import help_keys
from domeng.server.limits import SPECTATORS_PER_ADDRESS

HOLE = re.compile(r"\{[\w!]+\}|%\(\w+\)s")


def _group(code: str) -> dict[str, object]:
    group = catalog(code)[GROUP]
    assert isinstance(group, dict)
    return group


def _holes(value: object) -> list[set[str]]:
    if isinstance(value, str):
        return [set(HOLE.findall(value))]
    assert isinstance(value, dict), value
    return [set(HOLE.findall(v)) for v in value.values()]


@pytest.mark.parametrize("code", LANGUAGES[1:])
def test_every_language_has_every_terminal_message_with_its_placeholders(code: str) -> None:
    en, other = _group("en"), _group(code)
    assert sorted(set(en) - set(other)) == [], "missing"
    assert sorted(set(other) - set(en)) == [], "unknown"
    for key, value in en.items():
        theirs = other[key]
        assert type(theirs) is type(value), key
        if isinstance(value, str):
            assert isinstance(theirs, str)
            assert _holes(theirs) == _holes(value), key
        else:
            assert isinstance(value, dict) and isinstance(theirs, dict)
            assert "other" in theirs, key  # the form every CLDR language has
            # each form has the placeholders of some English form ({n} may be written out)
            allowed = set().union(*_holes(value))
            for form, text in theirs.items():
                assert form in ("zero", "one", "two", "few", "many", "other"), (key, form)
                assert set(HOLE.findall(text)) <= allowed, (key, form)


@pytest.mark.parametrize("code", LANGUAGES)
def test_every_plural_form_the_rules_pick_exists(code: str) -> None:
    w = words(code)
    for key, value in _group(code).items():
        if isinstance(value, dict):
            for n in (0, 1, 2, 5, 11, 21, 101):
                assert w.count(key, n)  # the form, or "other"


def test_no_terminal_key_hides_a_browser_key() -> None:
    for code in LANGUAGES:
        whole = catalog(code)
        assert sorted(set(_group(code)) & set(whole)) == [], code
        # nor a browser key a group's text, read as "<group>.<key>" (coach.reason.ceki)
        grouped = {
            f"{name}.{key}"
            for name, texts in whole.items()
            if name not in (GROUP, "terms") and isinstance(texts, dict)
            for key in texts
        }
        assert sorted(grouped & (set(_group(code)) | set(whole))) == [], code
        w = words(code)
        assert w("coach.reason.camat") == whole["coach"]["reason.camat"]  # type: ignore[index]


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_coach_s_reasons_are_written_once(code: str) -> None:
    # the browser's hint and review and `domeng review` say the same coach.reason.<key>
    from domeng.bots.reasons import KEYS

    coach = catalog(code)["coach"]
    english = catalog("en")["coach"]
    assert isinstance(coach, dict) and isinstance(english, dict)
    w = words(code)
    for key in KEYS:
        text = coach[f"reason.{key}"]
        assert _holes(text) == _holes(english[f"reason.{key}"]), key
        assert w.has(f"coach.reason.{key}"), key
    reasons = {coach[f"reason.{key}"] for key in KEYS}
    assert sorted(k for k, v in _group(code).items() if isinstance(v, str) and v in reasons) == []
    assert [k for k in _group(code) if k.startswith("review.reason.")] == []


def test_every_command_and_option_has_its_help_in_every_language() -> None:
    keys = help_keys(main)
    assert {"cli.help", "play.help", "play.opt.seed", "serve.opt.db", "cli.opt.lang"} <= set(keys)
    en = _group("en")
    for key, english in keys.items():
        assert en.get(key) == english, f"en.json's {key} is not the command's own English"
    for code in LANGUAGES[1:]:
        assert sorted(k for k in keys if k not in _group(code)) == [], code


def _click_source() -> str:
    root = Path(click.__file__).parent
    return "\n".join(p.read_text(encoding="utf-8") for p in sorted(root.glob("*.py")))


def test_click_keys_are_click_s_own_texts() -> None:
    source = _click_source()
    for key, value in _group("en").items():
        if key.startswith(clickwords.PREFIX):
            for text in [value] if isinstance(value, str) else list(value.values()):  # type: ignore[union-attr]
                assert repr(text)[1:-1].replace('"', "") in source.replace('"', ""), key


def test_every_click_module_translates_through_domeng() -> None:
    import gettext

    clickwords.install()
    modules = clickwords.click_modules()
    assert "click.core" in modules and "click.formatting" in modules
    for name in modules:
        module = sys.modules[name]
        assert getattr(module, "_", None) is not gettext.gettext, name
        assert getattr(module, "ngettext", None) is not gettext.ngettext, name


def test_the_language_is_lang_then_domeng_lang_then_the_system_then_english() -> None:
    env = {"DOMENG_LANG": "nl", "LANG": "tr_TR.UTF-8"}
    assert choose("id", env) == "id"
    assert choose(None, env) == "nl"
    assert choose(None, {"LANG": "tr_TR.UTF-8"}) == "tr"
    assert choose(None, {"LANGUAGE": "fr:pt_BR", "LANG": "en_US.UTF-8"}) == "pt"
    assert choose(None, {"LC_ALL": "hi_IN.UTF-8", "LANG": "id_ID.UTF-8"}) == "hi"
    assert choose(None, {"LANG": "fr_FR.UTF-8"}) == "en"
    assert choose(None, {"LANG": "C.UTF-8"}) == "en"
    assert choose(None, {}) == "en"
    assert from_name("pt-BR") == "pt" and from_name("id_ID") == "id" and from_name("xx") is None
    with pytest.raises(BadLanguage):
        choose("fr", env)
    with pytest.raises(BadLanguage):
        choose(None, {"DOMENG_LANG": "klingon"})


def _invoke(args: list[str], env: dict[str, str] | None = None) -> click.testing.Result:
    return CliRunner().invoke(main, args, env=env)


@pytest.mark.parametrize("code", LANGUAGES)
def test_help_and_click_s_words_speak_the_language(code: str) -> None:
    w = words(code)
    out = _invoke(["--lang", code, "--help"]).output
    assert w("click.usage") in out and w("click.options") in out and w("click.commands") in out
    assert inspect.cleandoc(w("cli.help")).splitlines()[0] in out
    play = _invoke(["play", "--help", "--lang", code]).output
    assert w("click.usage") in play
    assert w("play.opt.name") in play
    assert w("click.help") in play
    if code != "en":
        for english in ("Usage:", "Options", "Show this message and exit.", "Your name."):
            assert english not in out + play, (code, english)


def test_domeng_lang_and_a_bad_language() -> None:
    out = _invoke(["--help"], env={"DOMENG_LANG": "id"}).output
    assert "Cara pakai:" in out
    bad = _invoke(["--lang", "klingon", "play"])
    assert bad.exit_code == 2
    assert "--lang 'klingon': Domeng speaks en, id, tr, pt, nl, hi" in bad.output
    env_bad = _invoke(["play", "--help"], env={"DOMENG_LANG": "klingon"})
    assert env_bad.exit_code == 2
    assert "DOMENG_LANG 'klingon'" in env_bad.output
    said = _invoke(["--lang", "nl", "play", "--seed", "x"])
    assert said.exit_code == 2 and "Ongeldige waarde voor '--seed'" in said.output


def test_domeng_alone_starts_the_game_in_the_browser(monkeypatch: pytest.MonkeyPatch) -> None:
    called: list[dict[str, object]] = []
    serve = main.commands["serve"]
    monkeypatch.setattr(serve, "callback", lambda **kw: called.append(kw))
    result = _invoke([])
    assert result.exit_code == 0, result.output
    defaults = {"host": "127.0.0.1", "port": 8080, "db": None, "no_browser": False}
    more = {"allow_hosts": (), "trusted_proxies": (), "calibration_file": None}
    assert called == [
        {
            **defaults,
            **more,
            "spectators_per_address": SPECTATORS_PER_ADDRESS,
            "club": False,
            "coach_level": COACH_LEVEL,
            "peer": None,
        }
    ]


@pytest.mark.parametrize(
    "name", ["domeng.i18n.catalog", "domeng.i18n.choose", "domeng.cli", "domeng.terminal.render"]
)
def test_doctests(name: str) -> None:
    import doctest
    import importlib

    failures, tried = doctest.testmod(importlib.import_module(name))
    assert tried > 0 and failures == 0


def test_no_language_file_holds_a_key_twice() -> None:
    # json.load keeps the last of two equal keys without a word: a merge that kept both
    # would leave a text no one reads
    import json as _json
    from pathlib import Path as _Path

    folder = _Path(__file__).parents[2] / "src" / "domeng" / "web" / "i18n"
    for path in sorted(folder.glob("*.json")):
        twice: list[str] = []

        def pairs(items: list[tuple[str, object]], twice: list[str] = twice) -> dict[str, object]:
            keys = [k for k, _ in items]
            twice.extend(k for k in set(keys) if keys.count(k) > 1)
            return dict(items)

        _json.loads(path.read_text(encoding="utf-8"), object_pairs_hook=pairs)
        assert twice == [], (path.name, twice)


@pytest.mark.parametrize("code", LANGUAGES)
def test_the_coach_s_total_counts_its_decisions_in_their_form(code: str) -> None:
    # "0.14 STONES lost over 1 decisions": the browser's total was one text for every
    # count (web/js/coach.js picks total_one or total_other by the plural rules)
    coach = catalog(code)["coach"]
    assert isinstance(coach, dict)
    assert "total" not in coach
    for form in ("one", "other"):
        assert _holes(coach[f"total_{form}"]) == _holes(catalog("en")["coach"]["total_other"])  # type: ignore[index]
    if code == "en":
        assert " 1 decision (" in words("en")("coach.total_one", n=1)
        assert " 2 decisions (" in words("en")("coach.total_other", n=2)
