"""``python -m domeng ...`` started for a test from a warm Python: a copy forked from a
process that has already imported the service (``tests/warm_python.py``), instead of a
fresh interpreter importing it again.

The tests start about 60 services; each spent about 0.7 s of CPU starting Python and
importing before it could answer, a tenth of the suite's CPU on a 2-core machine
(docs/architecture.md, "Where the tests' time goes"). What runs is the same: the
process is its own, with the descriptors, environment, working directory and arguments
the test gives it, and runs ``domeng``'s ``__main__`` as ``-m`` does. What a fresh
interpreter does before (its start, its imports) is still tested by the tests that
start one (``test_serve_command.py``, ``test_cli_imports.py``, the wheel's install).

:func:`start` answers a :class:`Started`, which behaves as the ``subprocess.Popen`` the
tests used (``pid``, ``poll``, ``wait``, ``send_signal``, ``terminate``, ``kill``,
``communicate``, ``returncode``, ``stdout`` and ``stderr`` for ``subprocess.PIPE``). An
environment that changes how Python itself starts (a ``PYTHON*`` or locale variable
other than the warm Python's) gets a fresh interpreter: ``subprocess.Popen``.
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import json
import os
import socket
import subprocess
import sys
import threading
import warnings
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

ZYGOTE = Path(__file__).with_name("warm_python.py")

STARTUP = ("LANG", "LANGUAGE", "LC_ALL", "LC_CTYPE")
"""Variables (with every ``PYTHON*``) a Python reads as it starts: a process whose
environment differs from the warm Python's in one of them is started fresh."""

Out = int | IO[Any] | None


def _startup(env: Mapping[str, str]) -> dict[str, str]:
    return {k: v for k, v in env.items() if k.startswith("PYTHON") or k in STARTUP}


class _Warm:
    """The warm Python of this test process, and what it has said."""

    def __init__(self) -> None:
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        self.env = dict(os.environ)
        self.process = subprocess.Popen(
            [sys.executable, str(ZYGOTE), str(theirs.fileno())],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            pass_fds=(theirs.fileno(),),
            env=self.env,
        )
        theirs.close()
        self.sock = ours
        self.lock = threading.Lock()
        self.changed = threading.Condition()
        self.asked = itertools.count()
        self.answers: dict[int, int | str] = {}
        self.ended: dict[int, int] = {}
        self.alive = True
        threading.Thread(target=self._listen, name="warm-python", daemon=True).start()

    def _listen(self) -> None:
        while True:
            try:
                data = self.sock.recv(1 << 16)
            except OSError:
                data = b""
            with self.changed:
                if not data:
                    self.alive = False
                    self.changed.notify_all()
                    return
                message = json.loads(data)
                if "exit" in message:
                    self.ended[int(message["exit"])] = int(message["code"])
                else:
                    if "pid" in message:  # a number used again: not an earlier process's end
                        self.ended.pop(int(message["pid"]), None)
                    answer = message.get("pid", message.get("error", "?"))
                    self.answers[int(message["id"])] = answer
                self.changed.notify_all()

    def fork(self, args: Sequence[str], env: Mapping[str, str], cwd: str, fds: list[int]) -> int:
        asked = next(self.asked)  # answers are matched by it: a late one is no other's
        request = {"id": asked, "args": list(args), "env": dict(env), "cwd": cwd}
        with self.lock:
            socket.send_fds(self.sock, [json.dumps(request).encode()], fds)
        with self.changed:
            self.changed.wait_for(lambda: asked in self.answers or not self.alive, 60)
            answer = self.answers.pop(asked, None)
        if answer is None:
            raise RuntimeError("the warm Python did not answer")
        if not isinstance(answer, int):
            raise RuntimeError(f"the warm Python could not start {args}: {answer}")
        return answer

    def close(self) -> None:
        # shut down first: the listening thread's recv holds the socket open past a close
        with contextlib.suppress(OSError):
            self.sock.shutdown(socket.SHUT_RDWR)
        self.sock.close()
        self.process.wait(10)


ZYGOTES = 2
"""Warm Pythons a test process keeps, asked in turn. A Python draws its hash secret
(``hash()`` of a text, the order of a set of texts) as it starts, and every copy forked
from it shares it: taking turns, a service started again, or the next of several
processes of one service, has another, as a fresh interpreter would."""

_warm: dict[int, _Warm] = {}
_turns = itertools.count()
_making = threading.Lock()


def _the_warm() -> _Warm:
    n = next(_turns) % ZYGOTES
    with _making:
        warm = _warm.get(n)
        if warm is None or not warm.alive:  # one that ended is replaced
            warm = _warm[n] = _Warm()
            atexit.register(warm.close)
    return warm


class Started:
    """A ``python -m domeng ...`` forked from the warm Python, as ``subprocess.Popen``
    shows a process."""

    def __init__(
        self,
        warm: _Warm,
        args: list[str],
        env: Mapping[str, str],
        cwd: str,
        stdin: Out,
        stdout: Out,
        stderr: Out,
    ) -> None:
        self.args = [sys.executable, "-m", "domeng", *args]
        self.returncode: int | None = None
        self.stdout: IO[bytes] | None = None
        self.stderr: IO[bytes] | None = None
        self._warm = warm
        given: list[int] = []
        mine: list[int] = []  # descriptors opened here: closed once handed over
        for n, (where, own) in enumerate(((stdin, 0), (stdout, 1), (stderr, 2))):
            if where is None:
                given.append(own)
            elif where == subprocess.DEVNULL:
                fd = os.open(os.devnull, os.O_RDWR)
                given.append(fd)
                mine.append(fd)
            elif where == subprocess.PIPE:
                if n == 0:
                    raise ValueError("no standard input by pipe: not used by the tests")
                r, w = os.pipe()
                given.append(w)
                mine.append(w)
                if n == 1:
                    self.stdout = os.fdopen(r, "rb")
                else:
                    self.stderr = os.fdopen(r, "rb")
            elif where == subprocess.STDOUT:
                given.append(given[1])
            elif isinstance(where, int):
                given.append(where)
            else:
                given.append(where.fileno())
        try:
            self.pid = warm.fork(args, env, cwd, given)
        finally:
            for fd in mine:
                os.close(fd)

    def __del__(self, _warn: Any = warnings.warn) -> None:
        # as Popen's: a process never waited for is a test's leak (an error: pyproject)
        if getattr(self, "pid", None) is not None and self.poll() is None:
            _warn(f"subprocess {self.pid} is still running", ResourceWarning, source=self)

    def poll(self) -> int | None:
        if self.returncode is None:
            with self._warm.changed:
                self.returncode = self._warm.ended.pop(self.pid, None)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is not None:
            return self.returncode
        warm = self._warm
        with warm.changed:
            ended = warm.changed.wait_for(lambda: self.pid in warm.ended or not warm.alive, timeout)
            if self.pid not in warm.ended:
                if ended:  # the warm Python itself is gone
                    raise RuntimeError(f"the warm Python ended before process {self.pid}")
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self.returncode = warm.ended.pop(self.pid)
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:  # ended, not reaped yet: as Popen, nothing to signal
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(15)

    def kill(self) -> None:
        self.send_signal(9)

    def communicate(self, timeout: float | None = None) -> tuple[bytes | None, bytes | None]:
        """What the process wrote to its pipes until it ended (as Popen's)."""
        read: dict[str, bytes] = {}

        def drain(name: str, pipe: IO[bytes]) -> None:
            read[name] = pipe.read()
            pipe.close()

        readers = [
            threading.Thread(target=drain, args=(name, pipe), daemon=True)
            for name, pipe in (("out", self.stdout), ("err", self.stderr))
            if pipe is not None
        ]
        for reader in readers:
            reader.start()
        self.wait(timeout)
        for reader in readers:
            reader.join(timeout)
        if any(reader.is_alive() for reader in readers):  # a pipe still held open
            raise subprocess.TimeoutExpired(self.args, timeout or 0)
        return read.get("out"), read.get("err")


Process = subprocess.Popen[bytes] | Started


def start(
    args: Sequence[str],
    *,
    env: Mapping[str, str] | None = None,
    cwd: str | Path | None = None,
    stdin: Out = None,
    stdout: Out = None,
    stderr: Out = None,
) -> Process:
    """``python -m domeng *args`` (``sys.executable``'s Python) with these standard
    streams, environment and directory, forked from the warm Python when its
    environment lets it (else a fresh ``subprocess.Popen``)."""
    env = dict(os.environ if env is None else env)
    where = os.path.abspath(cwd if cwd is not None else os.getcwd())  # as Popen reads it
    warm = _the_warm() if os.environ.get("DOMENG_TESTS_COLD") is None else None
    if warm is None or _startup(env) != _startup(warm.env):
        command = [sys.executable, "-m", "domeng", *args]
        return subprocess.Popen(
            command, env=env, cwd=where, stdin=stdin, stdout=stdout, stderr=stderr
        )
    return Started(warm, list(args), env, where, stdin, stdout, stderr)
