"""`domeng serve`: the table service (HTTP + WebSocket) under uvicorn."""

from __future__ import annotations

import socket
import threading
import time
import webbrowser
from pathlib import Path

import click

LOOPBACK = ("127.0.0.1", "localhost", "::1")


def lan_address() -> str | None:
    """This machine's address on the local network (no packet is sent), or None."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
        try:
            s.connect(("10.254.254.254", 1))
            address: str = s.getsockname()[0]
        except OSError:
            return None
    return None if address.startswith("127.") else address


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="The SQLite file of the tables (default: domeng.sqlite3 in the user's data folder).",
)
@click.option("--no-browser", is_flag=True, help="Do not open the browser at a new table.")
def command(host: str, port: int, db: Path | None, no_browser: bool) -> None:
    """Run the table service: play Domeng over the network, tables stored and resumable."""
    import uvicorn

    from domeng.paths import data_dir
    from domeng.server import SQLiteStorage, create_app

    path = db if db is not None else data_dir() / "domeng.sqlite3"
    listener = listen(host, port)
    port = listener.getsockname()[1]  # the port given, or the one chosen for --port 0
    try:
        storage = SQLiteStorage(path)
    except Exception as e:
        hint = " (is another domeng serve using it?)" if "locked" in str(e) else ""
        raise click.ClickException(f"cannot open the database {path}: {e}{hint}") from None
    local = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
    addresses = [local]
    lan = lan_address() if host in ("0.0.0.0", "::") else None
    if lan is not None:
        addresses.append(f"http://{lan}:{port}/")
    app = create_app(storage, addresses=addresses)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=65_536,
        ws_per_message_deflate=False,
        log_level="warning",
        lifespan="on",
    )
    server = uvicorn.Server(config)
    click.echo(f"Domeng table service: {local}  (tables stored in {path})")
    if lan is not None:
        click.echo(f"Others on your home network can open: http://{lan}:{port}/")
    elif host not in LOOPBACK:
        click.echo(f"Listening on {host}:{port}")

    if not no_browser:

        def open_when_started() -> None:
            for _ in range(200):
                if server.started:
                    # the start page deals a new table at once: you against four computers
                    webbrowser.open(local + "?new=1")
                    return
                time.sleep(0.05)

        threading.Thread(target=open_when_started, daemon=True).start()
    server.run(sockets=[listener])


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``, or a clear error (the port is taken)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise click.ClickException(f"cannot listen on {host}: {e.strerror}") from None
    family, kind, proto, _, address = infos[0]
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as e:
        sock.close()
        hint = f" (is Domeng already running? or try --port {port + 1})" if port else ""
        raise click.ClickException(f"cannot listen on {host}:{port}: {e.strerror}{hint}") from None
    sock.listen(2048)
    return sock
