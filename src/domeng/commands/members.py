"""`domeng members add NAME [--admin]`: a club's member, made by its owner.

The member is written into the server's database (the one ``domeng serve --club``
uses, ``--db`` as ``serve`` takes it; the service may be running) and given a one-time
link, printed with its QR code, with which they set their own password
(docs/deploy.md, "A club").
"""

from __future__ import annotations

import time
from pathlib import Path

import click

from domeng.i18n import current

DB_HELP = (
    "The server's database: a SQLite file (default: domeng.sqlite3 in the user's data "
    "folder), or a PostgreSQL database as postgresql://USER@HOST/DB."
)


@click.group("members")
def command() -> None:
    """A club's members (domeng serve --club): add one, with a link to set a password."""


@command.command("add")
@click.argument("name")
@click.option("--admin", is_flag=True, help="An admin: adds, suspends and removes members.")
@click.option("--owner", is_flag=True, help="The club's owner: an admin no other admin may act on.")
@click.option("--db", default=None, metavar="FILE|URL", help=DB_HELP)
@click.option(
    "--address",
    default="http://localhost:8080/",
    show_default=True,
    metavar="URL",
    help="The club's address as its members reach it, for the link.",
)
def add(name: str, admin: bool, owner: bool, db: str | None, address: str) -> None:
    """Add a member NAME and print their one-time link (and its QR code)."""
    from domeng.paths import database
    from domeng.server.club.members import LINK_DAYS, add_member, link_address
    from domeng.server.tables import TableError
    from domeng.storage import ADMIN, MEMBER, OWNER, is_postgres
    from domeng.storage.opening import shown
    from domeng.terminal.profiled import DatabaseHeld, open_database

    from .serve import qr_text

    w = current()
    where: str | Path = database() if db is None else db if is_postgres(db) else Path(db)
    try:
        storage = open_database(where)
    except DatabaseHeld:
        raise click.ClickException(w("members.held", path=shown(where))) from None
    role = OWNER if owner else ADMIN if admin else MEMBER
    try:
        made = add_member(storage, name, role, time.time(), by="owner")
    except TableError as e:
        key = "members.name_taken" if e.code == "name_taken" else "members.bad_name"
        raise click.ClickException(w(key, name=repr(name.strip()))) from None
    finally:
        storage.close()
    link = link_address(address, made.code)
    click.echo(w("members.added", name=made.member.name, role=w(f"members.role.{role}")))
    click.echo(w("members.link", days=LINK_DAYS))
    click.echo(link)
    click.echo(qr_text(link))
