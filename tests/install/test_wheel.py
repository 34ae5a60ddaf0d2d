"""Install without make: the wheel holds everything the game needs and runs with no
network after install.

The test builds the wheel, gathers it and its dependencies in a folder of wheels
(pip's ordinary download, the one step that may use the network), installs them
into a fresh virtual environment with ``pip install --no-index --find-links``
(pip's own configuration left out, so no other index or folder is seen), and
plays a round through ``domeng play`` and one through the service, from another
folder than the source tree, so that only the installed package is used.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent.parent
# builds wheels: minutes on a busy machine
pytestmark = [pytest.mark.slow, pytest.mark.timeout(900)]


def _run(args: list[str], **kw: object) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(args, capture_output=True, text=True, check=False, **kw)  # type: ignore[call-overload]
    assert done.returncode == 0, f"{args}\n{done.stdout}\n{done.stderr}"
    return done  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The ``bin`` (``Scripts`` on Windows) folder of a fresh environment with Domeng."""
    tmp = tmp_path_factory.mktemp("install")
    dist, wheels = tmp / "dist", tmp / "wheels"
    pip = [sys.executable, "-m", "pip", "--disable-pip-version-check"]
    _run([*pip, "wheel", "--no-deps", "-q", "-w", str(dist), str(ROOT)])
    (wheel,) = dist.glob("domeng-*.whl")
    try:
        _run([*pip, "wheel", "-q", "-w", str(wheels), str(wheel)], timeout=300)
    except AssertionError as e:
        if os.environ.get("CI"):
            raise
        pytest.skip(f"the dependencies' wheels could not be gathered: {e}")
    venv = tmp / "venv"
    # The environment gets no pip of its own (ensurepip took 12 s of a busy machine);
    # this pip installs into it (--python), uncompiled (Python compiles on first use).
    _run([sys.executable, "-m", "venv", "--without-pip", str(venv)])
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    offline = {**os.environ, "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INPUT": "1"}
    _run(
        [
            *pip,
            "--python",
            str(bin_dir / "python"),
            "install",
            "-q",
            "--no-compile",
            "--no-index",
            "--find-links",
            str(wheels),
            "domeng",
        ],
        env=offline,
        timeout=300,
    )
    return bin_dir


def _env(tmp: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    return {**env, "DOMENG_DATA_DIR": str(tmp / "data"), "DOMENG_LANG": "en"}


def test_the_installed_command_plays_a_round_in_the_terminal(
    installed: Path, tmp_path: Path
) -> None:
    answers = "".join(f"{k}\nl\n" for k in range(1, 8)) * 30
    args = ["play", "--lang", "id", "--seed", "4", "--until", "rounds=1", "--pause", "0"]
    done = _run([str(installed / "domeng"), *args], input=answers, cwd=tmp_path, env=_env(tmp_path))
    assert "Ronde 1 selesai" in done.stdout and "Klasemen akhir setelah 1 ronde" in done.stdout
    (game,) = (tmp_path / "data" / "games").glob("*.json")
    told = _run([str(installed / "python"), "-m", "domeng", "replay", str(game)], cwd=tmp_path)
    assert "Round 1\n=======" in told.stdout
    where = _run(
        [str(installed / "python"), "-c", "import domeng; print(domeng.__file__)"], cwd=tmp_path
    )
    assert str(installed.parent) in where.stdout  # the installed package, not the source


def _get(url: str) -> bytes:
    with urllib.request.urlopen(url, timeout=10) as r:  # only 127.0.0.1
        body: bytes = r.read()
        return body


def test_the_installed_service_serves_the_pages_and_plays_a_round(
    installed: Path, tmp_path: Path
) -> None:
    args = ["serve", "--port", "0", "--no-browser", "--db", str(tmp_path / "t.sqlite3")]
    proc = subprocess.Popen(
        [str(installed / "domeng"), *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tmp_path,
        env=_env(tmp_path),
    )
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        assert first.startswith("Domeng table service: http://127.0.0.1:"), first
        base = first.split()[3].rstrip("/")
        for _ in range(100):
            try:
                page = _get(base + "/").decode()
                break
            except OSError:
                time.sleep(0.1)
        assert "<html" in page.lower()
        assert b"Permainan baru" in _get(base + "/web/i18n/id.json")
        assert len(_get(base + "/web/fonts/Lohit-Devanagari.woff2")) > 10_000
        assert b"export" in _get(base + "/web/js/table.js")
        seats = [{"kind": "computer", "level": "basic"}] * 5
        body = json.dumps({"seats": seats, "pace_ms": 0, "end": {"rounds": 1}}).encode()
        request = urllib.request.Request(
            base + "/api/tables", body, {"Content-Type": "application/json"}
        )
        with urllib.request.urlopen(request, timeout=10) as r:
            table = json.loads(r.read())
        for _ in range(300):
            table = json.loads(_get(base + f"/api/tables/{table['id']}"))
            if table["status"] == "finished":
                break
            time.sleep(0.1)
        assert table["status"] == "finished" and table["round"] == 1
        record = json.loads(_get(base + f"/api/tables/{table['id']}/record"))
        assert record["format"] == "domeng.record/1" and len(record["rounds"]) == 1
    finally:
        proc.terminate()  # SIGTERM here; on Windows TerminateProcess
        out, err = proc.communicate(timeout=20)
    assert "Traceback" not in out + err
