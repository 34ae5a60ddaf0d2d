"""The order the tests are collected in (tests/conftest.py): each pytest-xdist worker
collects a folder's files from its own place. That every worker then holds the same
tests in the same order, pytest-xdist checks at each run: it stops the run when two
workers' collections differ."""

from __future__ import annotations

from tests.conftest import turned


def test_each_worker_begins_a_folder_at_its_own_third_and_goes_round() -> None:
    files = list("abcdefg")
    assert turned(files, "gw0", "3") == files
    assert turned(files, "gw1", "3") == list("cdefgab")
    assert turned(files, "gw2", "3") == list("efgabcd")
    assert turned(files, None, None) == turned(files, "main", "3") == files
    assert turned([], "gw2", "3") == []
