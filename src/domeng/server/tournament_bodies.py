"""The HTTP bodies of a tournament (docs/protocol.md, "Tournaments") as typed models."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, model_validator

from domeng.tournament.plan import MAX_DEALS, MAX_ENTRANTS, MAX_ROUNDS

from .bodies import Level, Name, VariantsBody, _Body, _whole
from .refusals import Rule, Wording
from .settings import DEFAULT_PACE_MS, MAX_PACE_MS, MAX_TURN_SECONDS, MIN_TURN_SECONDS
from .tables import MAX_NAME, TableError


class PersonEntrant(_Body):
    """A person: by ``name``, by a profile's token, or by a profile's id (in a club, a
    member's: their account); a profile's name then, unless named."""

    kind: Literal["person"]
    name: Name | None = None
    profile: str | None = Field(default=None, description="the token of the person's profile")
    profile_id: Annotated[str, Field(min_length=1, max_length=40)] | None = Field(
        default=None, description="the id of the person's profile (in a club: a member's)"
    )

    @model_validator(mode="after")
    def _named(self) -> PersonEntrant:
        if self.name is None and self.profile is None and self.profile_id is None:
            raise TableError("bad_entrant", "a person needs a name or a profile", 422)
        if self.profile is not None and self.profile_id is not None:
            raise TableError("bad_entrant", "a person has one profile: its token or its id", 422)
        return self


class ComputerEntrant(_Body):
    """A computer player, by level."""

    kind: Literal["computer"]
    level: Level | None = Field(default=None, description="default: GET /api's default_level")
    name: Name | None = None


Entrant = Annotated[PersonEntrant | ComputerEntrant, Field(discriminator="kind")]


class TableBody(_Body):
    """The settings of every table of the tournament."""

    variants: VariantsBody = Field(default_factory=VariantsBody)
    pace_ms: Annotated[int, Field(ge=0, le=MAX_PACE_MS)] = DEFAULT_PACE_MS
    turn_seconds: Annotated[int, Field(ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS)] | None = 60
    stand_in: Level | None = Field(default=None, description="default: GET /api's default_level")


class NewTournament(_Body):
    """``POST /api/tournaments``."""

    name: Name
    entrants: Annotated[list[Entrant], Field(min_length=1, max_length=MAX_ENTRANTS)]
    format: Literal["duplicate", "games"] = "duplicate"
    rounds: Annotated[int, Field(ge=1, le=MAX_ROUNDS)] = 2
    deals: Annotated[int, Field(ge=1, le=MAX_DEALS)] = 4
    table: TableBody = Field(default_factory=TableBody)
    seed: Annotated[int, Field(ge=0, le=2**63 - 1)] | None = Field(
        default=None, description="where the deals come from (default: a random one)"
    )


class DirectorAction(_Body):
    """``POST /api/tournaments/{id}/next``, ``/end``, ``/replace``, ``/withdraw``,
    ``/entrants``: the director's token (in a club, none: the signed-in admin directs),
    and for some an entrant."""

    token: str | None = None
    entrant: str | None = Field(default=None, description="an entrant's key (replace, withdraw)")
    level: Level | None = None
    add: Entrant | None = Field(default=None, description="a late arrival (entrants)")


class EntrantToken(_Body):
    """``POST /api/tournaments/{id}/me``: an entrant's own token."""

    token: str


_TOKEN = Rule("missing_token", "must be a text")

TOURNAMENT_WORDS = Wording(
    status=422,
    rules={
        "name": Rule("bad_name", f"must be a text of 1 to {MAX_NAME} characters"),
        "entrants": Rule("bad_entrants", f"must be a list of 1 to {MAX_ENTRANTS} entrants"),
        "kind": Rule("bad_entrant", 'must be "person" or "computer"'),
        "level": Rule("bad_level", "must name one of GET /api's levels"),
        "stand_in": Rule("bad_level", "must name one of GET /api's levels, or null"),
        "profile": Rule("bad_body", "must be a profile's token, or null"),
        "profile_id": Rule("bad_body", "must be a profile's id, or null"),
        "format": Rule("bad_format", 'must be "duplicate" or "games"'),
        "rounds": _whole(1, MAX_ROUNDS),
        "deals": _whole(1, MAX_DEALS),
        "pace_ms": _whole(0, MAX_PACE_MS),
        "turn_seconds": _whole(MIN_TURN_SECONDS, MAX_TURN_SECONDS, null=True),
        "seed": Rule("bad_body", "must be a whole number from 0 to 2**63-1, or null"),
        "opening": Rule("bad_body", 'must be "double" or "free"'),
        "block_passes": Rule("bad_body", 'must be "penalized" or "free"'),
    },
)

DIRECTOR_WORDS = Wording(
    status=422,
    rules={
        "token": _TOKEN,
        "entrant": Rule("bad_body", "must be an entrant's key"),
        "level": Rule("bad_level", "must name one of GET /api's levels"),
        "name": Rule("bad_name", f"must be a text of 1 to {MAX_NAME} characters"),
        "kind": Rule("bad_entrant", 'must be "person" or "computer"'),
    },
    missing=lambda name: ("missing_token", 'the body must be {"token": "..."}'),
)

ENTRANT_WORDS = Wording(
    status=422,
    rules={"token": _TOKEN},
    missing=lambda name: ("missing_token", 'the body must be {"token": "..."}'),
)
