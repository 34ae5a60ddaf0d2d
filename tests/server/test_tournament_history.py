"""A tournament's games in the players' history and ratings (docs/tournaments.md,
"History and ratings"): an entrant entered with a profile has each deal of every table
they sat at counted as a round of their own, as at any table; a computer entrant counts
for its level; a no-show replaced by a computer counts for that level from then on, not
for the person. On the fake clock: the person is away, so the turn clock plays for them
(a stand-in's plays count for the person, as at any table), and the table deals on
without her: a tournament's table is watched by the tournament."""

from __future__ import annotations

from pathlib import Path

from domeng.history import calibration
from domeng.server.clock import FakeClock
from domeng.server.hub import Hub
from domeng.server.players import levels
from domeng.server.profiles import make_computer_profiles
from domeng.server.tournament_bodies import NewTournament
from domeng.server.tournaments import Tournaments
from domeng.storage import PERSON, Figures, SQLiteStorage, StoredProfile

from .conftest import run_apart
from .test_server_clock import InlineRunner, settle

BOT = {"kind": "computer", "level": "random"}


def _profile(s: SQLiteStorage, pid: str, name: str) -> None:
    s.create_profile(
        StoredProfile(pid, name, "en", "blue", PERSON, f"token-{pid}", 1.0, Figures(25.0, 25 / 3))
    )


def test_an_entrants_deals_count_in_their_history_and_a_no_shows_do_not(tmp_path: Path) -> None:
    db = tmp_path / "t.sqlite3"
    s = SQLiteStorage(db)
    _profile(s, "p-ani", "Ani")
    _profile(s, "p-besse", "Besse")
    s.close()

    async def main() -> tuple[Figures, Figures, Figures]:
        clock = FakeClock()
        hub = Hub(SQLiteStorage(db), InlineRunner(), clock)
        await make_computer_profiles(hub.store, levels(), calibration.load(), clock.wall())
        ts = Tournaments(hub)
        body = NewTournament.model_validate(
            {
                "name": "Malam",
                "entrants": [
                    {"kind": "person", "profile_id": "p-ani"},
                    {"kind": "person", "profile_id": "p-besse"},
                    *[BOT] * 3,
                ],
                "rounds": 1,
                "deals": 2,
                "table": {"pace_ms": 0, "turn_seconds": 5},
                "seed": 3,
            }
        )
        t, director, _ = await ts.create(body)
        assert [e.name for e in t.entrants[:2]] == ["Ani", "Besse"]
        await ts.next_round(t.id, director)
        besse = next(e.key for e in t.entrants if e.name == "Besse")
        await ts.replace(t.id, director, besse, "random")  # a no-show
        for _ in range(2000):
            await settle(hub, clock)
            if (await ts.read(t.id)).status == "finished":
                break
            clock.advance(0.5)
        t = await ts.read(t.id)
        assert t.status == "finished"
        found = [
            await hub.store.call(lambda st, p=p: st.profile(id=p))
            for p in ("p-ani", "p-besse", "random")
        ]
        await hub.close()
        figures = [p.figures for p in found if p is not None]
        assert len(figures) == 3
        return figures[0], figures[1], figures[2]

    ani, besse, level = run_apart(main)
    assert (ani.games, ani.rounds) == (1, 2)  # one table's game of two deals, as her own
    assert (besse.games, besse.rounds) == (0, 0)  # replaced before she played: the level's
    assert ani.mu != 25.0  # rated
    assert level.rounds == 2 * 4  # the three computer entrants and Besse's replacement
