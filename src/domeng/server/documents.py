"""What the service sends, as typed dicts: the table, a seat's view, the events, the
round's summary, the replay, every WebSocket message to a client, and the players'
answers (profiles, a player's page, the leaderboard).

They are plain dicts at run time (built by :mod:`.wire`, :mod:`.showing`,
:mod:`.tables`, :mod:`.sharedview`, :mod:`.app`, :mod:`.profiles` and :mod:`.history`),
so nothing is converted on the way out. Every builder is typed with the document it
builds, so ``mypy --strict`` checks each key and value it writes. Their shapes are the
protocol's (docs/protocol.md): :mod:`.schema` publishes them as JSON Schema, and the
tests check every message a played game sends against them.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired

from typing_extensions import TypedDict

Json = dict[str, Any]
"""A JSON object whose shape is not spelt out: what a client sent, before it is read, and
what the storage keeps."""

Tile = str
"""A tile written ``"a-b"``, the higher number first."""
EndWord = Literal["left", "right"]
Reason = Literal["PASS", "PASSEBUNGE", "FIRST CAPPU", "CEKI", "POLLO", "MANGUNO", "MATTIKKENG"]
SeatKind = Literal["person", "computer"]
TableStatus = Literal["waiting", "playing", "between", "finished"]
Ended = Literal["end", "host", "idle"]
"""Why a game ended: its end was reached, the host ended it, nobody played for a month."""


class SeatDoc(TypedDict):
    seat: int
    kind: SeatKind
    level: str | None
    name: str
    taken: bool
    open: bool
    """An open person's seat anyone may take."""
    invited: bool
    """An open person's seat kept for an invited person (its link carries a code)."""
    connected: bool | None
    waiting: bool
    """Its person took it during this round and plays from the next."""
    stand_in: bool
    ready: bool | None
    hints: int
    """How many hints the seat's person asked the coach for."""
    away: AwayDoc | None
    """Its person has no connection during a round: when the stand-in takes the seat
    over (None when they are here, or nothing would take over)."""


class AwayDoc(TypedDict):
    """The away rule's countdown for one seat (:func:`~domeng.server.waits.away_json`)."""

    deadline: float
    """When the stand-in plays for the seat, as a Unix time in seconds."""
    seconds: int
    """The rule's whole length (``replace_after_ms``; a client's clock keeps within it)."""


class VariantsDoc(TypedDict):
    opening: Literal["double", "free"]
    block_passes: Literal["penalized", "free"]
    rounds: NotRequired[Literal["carried", "fresh"]]
    """Only at a duplicate tournament's table: ``fresh``, each round a fresh game's first."""


class EndDoc(TypedDict, total=False):
    rounds: int
    titles: int


class SettingsDoc(TypedDict):
    """What a table was created with, as its :class:`TableDoc` shows it."""

    variants: VariantsDoc
    pace_ms: int
    stand_in: str | None
    replace_after_ms: int | None
    end: EndDoc | None
    turn_seconds: int | None
    spectator_chat: bool
    hints: bool


class OwnLinksDoc(TypedDict):
    """A table's own addresses."""

    self: str
    record: str
    websocket: str
    tournament: NotRequired[str]
    """A tournament's table only: the tournament's page (``/#/tournament/{id}``)."""


class LinksDoc(OwnLinksDoc):
    join: list[str]


class ClockDoc(TypedDict):
    seat: int
    left_ms: int
    """The time the person in turn had left when the message was made."""
    deadline: float
    """The same, as a Unix time in seconds."""


class WaitDoc(TypedDict):
    """What a table waits for between moves (:mod:`~domeng.server.waits`)."""

    kind: Literal["ready", "seats"]
    """``ready``: the people's ready for the next round; ``seats``: seats nobody took."""
    seats: list[int]
    """Whom it waits for: the seats not ready, or the seats not taken."""
    deadline: float
    """When it goes on without them, as a Unix time in seconds."""
    seconds: int
    """The wait's whole length (a client whose clock is off keeps within it)."""


class StandingDoc(TypedDict):
    seat: int
    rank: int
    titles: int
    stones: int
    received: int
    rounds_won: int
    ceki: int
    pollo: int
    manguno: int
    mattikkeng: int


class TableDoc(TypedDict):
    """A table as anyone may see it (``GET /api/tables/{id}``, lists, messages)."""

    id: str
    created: float
    status: TableStatus
    ended: Ended | None
    state: int
    round: int
    turn: int | None
    host: int | None
    seats: list[SeatDoc]
    stones: list[int]
    table: int
    camat: int | None
    titles: list[int]
    clock: ClockDoc | None
    waiting_for: WaitDoc | None
    """What the table waits for, and until when (null: nothing)."""
    standings: list[StandingDoc]
    variants: VariantsDoc
    pace_ms: int
    stand_in: str | None
    replace_after_ms: int | None
    end: EndDoc | None
    turn_seconds: int | None
    spectator_chat: bool
    hints: bool
    """Whether a person in turn may ask for a hint."""
    links: LinksDoc


class NewTableDoc(TableDoc):
    """``POST /api/tables``'s answer: the table, the tokens of the seats taken, the host's
    token and the invited seats' links."""

    tokens: dict[str, str]
    host_token: str
    invites: dict[str, str]


class TablesDoc(TypedDict):
    """``GET /api/tables``: a page of tables."""

    tables: list[TableDoc]
    next: str | None


class HostAnswerDoc(TypedDict):
    """The answer to a host's action (``again`` answers a :class:`NewTableDoc`)."""

    table: TableDoc
    invites: NotRequired[dict[str, str]]


class TableAnswerDoc(TypedDict):
    """The answer to a seat left: the table as it is now."""

    table: TableDoc


class TakenSeatDoc(TypedDict):
    table_id: str
    seat: int
    token: str
    table: TableDoc


class MoveDoc(TypedDict):
    tile: Tile
    end: EndWord


class PlayDoc(MoveDoc):
    seat: int


class _EventBase(TypedDict):
    text: str
    """The event in words (English; the browser words it again in its own language)."""
    round: int
    index: int


class PlayedDoc(_EventBase):
    kind: Literal["played"]
    seat: int
    tile: Tile
    end: EndWord
    left: int
    right: int
    mappakuling: bool
    opening: bool
    stand_in: bool


class PassedDoc(_EventBase):
    kind: Literal["passed"]
    seat: int
    passebunge: bool
    stones: int
    left: int
    right: int
    stand_in: bool


class StonesDoc(_EventBase):
    kind: Literal["stones"]
    giver: int | None
    receiver: int
    amount: int
    reason: Reason


class _Ending(TypedDict):
    """How a round ended, as its ``round_ended`` event and its summary both say."""

    end: Literal["cappu", "block"]
    winner: int
    first_cappu: int | None
    finish: Literal["plain", "ceki", "pollo"] | None
    manguno: int | None
    mattikkeng: list[int]
    cucuq: int | None
    hands: list[list[Tile]]
    unused: list[Tile]
    pip_totals: list[int]


class RoundEndedDoc(_EventBase, _Ending):
    kind: Literal["round_ended"]


class CamatDoc(_EventBase):
    kind: Literal["camat"]
    seat: int
    titles: int


EventDoc = PlayedDoc | PassedDoc | StonesDoc | RoundEndedDoc | CamatDoc


class TransferDoc(TypedDict):
    giver: int | None
    receiver: int
    amount: int
    reason: Reason


class AwardDoc(TypedDict):
    receiver: int
    owed: int
    received: int


class SummaryDoc(_Ending):
    dealt: list[list[Tile]]
    transfers: list[TransferDoc]
    award: AwardDoc
    camat_elected: bool
    stones: list[int]
    table: int
    camat: int | None
    titles: list[int]


class SharedViewDoc(TypedDict):
    """What every seat's view of the round shows alike (a :class:`ViewDoc` but for the
    seat, its hand and its legal moves)."""

    round: int
    starter: int
    opening_tile: Tile | None
    turn: int | None
    hand_counts: list[int]
    ends: list[int] | None
    line: list[list[int]]
    plays: list[PlayDoc]
    played_seats: list[bool]
    last_mappano: int | None
    lacking: list[list[int]]
    stones: list[int]
    table: int
    camat: int | None
    titles: list[int]
    summary: SummaryDoc | None
    events: NotRequired[list[EventDoc]]
    """The round's events, where a message carries them."""


class ViewDoc(SharedViewDoc):
    """What one seat (``seat``: null for a spectator) may know of the round."""

    seat: int | None
    hand: list[Tile] | None
    legal_moves: list[MoveDoc]


# -- the replay ----------------------------------------------------------------------


class StepDoc(TypedDict):
    play: PlayDoc | None
    events: list[EventDoc]
    hands: list[list[Tile]]
    line: list[list[int]]
    ends: list[int] | None
    turn: int | None
    stones: list[int]
    table: int
    camat: int | None
    titles: list[int]
    lacking: list[list[int]]
    """Per seat, the numbers it showed it lacks by passing so far (as a view's)."""


class ReplayRoundDoc(TypedDict):
    number: int
    starter: int
    dealt: list[list[Tile]]
    unused: list[Tile]
    finished: bool
    steps: list[StepDoc]
    summary: SummaryDoc | None


class ReplayDoc(TypedDict):
    """``GET /api/tables/{id}/replay`` and ``POST /api/replay``."""

    variants: VariantsDoc
    players: list[str]
    rounds: list[ReplayRoundDoc]
    round_count: int
    """How many rounds the game has (``?round=N`` answers that one round alone)."""


# -- WebSocket: service -> client -------------------------------------------------------


class Welcome(TypedDict):
    type: Literal["welcome"]
    table_id: str
    seat: int | None


class ChatDoc(TypedDict):
    type: Literal["chat"]
    seat: int | None
    name: str
    text: NotRequired[str]
    phrase: NotRequired[str]
    at: float


class State(TypedDict):
    type: Literal["state"]
    state: int
    table: TableDoc
    view: ViewDoc | None
    chat: list[ChatDoc]


class Update(TypedDict):
    type: Literal["update"]
    state: int
    events: list[EventDoc]
    table: TableDoc
    view: ViewDoc | None


class Seats(TypedDict):
    type: Literal["seats"]
    state: int
    table: TableDoc


class Ok(TypedDict):
    type: Literal["ok"]
    reply_to: str | int | None
    state: int


class Left(TypedDict):
    type: Literal["left"]
    seat: int


class Pong(TypedDict):
    type: Literal["pong"]
    reply_to: str | int | None
    state: int


class Error(TypedDict):
    type: Literal["error"]
    code: str
    message: str
    reply_to: str | int | None
    retry_after_ms: NotRequired[int]
    """For ``rate_limited``: when the message would be let through."""


class Again(TypedDict):
    """The host started the same game again: the new table, and this seat's token there."""

    type: Literal["again"]
    table_id: str
    seat: int | None
    token: str | None


class ValuedMoveDoc(TypedDict):
    tile: str
    end: Literal["left", "right"]
    value: float
    """The coach's value of the move: expected stones received (negative), a tenth of those
    given, the CAMAT terms (higher is better)."""
    error: float
    """Its standard error."""


class ReasonDoc(TypedDict):
    """Why the best move is best (docs/bots.md, "The coach"): a key and what it names."""

    key: str
    seat: NotRequired[int]
    number: NotRequired[int]
    other: NotRequired[int]
    tile: NotRequired[str]
    end: NotRequired[str]
    finish: NotRequired[str]
    stones: NotRequired[float]


class CoachSaysDoc(TypedDict):
    """What the coach says of a position: a :class:`Hint`'s judgement."""

    moves: list[ValuedMoveDoc]
    """Every legal move, best first."""
    best: ValuedMoveDoc
    reasons: list[ReasonDoc]
    numbers: list[list[float]]
    """The coach's beliefs: per seat, the chance that it holds a tile with each number
    0-6."""
    level: str
    """The level the coach judged at (the service's ``--coach-level``)."""


class Hint(CoachSaysDoc):
    """The coach's answer to ``{"type": "hint"}``, to the asking connection alone."""

    type: Literal["hint"]
    reply_to: str | int | None
    state: int
    """The state the hint was worked out in (a later one makes it stale)."""
    seat: int
    hints: int
    """How many hints this seat has asked for, this one included."""


class HindsightDoc(TypedDict):
    played: float
    """The value of the move played, knowing every hand."""
    best: ValuedMoveDoc
    """The best move knowing every hand."""


class DecisionDoc(TypedDict):
    """One reviewed decision (``domeng review --json``)."""

    round: int
    index: int
    """The play's position in the round's plays, from 0."""
    played: MoveDoc
    best: MoveDoc
    moves: list[ValuedMoveDoc]
    loss: float
    loss_error: float
    """The standard error of ``loss`` (paired: both moves judged in the same guesses)."""
    mark: Literal["mistake", "blunder", "close"] | None
    """Judged on ``loss`` less twice ``loss_error`` (mistake from 0.25, blunder from 0.75)
    and confirmed by a second judgement with other guesses; a loss of 0.25 or more not
    clear of the threshold by that margin, or not confirmed, is ``close``."""
    reasons: list[ReasonDoc]
    stand_in: bool
    numbers: list[list[float]]
    hindsight: HindsightDoc


class LuckSkillDoc(TypedDict):
    """Luck and skill apart (:func:`domeng.bots.review.luck_and_skill`)."""

    received: float
    """The stones the seat received in the round."""
    decisions: float
    """Of them, what its decisions cost (the sum of its losses)."""
    deal: float
    """The rest, what the deal brought (about what the coach's best play would still
    have received)."""


class ReviewDoc(TypedDict):
    """``GET /api/tables/{id}/review?seat=N&round=R``: the coach's review of a round."""

    seat: int
    decisions: list[DecisionDoc]
    total_loss: float
    luck_skill: LuckSkillDoc
    round: int
    players: list[str]
    level: str


class ChatHidden(TypedDict):
    """A club's admin hid the message said at ``at`` (docs/protocol.md, "A club")."""

    type: Literal["chat_hidden"]
    at: float


ServiceMessage = (
    Welcome
    | State
    | Update
    | Seats
    | Ok
    | Left
    | Pong
    | Error
    | ChatDoc
    | Again
    | Hint
    | ChatHidden
)


class ErrorBody(TypedDict):
    code: str
    message: str
    retry_after_ms: NotRequired[int]


class HttpError(TypedDict):
    """Every HTTP refusal: a 4xx or 5xx status with this body."""

    error: ErrorBody


class VariantChoicesDoc(TypedDict):
    opening: list[str]
    block_passes: list[str]


class ServiceInfoDoc(TypedDict):
    """``GET /api``: the service, its computer players and limits (not in the schema:
    no client sends it, the start page reads it)."""

    name: str
    version: str
    levels: list[str]
    default_level: str
    variants: VariantChoicesDoc
    max_message: int
    addresses: list[str]


# -- the players' answers (docs/protocol.md, "Players"; built by .profiles and .history)

ProfileKind = Literal["person", "computer"]


class ProfileDoc(TypedDict):
    """A profile as anyone may see it (never its token)."""

    id: str
    """A person's: ``p-`` and hex digits; a computer level's: its name."""
    name: str
    kind: ProfileKind
    language: str
    mark: str
    """A person's colour (``red`` … ``pink``); ``computer`` for a level."""
    rating: float
    """The rating's mean."""
    uncertainty: float
    """Twice the rating's standard deviation."""
    games: int
    rounds: int


class PickedProfileDoc(ProfileDoc):
    """``POST /api/profiles``'s answer (201) and ``POST /api/profiles/{id}/pick``'s: the
    profile with the token a seat is taken with."""

    token: str


class ProfilesDoc(TypedDict):
    """``GET /api/profiles``: a page of the profiles, people first, then the computer
    levels; ``next`` is the cursor of the page after (None on the last)."""

    profiles: list[ProfileDoc]
    next: str | None


class FiguresDoc(TypedDict):
    """A player's figures over every recorded round, with the rates a page shows."""

    games: int
    rounds: int
    received: int
    stones_per_round: float
    camat: int
    camat_per_100_rounds: float
    rounds_won: int
    ceki: int
    pollo: int
    manguno: int
    mattikkeng: int
    passebunge: int
    passebunge_per_round: float


class PlayedGameDoc(TypedDict):
    """What one game gave the player (a player's page's recent games)."""

    game: str
    source: Literal["table", "terminal"]
    seat: int
    rounds: int
    received: int
    stones_per_round: float
    camat: int
    rounds_won: int
    first: float
    last: float
    """When its first and its last recorded round ended (Unix times)."""
    rating: float
    uncertainty: float
    """The rating after it."""
    replay: str | None
    """A table's game: ``#/replay/ID`` (the browser's address); else null."""
    record: str | None
    """A terminal game: the address of its record; else null."""


class OpponentDoc(TypedDict):
    id: str
    name: str
    kind: ProfileKind
    mark: str


class HeadToHeadDoc(TypedDict):
    opponent: OpponentDoc
    rounds: int
    """Rounds played together."""
    stones_per_round: float
    opponent_stones_per_round: float


class SeriesDoc(TypedDict):
    """A player's charts, oldest first."""

    rating: list[tuple[float, float, float]]
    """``[time, rating, uncertainty]`` after a game."""
    stones: list[tuple[float, float]]
    """``[time, STONES per round]`` over a game and the ``moving_games`` - 1 before it."""
    games: list[int]
    """The number of each point's game among the player's, from 1."""
    moving_games: int


class PlayerPageDoc(TypedDict):
    """``GET /api/profiles/{id}`` (and ``domeng stats NAME --json``): a player's page."""

    profile: ProfileDoc
    figures: FiguresDoc
    recent: list[PlayedGameDoc]
    head_to_head: list[HeadToHeadDoc]
    series: SeriesDoc


class LeaderboardRowDoc(ProfileDoc):
    place: int
    figures: FiguresDoc


class LeaderboardDoc(TypedDict):
    """``GET /api/leaderboard`` (and ``domeng stats --json``): the players with at least
    ``min_games`` games, the highest rating first."""

    min_games: int
    players: list[LeaderboardRowDoc]


class TableStonesDoc(TypedDict):
    """``GET /api/tables/{id}/stones``: each seat's STONES after each finished round."""

    table_id: str
    stones: list[list[int]]
