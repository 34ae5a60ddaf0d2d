"""What the service sends about a tournament, as typed dicts (see :mod:`.documents`):
built by :mod:`.tournaments`, published in the protocol's JSON Schema (:mod:`.schema`)."""

from __future__ import annotations

from typing import Literal, NotRequired

from typing_extensions import TypedDict

from .documents import Json, SeatKind, TableStatus


class EntrantDoc(TypedDict):
    key: str
    kind: SeatKind
    name: str
    level: str | None
    active: bool
    """False once withdrawn (not seated from the next round on)."""
    fill: bool
    """A computer filling the last table: its scores are shown, not ranked."""


class AddedEntrantDoc(EntrantDoc):
    token: str | None
    """A person's one token (None for a computer)."""


class RoundSeatDoc(TypedDict):
    key: str
    name: str
    seat: int


class RoundTableLinksDoc(TypedDict):
    watch: str
    table: str
    record: str


class RoundTableDoc(TypedDict):
    id: str
    number: int
    finished: bool
    seats: list[RoundSeatDoc]
    links: RoundTableLinksDoc


class RoundDoc(TypedDict):
    number: int
    tables: list[RoundTableDoc]


class StandingLineDoc(TypedDict):
    key: str
    name: str
    place: int | None
    """None: not ranked (a computer filling a table)."""
    ranked: bool
    score: float
    won: int
    passebunge: int
    deals: int


class TournamentLinksDoc(TypedDict):
    self: str
    standings: str
    results: str
    csv: str


class TournamentDoc(TypedDict):
    """``GET /api/tournaments/{id}``, and the director's answers."""

    id: str
    name: str
    created: float
    format: Literal["duplicate", "games"]
    status: TableStatus
    rounds_planned: int
    deals: int
    table: Json
    scale: str | None
    entrants: list[EntrantDoc]
    rounds: list[RoundDoc]
    standings: list[StandingLineDoc]
    links: TournamentLinksDoc
    director_token: NotRequired[str]
    """Only in ``POST /api/tournaments``'s answer."""
    entrant_tokens: NotRequired[dict[str, str]]
    """Only in ``POST /api/tournaments``'s answer, and in a club in the answers to an
    admin's ``GET``: each person's token by entrant key."""
    added: NotRequired[AddedEntrantDoc]
    """Only in ``.../entrants``' answer: the late arrival."""


class EntrantTableDoc(TypedDict):
    id: str
    seat: int
    finished: bool
    round: int


class EntrantViewDoc(TypedDict):
    """``POST /api/tournaments/{id}/me``."""

    entrant: EntrantDoc
    status: TableStatus
    table: EntrantTableDoc | None
