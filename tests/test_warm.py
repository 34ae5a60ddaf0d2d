"""The warm Python (tests/warm.py) starts ``python -m domeng ...`` as a fresh
interpreter would: the same output, exit codes, environment, directory and signals,
and a ``subprocess.Popen``'s ways. Most services of the tests are started by it."""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path

import pytest
from tests import warm
from tests.ports import free_port

Ran = tuple[int, bytes, bytes]
"""A process's exit code, standard output and standard error."""
EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "04-manguno.json"


@pytest.fixture(autouse=True)
def _warm(monkeypatch: pytest.MonkeyPatch) -> None:
    """The warm Python, even in a run that starts the others cold."""
    monkeypatch.delenv("DOMENG_TESTS_COLD", raising=False)


def cold(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Ran:
    done = subprocess.run(
        [sys.executable, "-m", "domeng", *args],
        capture_output=True,
        env=env,
        cwd=cwd,
        timeout=60,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def forked(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None) -> Ran:
    p = warm.start(args, env=env, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert isinstance(p, warm.Started), "a plain environment is forked from the warm Python"
    out, err = p.communicate(60)
    return p.returncode, out, err


def test_a_command_says_and_ends_as_a_fresh_interpreter_does(tmp_path: Path) -> None:
    # a command's output, a wrong command's refusal (exit code 2, in the language the
    # environment asks for), and the working directory a relative path is read from
    shutil.copy(EXAMPLE, tmp_path / "game.json")
    env = dict(os.environ, DOMENG_LANG="id")
    for args in (("replay", "game.json", "--json"), ("no-such-command",)):
        assert forked(*args, env=env, cwd=tmp_path) == cold(*args, env=env, cwd=tmp_path)
    code, out, err = forked("no-such-command", env=env, cwd=tmp_path)
    assert code == 2 and out == b"" and "no-such-command" in err.decode()
    code, out, err = forked("replay", "game.json", "--json")  # read from the test's own
    assert (code, out) == (2, b"") and "cannot read game.json" in err.decode()
    code, out, _ = forked("replay", str(EXAMPLE), "--json")
    assert code == 0 and out == cold("replay", str(EXAMPLE), "--json")[1]


def test_a_service_is_waited_for_signalled_and_killed_as_a_popen(tmp_path: Path) -> None:
    port = free_port()
    env = dict(os.environ, DOMENG_DATA_DIR=str(tmp_path))
    args = ["serve", "--no-browser", "--port", str(port), "--db", str(tmp_path / "t.sqlite3")]
    with (tmp_path / "serve.log").open("wb") as log:
        p = warm.start(args, env=env, stdout=log, stderr=subprocess.STDOUT)
    try:
        assert isinstance(p, warm.Started) and p.args[1:4] == ["-m", "domeng", "serve"]
        assert p.poll() is None
        with pytest.raises(subprocess.TimeoutExpired):
            p.wait(0.2)
        _wait_for(lambda: f"127.0.0.1:{port}" in (tmp_path / "serve.log").read_text())
        p.send_signal(signal.SIGTERM)  # uvicorn stops, then ends by the signal it had
        assert p.wait(30) == -signal.SIGTERM and p.poll() == -signal.SIGTERM
    finally:
        p.kill()  # when ended: nothing to signal, as Popen
    assert "Traceback" not in (tmp_path / "serve.log").read_text()

    with (tmp_path / "serve.log").open("ab") as log:
        again = warm.start(args, env=env, stdout=log, stderr=subprocess.STDOUT)
    again.kill()
    assert again.wait(30) == -signal.SIGKILL


def test_an_environment_that_changes_how_python_starts_gets_a_fresh_interpreter() -> None:
    assert os.environ.get("PYTHONHASHSEED") != "1234"
    env = dict(os.environ, PYTHONHASHSEED="1234")
    p = warm.start(["no-such-command"], env=env, stderr=subprocess.DEVNULL)
    assert isinstance(p, subprocess.Popen)
    assert p.wait(60) == 2


def _wait_for(check: Callable[[], bool], timeout: float = 60.0) -> None:
    end = time.monotonic() + timeout
    while not check():
        assert time.monotonic() < end, "not in time"
        time.sleep(0.05)


def _answers(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=5) as answer:
            return bool(answer.status == 200)
    except OSError:
        return False


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as f:
        return dict(line.rstrip("\n").split(":\t", 1) for line in f if ":\t" in line)


def _targets(pid: int) -> set[str]:
    found = set()
    for fd in os.listdir(f"/proc/{pid}/fd"):
        with contextlib.suppress(OSError):
            found.add(os.readlink(f"/proc/{pid}/fd/{fd}"))
    return found


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="Linux's /proc")
def test_a_service_holds_none_of_the_warm_python_s_descriptors_and_a_fresh_one_s_signals(
    tmp_path: Path,
) -> None:
    started: list[warm.Process] = []
    try:
        for how in ("forked", "fresh"):
            port = free_port()
            env = dict(os.environ, DOMENG_DATA_DIR=str(tmp_path / how))
            db, log_path = str(tmp_path / f"{how}.db"), tmp_path / f"{how}.log"
            args = ["serve", "--no-browser", "--port", str(port), "--db", db]
            with log_path.open("wb") as log:
                p: warm.Process = (
                    warm.start(args, env=env, stdout=log, stderr=subprocess.STDOUT)
                    if how == "forked"
                    else subprocess.Popen(
                        [sys.executable, "-m", "domeng", *args],
                        env=env,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                    )
                )
            started.append(p)
            said = f"127.0.0.1:{port}"
            _wait_for(lambda: said in log_path.read_text())  # noqa: B023 (waited here)
            # The address is said before uvicorn takes the signals over: wait until it
            # answers, so that both services' signals are compared once they are set
            _wait_for(lambda: _answers(port))  # noqa: B023 (waited here)
        forked, fresh = started
        assert isinstance(forked, warm.Started) and isinstance(fresh, subprocess.Popen)
        zygote = forked._warm.process.pid
        own = {t for t in _targets(zygote) if t.startswith(("socket:", "pipe:"))}
        assert own and not own & _targets(forked.pid)
        for key in ("SigBlk", "SigIgn", "SigCgt"):
            assert _status(forked.pid)[key] == _status(fresh.pid)[key], key
    finally:
        for p in started:
            p.kill()
            p.wait(30)


def test_a_service_never_waited_for_is_a_resource_warning() -> None:
    p = warm.start(["serve", "--no-browser", "--port", "0"], stdout=subprocess.DEVNULL)
    assert isinstance(p, warm.Started)
    try:
        with pytest.warns(ResourceWarning, match=f"subprocess {p.pid} is still running"):
            p.__del__()
    finally:
        p.kill()
        p.wait(60)


def test_services_started_one_after_the_other_come_from_different_warm_pythons() -> None:
    # each warm Python has its own hash secret: a restart, or the next process of a
    # service, has another, as a fresh interpreter would
    first, second = (warm.start(["no-such-command"], stderr=subprocess.DEVNULL) for _ in "ab")
    assert isinstance(first, warm.Started) and isinstance(second, warm.Started)
    assert first._warm is not second._warm
    assert first.wait(60) == second.wait(60) == 2


def test_a_warm_python_that_ended_is_replaced() -> None:
    p = warm.start(["no-such-command"], stderr=subprocess.DEVNULL)
    assert isinstance(p, warm.Started) and p.wait(60) == 2
    p._warm.process.kill()
    p._warm.process.wait(10)
    _wait_for(lambda: not p._warm.alive)
    for _ in range(warm.ZYGOTES):  # each in turn
        again = warm.start(["no-such-command"], stderr=subprocess.DEVNULL)
        assert isinstance(again, warm.Started) and again.wait(60) == 2
