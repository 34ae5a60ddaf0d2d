"""`domeng serve --calibration FILE`: the computer players' first ratings from a file
`domeng sim --calibrate FILE` wrote, instead of the shipped one, for the levels the
database has no profile of yet."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from click.testing import CliRunner

from domeng.cli import main
from domeng.history.calibration import document, load
from domeng.history.ratings import NEW, Rating

from .conftest import TIMEOUT, start_service

MINE = {"basic": Rating(31.5, 2.0), "random": Rating(20.0, 1.5)}


def write_calibration(path: Path, ratings: dict[str, Rating]) -> Path:
    doc = document(ratings, rounds=10, command="domeng sim --calibrate")
    path.write_text(json.dumps(doc), encoding="utf-8")
    return path


def ratings_of(base: str) -> dict[str, tuple[float, float]]:
    """Each computer level's rating and uncertainty, as the service answers them."""
    listed = httpx.get(base + "/api/profiles", timeout=TIMEOUT).json()["profiles"]
    return {p["id"]: (p["rating"], p["uncertainty"]) for p in listed if p["kind"] == "computer"}


def shown(r: Rating) -> tuple[float, float]:
    return (round(r.mu, 2), round(2 * r.sigma, 2))


def test_a_new_database_seats_the_levels_from_the_calibration_and_keeps_them(
    tmp_path: Path,
) -> None:
    db = tmp_path / "t.sqlite3"
    server, thread, base = start_service(db, calibrated=MINE)
    try:
        first = ratings_of(base)
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)
    assert first["basic"] == shown(MINE["basic"]) and first["random"] == shown(MINE["random"])
    assert first["expert"] == shown(NEW)  # not in the file: a new player, not the shipped one
    assert shown(load()["expert"]) != shown(NEW)
    # started again with the shipped calibration, the levels keep the ratings they have
    server, thread, base = start_service(db)
    try:
        assert ratings_of(base) == first
    finally:
        server.should_exit = True
        thread.join(TIMEOUT)


def test_serve_reads_the_calibration_it_is_given(tmp_path: Path) -> None:
    mine = write_calibration(tmp_path / "mine.json", MINE)
    command = [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", "0"]
    command += ["--db", str(tmp_path / "t.sqlite3"), "--calibration", str(mine)]
    env = dict(os.environ, PYTHONUNBUFFERED="1", DOMENG_DATA_DIR=str(tmp_path))
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    ) as proc:
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline()
            base = first.split()[3]  # "Domeng table service: http://127.0.0.1:PORT/ ..."
            assert base.startswith("http://127.0.0.1:"), first
            assert ratings_of(base.rstrip("/"))["basic"] == shown(MINE["basic"])
        finally:
            proc.terminate()
            proc.communicate(timeout=30)


def test_a_file_that_is_no_calibration_is_named_before_anything_starts(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    for text, why in [
        ('{"format": "something else"}', "not a domeng.calibration/1 document"),
        ("{", "cannot read the calibration"),
        ('{"format": "domeng.calibration/1", "levels": {"basic": {"mu": 25}}}', "basic"),
    ]:
        bad.write_text(text, encoding="utf-8")
        args = ["serve", "--lang", "en", "--no-browser", "--port", "0", "--calibration", str(bad)]
        result = CliRunner().invoke(main, [*args, "--db", str(tmp_path / "t.sqlite3")])
        assert result.exit_code == 1, result.output
        assert f"cannot read the calibration {bad}" in result.output and why in result.output
        assert not (tmp_path / "t.sqlite3").exists()  # no database made, no port taken
    missing = CliRunner().invoke(main, ["serve", "--calibration", str(tmp_path / "nope.json")])
    assert missing.exit_code == 2 and "does not exist" in missing.output


def assert_ranks(rows: list[Any]) -> None:
    """The places are ranks: the first is 1, equal ratings share one (1, 1, 3), and a
    lower rating takes its row's number."""
    for n, r in enumerate(rows):
        if n and r["rating"] == rows[n - 1]["rating"]:
            assert r["place"] == rows[n - 1]["place"], rows
        else:
            assert r["place"] == n + 1, rows


def test_levels_rated_alike_share_a_place_the_higher_step_of_the_ladder_first() -> None:
    """A calibration pools levels its paired trials could not tell apart into one rating:
    they share a place, and "Master" is listed above "Expert", not below it by name."""
    from domeng.history.ratings import Rating
    from domeng.history.recorder import computer_profiles
    from domeng.server.history import leaderboard
    from domeng.storage import MemoryStorage

    s = MemoryStorage()
    alike = {
        "expert": Rating(27.0, 1.9),
        "expert:strong": Rating(27.0, 1.9),
        "expert:fast": Rating(26.6, 1.9),
        "basic": Rating(25.5, 1.9),
        "random": Rating(25.5, 1.9),
    }
    computer_profiles(s, list(alike), alike, 0.0)
    rows = leaderboard(s)
    assert [(r["id"], r["place"]) for r in rows] == [
        ("expert:strong", 1),
        ("expert", 1),
        ("expert:fast", 3),
        ("basic", 4),
        ("random", 4),
    ]


def test_a_fresh_install_s_leaderboard_shows_the_computer_levels_with_their_ratings() -> None:
    """Before anyone played, the leaderboard is not empty: every computer level is on it
    with its calibrated rating, highest first; a person shows once they have the games."""
    from domeng.history import calibration as shipped
    from domeng.history.recorder import computer_profiles
    from domeng.server.history import LEADERBOARD_GAMES, leaderboard
    from domeng.server.players import levels
    from domeng.storage import MemoryStorage, StoredProfile
    from domeng.storage.history import Figures

    s = MemoryStorage()
    first = shipped.load()
    computer_profiles(s, levels(), first, 0.0)
    rows = leaderboard(s)
    assert {r["id"] for r in rows} == set(levels())
    assert_ranks(rows)
    for r in rows:
        assert r["kind"] == "computer" and r["games"] == 0
        assert r["rating"] == round(first[r["id"]].mu if r["id"] in first else 25.0, 2)
    ratings = [r["rating"] for r in rows]
    assert ratings == sorted(ratings, reverse=True)
    # a person: off the board with one game too few, placed by rating among the levels after
    top = max(first[level].mu for level in levels() if level in first)
    for games, shown in ((LEADERBOARD_GAMES - 1, False), (LEADERBOARD_GAMES, True)):
        pid = f"p-{games:02x}"
        figures = Figures(top + 1, 1.0, games=games, rounds=3 * games)
        s.create_profile(
            StoredProfile(pid, f"Cicci {games}", "id", "red", "person", pid, 0.0, figures)
        )
        ids = [r["id"] for r in leaderboard(s)]
        assert (pid in ids) is shown
        if shown:
            assert ids[0] == pid


def test_a_level_with_the_games_for_the_board_is_on_it_once() -> None:
    """Every computer level is on the leaderboard, whether it has played the board's
    games or not, and each once."""
    from domeng.history.recorder import computer_profiles
    from domeng.server.history import LEADERBOARD_GAMES, leaderboard
    from domeng.storage import MemoryStorage, StoredProfile
    from domeng.storage.history import Figures

    s = MemoryStorage()
    played = Figures(30.0, 1.0, games=LEADERBOARD_GAMES, rounds=3 * LEADERBOARD_GAMES)
    s.create_profile(StoredProfile("basic", "basic", "en", "computer", "computer", None, 0, played))
    computer_profiles(s, ["random", "basic", "expert"], MINE, 0.0)
    ids = [r["id"] for r in leaderboard(s)]
    assert ids == ["basic", "expert", "random"]  # by rating: 30.0, 25 (new), 20.0
