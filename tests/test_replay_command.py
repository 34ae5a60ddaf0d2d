"""`domeng replay`: the --json document, the telling for people, input edge cases,
and the doctests of the account and record modules."""

from __future__ import annotations

import doctest
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

import domeng.account
import domeng.engine.record
import domeng.terminal.session
from domeng.cli import main
from domeng.commands.replay import format_summary, tell
from domeng.engine import Game
from domeng.engine.record import load_record, replay_summary

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


def _runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout, whatever the click version."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 always keeps them apart


def _run(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    result = _runner().invoke(main, ["replay", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("module", [domeng.account, domeng.engine.record, domeng.terminal.session])
def test_doctests(module: object) -> None:
    failures, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried > 0 and failures == 0


def test_json_is_replay_summary() -> None:
    path = EXAMPLES / "08-table-runs-out.json"
    code, out, err = _run([str(path), "--json"])
    assert (code, err) == (0, "")
    game, _ = load_record(path)
    assert json.loads(out) == replay_summary(game)
    assert out == format_summary(replay_summary(game)) + "\n"


def test_format_summary_lays_out_like_record_md() -> None:
    game, _ = load_record(EXAMPLES / "01-first-cappu.json")
    text = format_summary(replay_summary(game))
    assert '      "passes": [\n        {"seat": 2, "passebunge": true, "stones": 2},' in text
    assert '      "stones": [1, 0, 8, 5, 3],' in text
    assert '      "manguno": null,' in text
    assert text.endswith('  "next_starter": 1\n}')
    assert format_summary({"rounds": [], "next_starter": None}) == (
        '{\n  "rounds": [],\n  "next_starter": null\n}'
    )


def test_reads_standard_input() -> None:
    data = (EXAMPLES / "02-ceki.json").read_bytes()
    code, out, err = _run(["-", "--json"], stdin=data)
    assert (code, err) == (0, "")
    assert out == (EXAMPLES / "02-ceki.out.json").read_text("utf-8")


def test_telling_covers_the_round() -> None:
    code, out, err = _run([str(EXAMPLES / "01-first-cappu.json")])
    assert (code, err) == (0, "")
    # the deal, the line as it grew, PASSEBUNGE, the end, stones and standings
    assert "Besse   6-6 6-4 6-3 5-5 2-1" in out
    assert "unused  6-0 4-0 3-0" in out
    assert "line: [6|6][6|1][1|4]" in out
    assert "Cicci cannot play — PASSEBUNGE: 2 STONES.\n" in out
    assert "Cicci receives 2 STONES from the table — PASSEBUNGE." in out
    assert "Emba cannot play — PASS: 1 STONE.\n" in out
    assert "Besse has played every tile: FIRST CAPPU, and wins the round. CUCUQ: Andi." in out
    assert "Andi receives 1 STONE from the table — CUCUQ of a FIRST CAPPU." in out
    assert "After round 1: STONES: Andi 1, Besse 0, Cicci 8, Daeng 5, Emba 3; table 8" in out
    assert "Standings" in out and "Next to start: Besse." in out
    assert "\x1b[" not in out


def test_telling_of_a_block_a_camat_and_an_unfinished_round(tmp_path: Path) -> None:
    code, out, _ = _run([str(EXAMPLES / "10-camat.json")])
    assert code == 0
    assert "Emba becomes CAMAT (titles: 1); all 25 STONES go back to the table." in out
    assert "Emba starts as CAMAT, with any tile." in out
    assert "Andi is MANGUNO, no MATTIKKENG" in out
    assert "Emba      4 STONES  1 CAMAT title  CAMAT" in out
    doc = json.loads((EXAMPLES / "10-camat.json").read_text("utf-8"))
    doc["rounds"][-1]["plays"] = doc["rounds"][-1]["plays"][:3]
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(doc), "utf-8")
    code, out, _ = _run([str(path)])
    assert code == 0
    assert "The round is not finished:" in out and "is in turn." in out
    assert "The last round is not finished." in out
    code, out, _ = _run([str(path), "--json"])
    assert json.loads(out)["next_starter"] is None


def test_an_ending_that_moves_no_stones_is_told_before_the_camat_election(
    unpaid_ending: Game,
) -> None:
    # Seed 0, random moves: round 25 ends with a FIRST CAPPU on an empty table whose
    # CUCUQ award nobody can pay, and the FIRST CAPPU is elected. "No stones move"
    # after the election's "all 25 stones go back to the table" read as a contradiction.
    game = unpaid_ending
    text = tell(game, [f"P{s}" for s in range(5)])
    told = text[text.index("Round 25") :]
    nothing = told.index("P3 was owed 1 STONE for the ending and received 0 STONES: the table")
    assert nothing < told.index("becomes CAMAT")
    assert told.count("was owed") == 1


def test_a_game_saved_by_the_terminal_tells_you_in_the_second_person() -> None:
    # the terminal saves its player as "You" at seat 0; in 06 seat 0 starts, in 02 Besse
    for example in ("06-mattikkeng-equal.json", "02-ceki.json"):
        game, _ = load_record(EXAMPLES / example)
        text = tell(game, ["You", "Besse", "Cicci", "Daeng", "Emba"])
        assert "You play" in text
        wrong = ("plays", "opens", "starts", "receives", "has", "is", "wins", "becomes")
        assert [w for w in wrong if f"You {w} " in text] == []
    assert "You start (the highest LEMPA dealt, 6-6) and open with 6-6." in tell(
        load_record(EXAMPLES / "06-mattikkeng-equal.json")[0], ["You", "B", "C", "D", "E"]
    )


def test_tell_is_a_pure_function() -> None:
    game, players = load_record(EXAMPLES / "05-mattikkeng-one.json")
    text = tell(game, players)
    assert text == tell(game, players)
    assert "MATTIKKENG: Daeng. Daeng wins the round." in text
    assert "Daeng   3-1 3-0 2-0 (9 pips)" in text  # the unplayed tiles
    assert "Andi receives 5 STONES from the table — MANGUNO beaten by MATTIKKENG." in text


def test_usage_errors_are_click_errors() -> None:
    code, out, err = _run([])
    assert code == 2 and out == "" and "Usage" in err


@pytest.mark.parametrize("args", [["--json"], []], ids=["json", "text"])
def test_a_real_process_exits_2_with_one_line(tmp_path: Path, args: list[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_bytes(b'{"format": "domeng.record/1", "rounds": [{"hands": [], "unused": []}]}')
    proc = subprocess.run(
        [sys.executable, "-m", "domeng", "replay", str(bad), *args],
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == b""
    assert proc.stderr.decode().splitlines() == [
        "domeng replay: round 1: a deal has 5 hands, not 0"
    ]


def test_a_real_process_prints_the_json(tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "domeng", "replay", str(EXAMPLES / "04-manguno.json"), "--json"],
        capture_output=True,
        check=False,
    )
    assert proc.returncode == 0 and proc.stderr == b""
    assert proc.stdout.decode() == (EXAMPLES / "04-manguno.out.json").read_text("utf-8")


def _round_section(text: str, number: int) -> str:
    start = text.index(f"\nRound {number}\n")
    end = text.find(f"\nRound {number + 1}\n", start + 1)
    return text[start : end if end >= 0 else len(text)]


def test_who_starts_is_told_from_before_the_round() -> None:
    # A round whose starter (the winner of the round before, no CAMAT yet) is elected
    # CAMAT at its end still starts "as the winner", not "as CAMAT"; and a CAMAT who
    # opens a round starts "as CAMAT".
    found = set()
    for seed in range(200):
        rng = random.Random(seed)
        game = Game()
        for _ in range(40):
            game.deal(rng)
            while not game.round.finished:
                game.play(rng.choice(game.legal_moves()))
        text = tell(game, ["A0", "B1", "C2", "D3", "E4"])
        for before, r in zip(game.rounds, game.rounds[1:], strict=False):
            section = _round_section(text, r.number)
            who = ["A0", "B1", "C2", "D3", "E4"][r.starter]
            if before.camat is None:
                assert f"{who} starts as the winner of round {before.number}" in section
                if r.camat_elected:
                    found.add("winner elected")
            else:
                assert f"{who} starts as CAMAT" in section
                found.add("camat")
        if found == {"winner elected", "camat"}:
            break
    assert found == {"winner elected", "camat"}


# -- stand-ins and the standings ------------------------------------------------------


def _stand_in_record(tmp_path: Path, players: list[str], *plays: int) -> Path:
    """02-ceki with these plays (1-based) made by a computer."""
    doc = json.loads((EXAMPLES / "02-ceki.json").read_text("utf-8"))
    doc["players"] = players
    for k in plays:
        doc["rounds"][0]["plays"][k - 1]["stand_in"] = True
    path = tmp_path / "stand-in.json"
    path.write_text(json.dumps(doc), "utf-8")
    return path


def test_a_stand_in_s_play_is_told_as_a_computer_s_for_the_person(tmp_path: Path) -> None:
    # Cicci's play 2 (here she is Guest) and Besse's play 5 (the 1-0).
    path = _stand_in_record(tmp_path, ["Andi", "Besse", "Guest", "Daeng", "Emba"], 2, 5)
    code, out, err = _run([str(path)])
    assert (code, err) == (0, "")
    assert (
        "   2. A computer plays for Guest: [6|4] at the right end; the line shows 6 and 4.\n" in out
    )
    assert (
        "   5. A computer plays for Besse: [1|0] at the right end; the line shows 6 and 0.\n" in out
    )
    assert out.count("A computer plays for") == 2
    assert "   6. Guest plays [0|6] at the right end" in out  # her own again
    # --json is the same document, marks or not.
    code, marked, _ = _run([str(path), "--json"])
    assert code == 0
    assert marked == (EXAMPLES / "02-ceki.out.json").read_text("utf-8")


def test_tell_takes_the_marks_beside_the_game() -> None:
    game, players = load_record(EXAMPLES / "02-ceki.json")
    plain = tell(game, players)
    marked = tell(game, players, [frozenset({0})])
    assert "   1. A computer plays for Besse and opens with the LEMPA [6|6]: the line shows" in (
        marked
    )
    assert plain.replace("   1. Besse opens", "   1. A computer plays for Besse and opens") == (
        marked
    )
    assert tell(game, players, ()) == plain == tell(game, players, [frozenset()])


def test_a_stand_in_for_you_is_told_in_the_second_person(tmp_path: Path) -> None:
    # The terminal's player is "You" at seat 0; play 4 is seat 0's 5-1.
    path = _stand_in_record(tmp_path, ["You", "Besse", "Cicci", "Daeng", "Emba"], 4)
    _, out, _ = _run([str(path)])
    assert "   4. A computer plays for you: [5|1] at the right end; the line shows 6" in out
    assert "for You" not in out


def _tail(text: str) -> str:
    return text[text.index("\nStandings") :]


def test_the_telling_ends_with_the_standings_so_far(tmp_path: Path) -> None:
    _, out, _ = _run([str(EXAMPLES / "05-mattikkeng-one.json")])
    tail = _tail(out)
    # Besse and Daeng: no titles, 1 stone, 1 received each: they share first place.
    assert tail.startswith("\nStandings after 1 round\n=======================\n")
    assert (
        "  1. Besse      1 STONE  no CAMAT titles\n  1. Daeng      1 STONE  no CAMAT titles\n"
        in (tail)
    )
    assert "  3. Cicci     2 STONES" in tail and "  3. Emba      2 STONES" in tail
    assert "  5. Andi      6 STONES" in tail
    assert "Besse and Daeng share the lead: no CAMAT titles, 1 STONE and 1 received each." in (tail)
    assert "          STONES received  Rounds won  CEKI  POLLO  MANGUNO  MATTIKKENG\n" in tail
    assert "  Daeng                 1           1     0      0        0           1\n" in tail
    assert "  Andi                  6           0     0      0        1           0\n" in tail
    assert "wins the game" not in out and "Final" not in out  # a record may go on


def test_the_standings_of_an_unfinished_game(tmp_path: Path) -> None:
    doc = json.loads((EXAMPLES / "10-camat.json").read_text("utf-8"))
    doc["rounds"][-1]["plays"] = doc["rounds"][-1]["plays"][:3]
    path = tmp_path / "unfinished.json"
    path.write_text(json.dumps(doc), "utf-8")
    _, out, _ = _run([str(path)])
    assert "\nStandings after 3 rounds and 3 plays of round 4\n" in out
    doc["rounds"] = doc["rounds"][:1]
    doc["rounds"][0]["plays"] = doc["rounds"][0]["plays"][:1]
    path.write_text(json.dumps(doc), "utf-8")
    _, out, _ = _run([str(path)])
    assert "\nStandings after 1 play of round 1\n" in out
    doc["rounds"] = []
    path.write_text(json.dumps(doc), "utf-8")
    code, out, _ = _run([str(path)])
    assert code == 0
    assert "\nStandings (no round has been dealt)\n" in out
    assert "leads" not in out and "Over the game" not in out


def test_the_lead_is_told_by_what_decides_it() -> None:
    names = ["Andi", "Besse", "Cicci", "Daeng", "Emba"]
    for example, sentence in (
        ("10-camat", "Emba leads with 1 CAMAT title."),
        ("08-table-runs-out", "Daeng leads with no CAMAT titles and the fewest STONES (1)."),
        ("04-manguno", "Besse, Cicci and Daeng share the lead: no CAMAT titles, 1 STONE"),
    ):
        game, _ = load_record(EXAMPLES / f"{example}.json")
        assert sentence in tell(game, names), example
    # 06: Andi (seat 0) and Daeng lead together; the terminal's "You" is at seat 0.
    game, _ = load_record(EXAMPLES / "06-mattikkeng-equal.json")
    you = tell(game, ["You", "Besse", "Cicci", "Daeng", "Emba"])
    assert "\nYou and Daeng share the lead: no CAMAT titles, 1 STONE and 1 received each." in you
    andi = tell(game, ["Andi", "Besse", "Cicci", "Daeng", "Emba"])
    assert "\nAndi and Daeng share the lead" in andi


def test_a_terminal_game_saved_in_any_language_tells_seat_0_as_you() -> None:
    from domeng.i18n import LANGUAGES, current, set_language, words

    game, _ = load_record(EXAMPLES / "06-mattikkeng-equal.json")  # seat 0 starts
    previous = current()
    try:
        for code in LANGUAGES:
            w = words(code)
            set_language(code)
            names = [w("play.default.name"), "Besse", "Cicci", "Daeng", "Emba"]
            text = tell(game, names)
            assert w("replay.you_start_lempa", tile="6-6") in text, code
            named = tell(game, ["Andi", *names[1:]])
            assert w("replay.starts_lempa", who="Andi", tile="6-6") in named, code
    finally:
        set_language(previous.code)
