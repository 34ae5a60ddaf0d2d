"""Every builder of what the service sends is typed with its document of
:mod:`domeng.server.documents` (so ``mypy --strict`` checks each key and value it
writes), not with a loose ``dict[str, Any]``."""

from __future__ import annotations

import inspect
from collections.abc import Callable

from domeng.engine.standings import Standing
from domeng.server import app, documents, hinting, host, reviews, wire
from domeng.server.connection import Connection, encode
from domeng.server.fanout import Fanout
from domeng.server.hub import Hub
from domeng.server.registry import Created
from domeng.server.settings import Settings
from domeng.server.sharedview import SharedView
from domeng.server.showing import Showing
from domeng.server.tables import Table, TableError, chat_json

BUILDERS: list[Callable[..., object]] = [
    wire.move_json,
    wire.event_json,
    wire.events_json,
    wire.summary_json,
    wire.shared_view_json,
    wire.view_json,
    wire.replay_rounds,
    SharedView.json,
    Table.public_json,
    Table.events_json,
    Table.clock_json,
    Table.standings_json,
    Table.shared_view_json,
    Table.view_json,
    Table.state_message,
    Showing.public_json,
    Showing.events_json,
    Showing.clock_json,
    Showing.standings_json,
    Showing.shared_view_json,
    Showing.view_json,
    Showing.state_message,
    TableError.json,
    Settings.json,
    Standing.json,
    chat_json,
    Created.json,
    Hub.state_message,
    host.act,
    hinting.hint_body,
]
TAKERS: list[Callable[..., object]] = [
    encode,
    Connection.send,
    Fanout.update,
    Hub.broadcast,
    Table.broadcast,
]
"""What sends a message: typed with the messages it takes."""
LOOSE = {"Json", "Any", "dict", "object"}


def _names(annotation: object) -> set[str]:
    """The names an annotation (a string: the modules postpone them) is made of."""
    text = str(annotation)
    for sign in "|[],":
        text = text.replace(sign, " ")
    return set(text.split())


def test_every_builder_returns_a_document() -> None:
    known = set(vars(documents)) | {"None", "list", "StandingJson"}
    for f in BUILDERS:
        returned = _names(inspect.signature(f).return_annotation)
        assert not returned & LOOSE, (f.__qualname__, returned)
        assert returned <= known, (f.__qualname__, returned - known)


def test_every_sender_takes_documents() -> None:
    for f in TAKERS:
        for p in inspect.signature(f).parameters.values():
            if p.name in ("message", "events"):
                assert not _names(p.annotation) & LOOSE, f.__qualname__


def test_the_answers_are_annotated_with_documents() -> None:
    # app.py, reviews.py: an answer is put in a variable typed with its document first
    for module, names in [
        (app, ("HttpError", "ServiceInfoDoc", "TablesDoc", "TakenSeatDoc", "TableAnswerDoc")),
        (reviews, ("ReviewDoc",)),
    ]:
        text = inspect.getsource(module)
        for name in names:
            assert f": {name} = " in text, (module.__name__, name)
