"""A page of another site, open in the player's browser, can neither change the tables
nor open a table's WebSocket (docs/protocol.md, "Who may talk to the service")."""

from __future__ import annotations

import contextlib
import http.server
import socket
import threading
from collections.abc import Iterator
from typing import Any

import pytest

ATTACK = """<!doctype html><meta charset="utf-8"><title>another site</title>
<script>
window.result = {};
(async () => {
  const service = new URL(location.hash.slice(1));
  const seats = Array(5).fill({kind: "computer", level: "random"});
  try {
    const r = await fetch(new URL("/api/tables", service), {
      method: "POST", headers: {"Content-Type": "application/json"},
      body: JSON.stringify({seats, pace_ms: 0})});
    window.result.post = "answered " + r.status;
  } catch (e) { window.result.post = "refused"; }
  try {  // a form post needs no permission from the service
    const r = await fetch(new URL("/api/tables", service), {
      method: "POST", mode: "no-cors", headers: {"Content-Type": "text/plain"},
      body: JSON.stringify({seats, pace_ms: 0})});
    window.result.simple = "sent";
  } catch (e) { window.result.simple = "refused"; }
  const url = service.href.replace("http", "ws") + "ws/tables/" + location.search.slice(1);
  const ws = new WebSocket(url);
  ws.onopen = () => { window.result.ws = "open"; };
  ws.onclose = () => { window.result.ws = window.result.ws || "refused"; };
})();
</script>"""


@pytest.fixture
def other_site() -> Iterator[str]:
    """A page served from another origin of this machine (another port on loopback)."""

    class Page(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = ATTACK.encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.shutdown()
        with contextlib.suppress(Exception):
            server.server_close()


def test_a_page_of_another_site_can_change_nothing(
    page: Any, service: Any, console: Any, other_site: str
) -> None:
    console.allow("")  # the browser reports the refused requests on the console
    seats = [{"kind": "computer", "level": "random"}] * 5
    table = service.post("/api/tables", {"seats": seats, "pace_ms": 0})["id"]
    before = len(service.get("/api/tables?limit=500")["tables"])
    page.goto(f"{other_site}?{table}#{service.base}/")
    page.wait_for_function(
        "() => window.result && window.result.post && window.result.simple && window.result.ws",
        timeout=15_000,
    )
    result = page.evaluate("window.result")
    assert result["post"] == "refused"  # the browser asked first, and was not allowed
    assert result["ws"] == "refused"  # the service refused the other origin's handshake
    assert len(service.get("/api/tables?limit=500")["tables"]) == before  # nothing made
