"""A game's finished rounds into the storage, each once, with every player's rating.

The table service calls :func:`record_rounds` when a round ends (in its storage's
thread), the terminal after each round of ``domeng play --player``; both give the
profile each seat counts for. Every finished round not yet recorded is recorded, in
order, so a round missed (a failed write, a crash) is caught up with the next.

Computer levels are profiles too, made by :func:`computer_profiles`, their ratings
starting from the calibration (:mod:`.calibration`). A level in several seats of a
round is one player: every seat's figures count, and its rating is the mean of what its
seats' would come to.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence

from domeng.engine.record import RecordedGame
from domeng.engine.round import Round
from domeng.engine.seatname import split_name
from domeng.storage import (
    COMPUTER,
    PERSON,
    Figures,
    RecordedRound,
    RoundPart,
    Storage,
    StorageError,
    StoredProfile,
)

from .figures import round_figures
from .ratings import NEW, Rating, rate


def computer_profiles(
    storage: Storage, levels: Sequence[str], calibration: dict[str, Rating], at: float
) -> None:
    """Make the profile of every computer level that has none (its rating calibrated), in
    one write transaction: the service and a terminal starting together make each once
    (and of several service processes on one PostgreSQL database, the first)."""
    with storage.batch():
        for level in levels:
            if storage.profile(id=level) is None and storage.profile(name=level) is None:
                start = calibration.get(level, NEW)
                figures = Figures(start.mu, start.sigma)
                # another service process starting at the same moment may make it first
                with contextlib.suppress(StorageError):
                    storage.create_profile(
                        StoredProfile(level, level, "en", "computer", COMPUTER, None, at, figures)
                    )


def parts(r: Round, seats: Sequence[str | None], ratings: dict[str, Rating]) -> list[RoundPart]:
    """The parts of the profiles ``seats`` name (per seat; None: no profile) in the
    finished round ``r``, rated from ``ratings`` (each profile's before the round)."""
    figures = round_figures(r)
    linked = [(n, pid) for n, pid in enumerate(seats) if pid is not None and pid in ratings]
    after = rate([ratings[pid] for _, pid in linked], [figures[n].place for n, _ in linked])
    pooled: dict[str, list[Rating]] = {}
    for (_, pid), new in zip(linked, after, strict=True):
        pooled.setdefault(pid, []).append(new)
    rated = {
        pid: Rating(sum(g.mu for g in got) / len(got), sum(g.sigma for g in got) / len(got))
        for pid, got in pooled.items()
    }
    out = []
    for n, pid in linked:
        f = figures[n]
        out.append(
            RoundPart(
                pid, n, f.place, f.received, f.won, f.camat, f.ceki, f.pollo, f.manguno,
                f.mattikkeng, f.passebunge, rated[pid].mu, rated[pid].sigma,
            )
        )  # fmt: skip
    return out


def record_rounds(
    storage: Storage,
    game: str,
    source: str,
    rounds: Sequence[Round],
    seats: Sequence[str | None],
    at: float,
    record: str | None = None,
) -> int:
    """Record every finished round of ``rounds`` (a game's, from its first) that is not
    recorded yet, each seat counting for the profile ``seats`` names; answers how many
    were recorded. A profile that is not stored counts for nothing.

    It is one write transaction (:meth:`Storage.batch`): the ratings read are the ones
    the round is rated from, even while another process (the service, a terminal)
    records rounds of the same players in the same database."""
    with storage.batch():
        return _record_rounds(storage, game, source, rounds, seats, at, record)


def _record_rounds(
    storage: Storage,
    game: str,
    source: str,
    rounds: Sequence[Round],
    seats: Sequence[str | None],
    at: float,
    record: str | None,
) -> int:
    done = storage.recorded_rounds(game)
    recorded = 0
    for r in rounds[done:]:
        if not r.finished:
            break
        ratings: dict[str, Rating] = {}
        for pid in {p for p in seats if p is not None}:
            found = storage.profile(id=pid)
            if found is not None:
                ratings[pid] = Rating(found.figures.mu, found.figures.sigma)
        storage.record_round(
            RecordedRound(game, source, r.number, at, parts(r, seats, ratings), record)
        )
        recorded += 1
    return recorded


def person_profile(storage: Storage, name: str, at: float) -> StoredProfile:
    """The person's profile called ``name`` (case aside), made when there is none; a
    ValueError when a computer level has that name."""
    found = storage.profile(name=name)
    if found is None:
        pid = "p-" + secrets.token_hex(6)
        while storage.profile(id=pid) is not None:
            pid = "p-" + secrets.token_hex(6)
        found = StoredProfile(
            pid, name, "en", "blue", PERSON, secrets.token_urlsafe(24), at,
            Figures(NEW.mu, NEW.sigma),
        )  # fmt: skip
        storage.create_profile(found)
    if found.kind != PERSON:
        raise ValueError(f"{found.name} is a computer player's profile")
    return found


def record_terminal_game(
    storage: Storage, game: str, got: RecordedGame, player: str, at: float, record: str
) -> int:
    """Record a terminal game's finished rounds (``player`` at seat 0, a computer level at
    each other seat, as its record names them) with its record; answers how many."""
    from domeng.bots import player_names

    from .calibration import load

    computer_profiles(storage, player_names(for_people=True), load(), at)
    me = person_profile(storage, player, at)
    seats: list[str | None] = [me.id]
    for name in got.players[1:]:
        level = split_name(name)[1]
        seats.append(level if level is not None and storage.profile(id=level) else None)
    return record_rounds(storage, game, "terminal", got.game.rounds, seats, at, record)
