"""`domeng review`: every example reviewed from every seat, the --json document, the
text, and a broken record failing with the record's error."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from domeng.bots.expert import Level
from domeng.bots.reasons import KEYS
from domeng.bots.review import BLUNDER, MISTAKE, decisions, mark_of, review_document
from domeng.cli import main
from domeng.engine.record import load_recorded_game
from domeng.engine.tiles import parse_tile, tile_name

EXAMPLES = sorted((Path(__file__).resolve().parent.parent / "examples").glob("[0-9]*[0-9a-z].json"))
TINY = Level("review:test", 60, 30.0)


def _records() -> list[Path]:
    return [p for p in EXAMPLES if not p.name.endswith(".out.json")]


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
        found = decisions(recorded, seat, TINY)
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
            assert item["mark"] == mark_of(item["loss"])
            assert all(w["key"] in KEYS for w in item["reasons"])
            assert isinstance(item["hindsight"]["played"], float)
        assert doc["total_loss"] == pytest.approx(sum(d.loss for d in found), abs=1e-6)


def test_the_marks() -> None:
    assert mark_of(0.0) is None
    assert mark_of(MISTAKE - 0.01) is None
    assert mark_of(MISTAKE) == "mistake"
    assert mark_of(BLUNDER) == "blunder"


def test_the_json_document_of_an_example() -> None:
    path = next(p for p in _records() if p.name.startswith("10-"))
    status, out, err = _run([str(path), "--seat", "0", "--level", "expert:fast", "--json"])
    assert status == 0, err
    doc = json.loads(out)
    assert doc["seat"] == 0 and doc["decisions"]
    first = doc["decisions"][0]
    assert set(first) >= {"round", "index", "played", "best", "moves", "loss", "mark"}
    assert first["round"] >= 1 and first["index"] >= 0
    for d in doc["decisions"]:
        best = next(x for x in d["moves"] if (x["tile"], x["end"]) == tuple(d["best"].values()))
        assert best["value"] == max(x["value"] for x in d["moves"])
    assert doc["total_loss"] == pytest.approx(sum(d["loss"] for d in doc["decisions"]), abs=1e-6)


def test_the_text_names_every_decision() -> None:
    path = next(p for p in _records() if p.name.startswith("10-"))
    status, out, _ = _run([str(path), "--seat", "2", "--level", "expert:fast"])
    assert status == 0
    found = decisions(load_recorded_game(path), 2, TINY, with_hindsight=False)
    assert out.count("Round ") == len(found)
    assert "hindsight (knowing every hand)" in out
    assert "Total:" in out


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
