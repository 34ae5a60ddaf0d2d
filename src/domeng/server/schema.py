"""The protocol's JSON Schema, made from its typed models (served at
``GET /api/protocol.schema.json``).

One document, whose ``$defs`` name each kind of body and message:
``client_message`` (any message a client sends), ``service_message`` (any the
service sends), the HTTP bodies (``new_table``, ``take_seat``, ``leave_seat``,
``host_action``, ``new_profile``) and answers (``table``, ``tables``,
``new_table_answer``, ``taken_seat``, ``host_answer``, ``replay``, ``review``,
``http_error``; the players': ``profile``, ``picked_profile``, ``profiles``,
``player_page``, ``leaderboard``, ``table_stones``; the tournaments':
``new_tournament``, ``director_action``, ``entrant_token``, ``tournament``,
``entrant_view``), beside the shapes they are
made of. A program validates a
message against ``{"$ref": ".../protocol.schema.json#/$defs/client_message"}``;
the document itself accepts any of the kinds.
"""

from __future__ import annotations

import functools
from typing import Annotated, Any

from pydantic import Field, TypeAdapter

from . import documents as doc
from .bodies import LeaveSeat, NewTable, TakeSeat
from .host import HostAction
from .messages import Back, Chat, Hello, Hint, Ping, Play, Ready, Sync
from .profiles import NewProfile
from .tournament_bodies import DirectorAction, EntrantToken, NewTournament
from .tournament_documents import EntrantViewDoc, TournamentDoc

ClientMessageDoc = Annotated[
    Hello | Play | Ready | Sync | Ping | Back | Chat | Hint, Field(discriminator="type")
]
ServiceMessageDoc = Annotated[doc.ServiceMessage, Field(discriminator="type")]


KINDS: dict[str, Any] = {
    "client_message": ClientMessageDoc,
    "service_message": ServiceMessageDoc,
    "new_table": NewTable,
    "take_seat": TakeSeat,
    "leave_seat": LeaveSeat,
    "host_action": HostAction,
    "host_answer": doc.HostAnswerDoc,
    "table": doc.TableDoc,
    "tables": doc.TablesDoc,
    "new_table_answer": doc.NewTableDoc,
    "taken_seat": doc.TakenSeatDoc,
    "replay": doc.ReplayDoc,
    "review": doc.ReviewDoc,
    "http_error": doc.HttpError,
    "new_profile": NewProfile,
    "profile": doc.ProfileDoc,
    "picked_profile": doc.PickedProfileDoc,
    "profiles": doc.ProfilesDoc,
    "player_page": doc.PlayerPageDoc,
    "leaderboard": doc.LeaderboardDoc,
    "table_stones": doc.TableStonesDoc,
    "new_tournament": NewTournament,
    "director_action": DirectorAction,
    "entrant_token": EntrantToken,
    "tournament": TournamentDoc,
    "entrant_view": EntrantViewDoc,
}
"""Every kind of body and message, by the name the schema's ``properties`` give it."""


@functools.cache
def adapter(name: str) -> TypeAdapter[Any]:
    """A validator for one of :data:`KINDS` (for tests, and clients in Python)."""
    return TypeAdapter(KINDS[name])


@functools.cache
def protocol_schema() -> dict[str, Any]:
    """The JSON Schema of every body and message of docs/protocol.md."""
    inputs = [(name, "validation", adapter(name)) for name in KINDS]
    refs, defs = TypeAdapter.json_schemas(inputs, ref_template="#/$defs/{model}")  # type: ignore[arg-type]
    shapes = defs.get("$defs", {})
    assert not set(shapes) & set(KINDS), "a shape is named like a kind"
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "/api/protocol.schema.json",
        "title": "The Domeng table service protocol (docs/protocol.md)",
        "anyOf": [{"$ref": f"#/$defs/{name}"} for name in KINDS],
        "$defs": {**{name: refs[(name, "validation")] for name in KINDS}, **shapes},
    }
