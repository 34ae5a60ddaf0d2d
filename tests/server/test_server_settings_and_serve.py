"""A new table's settings are read strictly; `domeng serve` is a command of `domeng`."""

from __future__ import annotations

import errno
import os
import socket
import subprocess
import sys
import types
from pathlib import Path

import pytest
from click.testing import CliRunner

from domeng.cli import main
from domeng.commands import serve
from domeng.commands.serve import lan_address, listen
from domeng.server.bodies import parse_new_table
from domeng.server.tables import Settings, TableError


def body(**extra: object) -> dict[str, object]:
    return {"seats": [{"kind": "computer", "level": "random"}] * 5, **extra}


def test_defaults_and_a_round_trip_of_the_settings() -> None:
    settings, seats = parse_new_table(body())
    assert settings.pace_ms == 800
    assert settings.replace_after_ms == 30_000
    assert [s.kind for s in seats] == ["computer"] * 5
    assert seats[0].name == "Andi (random)"
    again = Settings.from_json(settings.json())
    assert again == settings
    s2, _ = parse_new_table(
        body(
            variants={"opening": "free"},
            pace_ms=0,
            stand_in=None,
            replace_after_ms=None,
            end={"titles": 2},
        )
    )
    assert Settings.from_json(s2.json()) == s2
    assert s2.end_titles == 2
    assert s2.stand_in is None


@pytest.mark.parametrize(
    ("extra", "code"),
    [
        ({"end": {"rounds": 0}}, "bad_body"),
        ({"end": {"rounds": 2, "titles": 1}}, "bad_body"),
        ({"end": "never"}, "bad_body"),
        ({"pace_ms": True}, "bad_body"),
        ({"pace_ms": 1.5}, "bad_body"),
        ({"pace_ms": None}, "bad_body"),
        ({"end": {"rounds": None}}, "bad_body"),
        ({"end": {"titles": None}}, "bad_body"),
        ({"stand_in": "nobody"}, "bad_level"),
        ({"variants": "double"}, "bad_variants"),
        ({"seats": [{"kind": "person", "level": "basic"}] * 5}, "bad_body"),
        ({"seats": [{"kind": "person", "name": "x" * 41}] * 5}, "bad_name"),
        ({"seats": [{"kind": "person", "colour": "red"}] * 5}, "bad_body"),
    ],
)
def test_a_bad_setting_is_named(extra: dict[str, object], code: str) -> None:
    with pytest.raises(TableError) as e:
        parse_new_table(body(**extra))
    assert e.value.code == code
    assert e.value.status == 422


def test_serve_is_a_command_with_its_options() -> None:
    result = CliRunner().invoke(main, ["serve", "--help"])
    assert result.exit_code == 0
    for option in ("--host", "--port", "--db", "--no-browser"):
        assert option in result.output


class _FakeUdpSocket:
    """Stands in for the socket lan_address() opens: it answers ``address`` (or raises it)."""

    def __init__(self, address: str | OSError, family: int, kind: int) -> None:
        assert (family, kind) == (socket.AF_INET, socket.SOCK_DGRAM)  # UDP: no packet sent
        self.address = address
        self.closed = False

    def __enter__(self) -> _FakeUdpSocket:
        return self

    def __exit__(self, *exc: object) -> None:
        self.closed = True

    def connect(self, address: tuple[str, int]) -> None:
        if isinstance(self.address, OSError):
            raise self.address

    def getsockname(self) -> tuple[str, int]:
        assert isinstance(self.address, str)
        return (self.address, 54321)


@pytest.mark.parametrize(
    ("answer", "expected"),
    [
        ("127.0.1.1", None),
        ("127.0.0.1", None),
        ("192.168.1.20", "192.168.1.20"),
        ("10.0.0.7", "10.0.0.7"),
        (OSError(errno.ENETUNREACH, "Network is unreachable"), None),
    ],
    ids=["127.0.1.1", "127.0.0.1", "home network", "10.x", "no network"],
)
def test_the_lan_address_is_not_a_loopback_address(
    monkeypatch: pytest.MonkeyPatch, answer: str | OSError, expected: str | None
) -> None:
    opened: list[_FakeUdpSocket] = []

    def fake_socket(family: int, kind: int) -> _FakeUdpSocket:
        opened.append(_FakeUdpSocket(answer, family, kind))
        return opened[-1]

    # only serve's own name for the socket module is replaced: no real socket, no traffic
    fake_module = types.SimpleNamespace(
        socket=fake_socket, AF_INET=socket.AF_INET, SOCK_DGRAM=socket.SOCK_DGRAM
    )
    monkeypatch.setattr(serve, "socket", fake_module)
    assert lan_address() == expected
    assert len(opened) == 1 and opened[0].closed


def test_serve_names_a_port_that_is_taken_and_the_port_it_chose_for_port_0(
    tmp_path: Path,
) -> None:
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    command = [sys.executable, "-m", "domeng", "serve", "--no-browser"]
    db = ["--db", str(tmp_path / "t.sqlite3")]
    env = dict(os.environ, PYTHONUNBUFFERED="1", DOMENG_DATA_DIR=str(tmp_path))
    try:
        done = subprocess.run(
            [*command, "--port", str(port), *db],
            capture_output=True,
            text=True,
            timeout=60,
            env=env,
        )
    finally:
        taken.close()
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr
    assert f"try --port {port + 1}" in done.stderr
    assert "Traceback" not in done.stderr

    with subprocess.Popen(
        [*command, "--port", "0", *db],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    ) as proc:
        try:
            assert proc.stdout is not None
            first = proc.stdout.readline()
            assert first.startswith("Domeng table service: http://127.0.0.1:")
            chosen = int(first.split("127.0.0.1:")[1].split("/")[0])
            assert chosen != 0
            with socket.create_connection(("127.0.0.1", chosen), timeout=30):
                pass  # it listens where it says
        finally:
            proc.terminate()
            proc.communicate(timeout=30)


def test_serve_listens_on_every_address_of_its_host() -> None:
    # "localhost" is often both ::1 and 127.0.0.1; binding only the first refused the other
    sockets = listen("localhost", 0)
    try:
        assert len({s.getsockname()[1] for s in sockets}) == 1  # one port for all
        port = sockets[0].getsockname()[1]
        for s in sockets:
            host = s.getsockname()[0]
            with socket.create_connection((host, port), timeout=10):
                pass
        bound = {s.getsockname()[0] for s in sockets}
        assert "127.0.0.1" in bound or "::1" in bound
    finally:
        for s in sockets:
            s.close()


def test_the_home_network_address_is_drawn_as_a_qr_code_for_a_phone() -> None:
    import segno

    from domeng.commands.serve import qr_text

    data = "http://192.168.1.20:8080/"
    drawn = qr_text(data).splitlines()
    size = len(segno.make(data, error="m").matrix) + 4  # the code and its border of 2
    assert len(drawn) == (size + 1) // 2  # two rows of modules to a line of text
    assert {len(line) for line in drawn} == {size}
    assert set("".join(drawn)) <= {"█", "▀", "▄", " "}
    assert qr_text("http://192.168.1.21:8080/") != qr_text(data)
