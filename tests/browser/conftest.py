"""Browser tests of the table in the browser: a real `domeng serve` per test module,
driven through the system's Chromium with Playwright (sync API).

Without Chromium (or Playwright) the tests are skipped with the reason, except when
the environment variable CI is set: there a missing browser is a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from tests import warm
from tests.ports import free_port

CHROMIUM_CANDIDATES = (
    # Chromium's headless shell first: the same engine without the browser's window
    # machinery; it took 24 s of CPU for tests/browser/test_browser_table_screens.py
    # where the whole browser (its new headless mode) took 61 s
    "/usr/bin/chromium-headless-shell",
    "/usr/bin/chromium",
    "/usr/bin/chromium-browser",
    "/usr/bin/google-chrome",
)
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


START = 90.0
"""Seconds a ``domeng serve`` has to start (about a second here when quiet; tens of
seconds when the machine is loaded): the wait ends as soon as it answers."""


def _chromium() -> str | None:
    for path in CHROMIUM_CANDIDATES:
        if Path(path).is_file() and os.access(path, os.X_OK):
            return path
    found = shutil.which("chromium-headless-shell") or shutil.which("chromium")
    found = found or shutil.which("chromium-browser")
    return found


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI is set: the browser tests must run)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def chromium_path() -> str:
    path = _chromium()
    if path is None:
        _missing("Chromium is not installed (no /usr/bin/chromium): apt-get install chromium")
    assert path is not None
    return path


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[Any]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _missing("Playwright is not installed (pip install -e '.[test]')")
        raise
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=chromium_path, args=CHROMIUM_ARGS)
        yield b
        b.close()


def _start(port: int, tmp: Path, *options: str, db: str = "tables.sqlite3") -> warm.Process:
    """``domeng serve`` on ``port`` with its database ``db`` in ``tmp`` (and ``options``,
    such as ``--club``), its output in ``tmp``/serve.log (forked from a warm Python:
    tests/warm.py)."""
    env = {**os.environ, "DOMENG_DATA_DIR": str(tmp / "data")}
    with (tmp / "serve.log").open("ab") as out:
        return warm.start(
            [
                *("serve", "--no-browser", *options),
                # the coach at its quickest (hints and reviews in a third of the time)
                *("--coach-level", "expert:fast"),
                *("--port", str(port), "--db", str(tmp / db)),
            ],
            stdout=out,
            stderr=subprocess.STDOUT,
            env=env,
        )


@dataclass
class Service:
    """A running `domeng serve` and small helpers for its HTTP API."""

    port: int
    tmp: Path
    process: warm.Process

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def get(self, path: str) -> Any:
        with urllib.request.urlopen(self.base + path, timeout=10) as r:
            return json.load(r)

    def post(self, path: str, body: object) -> Any:
        req = urllib.request.Request(
            self.base + path,
            data=json.dumps(body).encode(),
            headers={"Content-Type": "application/json"},
            method="POST",
        )
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.load(r)

    def wait_for(self, check: Callable[[], bool], timeout: float = 30.0) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if check():
                return
            time.sleep(0.05)
        raise AssertionError("the service did not get there in time")

    def wait_started(self) -> None:
        end = time.monotonic() + START
        while True:
            try:
                self.get("/api")
                return
            except (urllib.error.URLError, ConnectionError):
                if self.process.poll() is not None or time.monotonic() > end:
                    self.stop()
                    log = (self.tmp / "serve.log").read_text()
                    raise RuntimeError(f"domeng serve did not start:\n{log}") from None
                time.sleep(0.1)

    def stop(self, *, kill: bool = False) -> None:
        if kill:
            self.process.kill()
        else:
            self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def restart(self) -> None:
        """Kill the service (SIGKILL) and start it again on the same port and database."""
        self.stop(kill=True)
        self.process = _start(self.port, self.tmp)
        self.wait_started()


@pytest.fixture(scope="module")
def service(tmp_path_factory: pytest.TempPathFactory, chromium_path: str) -> Iterator[Service]:
    tmp = tmp_path_factory.mktemp("serve")
    port = free_port()
    s = Service(port, tmp, _start(port, tmp))
    s.wait_started()
    yield s
    s.stop()


@dataclass
class Console:
    """What the page said on its console: errors fail the test."""

    errors: list[str] = field(default_factory=list)
    allowed: list[str] = field(default_factory=list)
    """Parts of messages a test expects (e.g. the status of a refused request)."""

    def allow(self, part: str) -> None:
        self.allowed.append(part)

    def problems(self) -> list[str]:
        return [e for e in self.errors if not any(a in e for a in self.allowed)]


@pytest.fixture
def console() -> Console:
    return Console()


@pytest.fixture
def page(browser: Any, service: Service, console: Console) -> Iterator[Any]:
    context = browser.new_context(viewport={"width": 1280, "height": 720}, accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(20_000)

    def on_console(msg: Any) -> None:
        if msg.type in ("error", "warning"):
            console.errors.append(f"{msg.type}: {msg.text}")

    pg.on("console", on_console)
    pg.on("pageerror", lambda e: console.errors.append(f"page error: {e}"))
    yield pg
    context.close()
    assert console.problems() == [], "the browser console reported problems"
