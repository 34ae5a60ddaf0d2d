"""The browser table's weight and its time to first draw, in the system's Chromium.

Starts `domeng serve` (a real process, loopback only, a fresh database in a temporary
folder), creates a table of five computer players, then opens pages in a fresh browser
context each time (nothing cached) and reads Chromium's performance API:

- weight: every response the page fetched (HTML, CSS, JavaScript, the language file,
  fonts; the sounds are made in the page, so there are no sound files), in kB as sent;
- first paint and first contentful paint (``performance.getEntriesByType("paint")``) of
  the start page and of a table being watched, and the time until the table's board is
  drawn (the first ``svg.board .seat`` in the document, from navigation start).

    .venv/bin/python benchmarks/page.py --runs 10

It stops the service itself. Prints medians and the slowest run.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import sync_playwright

CHROMIUM = "/usr/bin/chromium"
WEB = Path(__file__).resolve().parents[1] / "src" / "domeng" / "web"

# a MutationObserver that notes when the board is first drawn (performance.now(), ms)
BOARD_TIMER = """
new MutationObserver((_, seen) => {
  if (document.querySelector('svg.board .seat')) {
    window.__boardAt = performance.now();
    seen.disconnect();
  }
}).observe(document, { childList: true, subtree: true });
"""

PAINTS = """() => Object.fromEntries(
  performance.getEntriesByType('paint').map((p) => [p.name, p.startTime]))"""


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def post(base: str, path: str, body: object) -> Any:
    req = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def wait_started(base: str, process: subprocess.Popen[bytes]) -> None:
    end = time.monotonic() + 20
    while True:
        try:
            with urllib.request.urlopen(base + "/api", timeout=2):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > end:
                raise RuntimeError("domeng serve did not start") from None
            time.sleep(0.1)


def kind_of(url: str) -> str:
    path = url.split("?")[0]
    for ending, kind in (
        (".js", "JavaScript"),
        (".css", "CSS"),
        (".json", "texts"),
        (".ttf", "fonts"),
    ):
        if path.endswith(ending):
            return kind
    if path.endswith(".svg"):
        return "images"
    if "/api" in path:
        return "API"
    return "HTML"


def measure(browser: Any, url: str, wait_for: str) -> tuple[dict[str, float], dict[str, int]]:
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.add_init_script(BOARD_TIMER)
    sizes: dict[str, int] = {}

    def on_response(response: Any) -> None:
        if response.url.startswith("ws"):
            return
        try:
            n = len(response.body())
        except Exception:  # a redirect or an aborted request has no body
            return
        kind = kind_of(response.url)
        sizes[kind] = sizes.get(kind, 0) + n

    page.on("response", on_response)
    page.goto(url)
    page.wait_for_selector(wait_for)
    page.wait_for_timeout(300)
    times: dict[str, float] = page.evaluate(PAINTS)
    board = page.evaluate("window.__boardAt ?? null")
    if board is not None:
        times["board drawn"] = board
    context.close()
    return times, sizes


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=10)
    args = ap.parse_args()

    files = sorted(
        [
            WEB / "index.html",
            WEB / "style.css",
            *(WEB / "js").glob("*.js"),
            WEB / "i18n" / "en.json",
        ]
    )
    on_disk = sum(f.stat().st_size for f in files)
    print(
        f"files: index.html + style.css + {len(list((WEB / 'js').glob('*.js')))} JavaScript modules"
        f" + en.json = {on_disk / 1000:.1f} kB on disk (no sound files: Web Audio)"
    )

    with tempfile.TemporaryDirectory() as tmp:
        port = free_port()
        base = f"http://127.0.0.1:{port}"
        env = {**os.environ, "DOMENG_DATA_DIR": str(Path(tmp) / "data")}
        cmd = [sys.executable, "-m", "domeng", "serve", "--no-browser", "--port", str(port)]
        cmd += ["--db", str(Path(tmp) / "t.sqlite3")]
        process = subprocess.Popen(
            cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        try:
            wait_started(base, process)
            table = post(base, "/api/tables", {"seats": [{"kind": "computer"}] * 5, "pace_ms": 800})
            pages = {
                "start page": (f"{base}/", "body[data-ready=true]"),
                "table (watching)": (f"{base}/#/watch/{table['id']}", "svg.board .seat"),
            }
            with sync_playwright() as p:
                browser = p.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                measure(browser, *pages["start page"])  # Chromium itself warms up once
                for name, (url, selector) in pages.items():
                    runs = [measure(browser, url, selector) for _ in range(args.runs)]
                    sizes = runs[-1][1]
                    total = sum(v for k, v in sizes.items() if k != "API")
                    parts = ", ".join(f"{k} {v / 1000:.1f}" for k, v in sorted(sizes.items()))
                    print(f"\n{name}: {total / 1000:.1f} kB fetched ({parts} kB)")
                    for metric in ("first-paint", "first-contentful-paint", "board drawn"):
                        values = [r[0][metric] for r in runs if metric in r[0]]
                        if values:
                            print(
                                f"  {metric:24s} median {statistics.median(values):6.0f} ms,"
                                f" slowest {max(values):6.0f} ms ({len(values)} runs)"
                            )
                browser.close()
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
