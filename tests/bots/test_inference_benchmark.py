"""benchmarks/inference.py: how much the PlayModel weights learn about the hidden tiles."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from types import ModuleType

import pytest

TINY = ["--games", "2", "--rounds", "1", "--samples", "50"]


@pytest.fixture(scope="module")
def inference(load_benchmark: Callable[[str], ModuleType]) -> ModuleType:
    return load_benchmark("inference")


def test_json_report_has_finite_non_negative_scores(
    inference: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    assert inference.main([*TINY, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["games"], doc["rounds"], doc["samples"], doc["seed"]) == (2, 1, 50, 1)
    assert doc["positions"] > 0
    beliefs = doc["beliefs"]
    assert set(beliefs) == {"sampler", "sampler+playmodel", "known hands"}
    assert beliefs["known hands"] == {"brier": 0.0, "log": 0.0}
    for name in ("sampler", "sampler+playmodel"):
        for key in ("brier", "log"):
            value = beliefs[name][key]
            assert isinstance(value, float) and math.isfinite(value) and value >= 0
    ess = beliefs["sampler+playmodel"]["ess"]
    assert 1 <= ess <= 50 + 1e-9


def test_same_seed_same_report(inference: ModuleType, capsys: pytest.CaptureFixture[str]) -> None:
    inference.main(TINY)
    first = capsys.readouterr().out
    inference.main(TINY)
    assert capsys.readouterr().out == first
    assert "sampler + PlayModel" in first
