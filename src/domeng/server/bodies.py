"""The HTTP bodies of docs/protocol.md as typed models, checked by pydantic.

``POST /api/tables`` takes a :class:`NewTable`, ``POST .../seats/{seat}`` a
:class:`TakeSeat`, ``POST .../seats/{seat}/leave`` a :class:`LeaveSeat`.
:func:`read_body` checks a parsed JSON document against one of them and answers
the model, or raises the protocol's refusal (:mod:`.refusals`). The models are
also the source of the protocol's JSON Schema (:mod:`.schema`).
"""

from __future__ import annotations

import secrets
from typing import Annotated, Any, Literal, TypeVar

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    ValidationError,
    model_validator,
)
from pydantic_core import ErrorDetails

from domeng.engine import BlockPasses, Opening, Variants
from domeng.engine.seatname import seat_name
from domeng.storage import StoredSeat

from .errors import TableError
from .names import default_names, first_same, shown
from .players import default_level, levels
from .refusals import Loc, Rule, Wording, fault, refusal
from .seats import MAX_NAME, SEATS
from .settings import (
    DEFAULT_PACE_MS,
    DEFAULT_REPLACE_AFTER_MS,
    DEFAULT_TURN_SECONDS,
    MAX_PACE_MS,
    MAX_TURN_SECONDS,
    MIN_TURN_SECONDS,
    Settings,
)

MAX_REPLACE_AFTER_MS = 86_400_000
MAX_END_ROUNDS = 10_000
MAX_END_TITLES = 1_000


def check_name(value: str) -> str:
    """A name as a seat shows it: printable text of 1 to :data:`MAX_NAME` characters."""
    if not value.strip() or len(value) > MAX_NAME:
        raise fault("bad_name", f"must be a text of 1 to {MAX_NAME} characters")
    if not value.isprintable() or not _encodes(value):
        raise fault("bad_name", "must be printable text")
    return value.strip()


def _encodes(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return False
    return True


def check_level(value: str) -> str:
    """One of the service's computer players (``GET /api``'s ``levels``)."""
    known = levels()
    if value not in known:
        raise fault(
            "bad_level", f"names an unknown computer player {value!r} (known: {', '.join(known)})"
        )
    return value


Name = Annotated[
    str, AfterValidator(check_name), Field(description=f"1 to {MAX_NAME} printable characters")
]
Level = Annotated[str, AfterValidator(check_level), Field(description="one of GET /api's levels")]


class _Body(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class PersonSeat(_Body):
    """A person's seat: taken now by ``name``, or open until someone takes it — an
    invited person (the default: its link carries a secret code), or anyone when
    ``open``."""

    kind: Literal["person"]
    name: Name | None = None
    open: bool = Field(default=False, description="anyone may take it (no invitation)")
    profile: str | None = Field(
        default=None, description="the token of the profile the named person plays under"
    )


class ComputerSeat(_Body):
    """A computer player's seat."""

    kind: Literal["computer"]
    level: Level | None = Field(default=None, description="default: GET /api's default_level")
    name: Name | None = None


class VariantsBody(_Body):
    """rules.md's variants (both optional, with its defaults)."""

    opening: Literal["double", "free"] = "double"
    block_passes: Literal["penalized", "free"] = "penalized"

    def variants(self) -> Variants:
        return Variants(Opening(self.opening), BlockPasses(self.block_passes))


class EndBody(_Body):
    """When the game ends: after ``rounds`` rounds, or once a player has ``titles`` CAMAT
    titles (exactly one of the two)."""

    rounds: Annotated[int, Field(ge=1, le=MAX_END_ROUNDS)] | None = None
    titles: Annotated[int, Field(ge=1, le=MAX_END_TITLES)] | None = None

    @model_validator(mode="after")
    def _one(self) -> EndBody:
        if (self.rounds is None) == (self.titles is None):
            raise fault("bad_body", 'must be {"rounds": N}, {"titles": N} or null')
        return self


class NewTable(_Body):
    """``POST /api/tables``: five seats and the table's settings."""

    seats: Annotated[
        list[Annotated[PersonSeat | ComputerSeat, Field(discriminator="kind")]],
        Field(min_length=SEATS, max_length=SEATS),
    ]
    variants: VariantsBody = Field(default_factory=VariantsBody)
    pace_ms: Annotated[int, Field(ge=0, le=MAX_PACE_MS)] = DEFAULT_PACE_MS
    stand_in: Level | None = Field(
        default_factory=default_level,
        description="the computer player that plays for an absent person (null: none)",
    )
    replace_after_ms: Annotated[int, Field(ge=0, le=MAX_REPLACE_AFTER_MS)] | None = (
        DEFAULT_REPLACE_AFTER_MS
    )
    end: EndBody | None = None
    turn_seconds: Annotated[int, Field(ge=MIN_TURN_SECONDS, le=MAX_TURN_SECONDS)] | None = Field(
        default=None,
        description="how long a person has for each move (null: no clock; left out: "
        f"{DEFAULT_TURN_SECONDS} s where several people sit, else none)",
    )
    spectator_chat: bool = Field(default=False, description="spectators may talk too")
    hints: bool | None = Field(
        default=None,
        description="a person in turn may ask for a hint (null: on when one person plays "
        "against computers, off when several people play)",
    )

    def turn_seconds_or_default(self, people: int) -> int | None:
        """The turn clock asked for; when none is named, :data:`DEFAULT_TURN_SECONDS` at a
        table where people other than its creator sit (an idle friend must not hold the
        others up), else none. ``"turn_seconds": null`` turns it off."""
        if "turn_seconds" in self.model_fields_set:
            return self.turn_seconds
        return DEFAULT_TURN_SECONDS if people > 1 else None

    def settings(self) -> Settings:
        end = self.end
        people = sum(s.kind == "person" for s in self.seats)
        return Settings(
            variants=self.variants.variants(),
            pace_ms=self.pace_ms,
            stand_in=self.stand_in,
            replace_after_ms=self.replace_after_ms,
            end_rounds=end.rounds if end else None,
            end_titles=end.titles if end else None,
            turn_seconds=self.turn_seconds_or_default(people),
            spectator_chat=self.spectator_chat,
            hints=self.hints if self.hints is not None else people == 1,
        )


class TakeSeat(_Body):
    """``POST /api/tables/{id}/seats/{seat}``: the name to sit down with (and the seat's
    invitation code, for an invited seat)."""

    name: Name
    invite: str | None = None
    profile: str | None = Field(
        default=None, description="the token of the profile the seat's rounds count for"
    )


class LeaveSeat(_Body):
    """``POST /api/tables/{id}/seats/{seat}/leave``: the seat's token."""

    model_config = ConfigDict(strict=True, extra="ignore")

    token: str


def _named(body: NewTable) -> list[str | None]:
    """The names the seats of ``body`` show as it names them (None: an open person's
    seat, a computer player named by default)."""
    named: list[str | None] = []
    for s in body.seats:
        level = (s.level or default_level()) if isinstance(s, ComputerSeat) else None
        named.append(None if s.name is None else shown(s.kind, level, s.name))
    return named


def check_new_names(body: NewTable) -> None:
    """``422 same_name`` when two seats ``body`` names show the same name (two persons,
    or a computer player it names); :mod:`.names`."""
    same = first_same(_named(body))
    if same is not None:
        first, second = same
        name = body.seats[second].name
        message = f"seat {second}: name {name!r} is seat {first}'s already: choose another"
        raise TableError("same_name", message, 422)


def new_table_seats(body: NewTable) -> list[StoredSeat]:
    """The stored seats of a new table (names given, or the defaults: a computer player
    named by default takes a name no other seat shows, :mod:`.names`); no token yet."""
    named = _named(body)
    wanting = [
        n for n, s in enumerate(body.seats) if isinstance(s, ComputerSeat) and s.name is None
    ]
    defaults = default_names(named, wanting)
    seats = []
    for n, s in enumerate(body.seats):
        if isinstance(s, ComputerSeat):
            level = s.level or default_level()
            name = s.name if s.name is not None else check_name(seat_name(defaults[n], level))
            seats.append(StoredSeat("computer", level, name, seed=secrets.randbits(63)))
        else:
            name = s.name if s.name is not None else f"Seat {n}"
            seats.append(
                StoredSeat(
                    "person", None, name, seed=secrets.randbits(63), open=s.open, sits_from=1
                )
            )
    return seats


# -- refusals --------------------------------------------------------------------------


def _label(loc: Loc) -> str:
    if len(loc) >= 4 and loc[0] == "seats":  # ("seats", n, kind, field)
        return f"seat {loc[1]}: {loc[3]}"
    if loc[:1] == ("variants",) and len(loc) == 2:
        return f"variant {loc[1]}"
    return str(loc[-1]) if loc else "the body"


def _unknown(loc: Loc, name: str) -> str:
    if loc[:1] == ("seats",) and len(loc) >= 2:
        return f"seat {loc[1]}: unknown field {name!r}"
    if loc == ("variants",):
        return f"unknown variant {name!r}"
    return f"unknown field {name!r}"


def _special(e: ErrorDetails) -> TableError | None:
    loc, kind = tuple(e["loc"]), e["type"]
    if loc == () and kind != "extra_forbidden":
        return TableError("bad_body", "the body must be a JSON object", 422)
    if len(loc) == 2 and loc[0] == "seats":
        n = loc[1]
        if isinstance(e["input"], dict):
            tag = e["input"].get("kind")
            text = f"seat {n}: kind must be 'person' or 'computer', not {tag!r}"
            return TableError("bad_body", text, 422)
        return TableError("bad_body", f"seat {n} must be an object", 422)
    if len(loc) == 4 and loc[0] == "seats" and loc[2:] == ("person", "level"):
        return TableError("bad_body", f"seat {loc[1]}: a person's seat has no level", 422)
    if loc[:1] == ("variants",):
        if kind == "extra_forbidden":
            return TableError("bad_variants", _unknown(loc[:-1], str(loc[-1])), 422)
        if len(loc) == 1:
            return TableError("bad_variants", "variants must be an object", 422)
        choices = "'double' or 'free'" if loc[1] == "opening" else "'penalized' or 'free'"
        text = f"variant {loc[1]} must be {choices}, not {e['input']!r}"
        return TableError("bad_variants", text, 422)
    return None


def _whole(low: int, high: int, *, null: bool = False) -> Rule:
    return Rule("bad_body", f"must be a whole number from {low} to {high}{', or null' * null}")


NEW_TABLE_WORDS = Wording(
    status=422,
    rules={
        "seats": Rule("bad_body", f"must be a list of exactly {SEATS} seats"),
        "name": Rule("bad_name", f"must be a text of 1 to {MAX_NAME} characters"),
        "level": Rule("bad_level", "must name one of GET /api's levels"),
        "stand_in": Rule("bad_level", "must name one of GET /api's levels, or null"),
        "pace_ms": _whole(0, MAX_PACE_MS),
        "replace_after_ms": _whole(0, MAX_REPLACE_AFTER_MS, null=True),
        "rounds": _whole(1, MAX_END_ROUNDS),
        "titles": _whole(1, MAX_END_TITLES),
        "end": Rule("bad_body", 'must be {"rounds": N}, {"titles": N} or null'),
        "turn_seconds": _whole(MIN_TURN_SECONDS, MAX_TURN_SECONDS, null=True),
        "spectator_chat": Rule("bad_body", "must be true or false"),
        "hints": Rule("bad_body", "must be true, false or null"),
        "open": Rule("bad_body", "must be true or false"),
        "profile": Rule("bad_body", "must be a profile's token, or null"),
    },
    label=_label,
    unknown=_unknown,
    special=_special,
)

SEAT_WORDS = Wording(
    status=422,
    first=("missing", "extra_forbidden"),
    rules={
        "name": Rule("bad_name", f"must be a text of 1 to {MAX_NAME} characters"),
        "invite": Rule("bad_body", "must be a text"),
        "profile": Rule("bad_body", "must be a profile's token"),
    },
    missing=lambda name: ("missing_field", 'the body must be {"name": "..."}'),
    special=lambda e: (
        TableError("missing_field", 'the body must be {"name": "..."}', 422)
        if tuple(e["loc"]) == () and e["type"] != "extra_forbidden"
        else None
    ),
)

LEAVE_WORDS = Wording(
    status=401,
    rules={"token": Rule("missing_token", "must be a text")},
    unknown_code="missing_token",
    missing=lambda name: ("missing_token", 'the body must be {"token": "..."}'),
    special=lambda e: (
        TableError("missing_token", 'the body must be {"token": "..."}', 401)
        if tuple(e["loc"]) == ()
        else None
    ),
)

B = TypeVar("B", bound=BaseModel)


def read_body(doc: Any, model: type[B], wording: Wording) -> B:
    """``doc`` (parsed JSON) checked as ``model``; raises the protocol's refusal."""
    try:
        return model.model_validate(doc)
    except ValidationError as e:
        raise refusal(e, wording) from None


def parse_new_table(doc: Any) -> tuple[Settings, list[StoredSeat]]:
    """A ``POST /api/tables`` body read as the table's settings and stored seats."""
    body = read_body(doc, NewTable, NEW_TABLE_WORDS)
    return body.settings(), new_table_seats(body)
