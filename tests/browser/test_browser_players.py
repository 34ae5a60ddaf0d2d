"""Players who come back, in a real browser: a new person makes a profile on the start
page, plays two games in the browser and one in the terminal under it (while the
service holds the shared database), and finds all three on their page, with their
rating moved; the leaderboard and its CSV; a phone's width; another language."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from tests import warm
from tests.ports import free_port

from .conftest import Service
from .playing import click_new_game, play_round

CYCLE = "1\n2\n3\n4\n5\nl\n"


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[Service]:
    """A service on the data folder's own database, which the terminal shares."""
    tmp = tmp_path_factory.mktemp("players")
    port = free_port()
    env = {**os.environ, "DOMENG_DATA_DIR": str(tmp / "data")}
    with (tmp / "serve.log").open("ab") as out:
        process = warm.start(
            ["serve", "--no-browser", "--port", str(port)],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )
    s = Service(port, tmp, process)
    s.wait_started()
    yield s
    s.stop()


def one_round(page: Any, base: str) -> str:
    page.goto(base + "/")
    page.wait_for_selector("[data-profile-now]")
    table_id = click_new_game(page)
    play_round(page)
    return table_id


def terminal_round(service: Service, player: str) -> str:
    """One round of ``domeng play`` as ``player`` on the service's database (the
    player made if new): what it printed."""
    env = {**os.environ, "DOMENG_DATA_DIR": str(service.tmp / "data")}
    played = subprocess.run(
        [sys.executable, "-m", "domeng", "play", "--player", player, "--seed", "4",
         "--until", "rounds=1", "--pause", "0"],
        input=CYCLE * 100, capture_output=True, text=True, env=env, timeout=120,
    )  # fmt: skip
    assert played.returncode == 0, played.stdout + played.stderr
    return played.stdout


def test_two_browser_games_and_a_terminal_game_count_on_the_players_page(
    page: Any, service: Service
) -> None:
    page.goto(service.base + "/")
    page.wait_for_selector("body[data-ready=true]")
    page.wait_for_selector("[data-profile-create]")
    page.fill("[data-profile-name]", "Rani")
    page.select_option("[data-profile-mark]", "teal")
    page.click("[data-profile-create]")
    page.wait_for_selector("[data-profile-now]")
    assert "Playing as Rani" in page.inner_text("[data-profile-now]")
    assert page.input_value("#my-name") == "Rani"
    tables = [one_round(page, service.base) for _ in range(2)]
    seats = [service.get(f"/api/tables/{t}")["seats"][0]["name"] for t in tables]
    assert seats == ["Rani", "Rani"]
    # the terminal, while the service runs on the same database: counted at once (the
    # service no longer holds the file alone, issue 27; before, it was noted, then counted)
    played = terminal_round(service, "Rani")
    assert "has the database open" not in played
    page.goto(service.base + "/")
    page.click("[data-profile-now] a")
    page.wait_for_selector("[data-player-page] .player-head")
    games = page.locator("[data-game]")
    assert games.count() == 3
    wheres = [games.nth(i).locator("td").nth(1).inner_text() for i in range(3)]
    assert sorted(wheres) == ["in the browser", "in the browser", "in the terminal"]
    assert page.locator('[data-figure="games"] dd').inner_text() == "3"
    assert page.locator('[data-figure="rounds"] dd').inner_text() == "3"
    # the rating moved from a new player's, and is drawn
    uncertainty = float(page.inner_text(".rating-line strong").split("±")[1])
    assert uncertainty < 16.6
    assert page.locator("svg.chart").count() == 2
    assert page.locator("svg.chart path.chart-line").count() == 2
    assert page.locator("[data-opponent]").count() >= 1
    # each game has its replay: a table's by its address, the terminal's from its record
    page.locator("[data-game] [data-replay]").first.click()
    page.wait_for_url("**/#/replay*")
    page.wait_for_selector(".replay-page svg.board")


def test_the_leaderboard_lists_the_computer_players_and_downloads_as_csv(
    page: Any, service: Service
) -> None:
    page.goto(service.base + "/#/leaderboard")
    page.wait_for_selector("[data-leaderboard]")
    page.wait_for_selector("[data-board-player], [data-leaderboard] p")
    board = service.get("/api/leaderboard")
    assert page.locator("[data-board-player]").count() == len(board["players"])
    with page.expect_download() as got:
        page.click("[data-csv]")
    path = Path(got.value.path())
    assert path.read_text(encoding="utf-8").startswith("place,name,kind,rating")


def test_the_pages_fit_a_phone_and_speak_indonesian(browser: Any, service: Service) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.add_init_script("localStorage.setItem('domeng.lang', 'id')")
    page.goto(service.base + "/")
    page.wait_for_selector("[data-profile-box] h2")
    assert page.inner_text("[data-profile-box] h2") == "Siapa yang main?"
    terminal_round(service, "Sinta")  # a player of this test's own, with a game
    sinta = next(p for p in service.get("/api/profiles")["profiles"] if p["name"] == "Sinta")
    page.goto(service.base + f"/#/player/{sinta['id']}")
    page.wait_for_selector("[data-player-page] .player-head")
    assert "Permainan terakhir" in page.inner_text("[data-player-page]")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    context.close()
