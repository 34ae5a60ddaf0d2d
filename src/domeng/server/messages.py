"""The WebSocket messages of docs/protocol.md as typed models.

What a client sends is a pydantic model per ``type`` (:class:`Hello`,
:class:`Play`, :class:`Ready`, :class:`Sync`, :class:`Ping`), checked by
:func:`read_message`, which answers the model or raises the protocol's refusal.
A new kind of message is a new model here and one line in :data:`CLIENT`.

What the service sends is described by typed dicts (:mod:`.documents`): plain
dicts at run time, so building and encoding them costs nothing more, and the
source, with the client's models, of the protocol's JSON Schema (:mod:`.schema`).
"""

from __future__ import annotations

import json
from typing import Annotated, ClassVar, Literal

from pydantic import BaseModel, BeforeValidator, ConfigDict, Field, ValidationError, model_validator

from .documents import Json
from .errors import TableError
from .refusals import Rule, Wording, fault, refusal

MAX_MESSAGE = 4096
"""The longest WebSocket message accepted, in characters (a play is about 60)."""
MAX_ID = 100
"""The longest text ``id`` a client's message may carry to be repeated as ``reply_to``."""


def reply_id(value: object) -> str | int | None:
    """The ``id`` a client gave, to repeat as ``reply_to``: a text (up to :data:`MAX_ID`
    characters) or a whole number; any other id is answered with null."""
    if isinstance(value, str) and len(value) <= MAX_ID:
        return value
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 2**53:
        return value
    return None


ReplyId = Annotated[
    str | int | None,
    BeforeValidator(reply_id),
    Field(description="repeated as reply_to in the answer (a text or a whole number)"),
]


class ClientMessage(BaseModel):
    """What every client message has: its ``type`` and an optional ``id``."""

    model_config = ConfigDict(strict=True, extra="ignore")
    spectator_refused: ClassVar[str | None] = None
    """Only a connection with a seat may send it: a spectator's is refused (``not_seated``)
    with these words."""
    before_hello: ClassVar[bool] = False
    """It may come before ``hello``."""

    id: ReplyId = None


class Hello(ClientMessage):
    """Sit in the seat of ``token``, or watch (no token)."""

    before_hello: ClassVar[bool] = True
    type: Literal["hello"]
    token: str | None = None


class Play(ClientMessage):
    """Play ``tile`` at ``end``, chosen in state ``state``."""

    spectator_refused: ClassVar[str | None] = "a spectator cannot play; say hello with a seat token"
    type: Literal["play"]
    state: int = Field(description="the state number the play was chosen in")
    tile: str = Field(description='a tile, written like "6-4"')
    end: str | None = Field(default=None, description='"left" or "right"')


class Ready(ClientMessage):
    """Ready for the next round."""

    spectator_refused: ClassVar[str | None] = "a spectator has no seat to be ready in"
    type: Literal["ready"]


class Sync(ClientMessage):
    """Send me the whole state again."""

    type: Literal["sync"]


class Ping(ClientMessage):
    """Answered by ``pong``."""

    before_hello: ClassVar[bool] = True
    type: Literal["ping"]


class Back(ClientMessage):
    """Back to my seat: no computer plays for me any more on the turn clock."""

    spectator_refused: ClassVar[str | None] = "a spectator has no seat to come back to"
    type: Literal["back"]


class Chat(ClientMessage):
    """Say ``text`` (1 to 200 characters) or a quick ``phrase`` at the table."""

    type: Literal["chat"]
    text: str | None = Field(default=None, description="1 to 200 characters")
    phrase: str | None = Field(default=None, description="one of the quick phrases")

    @model_validator(mode="after")
    def _one(self) -> Chat:
        if (self.text is None) == (self.phrase is None):
            raise fault("bad_field", "needs a text or a phrase (one of the two)")
        return self


class Hint(ClientMessage):
    """What would the coach play here? Answered by ``hint`` (tables with ``hints`` on)."""

    spectator_refused: ClassVar[str | None] = "a spectator has no seat to ask a hint for"
    type: Literal["hint"]


CLIENT: dict[str, type[ClientMessage]] = {
    "hello": Hello,
    "play": Play,
    "ready": Ready,
    "sync": Sync,
    "ping": Ping,
    "back": Back,
    "chat": Chat,
    "hint": Hint,
}
"""Every message a client may send, by its ``type``."""

WORDS = Wording(
    rules={
        "token": Rule("bad_field", "must be a text"),
        "state": Rule("bad_field", "must be a whole number"),
        "tile": Rule("bad_tile", 'must be written like "6-4"'),
        "end": Rule("bad_end", "must be 'left' or 'right'"),
        "text": Rule("bad_field", "must be a text"),
        "phrase": Rule("bad_field", "must be a text"),
    },
    first=("missing",),
    missing=lambda name: ("missing_field", f"a play needs {name!r}"),
    label=lambda loc: str(loc[-1]) if loc else "the message",
    unknown_code="bad_field",
)


class Refused(TableError):
    """A refusal of a message, with the ``id`` to answer it with."""

    def __init__(self, e: TableError, reply_to: str | int | None) -> None:
        super().__init__(e.code, e.message, e.status)
        self.reply_to = reply_to


def read_frame(text: str | None) -> Json:
    """A WebSocket frame as a JSON object (before its ``type`` is known)."""
    if text is None:
        raise Refused(TableError("binary", "send text messages (JSON), not binary ones"), None)
    if len(text) > MAX_MESSAGE:
        message = f"messages are at most {MAX_MESSAGE} characters"
        raise Refused(TableError("too_large", message), None)
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError):  # RecursionError: nested too deep
        raise Refused(TableError("bad_json", "the message is not valid JSON"), None) from None
    if not isinstance(doc, dict):
        message = "a message is a JSON object with a 'type'"
        raise Refused(TableError("bad_message", message), None)
    return doc


def kind_of(doc: Json) -> type[ClientMessage]:
    """The model of a frame's ``type``; refuses a missing or unknown one."""
    reply_to = reply_id(doc.get("id"))
    kind = doc.get("type")
    if kind is None:
        raise Refused(TableError("missing_field", "a message needs a 'type'"), reply_to)
    model = CLIENT.get(kind) if isinstance(kind, str) else None
    if model is None:
        known = ", ".join(CLIENT)
        message = f"unknown message type {kind!r} (known: {known})"
        raise Refused(TableError("unknown_type", message), reply_to)
    return model


def read_message(doc: Json, model: type[ClientMessage]) -> ClientMessage:
    """``doc`` checked as ``model``; refuses it with the first fault's code."""
    try:
        return model.model_validate(doc)
    except ValidationError as e:
        raise Refused(refusal(e, WORDS), reply_id(doc.get("id"))) from None
