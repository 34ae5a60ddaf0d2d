"""The start page, the service's info and the protocol page answer."""

from __future__ import annotations

from typing import Any


def test_the_start_page_the_info_and_the_protocol(service: Any) -> None:
    page = service.http.get("/")
    assert page.status_code == 200
    assert page.headers["content-type"].startswith("text/html")
    info = service.http.get("/api").json()
    assert info["default_level"] in info["levels"]
    assert "oracle" not in info["levels"]
    assert info["variants"]["opening"] == ["double", "free"]
    protocol = service.http.get("/api/protocol")
    assert protocol.status_code == 200
    assert "POST /api/tables" in protocol.text
    assert service.http.delete("/api/tables").status_code == 405
