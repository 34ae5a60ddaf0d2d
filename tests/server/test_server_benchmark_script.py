"""benchmarks/server.py, the instrument of the service's latency targets, runs a short
round of its work against a real service on loopback and prints its figures."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).parents[2] / "benchmarks" / "server.py"


def test_a_short_run_prints_the_plays_and_their_latency() -> None:
    command = [sys.executable, str(SCRIPT), "--tables", "1", "--people", "2"]
    command += ["--person-pace-ms", "0", "--pace-ms", "50", "--warmup", "1", "--seconds", "2"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    out = done.stdout
    plays = int(re.search(r"person plays: (\d+)", out).group(1))  # type: ignore[union-attr]
    assert plays > 0, out + done.stderr
    # a play refused as too many waits for the service's retry_after_ms: sent again at
    # once, every person was refused thousands of times in two seconds
    assert "error at table" not in done.stderr
    latencies = re.search(r"\((\d+) plays\)", out)
    assert latencies is not None and int(latencies[1]) == plays, "each play counted once"
    figures = re.search(r"median ([\d.]+) ms, 99th percentile ([\d.]+) ms", out)
    assert figures is not None and 0 < float(figures[1]) <= float(figures[2])
    assert re.search(r"moves per second \(all tables\): [1-9]\d*", out)
