"""`domeng sim` from the command line: --json, determinism across workers, --record, errors."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from domeng.bots import player_names
from domeng.cli import main
from domeng.engine import SEATS
from domeng.engine.record import load_record, replay_summary
from domeng.sim import entry_at, record_name

OTHER = "basic" if "basic" in player_names(for_people=False) else "random"
PLAYERS = f"{OTHER},random,random,random,random"

REQUIRED_KEYS = [
    "name",
    "rounds",
    "stones_per_round",
    "stones_per_round_ci95",
    "net_stones_per_round",
    "camat_per_100_rounds",
    "win_rate",
    "wins",
    "first_cappu",
    "ceki",
    "pollo",
    "manguno",
    "mattikkeng",
    "passes_per_round",
    "passebunge_per_round",
    "ms_per_move",
]


def sim(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["sim", *args])
    return result.exit_code, result.output


def sim_json(*args: str) -> dict[str, object]:
    code, out = sim(*args, "--json")
    assert code == 0, out
    doc = json.loads(out)
    assert isinstance(doc, dict)
    return doc


def without_timing(doc: dict[str, object]) -> dict[str, object]:
    players = doc["players"]
    assert isinstance(players, list)
    return {**doc, "players": [{k: v for k, v in p.items() if k != "ms_per_move"} for p in players]}


def test_json_has_the_keys_and_the_entries_in_the_order_given() -> None:
    doc = sim_json(
        "--players",
        "random,random," + OTHER + ",random,random",
        "--rounds",
        "40",
        "--rounds-per-game",
        "4",
        "--workers",
        "1",
    )
    players = doc["players"]
    assert isinstance(players, list)
    assert [p["name"] for p in players] == ["random", "random", OTHER, "random", "random"]
    for p in players:
        assert set(REQUIRED_KEYS) <= set(p)
        assert next(iter(p)) == "name"
        assert p["rounds"] == 40
        lo, hi = p["stones_per_round_ci95"]
        assert lo <= p["stones_per_round"] <= hi
        assert p["win_rate"] == p["wins"] / 40
        assert p["ceki"] + p["pollo"] <= p["first_cappu"]
        assert isinstance(p["ms_per_move"], float)
    # Every round has exactly one winner, and stones are never created.
    assert sum(p["wins"] for p in players) == 40
    given = sum(p["given_per_round"] for p in players)
    received = sum(p["stones_per_round"] for p in players)
    assert received >= given
    # Each entry's stones minus the others' mean: these differences add up to zero.
    assert sum(p["stones_per_round_vs_others"] for p in players) == pytest.approx(0, abs=1e-9)
    assert doc["rounds"] == 40
    assert doc["games"] == 2


def test_the_same_seed_gives_the_same_results_on_one_or_two_workers() -> None:
    args = ("--players", PLAYERS, "--rounds", "60", "--rounds-per-game", "3", "--seed", "7")
    one = sim_json(*args, "--workers", "1")
    two = sim_json(*args, "--workers", "2")
    assert without_timing(one) == without_timing(two)
    other_seed = sim_json(
        "--players",
        PLAYERS,
        "--rounds",
        "60",
        "--rounds-per-game",
        "3",
        "--seed",
        "8",
        "--workers",
        "2",
    )
    assert without_timing(other_seed) != without_timing(one)


def test_the_table_shows_every_entry_and_figure() -> None:
    code, out = sim("--players", PLAYERS, "--rounds", "20", "--workers", "1")
    assert code == 0, out
    for label in (
        "STONES received / round",
        "95% interval",
        "net STONES / round",
        "CAMAT titles / 100 rounds",
        "rounds won",
        "FIRST CAPPU",
        "CEKI",
        "POLLO",
        "MANGUNO",
        "MATTIKKENG",
        "passes / round",
        "PASSEBUNGE / round",
        "think ms / move",
    ):
        assert label in out
    assert f"1. {OTHER}" in out and "5. random" in out


def test_record_writes_every_game_and_it_replays(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    doc = sim_json(
        "--players",
        PLAYERS,
        "--rounds",
        "30",
        "--rounds-per-game",
        "4",
        "--seed",
        "5",
        "--workers",
        "2",
        "--record",
        str(folder),
    )
    files = sorted(p.name for p in folder.iterdir())
    assert files == sorted(record_name(g, r) for g in range(2) for r in range(SEATS))
    names = PLAYERS.split(",")
    wins = [0] * SEATS
    for g in range(2):
        for r in range(SEATS):
            game, players = load_record(folder / record_name(g, r))
            assert players == [names[entry_at(s, r)] for s in range(SEATS)]
            assert len(game.rounds) == (4 if g == 0 else 2)
            summary = replay_summary(game)
            for rnd in summary["rounds"]:  # type: ignore[attr-defined]
                assert rnd["finished"]
                wins[entry_at(rnd["winner"], r)] += 1
    assert wins == [p["wins"] for p in doc["players"]]  # type: ignore[attr-defined]


def test_record_into_a_folder_of_older_records_says_so(tmp_path: Path) -> None:
    folder = tmp_path / "records"
    args = ["--players", PLAYERS, "--rounds", "10", "--seed", "5", "--workers", "1"]
    first = CliRunner().invoke(main, ["sim", *args, "--record", str(folder), "--json"])
    assert first.exit_code == 0
    assert "already holds" not in first.stderr
    second = CliRunner().invoke(main, ["sim", *args, "--record", str(folder), "--json"])
    assert second.exit_code == 0
    assert f"{folder} already holds 5 game records" in second.stderr
    json.loads(second.stdout)  # the note does not spoil the JSON on standard output


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "random,nobody,random,random,random"], "unknown player 'nobody'"),
        (["--players", "random,random,random,random"], "exactly 5 players, not 4"),
        (["--players", "random,random,random,random,random,random"], "exactly 5 players, not 6"),
        (["--players", "random,,random,random,random"], "empty player name"),
        (["--players", PLAYERS, "--rounds", "12"], "12 is not a multiple of 5"),
        (["--players", PLAYERS, "--rounds", "0"], "--rounds"),
        (["--players", PLAYERS, "--rounds", "ten"], "'ten' is not a valid integer"),
        (["--players", PLAYERS, "--workers", "0"], "--workers"),
        (["--players", PLAYERS, "--rounds-per-game", "0"], "--rounds-per-game"),
        (["--players", PLAYERS, "--opening", "sideways"], "--opening"),
        (["--rounds", "10"], "--players"),
    ],
)
def test_bad_arguments_get_a_clear_error(args: list[str], message: str) -> None:
    code, out = sim(*args)
    assert code == 2
    assert message in out
    assert "Traceback" not in out


def test_a_player_that_breaks_the_rules_is_reported(monkeypatch: pytest.MonkeyPatch) -> None:
    import domeng.bots as bots
    from domeng.bots import Player
    from domeng.engine import Move, SeatView, move

    class Cheat(Player):
        name = "cheat"

        def __init__(self, seed: int | None = None) -> None:
            pass

        def choose(self, view: SeatView) -> Move:
            illegal = [t for t in range(28) if not view.hand >> t & 1]
            return move(illegal[0])

    monkeypatch.setitem(bots._FACTORIES, "cheat", Cheat)
    code, out = sim(
        "--players", "cheat,random,random,random,random", "--rounds", "5", "--workers", "1"
    )
    assert code == 1
    assert "player 'cheat' chose" in out and "not legal" in out


def _children(pid: int) -> list[int]:
    try:
        text = Path(f"/proc/{pid}/task/{pid}/children").read_text()
    except OSError:
        return []
    return [int(c) for c in text.split()]


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
@pytest.mark.parametrize("signame", ["SIGINT", "SIGTERM"])
def test_an_interrupt_stops_the_workers_and_exits(signame: str) -> None:
    import signal
    import subprocess
    import sys
    import time

    sig = getattr(signal, signame)
    with subprocess.Popen(
        [
            sys.executable,
            "-m",
            "domeng",
            "sim",
            "--players",
            "random,random,random,random,random",
            "--rounds",
            "1000000",
            "--workers",
            "2",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        start_new_session=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as proc:
        workers: list[int] = []
        for _ in range(200):  # wait for both workers to start
            workers = _children(proc.pid)
            if len(workers) >= 2:
                break
            time.sleep(0.05)
        try:
            proc.send_signal(sig)
            _, err = proc.communicate(timeout=60)
        finally:
            proc.kill()
            for pid in workers:
                if _alive(pid):
                    os.kill(pid, signal.SIGKILL)
    assert proc.returncode == 128 + sig
    assert b"Aborted!" in err
    assert b"Traceback" not in err
    for _ in range(100):
        if not any(_alive(pid) for pid in workers):
            break
        time.sleep(0.05)
    assert not any(_alive(pid) for pid in workers)


def test_help_names_the_players() -> None:
    result = CliRunner().invoke(main, ["sim", "--help"])
    assert result.exit_code == 0
    flat = " ".join(result.output.split())
    assert "the players: random, basic, expert:fast, expert, expert:strong, oracle." in flat
