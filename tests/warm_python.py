"""A Python that has imported what ``domeng serve`` imports, and forks a copy of itself
for each ``python -m domeng ...`` a test starts (``tests/warm.py`` asks it).

Run as a script by :mod:`tests.warm`, with one end of a ``SOCK_SEQPACKET`` socket pair
(its file descriptor, the one argument). Each request is a JSON document (the arguments after
``-m domeng``, the environment, the working directory) with three file descriptors (the
new process's standard input, output and error). The answer is ``{"id": I, "pid": N}``
(``I`` the request's ``id``; ``"error"`` instead of ``"pid"`` when it could not fork),
and when that process ends ``{"exit": N, "code": C}`` (a signal's number negative, as
``subprocess.Popen.returncode``). The forked copy becomes ``python -m domeng ...``: its
descriptors, environment, directory and arguments are the request's, it runs
``domeng``'s ``__main__`` the way ``-m`` does (:func:`runpy.run_module`), and it ends as
an interpreter does (its ``atexit`` work, its exit code). Only what a fresh interpreter
does before that is skipped: starting, and importing the modules below (about 0.7 s of
CPU a service on this 2-core machine).

It must hold no thread when it forks, and never writes to its own standard output.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import runpy
import select
import signal
import socket
import sys

PRELOAD = (
    "domeng.cli",
    "domeng.commands.serve",
    "domeng.history.calibration",
    "domeng.paths",
    "domeng.server.app",
    "domeng.server.protocols",
    "domeng.storage",
    "domeng.storage.opening",
    "domeng.storage.postgres",
    "psycopg",
    "psycopg_pool",
    "segno",
    "uvicorn",
    "uvicorn.config",
    "uvicorn.server",
    "uvicorn.lifespan.on",
    "uvicorn.loops.auto",
    "uvicorn.loops.uvloop",
    "uvicorn.protocols.http.auto",
    "uvicorn.protocols.http.httptools_impl",
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.protocols.websockets.auto",
    "uvicorn.protocols.websockets.websockets_sansio_impl",
    "uvloop",
    "webbrowser",
    "resource",
)
"""What a service imports before it answers (``python -X importtime -m domeng serve``),
and PostgreSQL's driver; a name this Python lacks is passed over."""


def _preload() -> None:
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def _send(sock: socket.socket, message: dict[str, object]) -> None:
    with contextlib.suppress(OSError):  # the tests' end closed: nothing to tell
        sock.send(json.dumps(message).encode())


def _forks(sock: socket.socket) -> tuple[dict[str, object], list[int]] | None:
    """Answer requests until one is to be carried out by this process (a forked copy):
    that request and its descriptors; None when the tests' end closes."""
    woken_r, woken_w = os.pipe()
    os.set_blocking(woken_r, False)
    os.set_blocking(woken_w, False)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.set_wakeup_fd(woken_w)
    while True:
        ready, _, _ = select.select([sock, woken_r], [], [])
        if woken_r in ready:
            with contextlib.suppress(BlockingIOError):
                os.read(woken_r, 512)
        while True:  # every copy that ended, reaped and told
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            _send(sock, {"exit": pid, "code": os.waitstatus_to_exitcode(status)})
        if sock not in ready:
            continue
        data, fds, _, _ = socket.recv_fds(sock, 1 << 20, 3)
        if not data:
            return None
        request: dict[str, object] = json.loads(data)
        asked = request.get("id")
        try:
            pid = os.fork()
        except OSError as e:  # this start fails, not every later one
            for fd in fds:
                os.close(fd)
            _send(sock, {"id": asked, "error": str(e)})
            continue
        if pid == 0:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for fd in (woken_r, woken_w):
                os.close(fd)
            sock.close()
            return request, fds
        for fd in fds:
            os.close(fd)
        _send(sock, {"id": asked, "pid": pid})


def _become(request: dict[str, object], fds: list[int]) -> None:
    """This forked copy made the process the request asks for, up to running it."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    for fd in fds:
        if fd > 2:
            os.close(fd)
    cwd = str(request["cwd"])
    os.chdir(cwd)
    env = request["env"]
    assert isinstance(env, dict)
    os.environ.clear()
    os.environ.update({str(k): str(v) for k, v in env.items()})
    args = request["args"]
    assert isinstance(args, list)
    sys.argv = ["-m", *(str(a) for a in args)]
    if not sys.flags.safe_path:  # as `python -m` has it: the directory, absolute
        sys.path[0] = os.getcwd()


def main() -> None:
    _preload()
    sock = socket.socket(fileno=int(sys.argv[1]))
    job = _forks(sock)
    if job is None:
        return
    _become(*job)
    runpy.run_module("domeng", run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
