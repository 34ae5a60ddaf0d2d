"""A PostgreSQL database for the tests that need one.

``DOMENG_TEST_POSTGRES`` names one (a ``postgresql://`` URL; ``.ci/run`` starts a
throw-away cluster and sets it); else, where PostgreSQL's server programs are installed
(``initdb`` and ``pg_ctl``, on the PATH or in Debian's /usr/lib/postgresql/*/bin), the
tests start a throw-away cluster of their own on a unix socket in a temporary folder,
as the user ``postgres`` when they run as root (the server refuses to run as root), and
stop it at the end. Without either the tests skip, saying why; under ``CI`` they fail.

Each test gets a schema of its own in that database (:func:`postgres_url`): its URL
sets the ``search_path`` to it, and the schema is dropped afterwards.
"""

from __future__ import annotations

import glob
import os
import pwd
import secrets
import shutil
import subprocess
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from tests.ports import free_port

VARIABLE = "DOMENG_TEST_POSTGRES"


def _missing(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"PostgreSQL is needed under CI: {reason}")
    pytest.skip(f"no PostgreSQL: {reason}")


def _server_programs() -> tuple[str, str] | None:
    initdb, pg_ctl = shutil.which("initdb"), shutil.which("pg_ctl")
    if initdb and pg_ctl:
        return initdb, pg_ctl
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(f"{folder}/initdb") and os.path.exists(f"{folder}/pg_ctl"):
            return f"{folder}/initdb", f"{folder}/pg_ctl"
    return None


def _run(command: list[str]) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)


@pytest.fixture(scope="session")
def postgres_cluster() -> Iterator[str]:
    """The URL of a PostgreSQL database the tests may make schemas in."""
    given = os.environ.get(VARIABLE)
    if given:
        yield given
        return
    programs = _server_programs()
    if programs is None:
        _missing(f"set {VARIABLE} to a postgresql:// URL, or install PostgreSQL's server")
        return
    initdb, pg_ctl = programs
    as_user: list[str] = []
    folder = Path(tempfile.mkdtemp(prefix="domeng-pg-"))
    if os.geteuid() == 0:  # the server refuses to run as root
        try:
            owner = pwd.getpwnam("postgres")
        except KeyError:
            shutil.rmtree(folder)
            _missing("running as root, and there is no user postgres to run the server as")
            return
        os.chown(folder, owner.pw_uid, owner.pw_gid)
        as_user = ["runuser", "-u", "postgres", "--"]
    data, port = folder / "data", free_port()
    made = _run([*as_user, initdb, "-D", str(data), "-U", "postgres", "-A", "trust",
                 "--no-sync", "-E", "UTF8", "--locale=C"])  # fmt: skip
    if made.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        _missing(f"initdb failed: {made.stderr.decode(errors='replace')}")
        return
    options = f"-k {folder} -p {port} -c listen_addresses='' -c fsync=off"
    started = _run(
        [*as_user, pg_ctl, "-D", str(data), "-l", str(folder / "log"), "-w", "-o", options, "start"]
    )
    if started.returncode != 0:
        shutil.rmtree(folder, ignore_errors=True)
        _missing(f"pg_ctl start failed: {started.stderr.decode(errors='replace')}")
        return
    try:
        yield f"postgresql://postgres@/postgres?host={folder}&port={port}"
    finally:
        _run([*as_user, pg_ctl, "-D", str(data), "-m", "fast", "-w", "stop"])
        shutil.rmtree(folder, ignore_errors=True)


def with_schema(url: str, schema: str) -> str:
    """``url`` whose connections work in ``schema`` (their ``search_path``)."""
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


@pytest.fixture
def postgres_url(postgres_cluster: str) -> Iterator[str]:
    """The URL of an empty schema of its own for one test (dropped afterwards). Its
    database is shared with the tests the other workers run at the same time: a test
    that cuts every connection of its database (``pg_terminate_backend``) takes one of
    its own (:func:`postgres_database`), or it cuts theirs too."""
    import psycopg

    schema = "test_" + secrets.token_hex(6)
    with psycopg.connect(postgres_cluster, autocommit=True) as conn:
        conn.execute(f"CREATE SCHEMA {schema}")
    try:
        yield with_schema(postgres_cluster, schema)
    finally:
        with psycopg.connect(postgres_cluster, autocommit=True) as conn:
            conn.execute(f"DROP SCHEMA {schema} CASCADE")


def client_program(name: str) -> str | None:
    """PostgreSQL's program ``name`` (``pg_dump``, ``pg_restore``): the newest server's
    own in Debian's folders, else the one on the PATH."""
    for folder in sorted(glob.glob("/usr/lib/postgresql/*/bin"), reverse=True):
        if os.path.exists(f"{folder}/{name}"):
            return f"{folder}/{name}"
    return shutil.which(name)


def as_url(conninfo: str) -> str:
    """``conninfo`` as a ``postgresql://`` URL, the form ``domeng serve --db`` takes."""
    from urllib.parse import quote

    from psycopg.conninfo import conninfo_to_dict

    d = {k: str(v) for k, v in conninfo_to_dict(conninfo).items()}
    who = quote(d.pop("user", "postgres"), safe="")
    if "password" in d:
        who += ":" + quote(d.pop("password"), safe="")
    host = quote(d.pop("host", "127.0.0.1"), safe="")
    port = d.pop("port", "5432")
    name = quote(d.pop("dbname", "postgres"), safe="")
    rest = "&".join(f"{k}={quote(v, safe='')}" for k, v in sorted(d.items()))
    return f"postgresql://{who}@{host}:{port}/{name}" + (f"?{rest}" if rest else "")


@pytest.fixture
def postgres_database(postgres_cluster: str) -> Iterator[Callable[[], str]]:
    """Makes new databases of their own (dropped afterwards); answers their URLs."""
    import psycopg
    from psycopg.conninfo import conninfo_to_dict, make_conninfo

    made: list[str] = []

    def new() -> str:
        name = "test_" + secrets.token_hex(6)
        with psycopg.connect(postgres_cluster, autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        made.append(name)
        return as_url(make_conninfo(**{**conninfo_to_dict(postgres_cluster), "dbname": name}))

    yield new
    with psycopg.connect(postgres_cluster, autocommit=True) as conn:
        for name in made:
            conn.execute(f"DROP DATABASE IF EXISTS {name} WITH (FORCE)")
