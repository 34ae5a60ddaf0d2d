"""`domeng review`: every example reviewed from every seat, the --json document, the
text, and a broken record failing with the record's error."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner

from domeng.bots.expert import Level
from domeng.bots.reasons import KEYS
from domeng.bots.review import (
    BLUNDER,
    CLEAR,
    MISTAKE,
    Decision,
    confirmed_mark,
    decisions,
    mark_of,
    needs_confirming,
    review_document,
    stones_received,
)
from domeng.cli import main
from domeng.engine import StonesMoved
from domeng.engine.record import load_recorded_game
from domeng.engine.tiles import parse_tile, tile_name

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("[0-9]*[0-9a-z].json"))
TINY = Level("review:test", 60, 30.0)


def _records() -> list[Path]:
    return [p for p in EXAMPLES if not p.name.endswith(".out.json")]


@cache
def _decisions(path: Path, seat: int) -> tuple[Decision, ...]:
    """The coach's decisions of ``seat`` in the example at ``path`` (at TINY): worked
    out once for the two tests that read them (the same seed each time, so the same
    decisions)."""
    return tuple(decisions(load_recorded_game(path), seat, TINY))


def _run(args: list[str], stdin: bytes | None = None) -> tuple[int, str, str]:
    try:
        runner = CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        runner = CliRunner()
    result = runner.invoke(main, ["review", *args], input=stdin)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.parametrize("path", _records(), ids=lambda p: p.stem)
def test_every_example_is_reviewed_from_every_seat(path: Path) -> None:
    recorded = load_recorded_game(path)
    for seat in range(5):
        found = list(_decisions(path, seat))
        doc = review_document(seat, found)
        assert doc["seat"] == seat
        for d, item in zip(found, doc["decisions"], strict=True):  # type: ignore[call-overload]
            r = recorded.game.rounds[d.round - 1]
            who, m = r.plays[d.index]
            assert who == seat
            assert item["played"] == {"tile": tile_name(m.tile), "end": m.end.word}
            assert len(item["moves"]) >= 2
            values = {(x["tile"], x["end"]): x["value"] for x in item["moves"]}
            played = values.get((tile_name(m.tile), m.end.word))
            if played is None:  # the engine lists the tile once (both ends the same)
                (played,) = [v for (t, _), v in values.items() if parse_tile(t) == m.tile]
            best = values[(item["best"]["tile"], item["best"]["end"])]
            assert best == max(values.values())
            assert item["loss"] == pytest.approx(best - played, abs=1e-9)
            assert item["loss"] >= 0
            # a marked move is judged twice, and the mark given from both judgements
            assert (d.again is not None) == needs_confirming(d.loss, d.gap_error)
            if d.again is None:
                assert item["mark"] == mark_of(item["loss"], item["loss_error"])
            else:
                assert item["mark"] == confirmed_mark((d.loss, d.gap_error), d.again)
            assert item["loss_error"] >= 0
            assert all(w["key"] in KEYS for w in item["reasons"])
            assert isinstance(item["hindsight"]["played"], float)
        assert doc["total_loss"] == pytest.approx(sum(d.loss for d in found), abs=1e-6)


def test_the_marks() -> None:
    assert mark_of(0.0) is None
    assert mark_of(MISTAKE - 0.01) is None
    assert mark_of(MISTAKE) == "mistake"
    assert mark_of(BLUNDER) == "blunder"
    # A loss is a mark only when, less two standard errors, it still passes the threshold.
    assert mark_of(MISTAKE, 0.01) == "close"
    assert mark_of(MISTAKE + 0.1, 0.049) == "mistake"
    assert mark_of(MISTAKE + 0.1, 0.051) == "close"
    assert mark_of(BLUNDER, 0.01) == "mistake"
    assert mark_of(BLUNDER + 0.2, 0.099) == "blunder"
    assert mark_of(BLUNDER + 0.2, 0.101) == "mistake"
    assert mark_of(BLUNDER + 0.2, 0.5) == "close"
    assert CLEAR == 2.0
    # Under the threshold there is no mark, however uncertain.
    assert mark_of(MISTAKE - 0.01, 1.0) is None
    assert mark_of(MISTAKE - 0.01, 0.0) is None


def test_a_mark_stays_only_when_a_second_judgement_marks_it_too() -> None:
    e = 0.125  # (exact in binary: the boundaries below are exact)
    # what one judgement marks is judged again; a close loss or none is not
    assert needs_confirming(MISTAKE + 2 * e, e)
    assert needs_confirming(BLUNDER + 2 * e, e)
    assert not needs_confirming(MISTAKE + 2 * e - 0.001, e)  # close
    assert not needs_confirming(MISTAKE - 0.01, 0.0)
    # both mark it: the milder of the two marks
    assert confirmed_mark((0.5, e), (0.5, e)) == "mistake"
    assert confirmed_mark((1.0, e), (1.0, e)) == "blunder"
    assert confirmed_mark((1.0, e), (0.5, e)) == "mistake"
    assert confirmed_mark((0.5, e), (1.0, e)) == "mistake"
    # the second does not mark it (close, or under the threshold): close
    assert confirmed_mark((0.5, e), (0.5 - 0.001, e)) == "close"
    assert confirmed_mark((1.0, e), (0.1, e)) == "close"
    # a first loss under the threshold has no mark, whatever the second says
    assert confirmed_mark((0.2, 0.0), (0.5, 0.0)) is None


def test_the_json_document_of_an_example() -> None:
    path = next(p for p in _records() if p.name.startswith("10-"))
    status, out, err = _run([str(path), "--seat", "0", "--level", "expert:fast", "--json"])
    assert status == 0, err
    doc = json.loads(out)
    assert doc["seat"] == 0 and doc["decisions"] and doc["level"] == "expert:fast"
    first = doc["decisions"][0]
    assert set(first) >= {"round", "index", "played", "best", "moves", "loss", "mark"}
    assert first["round"] >= 1 and first["index"] >= 0
    for d in doc["decisions"]:
        best = next(x for x in d["moves"] if (x["tile"], x["end"]) == tuple(d["best"].values()))
        assert best["value"] == max(x["value"] for x in d["moves"])
    assert doc["total_loss"] == pytest.approx(sum(d["loss"] for d in doc["decisions"]), abs=1e-6)
    # Luck and skill apart: the stones received, those the decisions cost, the deal's rest.
    received = 0
    for r in load_recorded_game(path).game.rounds:
        for e in r.events:
            if type(e) is StonesMoved and e.receiver == 0:
                received += e.amount
    apart = doc["luck_skill"]
    assert apart["received"] == received
    assert apart["decisions"] == pytest.approx(doc["total_loss"], abs=1e-6)
    assert apart["deal"] == pytest.approx(received - doc["total_loss"], abs=1e-6)
    assert stones_received(load_recorded_game(path), 0, 1) <= received


def test_the_text_names_every_decision() -> None:
    path = next(p for p in _records() if p.name.startswith("10-"))
    status, out, _ = _run([str(path), "--seat", "2", "--level", "expert:fast"])
    assert status == 0
    found = decisions(load_recorded_game(path), 2, TINY, with_hindsight=False)
    assert out.count("Round ") == len(found)
    assert "hindsight (knowing every hand)" in out
    assert "Total:" in out
    assert "STONES received: " in out and "from the deal" in out
    assert "0.25 STONES or more is a mistake and 0.75 or more a blunder" in out  # the note


def test_a_broken_record_fails_with_the_record_error() -> None:
    path = _records()[0]
    doc = json.loads(path.read_text())
    doc["rounds"][0]["plays"][3]["tile"] = doc["rounds"][0]["plays"][0]["tile"]
    data = json.dumps(doc).encode()
    status, out, err = _run(["-"], stdin=data)
    assert status == 2 and out == ""
    assert err.startswith("domeng review: round 1, play 4: ")
    replay = CliRunner().invoke(main, ["replay", "-"], input=data)
    assert err.removeprefix("domeng review: ") == replay.stderr.removeprefix("domeng replay: ")


def test_a_bad_seat_and_a_missing_file() -> None:
    path = _records()[0]
    status, _, err = _run([str(path), "--seat", "7"])
    assert status == 2 and "no seat 7" in err
    status, _, err = _run(["no-such-record.json"])
    assert status == 2 and "cannot read" in err


def test_the_count_of_decisions_is_the_number_the_coach_reviews() -> None:
    from domeng.commands.review import choices

    for path in _records():
        recorded = load_recorded_game(path)
        for seat in range(5):
            assert choices(recorded.game, seat) == len(_decisions(path, seat)), path


def test_a_terminal_sees_the_review_s_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    import io

    from rich.console import Console

    import domeng.bots.expert as expert
    import domeng.commands.review as review

    shown = io.StringIO()
    monkeypatch.setattr(review, "Console", lambda **_: Console(file=shown, force_terminal=True))
    monkeypatch.setitem(expert.LEVELS, "expert:fast", TINY)
    path = next(p for p in _records() if p.stem.startswith("10"))
    code, out, _ = _run([str(path), "--seat", "2", "--level", "expert:fast"])
    assert code == 0, out
    total = choices_of(path, 2)
    assert total > 0
    seen = shown.getvalue()
    assert "domeng review" in seen and f"{total}/{total}" in seen and "decisions" in seen


def choices_of(path: Path, seat: int) -> int:
    from domeng.commands.review import choices

    return choices(load_recorded_game(path).game, seat)


def test_the_review_and_the_replay_name_computer_seats_as_the_table_does(
    tmp_path: Path,
) -> None:
    """A computer seat is "Besse (Club player)" where it is introduced, as at the table,
    and "Besse" in every sentence after, never its record name "Besse (expert:fast)"."""
    import random

    from domeng.bots import make_player
    from domeng.engine import Game
    from domeng.engine.record import dumps_record

    names = ["Andi", "Besse (expert:fast)", "Cicci (basic)", "Daeng (basic)", "Emba (random)"]
    rng = random.Random(3)
    players = [make_player("basic", s) for s in range(5)]
    game = Game()
    for _ in range(2):
        r = game.deal(rng)
        while not r.finished:
            seat = r.turn
            assert seat is not None
            r.play(players[seat].choose(game.view(seat)))
    path = tmp_path / "game.json"
    path.write_text(dumps_record(game, names), encoding="utf-8")
    status, out, _ = _run([str(path), "--seat", "1", "--level", "expert:fast"])
    assert status == 0, out
    first = out.split("\n", 1)[0]
    assert "Besse (Club player)" in first and "by expert:fast" in first, first
    assert "(expert:fast)" not in out and "(basic)" not in out and "(random)" not in out
    replay = CliRunner().invoke(main, ["replay", str(path)])
    assert replay.exit_code == 0, replay.output
    told = replay.output
    for seated in ("Besse (Club player)", "Cicci (Casual player)", "Emba (Beginner)"):
        assert seated in told.split("\n", 3)[1], told[:300]  # the players' line
    assert "(expert:fast)" not in told and "(basic)" not in told and "(random)" not in told
    assert "Besse" in told.split("\n", 3)[3]  # and by name alone after it


def test_the_losses_shown_agree_with_the_values_shown() -> None:
    """Every loss is the difference of the two values as printed, the total their sum,
    and the decisions' part of the stones received that total (a tester found a loss of
    0.10 between -1.96 and -2.07, and losses adding up to 2.41 under a total of 2.42)."""
    import re

    for path in _records()[:6]:
        status, out, _ = _run([str(path), "--seat", "1", "--level", "expert:fast"])
        assert status == 0, out
        number = r"([+-]?\d+\.\d\d)"
        found = re.findall(
            rf"played .*? \({number}\); best .*? \({number}\); loss {number} STONES", out
        )
        losses = [float(loss) for _, _, loss in found]
        for played, best, loss in found:
            assert float(loss) == pytest.approx(float(best) - float(played), abs=1e-9), out
        if not found:
            continue
        total = re.search(rf"Total: {number} STONES", out)
        assert total is not None, out
        assert float(total.group(1)) == pytest.approx(sum(losses), abs=1e-9)
        split = re.search(rf"STONES received: (\d+); .*? {number}, .*? {number}\.", out)
        assert split is not None, out
        assert float(split.group(2)) == float(total.group(1))
        assert float(split.group(2)) + float(split.group(3)) == pytest.approx(int(split.group(1)))


def _reviewed_at(best: float, played: float, gap_error: float = 0.0, index: int = 0) -> Decision:
    """A decision of the first example's seat 1 whose best move is valued ``best`` and
    whose played move (another) ``played``, with the loss's standard error ``gap_error``,
    judged once, its reason the close one (a difference in stones)."""
    from dataclasses import replace

    from domeng.bots.reasons import Why

    d = next(d for d in _decisions(_records()[0], 1) if d.played.move != d.best.move)
    b = replace(d.best, value=best)
    p = replace(d.played, value=played, gap_error=gap_error)
    judged = replace(d.judgement, moves=(b, p))
    close = [Why("close", 0.0, stones=best - played)]
    return replace(d, index=index, played=p, judgement=judged, reasons=close, again=None)


def test_a_review_s_numbers_agree_as_shown_whatever_their_further_decimals() -> None:
    """Each loss printed is the difference of the two values printed, a close reason's
    STONES apart that loss, the total the sum of the losses printed and the decisions'
    part of the stones received that total: for values of any third decimal, also those
    whose own difference rounds the other way (-1.964 and -2.066 are 0.102 apart, shown
    -1.96 and -2.07: a loss of 0.11)."""
    import random
    import re

    from domeng.commands.review import tell_review

    recorded = load_recorded_game(_records()[0])
    received = stones_received(recorded, 1)
    number = r"([+-]?\d+\.\d\d)"
    rng = random.Random(5)
    pairs = [(-1.964, -2.066)] + [
        (b, round(b - rng.uniform(0.0, 0.2), 3))
        for b in (round(rng.uniform(-3.0, 1.0), 3) for _ in range(200))
    ]
    for start in range(0, len(pairs), 3):
        found = [_reviewed_at(b, p, index=k) for k, (b, p) in enumerate(pairs[start : start + 3])]
        out = tell_review(recorded, 1, "expert:fast", found)
        told = re.findall(rf"\({number}\); best .*? \({number}\); loss {number} STONES", out)
        apart = re.findall(rf"close: {number} STONES apart", out)
        assert len(told) == len(apart) == len(found), out
        losses = [float(loss) for _, _, loss in told]
        for (played, best, loss), stones in zip(told, apart, strict=True):
            assert float(loss) == pytest.approx(float(best) - float(played), abs=1e-9), out
            assert stones == loss, out
        total = re.search(rf"Total: {number} STONES", out)
        assert total is not None and float(total.group(1)) == pytest.approx(sum(losses)), out
        split = re.search(rf"STONES received: {received}; .*? {number}, .*? {number}\.", out)
        assert split is not None and split.group(1) == total.group(1), out
        assert float(split.group(2)) == pytest.approx(received - float(total.group(1))), out


def test_the_text_says_each_decision_s_mark_and_counts_them() -> None:
    """A decision's line numbers its play from 1 and says its mark (a mistake, a blunder,
    or a close call: a loss past the threshold within the coach's margin); the total counts
    the mistakes and the blunders."""
    from domeng.commands.review import tell_review

    recorded = load_recorded_game(_records()[0])
    marked = {
        "mistake": (0.0, -0.5, 0.0),
        "blunder": (0.0, -1.0, 0.0),
        "close": (0.0, -0.3, 0.1),
        None: (0.0, -0.1, 0.0),
    }
    kinds = ["blunder", "mistake", "close", "blunder", None]
    found = [_reviewed_at(*marked[kind], index=k + 2) for k, kind in enumerate(kinds)]
    assert [d.mark for d in found] == kinds
    lines = tell_review(recorded, 1, "expert:fast", found).splitlines()
    said = [line for line in lines if line.startswith("Round ")]
    for d, line in zip(found, said, strict=True):
        assert line.startswith(f"Round {d.round}, play {d.index + 1}: "), line
        marks = {k for k in ("mistake", "blunder", "close") if line.endswith(f" - {_said(k)}")}
        assert marks == ({d.mark} if d.mark else set()), line
    assert "(mistakes: 1, blunders: 2)" in "\n".join(lines)


def _said(mark: str) -> str:
    from domeng.i18n import current

    return current()(f"review.{mark}")


def test_the_note_under_a_review_gives_the_thresholds_it_marks_by() -> None:
    """Every language's note (under the terminal's review and the browser's) says the
    losses the review marks a mistake and a blunder from, as that language writes them."""
    from domeng.i18n import LANGUAGES, words

    for code in LANGUAGES:
        w = words(code)
        note = w("coach.trust")
        assert w.number(MISTAKE, 2) in note and w.number(BLUNDER, 2) in note, (code, note)


def test_a_loss_s_uncertainty_is_its_gap_s_and_a_mark_is_judged_again_with_other_guesses() -> None:
    """A decision's loss has the paired standard error of the played move's gap to the
    best (the best move's own is 0); a move the first judgement marks is judged again with
    other guesses, so that the second judgement's loss is not the first's."""
    again = 0
    for path in _records():
        for seat in range(5):
            for d in _decisions(path, seat):
                assert d.best.gap_error == 0.0
                assert d.gap_error == round(d.played.gap_error, 3)
                if d.again is not None:
                    again += 1
                    assert d.again != (d.loss, d.gap_error), (path.name, seat, d.index)
    assert again > 0  # the examples have marked moves


def test_luck_and_skill_add_up_to_the_stones_received() -> None:
    from domeng.bots.review import luck_and_skill

    found = list(_decisions(_records()[0], 1))
    for received in (0, 3, 17):
        apart = luck_and_skill(received, found)
        assert apart["decisions"] == pytest.approx(sum(d.loss for d in found), abs=1e-6)
        assert apart["deal"] + apart["decisions"] == pytest.approx(received, abs=1e-6)


def test_the_deal_s_part_of_losses_that_add_up_to_the_stones_received_is_zero(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Losses shown 1.52, 0.50, 2.30, 0.44 and 0.24 add up to 5.00: with 5 STONES received
    the deal's part is 0.00, never -0.00 (their sum in floating point is 5.000000000000001)."""
    import domeng.commands.review as review

    monkeypatch.setattr(review, "stones_received", lambda recorded, seat: 5)
    losses = (1.52, 0.5, 2.3, 0.44, 0.24)
    found = [_reviewed_at(0.0, -loss, index=k) for k, loss in enumerate(losses)]
    out = review.tell_review(load_recorded_game(_records()[0]), 1, "expert:fast", found)
    assert "Total: 5.00 STONES" in out, out
    assert "the STONES lost) 5.00, from the deal 0.00." in out, out
