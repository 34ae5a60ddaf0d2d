"""`domeng serve` stopped with Ctrl-C ends normally: a line in the language, exit status 0
(not click's "Aborted!" and 1). Only 127.0.0.1, a port the system chooses."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from domeng.i18n import words


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child is POSIX")
@pytest.mark.parametrize("code", ["en", "tr"])
def test_ctrl_c_stops_the_service_as_a_normal_end(code: str, tmp_path: Path) -> None:
    # PYTHONFAULTHANDLER: a service that does not end is made to say where each of its
    # threads waits (SIGABRT), for the failure's message
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONFAULTHANDLER="1")
    env["DOMENG_DATA_DIR"] = str(tmp_path)
    command = [sys.executable, "-m", "domeng", "serve", "--lang", code, "--no-browser"]
    db = ["--port", "0", "--db", str(tmp_path / "t.sqlite3")]
    with subprocess.Popen(
        [*command, *db],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        # a person's terminal, where Ctrl-C is heard: the tests run as a background job
        # (`make test &`, some CI runners) inherit SIGINT ignored, and a Ctrl-C before
        # uvicorn takes the signal over was then lost and the service ran on
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    ) as proc:
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline()
            assert "http://127.0.0.1:" in first, first
            proc.stdout.readline()  # "Ctrl-C stops the service."
            port = int(first.split("127.0.0.1:")[1].split("/")[0])
            with socket.create_connection(("127.0.0.1", port), timeout=30):
                pass  # it serves: now a person's Ctrl-C
            proc.send_signal(signal.SIGINT)
            try:
                out, err = proc.communicate(timeout=60)
            except subprocess.TimeoutExpired:
                signals = _signal_masks(proc.pid)  # was the Ctrl-C ignored, blocked, lost?
                proc.send_signal(signal.SIGABRT)
                out, err = proc.communicate(timeout=30)
                pytest.fail(
                    f"the service did not end within 60 s of a Ctrl-C:\n{signals}\n{out}\n{err}"
                )
        finally:
            if proc.poll() is None:
                proc.kill()
    assert proc.returncode == 0, err
    assert words(code)("serve.stopped") in out
    assert "Aborted" not in err and "Traceback" not in err, err


def _signal_masks(pid: int) -> str:
    """Each thread's ignored, caught, blocked and pending signals (Linux's /proc), for a
    failure's message: SIGINT is 0x2 in each mask."""
    lines = []
    for status in sorted(Path(f"/proc/{pid}/task").glob("*/status")):
        with contextlib.suppress(OSError):
            keep = ("Name", "SigPnd", "ShdPnd", "SigBlk", "SigIgn", "SigCgt")
            fields = [x for x in status.read_text().splitlines() if x.startswith(keep)]
            lines.append(f"{status.parent.name}: " + " ".join(fields))
    return "\n".join(lines) or "(no /proc)"


@pytest.mark.parametrize("code", ["en", "tr"])
def test_ctrl_c_while_the_database_opens_is_a_normal_end_too(
    code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a Ctrl-C before uvicorn takes the signal over (the database opening on a loaded
    # machine) printed click's "Aborted!" and ended with 1
    from click.testing import CliRunner

    import domeng.storage
    from domeng.cli import main

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(domeng.storage, "open_storage", interrupted)
    args = ["serve", "--lang", code, "--no-browser", "--port", "0"]
    result = CliRunner().invoke(main, [*args, "--db", str(tmp_path / "t.sqlite3")])
    assert result.exit_code == 0, result.output
    assert words(code)("serve.stopped") in result.output
    assert "Aborted" not in result.output
