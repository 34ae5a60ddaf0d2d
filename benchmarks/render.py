"""What drawing the browser table costs the page: layouts, style recalculations and the
main thread's work for a round played, as Chromium counts them.

Starts `domeng serve` (a real process, loopback only, a fresh database in a temporary
folder) and the system's Chromium headless shell (Playwright, from the test tools:
``pip install -e '.[test]'``). For each of ``--rounds`` rounds a new browser context
opens the start page, starts a new game against four computer players (20 ms a move)
and plays seat 0's first playable tile (the left end when asked) until the round's
summary shows; Chromium's performance counters (``Performance.getMetrics`` of the
DevTools protocol) are read when seat 0 first may play and when the summary shows.
It prints, a round on average: the layouts and style recalculations, their seconds,
the scripts' seconds and the main thread's (``TaskDuration``), and the CPU the browser
processes took for the whole run (start page and new game included).

    .venv/bin/python benchmarks/render.py                 # 8 rounds at 1280x720
    .venv/bin/python benchmarks/render.py --rounds 4 --size 390x844

The deals differ from run to run (a new game each), so rounds differ in length: compare
two versions with 8 rounds or more, twice each, one after the other. Measured in
session 18 (docs/architecture.md, "Where the tests' time goes"), 4 rounds each: 84
layouts a round when the board was fitted at the end of every render, 64 since.
"""

from __future__ import annotations

import argparse
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from typing import Any

CHROMIUM = ("/usr/bin/chromium-headless-shell", "/usr/bin/chromium")
COUNTERS = (
    "LayoutCount",
    "RecalcStyleCount",
    "LayoutDuration",
    "RecalcStyleDuration",
    "ScriptDuration",
    "TaskDuration",
)
PLAYABLE = '.table-page:not([data-pending="true"]) [data-playable="true"]'


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def tree_cpu(root: int, leave_out: int) -> float:
    """CPU seconds of ``root``'s descendants but ``leave_out`` and its own (Linux's
    /proc), the reaped ones included."""
    pids, i, total = [root], 0, 0.0
    while i < len(pids):
        if pids[i] == leave_out:
            pids.pop(i)
            continue
        try:
            with open(f"/proc/{pids[i]}/task/{pids[i]}/children") as f:
                pids += [int(x) for x in f.read().split()]
        except OSError:
            pass
        i += 1
    tick = os.sysconf("SC_CLK_TCK")
    for pid in pids[1:]:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += sum(int(x) for x in fields[11:15]) / tick
    return total


def counters(cdp: Any) -> dict[str, float]:
    metrics = cdp.send("Performance.getMetrics")["metrics"]
    return {m["name"]: float(m["value"]) for m in metrics if m["name"] in COUNTERS}


def play_round(page: Any) -> None:
    """Seat 0 plays its first playable tile at each turn until the summary shows."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    for _ in range(3000):
        if page.locator("[data-round-summary]").count():
            return
        tiles = page.locator(PLAYABLE)
        if tiles.count():
            try:
                tiles.first.click(timeout=3000)
            except PlaywrightTimeout:  # the table moved on between looking and clicking
                continue
            if page.locator("[data-end]").count():
                page.click('[data-end="left"]')
        else:
            page.wait_for_timeout(30)
    raise RuntimeError("the round did not end")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--size", default="1280x720", help="the window, WIDTHxHEIGHT")
    args = parser.parse_args()
    width, height = (int(x) for x in args.size.split("x"))
    chromium = next((c for c in CHROMIUM if os.access(c, os.X_OK)), None)
    if chromium is None:
        sys.exit("no Chromium: apt-get install chromium-headless-shell")
    from playwright.sync_api import sync_playwright

    folder = tempfile.mkdtemp(prefix="domeng-render-")
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    db = os.path.join(folder, "tables.sqlite3")
    service = subprocess.Popen(
        [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", str(port), "--db", db],
        env={**os.environ, "DOMENG_DATA_DIR": folder},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(600):
            try:
                urllib.request.urlopen(base + "/api", timeout=5).close()
                break
            except (urllib.error.URLError, ConnectionError):
                time.sleep(0.1)
        totals = dict.fromkeys(COUNTERS, 0.0)
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
            cpu = tree_cpu(os.getpid(), service.pid)
            started = time.monotonic()
            for _ in range(args.rounds):
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.set_default_timeout(20_000)
                page.goto(base + "/")
                page.wait_for_selector("body[data-ready=true]")
                page.evaluate("localStorage.setItem('domeng.pace', '20')")
                page.click("[data-new-game]")
                page.wait_for_selector(f"{PLAYABLE}, [data-round-summary]")
                cdp = context.new_cdp_session(page)
                cdp.send("Performance.enable")
                before = counters(cdp)
                play_round(page)
                after = counters(cdp)
                for name in COUNTERS:
                    totals[name] += after[name] - before[name]
                context.close()
            seconds = time.monotonic() - started
            cpu = tree_cpu(os.getpid(), service.pid) - cpu
            browser.close()
    finally:
        service.terminate()
        service.wait(10)
    n = args.rounds
    print(f"render: {n} rounds at {width}x{height}, {seconds:.1f} s")
    print(f"  layouts a round           {totals['LayoutCount'] / n:8.1f}")
    print(f"  style recalcs a round     {totals['RecalcStyleCount'] / n:8.1f}")
    print(f"  layout s a round          {totals['LayoutDuration'] / n:8.3f}")
    print(f"  style s a round           {totals['RecalcStyleDuration'] / n:8.3f}")
    print(f"  script s a round          {totals['ScriptDuration'] / n:8.3f}")
    print(f"  main thread s a round     {totals['TaskDuration'] / n:8.3f}")
    print(f"  browser CPU s, whole run  {cpu:8.1f}")


if __name__ == "__main__":
    main()
