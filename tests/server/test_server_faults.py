"""A client's faults (a malformed HTTP request, a WebSocket text frame that is not
UTF-8) are refused and counted, not written to the log line by line."""

from __future__ import annotations

import logging
import socket
from typing import Any
from urllib.parse import urlsplit

from websockets.sync.client import connect

from domeng.server.faults import REPORT_EVERY, ClientFaults


class Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


def test_a_burst_of_faults_is_one_line_a_minute_with_the_counts() -> None:
    now = [0.0]
    logger = logging.getLogger("test.faults")
    logger.propagate = False
    faults = ClientFaults(clock=lambda: now[0])
    logger.addFilter(faults)
    lines = Lines()
    logger.addHandler(lines)
    try:
        for _ in range(200):
            try:
                b"\xff".decode()
            except UnicodeDecodeError:
                logger.exception("Invalid UTF-8 sequence received from client.")
        logger.warning("Invalid HTTP request received.")
        logger.warning("something else")  # not a client's fault: logged as it is
        assert [r.getMessage() for r in lines.records][1:] == ["something else"]
        first = lines.records[0]
        assert first.exc_info is None and first.levelno == logging.WARNING
        assert "1 WebSocket text frames not UTF-8" in first.getMessage()
        now[0] = REPORT_EVERY - 0.001  # still within the minute: counted, not said
        logger.warning("Invalid HTTP request received.")
        assert len(lines.records) == 2
        now[0] = REPORT_EVERY
        logger.warning("Invalid HTTP request received.")
        said = lines.records[-1].getMessage()
        assert len(lines.records) == 3
        assert "3 malformed HTTP requests" in said
        assert "199 WebSocket text frames not UTF-8" in said
        assert faults.total["malformed HTTP requests"] == 3
        assert faults.total["WebSocket text frames not UTF-8"] == 200
    finally:
        logger.removeFilter(faults)
        logger.removeHandler(lines)


def test_the_service_refuses_them_and_logs_one_line(service: Any) -> None:
    t = service.new_table([{"kind": "computer", "level": service.level()}] * 5, pace_ms=60_000)
    logger = logging.getLogger("uvicorn.error")
    lines = Lines()
    logger.addHandler(lines)
    try:
        for _ in range(20):
            with connect(f"{service.ws_base}/ws/tables/{t['id']}", ping_interval=None) as ws:
                ws.send(b"\xff\xfe", text=True)
                try:
                    ws.recv(timeout=5)
                    raise AssertionError("a frame that is not UTF-8 was answered")
                except Exception as e:  # closed with 1007
                    assert "1007" in str(e), e
        where = urlsplit(service.base)
        for _ in range(20):
            with socket.create_connection((where.hostname, where.port), timeout=5) as s:
                s.sendall(b"GARBAGE \x00\x01 HTTP/1.1\r\n\r\n")
                assert s.recv(100).startswith(b"HTTP/1.1 400")
        faults = [r for r in lines.records if "clients' faults" in r.getMessage()]
        assert len(lines.records) <= 2, [r.getMessage() for r in lines.records]
        assert all(r.exc_info is None for r in lines.records)
        assert len(faults) == len(lines.records)
    finally:
        logger.removeHandler(lines)
    assert service.http.get("/api").status_code == 200  # the service is as it was
