"""record.md: a record's ``players`` are five non-empty strings. A blank name (empty, or
nothing but spaces) is refused: RecordError, and `domeng replay` prints one line, exit 2."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest

from domeng.engine.record import RecordError, game_from_record

from .test_record_errors import BASE, _assert_one_line_error, _replay

BLANKS = ["", "   ", "\t", " \n "]


def _with_name(seat: int, name: str) -> dict[str, Any]:
    doc = copy.deepcopy(BASE)
    doc["players"][seat] = name
    return doc


@pytest.mark.parametrize("seat", [0, 4])
@pytest.mark.parametrize("name", BLANKS, ids=repr)
def test_a_blank_player_name_is_refused(seat: int, name: str) -> None:
    with pytest.raises(RecordError) as e:
        game_from_record(_with_name(seat, name))
    assert e.value.round is None and e.value.play is None
    assert "a player's name must be a non-empty string" in e.value.reason


@pytest.mark.parametrize("as_json", [True, False], ids=["json", "text"])
@pytest.mark.parametrize("name", BLANKS, ids=repr)
def test_replay_refuses_a_record_with_a_blank_player_name(
    tmp_path: Path, name: str, as_json: bool
) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(_with_name(2, name)), "utf-8")
    code, out, err = _replay(path, *(["--json"] if as_json else []))
    _assert_one_line_error(code, out, err, "domeng replay: record:", "non-empty string")


def test_a_name_with_a_space_inside_is_not_blank() -> None:
    doc = copy.deepcopy(BASE)
    doc["players"] = ["Andi Baso", "Besse", "Cicci", "D", "Emba"]
    _, players = game_from_record(doc)
    assert players == ["Andi Baso", "Besse", "Cicci", "D", "Emba"]
