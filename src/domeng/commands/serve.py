"""`domeng serve`: the table service (HTTP + WebSocket) under uvicorn."""

from __future__ import annotations

import contextlib
import errno
import socket
import threading
import time
import warnings
import webbrowser
from pathlib import Path
from typing import Any

import click

from domeng.i18n import Words, current
from domeng.i18n.choose import named

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


def raise_open_files(wanted: int = 8192) -> int:
    """Raise this process's limit of open files (each connection is one) towards
    ``wanted``, as far as the system lets it; answers the limit now (0: not known)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def qr_text(data: str) -> str:
    """A QR code of ``data`` drawn with block characters, for a terminal."""
    import io

    import segno

    out = io.StringIO()
    segno.make(data, error="m").terminal(out=out, compact=True, border=2)
    return out.getvalue().rstrip("\n")


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", default=8080, show_default=True, type=click.IntRange(0, 65535))
@click.option(
    "--db",
    default=None,
    metavar="FILE|URL",
    help="Where the tables are kept: a SQLite file (default: domeng.sqlite3 in the user's data "
    "folder), or a PostgreSQL database as postgresql://USER@HOST/DB.",
)
@click.option("--no-browser", is_flag=True, help="Do not open the browser at a new table.")
@click.option(
    "--allow-host",
    "allow_hosts",
    multiple=True,
    metavar="NAME",
    help="Another name the service answers for (it answers only for its own names).",
)
@click.option(
    "--trust-proxy",
    "trusted_proxies",
    multiple=True,
    metavar="ADDRESS",
    help="A reverse proxy (an address or a network) whose X-Forwarded-For and "
    "X-Forwarded-Proto headers are believed; none by default.",
)
@click.option(
    "--calibration",
    "calibration_file",
    type=click.Path(exists=True, dir_okay=False, path_type=Path),
    default=None,
    help="The computer players' first ratings, as domeng sim --calibrate FILE wrote them "
    "(default: the ones shipped with Domeng); for the levels the database has no profile "
    "of yet, such as a new database's.",
)
@click.option(
    "--spectators-per-address",
    default=20,  # limits.SPECTATORS_PER_ADDRESS (not imported: the service loads on start)
    show_default=True,
    type=click.IntRange(1, 4000),
    help="How many may watch at once from one address (this computer counted as one); "
    "the seated always have room.",
)
@click.option(
    "--coach-level",
    default="expert",  # bots.coach.COACH_LEVEL (not imported: the service loads on start)
    show_default=True,
    type=click.Choice(["expert:fast", "expert", "expert:strong"]),
    help="How long the coach thinks over each hint and review: expert:fast answers in a "
    "third of the time (a small computer), expert:strong judges finer and takes longer.",
)
@click.option(
    "--peer",
    default=None,
    metavar="URL",
    help="On PostgreSQL: the address the service's other processes reach this one at "
    "(default: http://HOST:PORT, 127.0.0.1 for 0.0.0.0).",
)
@click.option(
    "--club",
    is_flag=True,
    help="A club's service: only signed-in members play (domeng members add NAME).",
)
def command(**options: Any) -> None:
    """Run the table service: play Domeng over the network, tables stored and resumable."""
    try:
        _serve(**options)  # the options by name, typed there
    except KeyboardInterrupt:
        # Ctrl-C: uvicorn stops, then raises the signal again, or it came before (while
        # the database opens, before uvicorn took the signal over): the service was
        # stopped as asked, a normal end (exit status 0), not click's "Aborted!"
        click.echo(current()("serve.stopped"))


def _serve(
    host: str,
    port: int,
    db: str | None,
    no_browser: bool,
    allow_hosts: tuple[str, ...],
    trusted_proxies: tuple[str, ...],
    calibration_file: Path | None,
    spectators_per_address: int,
    coach_level: str,
    peer: str | None,
    club: bool,
) -> None:
    """:func:`command`'s work (a Ctrl-C at any moment of it ends it normally)."""
    import uvicorn

    from domeng.history import calibration
    from domeng.paths import database, pending_dir
    from domeng.server import create_app, protocols
    from domeng.storage import DatabaseServed, is_postgres, open_storage
    from domeng.storage.opening import shown

    calibrated = None
    if calibration_file is not None:
        try:
            calibrated = calibration.load(calibration_file)
        except (OSError, ValueError) as e:  # json's errors are ValueErrors
            said = current()("serve.bad_calibration", path=calibration_file, why=e)
            raise click.ClickException(said) from None
    where: str | Path = database() if db is None else db if is_postgres(db) else Path(db)
    path = shown(where)
    raise_open_files()
    listeners = listen(host, port)
    try:
        port = listeners[0].getsockname()[1]  # the port given, or the one chosen for --port 0
        try:
            storage = open_storage(where, service=True)
        except DatabaseServed:
            raise click.ClickException(current()("serve.db_served", path=path)) from None
        except Exception as e:
            key = "serve.db_locked" if "locked" in str(e) else "serve.db_failed"
            raise click.ClickException(current()(key, path=path, why=e)) from None
        local = f"http://{'127.0.0.1' if host in ('0.0.0.0', '::') else host}:{port}/"
        addresses = [local]
        lan = lan_address() if host in ("0.0.0.0", "::") else None
        if lan is not None:
            addresses.append(f"http://{lan}:{port}/")
        names = set(allow_hosts)
        if host not in ("0.0.0.0", "::"):
            names.add(host)
        elif lan is not None:  # the names this computer has on the home network
            machine = socket.gethostname().lower()
            names |= {machine, f"{machine}.local"}
        # the terminal's games played while this service holds the shared database
        pending = pending_dir() if db is None else None
        app = create_app(
            storage,
            addresses=addresses,
            allowed_hosts=names,
            pending=pending,
            calibrated=calibrated,
            settle_memory=True,
            spectators_per_address=spectators_per_address,
            club=club,
            coach_level=coach_level,
            # on PostgreSQL every process is one of the service's (docs/architecture.md)
            peer=(peer or local.rstrip("/")) if is_postgres(where) else None,
        )
        config = protocols.config(
            app,
            trusted_proxies=trusted_proxies,
            host=host,
            port=port,
            log_level="warning",
            lifespan="on",
            # on Ctrl-C or SIGTERM, connections get a few seconds to close; a client that has
            # stopped reading would otherwise hold the service open for ever
            timeout_graceful_shutdown=5,
        )
        server = uvicorn.Server(config)
        w = current()
        _announce(w, local, path, lan, host, port)
        if club:
            click.echo(w("serve.club"))
        if not no_browser:
            _open_when_started(server, local, w)
        # a Ctrl-C in the very first moment leaves uvicorn's coroutine unstarted: no warning
        warnings.filterwarnings("ignore", "coroutine 'Server.serve' was never awaited")
        server.run(sockets=listeners)

    finally:  # ended, refused or interrupted: the sockets are let go
        for listener in listeners:
            listener.close()


def _announce(w: Words, local: str, path: str, lan: str | None, host: str, port: int) -> None:
    """Where the service is, and how to stop it."""
    click.echo(w("serve.started", url=local, path=path))
    if lan is not None:
        click.echo(w("serve.lan", url=f"http://{lan}:{port}/"))
        click.echo(w("serve.scan"))
        click.echo(qr_text(f"http://{lan}:{port}/"))
    elif host not in LOOPBACK:
        click.echo(w("serve.listening", address=f"{host}:{port}"))
    click.echo(w("serve.stop"))


def _open_when_started(server: Any, local: str, w: Words) -> None:
    """Open the browser at a new table once the service has started."""

    def open_when_started() -> None:
        for _ in range(200):
            if server.started:
                # the start page deals a new table at once: you against four computers,
                # in the language asked for (--lang, DOMENG_LANG), else the browser's
                webbrowser.open(local + "?new=1" + (f"&lang={w.code}" if named() else ""))
                return
            time.sleep(0.05)

    threading.Thread(target=open_when_started, daemon=True).start()


_OS_WORDS = {
    errno.EADDRINUSE: "serve.why.in_use",
    errno.EACCES: "serve.why.denied",
    errno.EADDRNOTAVAIL: "serve.why.not_here",
}
"""The system's reasons a socket cannot listen, said in the language (else the system's
own words)."""


def os_words(error: OSError) -> str:
    """Why ``error`` happened, in the terminal's language when it is a common reason."""
    w = current()
    if isinstance(error, socket.gaierror):
        return w("serve.why.unknown_host")
    key = _OS_WORDS.get(error.errno or 0)
    return w(key) if key is not None else str(error.strerror or error)


def listen(host: str, port: int) -> list[socket.socket]:
    """Sockets listening on every address of ``host`` (``localhost`` is often both
    127.0.0.1 and ::1) at ``port``, or at one free port for ``--port 0``; or a clear
    error, for a port that is taken above all."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise click.ClickException(
            current()("serve.cannot_listen", address=host, why=os_words(e))
        ) from None
    sockets: list[socket.socket] = []
    failure: OSError | None = None
    for family, kind, proto, _, address in dict.fromkeys(infos):
        sock = socket.socket(family, kind, proto)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if family == socket.AF_INET6:
            sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        try:
            sock.bind((address[0], port, *address[2:]))
        except OSError as e:
            sock.close()
            if e.errno == errno.EADDRINUSE or failure is None:
                failure = e
            if e.errno == errno.EADDRINUSE:
                break
            continue  # e.g. ::1 on a machine without IPv6: the other addresses will do
        port = port or sock.getsockname()[1]  # --port 0: the others take the same port
        sock.listen(2048)
        sockets.append(sock)
    if failure is not None and (failure.errno == errno.EADDRINUSE or not sockets):
        for sock in sockets:
            sock.close()
        w = current()
        where = f"{host}:{port}"
        if 0 < port < 65535:
            said = w("serve.port_taken", address=where, why=os_words(failure), port=port + 1)
        else:
            said = w("serve.cannot_listen_running", address=where, why=os_words(failure))
        raise click.ClickException(said)
    return sockets
