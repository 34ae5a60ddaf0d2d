"""The command line that runs this Domeng again, from where the user is.

``domeng`` is not always on the PATH: ``make play`` runs ``.venv/bin/domeng`` and
``python -m domeng`` runs the package. A command the terminal prints for later (the
resume line, the replay line, the seed, a player's page) names the program as it was
started: ``domeng`` when that name on the PATH is this very program, else the path of
the running ``domeng`` script, else ``python -m domeng`` with this interpreter's path.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

__all__ = ["command_line", "program"]


def program(argv0: str | None = None) -> list[str]:
    """The words that start this program again (``argv0``: ``sys.argv[0]``).

    >>> import sys
    >>> program("/no/such/dir/__main__.py") == [sys.executable, "-m", "domeng"]
    True
    """
    started = sys.argv[0] if argv0 is None else argv0
    path = Path(started) if started else None
    if path is not None and path.stem.lower() == "domeng" and path.is_file():
        on_path = shutil.which("domeng")
        if on_path is not None and Path(on_path).resolve() == path.resolve():
            return ["domeng"]
        return [os.path.abspath(path)]
    return [sys.executable, "-m", "domeng"]


def command_line(*args: object, argv0: str | None = None) -> str:
    """This program with ``args``, quoted for the user's shell.

    >>> command_line("play", "--resume", "my game.json", argv0="").endswith(
    ...     " -m domeng play --resume 'my game.json'") or sys.platform == "win32"
    True
    """
    words = [*program(argv0), *(str(a) for a in args)]
    if sys.platform == "win32":
        return subprocess.list2cmdline(words)
    return shlex.join(words)
