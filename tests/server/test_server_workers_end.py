"""The worker processes (the searching players, hints, replays) end with the service,
however it ends: a SIGKILLed service left its four workers running for half an hour."""

from __future__ import annotations

import json
import os
import signal
import time
from pathlib import Path

import pytest
from tests.ports import free_port

from .test_server_restart_resumes import serve

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (read from /proc)."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_bytes()
            except OSError:
                continue
            parents[int(entry.name)] = int(stat.rsplit(b")", 1)[1].split()[1])
    found: set[int] = set()
    todo = [pid]
    while todo:
        p = todo.pop()
        children = {c for c, pp in parents.items() if pp == p}
        todo.extend(children - found)
        found |= children
    return found


def running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_a_killed_service_leaves_no_worker_behind(tmp_path: Path) -> None:
    with serve(tmp_path / "domeng.db", free_port()) as (proc, client):
        seats = [{"kind": "computer", "level": "expert"}] * 5  # they think in the workers
        r = client.post("/api/tables", json={"seats": seats, "pace_ms": 0})
        assert r.status_code == 201, r.text
        record = json.loads((EXAMPLES / "02-ceki.json").read_text())
        assert client.post("/api/replay", json=record).status_code == 200  # the replay worker
        workers: set[int] = set()
        deadline = time.monotonic() + 30
        while len(workers) < 3 and time.monotonic() < deadline:  # a forkserver, two workers
            time.sleep(0.1)
            workers = descendants(proc.pid)
        assert len(workers) >= 3, workers
        os.kill(proc.pid, signal.SIGKILL)  # not waited for yet: a zombie, as under a shell
        deadline = time.monotonic() + 10
        while any(running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [w for w in workers if running(w)], "workers outlived the service"
