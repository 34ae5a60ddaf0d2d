"""The browser table on a phone's mobile data, as Lighthouse measures it.

Starts `domeng serve` (a real process, loopback only, a fresh database in a temporary
folder), makes a table of five computer players in play and a finished one-round table
to replay, then runs Lighthouse (``node_modules/.bin/lighthouse``, pinned in
package.json: run ``npm ci`` once) with the system's Chromium on three pages:

- the start page (``/``), in English;
- a table in play, watched (``/#/watch/ID``);
- the replay of the finished table (``/#/replay/ID``).

Lighthouse's own mobile profile: a phone's screen, its CPU slowed 4 times and a slow 4G
network simulated (150 ms round trips, 1.6 Mbit/s), a first visit (nothing cached). For
each page it prints the performance score, the metrics (First and Largest Contentful
Paint, Cumulative Layout Shift, Total Blocking Time, Speed Index), the bytes
transferred and their kinds, the number of requests, the largest element drawn, and
whether the Devanagari font was fetched; then the start page visited a second time in
the same browser (what its cache saves), and a first visit of it in Hindi (what the
Devanagari font and the Hindi texts add). The targets (issue 32; printed, not asserted):
performance 0.95 or more, LCP under 2.5 s, CLS under 0.1, under 150 KiB for a first
visit of an English page.

    npm ci                                   # once: Lighthouse 12.8.2
    .venv/bin/python benchmarks/page.py      # --runs 3: the median of three runs per page

``--json DIR`` keeps each run's whole Lighthouse report; ``--page start`` (or
``table``, ``replay``) runs one page. The service is stopped at the end.

The CPU: Lighthouse slows the page's CPU 4 times, made for a computer it rates 1,000 or
more on its own ``benchmarkIndex`` (printed for each page; Lighthouse warns below 1,000),
so that the page runs as on a mid-range phone. On a slower or busy computer the same 4
times makes the page's scripts seem far slower than on any phone, and the Total Blocking
Time, the Largest Contentful Paint and the score with them; ``--cpu-slowdown 1`` there
(Chrome's DevTools rate a low-end phone, a Moto G Power of 2022, 264) measures what the
page does, not what the computer lacks. Network throttling is simulated and does not
depend on it.
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

ROOT = Path(__file__).resolve().parents[1]
LIGHTHOUSE = ROOT / "node_modules" / ".bin" / "lighthouse"
CHROMIUM = "/usr/bin/chromium"
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage"
    " --disable-background-networking --disable-extensions --no-first-run"
    " --disable-default-apps --mute-audio"
)
TARGETS = {"performance": 0.95, "lcp_ms": 2500, "cls": 0.1, "first_visit_kib": 150}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def call(base: str, path: str, body: object | None = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(
        base + path,
        data=data,
        headers={"Content-Type": "application/json"},
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(req, timeout=10) as r:
        return json.load(r)


def wait_started(base: str, process: subprocess.Popen[bytes]) -> None:
    end = time.monotonic() + 30
    while True:
        try:
            with urllib.request.urlopen(base + "/api", timeout=2):
                return
        except OSError:
            if process.poll() is not None or time.monotonic() > end:
                raise RuntimeError("domeng serve did not start") from None
            time.sleep(0.1)


def finished_table(base: str) -> str:
    """A table of computer players that plays one round at once and ends."""
    seats = [{"kind": "computer"}] * 5
    table = call(base, "/api/tables", {"seats": seats, "pace_ms": 0, "end": {"rounds": 1}})
    end = time.monotonic() + 60
    while call(base, f"/api/tables/{table['id']}")["status"] != "finished":
        if time.monotonic() > end:
            raise RuntimeError("the one-round table did not finish in 60 s")
        time.sleep(0.2)
    table_id: str = table["id"]
    return table_id


def lighthouse(url: str, keep: Path | None, name: str, cpu: float | None) -> dict[str, Any]:
    """One Lighthouse run (mobile, simulated throttling: its defaults, but the CPU's
    slowdown when ``cpu`` is given), its report."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "report.json"
        cmd = [
            str(LIGHTHOUSE),
            url,
            "--output=json",
            f"--output-path={out}",
            "--only-categories=performance",
            f"--chrome-flags={CHROME_FLAGS}",
            "--quiet",
        ]
        if cpu is not None:
            cmd.append(f"--throttling.cpuSlowdownMultiplier={cpu}")
        env = {**os.environ, "CHROME_PATH": CHROMIUM}
        subprocess.run(cmd, env=env, check=True, timeout=300)
        report: dict[str, Any] = json.loads(out.read_text())
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            (keep / f"{name}.json").write_text(out.read_text())
        return report


def figures(report: dict[str, Any]) -> dict[str, Any]:
    audits = report["audits"]
    requests = audits["network-requests"]["details"]["items"]
    kinds: dict[str, int] = {}
    for r in requests:
        kind = r.get("resourceType") or "Other"
        kinds[kind] = kinds.get(kind, 0) + int(r.get("transferSize") or 0)
    lcp_items = audits.get("largest-contentful-paint-element", {}).get("details", {})
    element = ""
    for table in lcp_items.get("items", []):
        for item in table.get("items", []):
            node = item.get("node")
            if node:
                element = node.get("selector") or node.get("snippet", "")
                break
    return {
        "performance": report["categories"]["performance"]["score"],
        "fcp_ms": audits["first-contentful-paint"]["numericValue"],
        "lcp_ms": audits["largest-contentful-paint"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "si_ms": audits["speed-index"]["numericValue"],
        "bytes": sum(kinds.values()),
        "kinds": kinds,
        "requests": len(requests),
        "font": any("/fonts/Lohit-Devanagari." in r["url"] for r in requests),
        "lcp_element": element,
        "benchmark_index": report["environment"]["benchmarkIndex"],
    }


def show(name: str, runs: list[dict[str, Any]]) -> None:
    def med(key: str) -> float:
        return float(statistics.median(r[key] for r in runs))

    last = runs[-1]
    kib = med("bytes") / 1024
    print(f"\n{name} (median of {len(runs)} run{'s' if len(runs) > 1 else ''})")
    scores = ", ".join(f"{r['performance']:.2f}" for r in runs)
    print(f"  performance {med('performance'):.2f} (runs: {scores})")
    print(f"  First Contentful Paint   {med('fcp_ms') / 1000:5.2f} s")
    print(f"  Largest Contentful Paint {med('lcp_ms') / 1000:5.2f} s   ({last['lcp_element']})")
    print(f"  Cumulative Layout Shift  {med('cls'):5.3f}")
    print(f"  Total Blocking Time      {med('tbt_ms'):5.0f} ms")
    print(f"  Speed Index              {med('si_ms') / 1000:5.2f} s")
    parts = ", ".join(f"{k} {v / 1024:.1f}" for k, v in sorted(last["kinds"].items()))
    print(f"  transferred {kib:.1f} KiB in {last['requests']} requests ({parts} KiB)")
    print(f"  Devanagari font fetched: {'yes' if last['font'] else 'no'}")
    rated = med("benchmark_index")
    print(f"  this computer's CPU, as Lighthouse rates it (benchmarkIndex): {rated:.0f}")


# what a load of the page fetched over the network: the page itself and every resource
# (a file kept by the browser counts 0 bytes: transferSize is 0 for a cache hit)
FETCHED = """() => {
  const all = [...performance.getEntriesByType('navigation'),
               ...performance.getEntriesByType('resource')];
  const net = all.filter((e) => e.transferSize > 0);
  return { asked: net.length, bytes: net.reduce((n, e) => n + e.transferSize, 0),
           files: net.map((e) => new URL(e.name).pathname) };
}"""


def second_visit(url: str) -> dict[str, Any]:
    """A first visit and a second one in the same browser (Playwright, the system's
    Chromium, no throttling): what the second fetched over the network."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        context = browser.new_context()
        page = context.new_page()
        visits = []
        for _ in range(2):
            page.goto(url)
            page.wait_for_selector("body[data-ready=true]")
            page.wait_for_timeout(500)
            visits.append(page.evaluate(FETCHED))
        browser.close()
    first, second = visits
    return {"first": first, "second": second}


def hindi_visit(url: str) -> dict[str, Any]:
    """A first visit of the start page in Hindi (Playwright, the system's Chromium, no
    throttling), once its fonts have come: what it fetched, the Devanagari font and the
    language file among it (the font is not fetched where the system has its own)."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        page = browser.new_context().new_page()
        page.goto(url)
        page.wait_for_selector("body[data-ready=true]")
        page.evaluate("document.fonts.ready.then(() => true)")
        page.wait_for_timeout(500)
        fetched: dict[str, Any] = page.evaluate(FETCHED)
        sizes: dict[str, int] = page.evaluate(
            "Object.fromEntries(performance.getEntriesByType('resource')"
            ".map((e) => [new URL(e.name).pathname.split('/').pop(), e.transferSize]))"
        )
        browser.close()
    font = sum(n for name, n in sizes.items() if name.startswith("Lohit-Devanagari."))
    return {**fetched, "font": font, "texts": sizes["hi.json"]}


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--runs", type=int, default=3, help="Lighthouse runs per page (median)")
    ap.add_argument("--json", type=Path, default=None, help="keep the reports in this folder")
    ap.add_argument(
        "--page",
        action="append",
        choices=["start", "table", "replay"],
        help="only this page (may be given again); all three by default",
    )
    ap.add_argument(
        "--cpu-slowdown",
        type=float,
        default=None,
        help="Lighthouse's CPU slowdown (default: its own, 4); see the note below",
    )
    args = ap.parse_args()
    if not LIGHTHOUSE.exists():
        sys.exit(f"{LIGHTHOUSE} is missing: run `npm ci` in {ROOT} first")

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
            seats = [{"kind": "computer"}] * 5
            playing = call(base, "/api/tables", {"seats": seats, "pace_ms": 1500})
            replayed = finished_table(base)
            pages = {
                "start page": f"{base}/?lang=en",
                "table in play (watched)": f"{base}/?lang=en#/watch/{playing['id']}",
                "replay": f"{base}/?lang=en#/replay/{replayed}",
            }
            cpu = args.cpu_slowdown if args.cpu_slowdown is not None else 4
            print(
                f"Lighthouse {LIGHTHOUSE.name} (mobile, simulated slow 4G, CPU x{cpu:g}), "
                f"first visits; targets: performance >= {TARGETS['performance']}, "
                f"LCP < {TARGETS['lcp_ms'] / 1000} s, CLS < {TARGETS['cls']}, "
                f"English first visit < {TARGETS['first_visit_kib']} KiB"
            )
            for name, url in pages.items():
                slug = name.split(" ")[0]
                if args.page and slug not in args.page:
                    continue
                reports = [
                    lighthouse(url, args.json, f"{slug}-{i + 1}", args.cpu_slowdown)
                    for i in range(args.runs)
                ]
                runs = [figures(r) for r in reports]
                show(name, runs)
            if not args.page or "start" in args.page:
                visits = second_visit(pages["start page"])
                first, second = visits["first"], visits["second"]
                files = ", ".join(second["files"])
                print(
                    f"\nstart page again, in the same browser (Chromium, no throttling): "
                    f"{second['asked']} of {first['asked']} requests went to the network, "
                    f"{second['bytes'] / 1024:.1f} KiB ({files}); the first visit "
                    f"{first['bytes'] / 1024:.1f} KiB"
                )
                hindi = hindi_visit(f"{base}/?lang=hi")
                print(
                    f"start page in Hindi, a first visit (Chromium, no throttling): "
                    f"{hindi['bytes'] / 1024:.1f} KiB in {hindi['asked']} requests, of which "
                    f"the Devanagari font {hindi['font'] / 1024:.1f} KiB"
                    f"{'' if hindi['font'] else ' (the system has its own)'} and the "
                    f"language file {hindi['texts'] / 1024:.1f} KiB"
                )
        finally:
            process.terminate()
            process.wait(timeout=10)


if __name__ == "__main__":
    main()
