"""The files of deploy/systemd/ say what works: the unit's command line, with its port
and the settings file's values put in, is one ``domeng serve`` takes (every option
known, every value valid), and every setting it uses is in the settings file. (The
unit under systemd itself is not tested here: the test machines run no systemd.)"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import click
import pytest

from domeng.cli import main

SYSTEMD = Path(__file__).resolve().parents[1] / "deploy" / "systemd"


def settings() -> dict[str, str]:
    """deploy/systemd/domeng.env's settings."""
    found: dict[str, str] = {}
    for line in (SYSTEMD / "domeng.env").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, _, value = line.partition("=")
            found[name.strip()] = value.strip()
    return found


def exec_start(port: int) -> list[str]:
    """The unit's ExecStart for the instance ``port``, as systemd would run it."""
    unit = (SYSTEMD / "domeng@.service").read_text().replace("\\\n", " ")
    (line,) = re.findall(r"^ExecStart=(.*)$", unit, flags=re.MULTILINE)
    known = settings()
    missing = sorted(set(re.findall(r"\$\{(\w+)\}", line)) - set(known))
    assert not missing, f"domeng@.service uses settings domeng.env lacks: {missing}"
    line = re.sub(r"\$\{(\w+)\}", lambda m: known[m.group(1)], line.replace("%i", str(port)))
    return shlex.split(line)


def test_the_units_command_is_one_domeng_serve_takes() -> None:
    program, *args = exec_start(8081)
    assert program == "/opt/domeng/bin/domeng" and args[0] == "serve"
    serve = main.get_command(click.Context(main), "serve")
    assert serve is not None
    ctx = serve.make_context("serve", args[1:])  # a wrong option or value raises here
    assert ctx.params["port"] == 8081 and ctx.params["club"] is True
    assert ctx.params["host"] == "127.0.0.1" and ctx.params["no_browser"] is True
    assert ctx.params["trusted_proxies"] == ("127.0.0.1",)
    assert ctx.params["allow_hosts"] == (settings()["DOMENG_PUBLIC_NAME"],)
    assert ctx.params["db"] == settings()["DOMENG_DB"]


def test_a_wrong_option_in_the_units_command_would_be_caught() -> None:
    serve = main.get_command(click.Context(main), "serve")
    assert serve is not None
    with pytest.raises(click.UsageError):
        serve.make_context("serve", [*exec_start(8081)[2:], "--public-name", "x"])
