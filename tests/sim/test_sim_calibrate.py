"""`domeng sim --calibrate FILE`: the levels' ratings from every round of the tournament."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from domeng.cli import main
from domeng.history.calibration import FORMAT, load


def test_a_calibration_is_written_with_the_stronger_level_higher(tmp_path: Path) -> None:
    out = tmp_path / "calibration.json"
    args = ["sim", "--players", "basic,basic,random,random,basic", "--rounds", "500"]
    result = CliRunner().invoke(main, [*args, "--workers", "1", "--calibrate", str(out)])
    assert result.exit_code == 0, result.output
    doc = json.loads(out.read_text())
    assert doc["format"] == FORMAT and doc["rounds"] == 500
    assert list(doc["levels"]) == ["basic", "random"]  # highest first
    ratings = load(out)
    assert ratings["basic"].mu > ratings["random"].mu
    assert not list(tmp_path.glob("game-*"))  # the records went to a scratch folder
