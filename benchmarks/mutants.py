"""Hand-made mutants of the service's newer modules, and whether the tests kill them.

Each mutant changes one thing in the source (a comparison flipped, a check dropped, a
value moved by one, two things swapped), runs the tests that cover that module, and
puts the source back, whatever happens. A mutant the tests let through is a rule no
test holds (or an equivalent change: see ``EQUIVALENT``). Run it when you change a
rule of these modules, or add a line for a rule you add::

    .venv/bin/python benchmarks/mutants.py            # every mutant (about an hour)
    .venv/bin/python benchmarks/mutants.py C1 S1 L1   # some

It edits the files of this checkout while it runs: commit nothing meanwhile. A mutant
whose text is no longer in its file is reported as not applicable (the code moved).
The last line: ``mutants: K killed of N tried, E judged equivalent, S survived``.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parents[1]
S = "src/domeng/server/"


class Mutant(NamedTuple):
    id: str
    file: str
    old: str
    new: str
    what: str


MUTANTS = [
    Mutant(
        "T1",
        S + "turnclock.py",
        "if armed is not None and armed.state == t.state:",
        "if armed is not None:",
        "clock kept from the last state: the second of two people in a row gets none",
    ),
    Mutant(
        "T2",
        S + "turnclock.py",
        "t.deadline = self.clock.now() + seconds",
        "t.deadline = self.clock.now() + seconds - 1",
        "a second less",
    ),
    Mutant(
        "T3",
        S + "turnclock.py",
        "if seconds is None or seat is None or t.finished:",
        "if seconds is None or seat is None:",
        "finished not checked",
    ),
    Mutant(
        "T4",
        S + "turnclock.py",
        "        if armed is not None:\n            armed.timer.cancel()\n"
        "        t.deadline = None",
        "        if armed is not None:\n            pass\n        t.deadline = None",
        "disarm does not cancel the timer",
    ),
    Mutant(
        "T5",
        S + "turnclock.py",
        "        if armed is not None:\n            armed.timer.cancel()\n"
        "        t.deadline = None",
        "        if armed is not None:\n            armed.timer.cancel()",
        "disarm leaves the deadline shown",
    ),
    Mutant(
        "T6",
        S + "turnclock.py",
        "if t.state != state or t.game.turn != seat:",
        "if t.game.turn != seat:",
        "ring does not check the state",
    ),
    Mutant(
        "T7",
        S + "tables.py",
        "if seat is not None and self.computer_level(seat) is None:",
        "if seat is not None:",
        "clock runs for a computer's turn too",
    ),
    Mutant(
        "C1",
        S + "chat.py",
        "if len(text) > MAX_TEXT:",
        "if len(text) >= MAX_TEXT:",
        "a 200-character message refused",
    ),
    Mutant(
        "C2",
        S + "chat.py",
        "MAX_TEXT = 200",
        "MAX_TEXT = 201",
        "the limit one higher",
    ),
    Mutant(
        "C3",
        S + "chat.py",
        "if not text or not text.isprintable():",
        "if not text:",
        "unprintable text accepted",
    ),
    Mutant(
        "C4",
        S + "chat.py",
        "            text = text.strip()\n",
        "",
        "text not stripped",
    ),
    Mutant(
        "C5",
        S + "chat.py",
        "while said and said[0] <= now - seconds:",
        "while said and said[0] < now - seconds:",
        "the rate window one tick longer",
    ),
    Mutant(
        "C6",
        S + "chat.py",
        "if len(said) >= count:",
        "if len(said) > count:",
        "six messages in ten seconds",
    ),
    Mutant(
        "C7",
        S + "chat.py",
        "elif phrase not in PHRASES:",
        "elif phrase is None:",
        "unknown phrase accepted",
    ),
    Mutant(
        "C8",
        S + "chat.py",
        "if c.seat is None and not t.settings.spectator_chat:",
        "if c.seat is None and t.settings.spectator_chat is None:",
        "spectators always talk",
    ),
    Mutant(
        "C9",
        S + "chat.py",
        "phrase if text is None else None",
        "phrase",
        "a phrase kept beside a text",
    ),
    Mutant(
        "L1",
        S + "limits.py",
        "self.tokens = min(self.share.burst, self.tokens + (now - self.at) * self.share.rate)",
        "self.tokens = self.tokens + (now - self.at) * self.share.rate",
        "the burst cap removed",
    ),
    Mutant(
        "L2",
        S + "limits.py",
        "        if self.tokens >= 1:\n",
        "        if self.tokens > 1:\n",
        "the last token not taken",
    ),
    Mutant(
        "L3",
        S + "limits.py",
        "return (1 - self.tokens) / self.share.rate",
        "return 1 / self.share.rate",
        "the wait ignores the part-token",
    ),
    Mutant(
        "L4",
        S + "limits.py",
        "if self.total >= self.in_all:",
        "if self.total > self.in_all:",
        "one connection too many in all",
    ),
    Mutant(
        "L5",
        S + "limits.py",
        "if mine >= self.per_address and not _loopback(address):",
        "if mine > self.per_address and not _loopback(address):",
        "one too many per address",
    ),
    Mutant(
        "L6",
        S + "limits.py",
        "if mine >= self.per_address and not _loopback(address):",
        "if mine >= self.per_address:",
        "loopback connections counted",
    ),
    Mutant(
        "L7",
        S + "limits.py",
        "        self.total -= 1\n",
        "",
        "a closed connection still counted",
    ),
    Mutant(
        "L8",
        S + "limits.py",
        'key = kind if kind in self.messages else "other"',
        "key = kind",
        "every unknown kind its own bucket",
    ),
    Mutant(
        "L9",
        S + "limits.py",
        "return None if wait is None else str(max(1, math.ceil(wait)))",
        "return None if wait is None else str(max(1, round(wait)))",
        "Retry-After rounded down",
    ),
    Mutant(
        "L10",
        S + "limits.py",
        "PER_ADDRESS = 50",
        "PER_ADDRESS = 51",
        "per-address limit one higher",
    ),
    Mutant(
        "S1",
        S + "registry.py",
        "        if t.seated or t.watching:\n            return",
        "        if t.seated:\n            return",
        "idle close no longer spares watched games",
    ),
    Mutant(
        "S2",
        S + "registry.py",
        "if not t.finished and t.last_active < limit:",
        "if not t.finished and t.last_active <= limit:",
        "idle at exactly 30 days",
    ),
    Mutant(
        "S3",
        S + "registry.py",
        "limit = self.clock.wall() - IDLE_DAYS * 86_400",
        "limit = self.clock.wall() - (IDLE_DAYS - 1) * 86_400",
        "29 days idle closed",
    ),
    Mutant(
        "S4",
        S + "tables.py",
        (
            "            if s.stored.token_hash is not None:\n"
            '                raise TableError("seat_taken"'
        ),
        '            if False:\n                raise TableError("seat_taken"',
        "a taken seat taken again",
    ),
    Mutant(
        "S5",
        S + "tables.py",
        (
            "            if self.finished:\n"
            '                raise TableError("game_over", "this game is over", 409)\n'
            "            code"
        ),
        "            code",
        "a seat taken at a finished game",
    ),
    Mutant(
        "S6",
        S + "tables.py",
        "sits_from=len(self.game.rounds) + 1,  # a round",
        "sits_from=len(self.game.rounds),  # a round",
        "a taken seat plays the round under way",
    ),
    Mutant(
        "S7",
        S + "tables.py",
        "code = None if s.stored.open else invite_code()",
        "code = None",
        "a left invited seat opens to anyone",
    ),
    Mutant(
        "S8",
        S + "tables.py",
        "if self.finished and not (self.seated or self.watching) and not self.moving:",
        "if self.finished and not self.seated and not self.moving:",
        "a watched finished table let go",
    ),
    Mutant(
        "S9",
        S + "registry.py",
        "host_seat=min(tokens) if tokens else None",
        "host_seat=max(tokens) if tokens else None",
        "the host's seat the last named",
    ),
    Mutant(
        "S10",
        S + "tables.py",
        "if self.game.turn == seat:\n            self.turn_clock.disarm(self)",
        "if self.game.turn != seat:\n            self.turn_clock.disarm(self)",
        "clock kept for a seat handed over",
    ),
    Mutant(
        "G1",
        S + "registry.py",
        "        for t in kept:  # as they were before the start: those already moving go on\n"
        "            t.advance()",
        "        pass",
        "the tables read at a start never move on by themselves",
    ),
    Mutant(
        "G2",
        S + "registry.py",
        "            elif not later:",
        "            elif False:",
        "a table named at a start waits for all the others before it moves on",
    ),
    Mutant(
        "G3",
        S + "registry.py",
        "kept = sorted(self.tables.values(), key=lambda t: (t.created, t.id))",
        "kept = list(self.tables.values())",
        "the tables listed in the order they were read, not oldest first",
    ),
    Mutant(
        "G4",
        S + "registry.py",
        "        await self._named(table_id)\n        t = self.tables.get(table_id)",
        "        t = self.tables.get(table_id)",
        "a table not read yet at a start is not found",
    ),
    Mutant(
        "H1",
        S + "host.py",
        '        if not t.finished:\n            raise TableError("not_finished"',
        '        if False:\n            raise TableError("not_finished"',
        "a game in progress removed",
    ),
    Mutant(
        "H2",
        S + "host.py",
        '    if body.action == "end":\n        if t.finished:',
        '    if body.action == "end":\n        if False:',
        "a finished game ended again",
    ),
    Mutant(
        "H3",
        S + "host.py",
        '            if s.stored.kind != "person":',
        "            if False:",
        "a computer's seat replaced",
    ),
    Mutant(
        "H4",
        S + "host.py",
        "                sits_from=len(t.game.rounds) + 1,",
        "                sits_from=len(t.game.rounds),",
        "an invited seat plays the round under way",
    ),
    Mutant(
        "H5",
        S + "host.py",
        '            if s.stored.kind != "computer":',
        "            if False:",
        "a person's seat invited away",
    ),
    Mutant(
        "H6",
        S + "host.py",
        "        spectator_chat=settings.spectator_chat,\n",
        "",
        "again forgets spectator chat",
    ),
    Mutant(
        "H7",
        S + "host.py",
        "        hints=settings.hints,\n",
        "",
        "again forgets hints",
    ),
    Mutant(
        "H8",
        S + "host.py",
        "        elif n in connected:",
        "        elif n in connected or st.open:",
        "again: an open seat's person given a token",
    ),
    Mutant(
        "H9",
        S + "host.py",
        (
            "    if t.finished:\n"
            '        raise TableError("game_over", "this game is over", 409)\n'
            '    if body.action in ("start", "wait", "next_round"):'
        ),
        '    if body.action in ("start", "wait", "next_round"):',
        "replace at a finished game",
    ),
    Mutant(
        "R1",
        "src/domeng/history/ratings.py",
        "if len(ratings) < 2:",
        "if len(ratings) < 3:",
        "two-player rounds never rated",
    ),
    Mutant(
        "R2",
        "src/domeng/history/ratings.py",
        "ranks=[float(p) for p in places]",
        "ranks=[float(-p) for p in places]",
        "places upside down",
    ),
    Mutant(
        "R3",
        "src/domeng/history/ratings.py",
        "return self.mu - 2 * self.sigma",
        "return self.mu - 3 * self.sigma",
        "low three sigmas",
    ),
    Mutant(
        "R4",
        "src/domeng/history/ratings.py",
        "    if len(ratings) != len(places):\n        raise",
        "    if False:\n        raise",
        "places and ratings of other lengths",
    ),
    Mutant(
        "R5",
        "src/domeng/history/ratings.py",
        'return f"{r.mu:.1f} ± {2 * r.sigma:.1f}"',
        'return f"{r.mu:.1f} ± {r.sigma:.1f}"',
        "shown with one sigma",
    ),
    Mutant(
        "K1",
        "src/domeng/bots/coach.py",
        '    Reason.MATTIKKENG: "manguno",',
        '    Reason.MATTIKKENG: "cucuq",',
        "MATTIKKENG's stones called CUCUQ",
    ),
    Mutant(
        "K2",
        "src/domeng/bots/coach.py",
        '    Reason.PASSEBUNGE: "pass",',
        '    Reason.PASSEBUNGE: "cucuq",',
        "PASSEBUNGE's stones called CUCUQ",
    ),
    Mutant(
        "K3",
        "src/domeng/bots/coach.py",
        '    Reason.MANGUNO: "cucuq",',
        '    Reason.MANGUNO: "manguno",',
        "MANGUNO without MATTIKKENG called manguno",
    ),
    Mutant(
        "K4",
        "src/domeng/bots/coach.py",
        "                if i < after:",
        "                if i <= after:",
        "a pass after the next play counted",
    ),
    Mutant(
        "K5",
        "src/domeng/bots/coach.py",
        "                elif giver == seat:",
        "                elif receiver != seat:",
        "stones given by others counted as given",
    ),
    Mutant(
        "K6",
        "src/domeng/bots/coach.py",
        "            if r.camat == seat:",
        "            if r.camat != seat:",
        "camat chances swapped",
    ),
    Mutant(
        "D1",
        "src/domeng/engine/standings.py",
        "self.received[:], self.won[:]",
        "self.received, self.won[:]",
        "Tally.copy shares a list",
    ),
    Mutant(
        "D2",
        "src/domeng/engine/standings.py",
        "return (-titles[n], stones[n], self.received[n])",
        "return (-titles[n], self.received[n], stones[n])",
        "stones and received swapped in the order",
    ),
    Mutant(
        "D3",
        "src/domeng/engine/standings.py",
        "rank = out[-1].rank if out and key(out[-1].seat) == key(n) else place",
        "rank = place",
        "no shared ranks",
    ),
    Mutant(
        "D4",
        "src/domeng/engine/standings.py",
        (
            "if e.first_cappu is not None and e.finish is Finish.POLLO:\n"
            "                    self.pollo"
        ),
        "if e.first_cappu is not None and e.finish is Finish.POLLO:\n                    self.ceki",
        "a POLLO counted as CEKI",
    ),
    Mutant(
        "D5",
        "src/domeng/engine/standings.py",
        "        self.add_events(r.events)\n        self.rounds += 1",
        "        self.add_events(r.events)",
        "rounds not counted",
    ),
    Mutant(
        "D6",
        "src/domeng/engine/standings.py",
        "self.camat[:], self.rounds,",
        "self.camat[:], 0,",
        "a copy forgets its rounds",
    ),
    Mutant(
        "K7",
        "src/domeng/bots/coach.py",
        '    if not moves:\n        raise ValueError(f"seat {v.seat} is not in turn")',
        '    if False:\n        raise ValueError(f"seat {v.seat} is not in turn")',
        "a judgement without a seat in turn",
    ),
    Mutant(
        "K8",
        "src/domeng/bots/coach.py",
        '    if seat is None:\n        raise ValueError("the round is over")',
        '    if False:\n        raise ValueError("the round is over")',
        "hindsight on a finished round",
    ),
    Mutant(
        "L11",
        S + "limits.py",
        "if b.tokens + (now - b.at) * b.share.rate < b.share.burst",
        "if b.tokens + (now - b.at) * b.share.rate <= b.share.burst",
        "full buckets never forgotten",
    ),
    Mutant(
        "L12",
        S + "limits.py",
        "if len(self._addresses) > 10_000:",
        "if len(self._addresses) >= 10_000:",
        "forgotten one address early",
    ),
    Mutant(
        "D7",
        "src/domeng/engine/standings.py",
        '"manguno": self.manguno,',
        '"manguno": self.mattikkeng,',
        "json names the wrong figure",
    ),
    Mutant(
        "T8",
        S + "turnclock.py",
        "seat = t.game.turn if t.started else None",
        "seat = t.game.turn",
        "a clock before the first deal",
    ),
    Mutant(
        "C10",
        S + "chat.py",
        "RATE = (5, 10.0)",
        "RATE = (5, 9.0)",
        "the rate window a second shorter",
    ),
    Mutant(
        "H10",
        S + "host.py",
        "    if not t.is_host(body.token):",
        "    if False:",
        "anyone has the host's say",
    ),
    Mutant(
        "D8",
        "src/domeng/engine/standings.py",
        "self.mattikkeng[:], self.passebunge[:],",
        "self.mattikkeng, self.passebunge[:],",
        "Tally.copy shares the MATTIKKENG list",
    ),
    Mutant(
        "M1",
        "src/domeng/server/club/passwords.py",
        "len(password) < MIN_PASSWORD",
        "len(password) <= MIN_PASSWORD",
        "club: a password one character short of the minimum taken",
    ),
    Mutant(
        "M2",
        "src/domeng/server/club/passwords.py",
        "len(set(folded)) < 4",
        "len(set(folded)) < 5",
        "club: a password of 4 different characters refused",
    ),
    Mutant(
        "M3",
        "src/domeng/server/club/throttle.py",
        "if c.wrong > self.free:",
        "if c.wrong >= self.free:",
        "club: the last free guess locks",
    ),
    Mutant(
        "M4",
        "src/domeng/server/club/throttle.py",
        "if c.last and now - c.last > LONGEST:",
        "if False:",
        "club: a long quiet does not count afresh",
    ),
    Mutant(
        "M5",
        "src/domeng/server/club/members.py",
        "if link.expires <= at:",
        "if link.expires < at:",
        "club: a link works at its expiry",
    ),
    Mutant(
        "M6",
        "src/domeng/server/club/state.py",
        "if session is None or session.expires <= now:",
        "if session is None or session.expires < now:",
        "club: a session works at its end",
    ),
    Mutant(
        "M7",
        "src/domeng/server/club/moderation.py",
        "            if wait > 0:",
        "            if wait >= 0:",
        "club: a mute refuses at its end",
    ),
    Mutant(
        "M8",
        "src/domeng/server/club/roles.py",
        "RANK[target.role] >= RANK[actor.role]",
        "RANK[target.role] > RANK[actor.role]",
        "club: an admin acts on an equal",
    ),
    Mutant(
        "M9",
        "src/domeng/server/club/state.py",
        "        if member.suspended:",
        "        if False:",
        "club: a suspended member's session let in",
    ),
    Mutant(
        "M10",
        "src/domeng/server/club/gate.py",
        "if m is None or m.group(1) != member.table:",
        "if m is None:",
        "club: a guest reaches any table",
    ),
    Mutant(
        "M11",
        "src/domeng/server/club/gate.py",
        'if changes and site in ("cross-site", "same-site"):',
        'if changes and site == "cross-site":',
        "club: a same-site page's change let in",
    ),
    Mutant(
        "M12",
        "src/domeng/server/club/gate.py",
        "if pick is not None and pick.group(1) != member.id:",
        "if False:",
        "club: any profile picked",
    ),
    Mutant(
        "M13",
        "src/domeng/server/club/sessions.py",
        'path="/", httponly=True, samesite="strict",\n',
        'path="/", httponly=False, samesite="strict",\n',
        "club: the cookie readable by scripts",
    ),
    Mutant(
        "M14",
        "src/domeng/storage/sql_club.py",
        "WHERE code_hash = ? AND spent = 0",
        "WHERE code_hash = ?",
        "club: a link spent twice (SQL)",
    ),
    Mutant(
        "M15",
        "src/domeng/storage/memory_club.py",
        "            if other.member == link.member:\n                other.spent = True",
        "            pass",
        "club: an older link not spent by a new one (memory)",
    ),
    Mutant(
        "M16",
        "src/domeng/server/club/routes.py",
        "            await club.guessed_wrong(asked.name, address)\n"
        '            raise TableError("wrong_password"',
        '            raise TableError("wrong_password"',
        "club: wrong passwords not counted",
    ),
    Mutant(
        "U1",
        "src/domeng/tournament/scoring.py",
        "if table != p.table]",
        "if True]",
        "a player compared with themselves too",
    ),
    Mutant(
        "U2",
        "src/domeng/tournament/scoring.py",
        "Fraction(sum(others), len(others)) - mine",
        "Fraction(sum(others), len(others)) + mine",
        "own STONES counted as a gain",
    ),
    Mutant(
        "U3",
        "src/domeng/tournament/scoring.py",
        "return (-self.score, -self.won, self.passebunge)",
        "return (-self.score, self.won, self.passebunge)",
        "fewer rounds won break a tie",
    ),
    Mutant(
        "U4",
        "src/domeng/tournament/scoring.py",
        "return (-self.score, -self.won, self.passebunge)",
        "return (-self.score, -self.won, -self.passebunge)",
        "more PASSEBUNGE break a tie",
    ),
    Mutant(
        "U5",
        "src/domeng/tournament/scoring.py",
        "points.append(below + Fraction(equal, 2))",
        "points.append(below + Fraction(equal, 1))",
        "equal places take whole points",
    ),
    Mutant(
        "U6",
        "src/domeng/tournament/scoring.py",
        "out[(p.round, p.deal, p.table, seat)] = Fraction(-mine)",
        "out[(p.round, p.deal, p.table, seat)] = Fraction(0)",
        "one table scores nothing",
    ),
    Mutant(
        "U7",
        "src/domeng/tournament/seating.py",
        "        _improve(groups, met)",
        "        pass",
        "no swaps after the greedy seating",
    ),
    Mutant(
        "U8",
        "src/domeng/tournament/seating.py",
        "    room[-1] = SEATS - (count * SEATS - len(entrants))",
        "    room[0] = SEATS - (count * SEATS - len(entrants))",
        "the empty places at the first table",
    ),
    Mutant(
        "U9",
        S + "tournaments.py",
        "if not all(rt.finished for rt in r.tables if rt.id != table.id):",
        "if not all(rt.finished for rt in r.tables):",
        "a lone table's record refused by its own game",
    ),
    Mutant(
        "U10",
        S + "moving.py",
        "        if t.settings.tournament is not None:  # the tournament watches its tables\n"
        "            return False",
        "        if False:\n            return False",
        "a tournament's computer table stops when nobody watches",
    ),
    Mutant(
        "U11",
        S + "fixed.py",
        "    if dealt >= len(settings.deals):",
        "    if True:",
        "the fixed deals not dealt",
    ),
    Mutant(
        "U12",
        S + "tournaments.py",
        "        active = [e.key for e in t.entrants if e.active and not e.fill]",
        "        active = [e.key for e in t.entrants if not e.fill]",
        "a withdrawal still seated",
    ),
    Mutant(
        "U13",
        S + "fixed.py",
        "        if self.fresh:",
        "        if False:",
        "duplicate deals carried over as one game",
    ),
    Mutant(
        "O1",
        "src/domeng/storage/leases.py",
        "        if row is not None and (row[0] != self.process"
        " or row[1] != self.epochs.get(table_id)):",
        "        if row is not None and row[0] != self.process:",
        "a write fenced by the owner alone, not its epoch",
    ),
    Mutant(
        "O2",
        "src/domeng/storage/leases.py",
        '"SELECT owner, epoch FROM leases WHERE table_id = ? FOR SHARE", (table_id,)\n'
        "        ).fetchone()\n        if row is not None and (row[0] != self.process",
        '"SELECT owner, epoch FROM leases WHERE table_id = ?", (table_id,)\n'
        "        ).fetchone()\n        if row is not None and (row[0] != self.process",
        "the fence holds no lock: a takeover does not wait for a write in flight",
    ),
    Mutant(
        "O3",
        "src/domeng/storage/leases.py",
        'f"WHERE (p.id IS NULL OR p.expires < {_NOW}) AND l.owner IS DISTINCT FROM ?"',
        'f"WHERE (p.id IS NULL OR p.expires > {_NOW}) AND l.owner IS DISTINCT FROM ?"',
        "the live processes' tables taken over",
    ),
    Mutant(
        "O4",
        "src/domeng/storage/leases.py",
        "        lost = [t for t, e in list(self.epochs.items()) if held.get(t) != e]",
        "        lost: list[str] = []",
        "a stalled owner does not learn what it lost",
    ),
    Mutant(
        "O5",
        "src/domeng/storage/leases.py",
        '"UPDATE leases SET owner = ?, epoch = epoch + 1 WHERE table_id IN ("',
        '"UPDATE leases SET owner = ?, epoch = epoch WHERE table_id IN ("',
        "a takeover keeps the epoch: the old owner's writes go in",
    ),
    Mutant(
        "O6",
        "src/domeng/storage/sql.py",
        "        with self._tx(alone=True) as db:\n"
        "            self._fence(db, table_id)\n            # a play",
        "        with self._tx(alone=True) as db:\n            # a play",
        "a play not fenced",
    ),
    Mutant(
        "O7",
        S + "registry.py",
        "        t.store = Dropped(table_id)  # what of it is still on its way writes nothing\n"
        "        for c in t.connections:\n            c.close_code = MOVED\n"
        "        task = t.stop()",
        "        task = None",
        "a table lost is kept: its clients are not moved",
    ),
    Mutant(
        "O8",
        S + "app.py",
        "            Middleware(Relay),",
        "",
        "nothing relayed to a table's owner",
    ),
    Mutant(
        "O9",
        "src/domeng/storage/leases.py",
        '                f"UPDATE processes SET expires = {_NOW} - 1 '
        'WHERE address = ? AND id <> ?",',
        '                f"UPDATE processes SET expires = {_NOW} + 30 '
        'WHERE address = ? AND id <> ?",',
        "a process restarted at its address waits 30 s for its predecessor's tables",
    ),
    Mutant(
        "O10",
        "src/domeng/storage/leases.py",
        '"WHERE table_id = ? AND epoch = ? RETURNING epoch",',
        '"WHERE table_id = ? AND epoch >= ? RETURNING epoch",',
        "a table named taken without comparing its epoch: two processes may both have it",
    ),
    Mutant(
        "V1",
        "src/domeng/bots/levels.py",
        '"expert:fast", "expert", "expert:strong")',
        '"expert:fast", "expert:strong", "expert")',
        "the ladder's two strongest levels swapped: Master below Expert",
    ),
    Mutant(
        "V2",
        "src/domeng/bots/levels.py",
        "    if name not in LADDER:\n        raise",
        "    if False:\n        raise",
        "a level off the ladder (oracle) given a ladder name",
    ),
    Mutant(
        "V3",
        "src/domeng/bots/levels.py",
        'Level("expert:strong", 8000, 4.0)',
        'Level("expert:strong", 8000, 0.5)',
        "the strongest level's time cap below the level under it",
    ),
    Mutant(
        "V4",
        "src/domeng/engine/seatname.py",
        r'r"^(?P<name>.*\S)\s+',
        r'r"^(?P<name>.*)\s+',
        "a computer's name read with the spaces before its level",
    ),
    Mutant(
        "V5",
        "src/domeng/engine/seatname.py",
        r"\((?P<kind>[^()]+)\)$",
        r"\((?P<kind>[^()]+)\)",
        "a level read from brackets in the middle of a name",
    ),
    Mutant(
        "V6",
        "src/domeng/engine/seatname.py",
        'unicodedata.normalize("NFKC", name).casefold()',
        "name.casefold()",
        "a full-width name another name",
    ),
    Mutant(
        "V7",
        "src/domeng/engine/seatname.py",
        'return " ".join(unicodedata.normalize("NFKC", name).casefold().split())',
        'return unicodedata.normalize("NFKC", name).casefold().strip()',
        "a run of spaces inside a name not one space",
    ),
    Mutant(
        "V8",
        "src/domeng/history/calibration.py",
        "        while len(blocks) > 1 and blocks[-2][1] < blocks[-1][1]:",
        "        if len(blocks) > 1 and blocks[-2][1] < blocks[-1][1]:",
        "a pooled block not pooled again with the one before it that it now inverts",
    ),
    Mutant(
        "V9",
        "src/domeng/history/calibration.py",
        "(x * len(a) + y * len(b)) / (len(a) + len(b))",
        "(x + y) / 2",
        "two blocks pooled to the mean of their means, not of their levels",
    ),
    Mutant(
        "V10",
        "src/domeng/history/calibration.py",
        "paired = _pooled(paired, [n for n in order if n in paired])",
        "paired = _pooled(paired, list(order))",
        "a level of the order the run did not measure breaks the pooling",
    ),
    Mutant(
        "V11",
        "src/domeng/history/calibration.py",
        "zero = paired.get(anchor, 0.0)",
        "zero = 0.0",
        "levels placed from 0, not from the anchor's own paired result",
    ),
    Mutant(
        "V12",
        "src/domeng/history/calibration.py",
        "if span <= 0 or top.mu <= bottom.mu:",
        "if span < 0 or top.mu <= bottom.mu:",
        "anchor and scale level equal in the paired results accepted",
    ),
    Mutant(
        "V13",
        "src/domeng/history/calibration.py",
        "if span <= 0 or top.mu <= bottom.mu:",
        "if span <= 0:",
        "a base that rates the scale level above the anchor accepted",
    ),
    Mutant(
        "V14",
        "src/domeng/history/calibration.py",
        "elif not points > 0:",
        "elif points <= 0:",
        "points per stone that are no number (nan) accepted",
    ),
    Mutant(
        "V15",
        "src/domeng/history/calibration.py",
        "    out[scale_by] = bottom\n",
        "",
        "the scale level does not keep its base rating",
    ),
    Mutant(
        "V16",
        "src/domeng/history/calibration.py",
        "Rating(top.mu - points * (d - zero), top.sigma)",
        "Rating(top.mu - points * (d - zero), bottom.sigma)",
        "the levels' sigma the scale level's, not the anchor's",
    ),
    Mutant(
        "V17",
        "src/domeng/history/calibration.py",
        "            if 2 * n >= len(rounds):",
        "            if True:",
        "the calibrated rating a mean over the first half's rounds too",
    ),
    Mutant(
        "V18",
        "benchmarks/trials.py",
        "        if name not in ratings and below in ratings:",
        "        if False:",
        "a level the run did not measure left out of the calibration",
    ),
    Mutant(
        "V19",
        "src/domeng/storage/writer.py",
        "            while len(calls) < BATCH_LIMIT and calls[-1] is not _CLOSE:",
        "            while calls[-1] is not _CLOSE:",
        "the thread's batch has no limit",
    ),
    Mutant(
        "V20",
        "src/domeng/storage/writer.py",
        "while self._pending and self._pending[0].quick and len(quick) < BATCH_LIMIT:",
        "while self._pending and self._pending[0].quick:",
        "the writes gathered behind a read kept in one batch without limit",
    ),
    Mutant(
        "V21",
        "src/domeng/storage/writer.py",
        "if self.on_loop and quick and self._draining is None:",
        "if self.on_loop and quick:",
        "a write made on the loop at once while a read is out: it overtakes the read",
    ),
    Mutant(
        "V22",
        "src/domeng/storage/writer.py",
        "            outcomes = [(False, e)] * len(batch)",
        "            pass",
        "a batch that could not be kept answers its calls as kept",
    ),
    Mutant(
        "V23",
        "src/domeng/storage/writer.py",
        "    if future.done():  # its caller stopped waiting (cancelled)\n        return\n",
        "",
        "a caller that stopped waiting breaks the answers of the others",
    ),
    Mutant(
        "V24",
        "src/domeng/storage/servicelock.py",
        "    def release(self) -> None:\n        self._lock.release()",
        "    def release(self) -> None:\n        pass",
        "a service that ended keeps its lock",
    ),
    Mutant(
        "V25",
        "src/domeng/storage/servicelock.py",
        'path.with_name(path.name + ".service.lock")',
        'path.with_name(path.stem + ".service.lock")',
        "two files of the same stem share one lock",
    ),
    Mutant(
        "Y1",
        S + "tournaments.py",
        'return "finished" if len(self.played) >= self.rounds else "between"',
        'return "finished" if len(self.played) > self.rounds else "between"',
        "tournament: one round more than planned before it is finished",
    ),
    Mutant(
        "Y2",
        S + "tournaments.py",
        "if not all(t.finished for t in self.played[-1].tables):",
        "if not any(t.finished for t in self.played[-1].tables):",
        "tournament: the round over when one table is over, not every table",
    ),
    Mutant(
        "Y3",
        S + "tournaments.py",
        '        if self.ended:\n            return "finished"',
        '        if self.ended and self.played:\n            return "finished"',
        "tournament: ended before its first round, it still waits",
    ),
    Mutant(
        "Y4",
        S + "tournaments.py",
        "                self._not_over(t)\n                t.entrant(key).active = False",
        "                t.entrant(key).active = False",
        "tournament: a withdrawal taken once it is over",
    ),
    Mutant(
        "Y5",
        S + "tournaments.py",
        "                self._not_over(t)\n                tokens: dict[str, str] = {}",
        "                tokens: dict[str, str] = {}",
        "tournament: a late arrival taken once it is over",
    ),
    Mutant(
        "Y6",
        S + "tournaments.py",
        '            if e.kind != "person":\n                raise TableError("computer_entrant"',
        '            if False:\n                raise TableError("computer_entrant"',
        "tournament: a computer entrant 'replaced' as a no-show",
    ),
    Mutant(
        "Y7",
        S + "tournaments.py",
        '            if table.finished:\n                raise TableError("game_over"',
        '            if False:\n                raise TableError("game_over"',
        "tournament: a no-show replaced at a table whose game is over",
    ),
    Mutant(
        "Y8",
        S + "tournaments.py",
        "        if not active:\n",
        "        if False:\n",
        "tournament: a round started with every entrant withdrawn (not refused no_entrants)",
    ),
    Mutant(
        "Y9",
        S + "tournaments.py",
        "        for rt in t.played[-1].tables:\n            if key in rt.seats:",
        "        for rt in t.played[0].tables:\n            if key in rt.seats:",
        "tournament: a person's table now is the one of the first round",
    ),
    Mutant(
        "Y10",
        S + "tournaments.py",
        "found = self._table_of(t, e.key) if e.active else None",
        "found = self._table_of(t, e.key)",
        "tournament: a withdrawn entrant still shown a table to go to",
    ),
    Mutant(
        "Y11",
        S + "tournaments.py",
        "fill = next((f for f in fills if f.key not in used), None)",
        "fill = None",
        "tournament: new computers fill the last table every round (the standings grow)",
    ),
    Mutant(
        "Y12",
        S + "tournaments.py",
        "        for e in t.entrants:\n            lines.setdefault(e.key, scoring.Line(e.key))",
        "        for e in t.entrants:\n            pass",
        "tournament: an entrant who has played nothing yet is not in the standings",
    ),
    Mutant(
        "Y13",
        S + "tournaments.py",
        'if t.format != "duplicate" or t.ended:',
        "if t.ended:",
        "tournament: a table game's record hidden while the round is played elsewhere",
    ),
    Mutant(
        "Y14",
        S + "tournaments.py",
        "seed=body.seed if body.seed is not None else secrets.randbits(63),",
        "seed=secrets.randbits(63),",
        "tournament: the seed asked for is not the one dealt from",
    ),
    Mutant(
        "Y15",
        S + "tournaments.py",
        "                if other is not None:  # they may sit",
        "                if False:  # they may sit",
        "tournament: a late arrival named as an entrant already is taken",
    ),
    Mutant(
        "Y16",
        S + "tournaments.py",
        "                if not table.finished:\n"
        '                    await self.hub.end_table(table, "host")',
        "                if not table.finished:\n                    pass",
        "tournament: ended, its tables still playing are not ended",
    ),
    Mutant(
        "Y17",
        "src/domeng/tournament/plan.py",
        "MAX_DEALS = 20",
        "MAX_DEALS = 21",
        "tournament: one deal a round more than the documented limit",
    ),
    Mutant(
        "Y18",
        "src/domeng/tournament/plan.py",
        'rng = random.Random(f"domeng-tournament:{seed}:{round_number}")',
        'rng = random.Random(f"domeng-tournament:{seed}")',
        "tournament: every round deals the same tiles",
    ),
    Mutant(
        "Y19",
        "src/domeng/tournament/reading.py",
        "        if not r.finished:\n            continue\n",
        "",
        "tournament: a deal still in play counted in the live standings",
    ),
    Mutant(
        "Y20",
        "src/domeng/tournament/reading.py",
        "        tuple(game.titles),\n        tuple(game.stones),",
        "        tuple(game.stones),\n        tuple(game.titles),",
        "tournament: a table game's CAMAT titles and STONES read the one for the other",
    ),
    Mutant(
        "Y21",
        "src/domeng/tournament/reading.py",
        "                tuple(tally.won),\n                tuple(tally.passebunge),",
        "                tuple(tally.passebunge),\n                tuple(tally.won),",
        "tournament: a deal's rounds won and PASSEBUNGE read the one for the other",
    ),
    Mutant(
        "Y22",
        "src/domeng/tournament/seating.py",
        "key=lambda n: (_cost(key, groups[n], met), len(groups[n]), n),",
        "key=lambda n: (_cost(key, groups[n], met), -len(groups[n]), n),",
        "seating: a tie goes to the fullest table, not the emptiest",
    ),
    Mutant(
        "Y23",
        "src/domeng/tournament/seating.py",
        "                    if then < now:",
        "                    if then <= now:",
        "seating: a swap that helps nobody is made too",
    ),
    Mutant(
        "Y24",
        "src/domeng/tournament/scoring.py",
        "return (-titles[n], stones[n], received[n])",
        "return (-titles[n], received[n], stones[n])",
        "table games: STONES received placed before STONES held",
    ),
    Mutant(
        "N1",
        S + "forwarded.py",
        "return self.proxies is not None and peer in self.proxies.trusted_hosts",
        "return self.proxies is not None",
        "any peer believed once one proxy is named",
    ),
    Mutant(
        "N2",
        S + "forwarded.py",
        "if len(self.warned) >= WARNED_AT_MOST:",
        "if len(self.warned) > WARNED_AT_MOST:",
        "one peer more than WARNED_AT_MOST said in the log",
    ),
    Mutant(
        "N3",
        S + "forwarded.py",
        "            self.warned.add(peer)\n",
        "",
        "a peer not named said in the log at every request",
    ),
    Mutant(
        "N4",
        S + "forwarded.py",
        'if any(name == b"x-forwarded-for" for name, _ in scope["headers"]):',
        "if True:",
        "every peer not named said in the log, forwarded header or not",
    ),
    Mutant(
        "N5",
        S + "forwarded.py",
        'if scope["type"] in ("http", "websocket"):',
        'if scope["type"] == "http":',
        "a WebSocket's forwarded address not believed from a named proxy",
    ),
    Mutant(
        "N6",
        S + "paging.py",
        "not low <= int(text) <= high",
        "not low <= int(text) < high",
        "the highest number refused",
    ),
    Mutant(
        "N7",
        S + "paging.py",
        "if not (text.isascii() and text.isdigit())",
        "if not text.isdigit()",
        "digits of other scripts taken as a number",
    ),
    Mutant(
        "N8",
        S + "paging.py",
        "    if not text:\n        return default",
        "    if text is None:\n        return default",
        "an empty number refused instead of the default",
    ),
    Mutant(
        "N9",
        S + "paging.py",
        "DEFAULT_PAGE = 100",
        "DEFAULT_PAGE = 101",
        "a page one item longer by default",
    ),
    Mutant(
        "N10",
        S + "relay.py",
        "_KEPT_CLOSES = frozenset({1000, 1008, 1013, 4404, 4409})",
        "_KEPT_CLOSES = frozenset({1000, 1008, 1013, 4409})",
        "the owner's 'no such table' turned into 'come again' (the browser loops)",
    ),
    Mutant(
        "N11",
        S + "relay.py",
        "if len(body) > BODY_LIMIT:",
        "if len(body) >= BODY_LIMIT:",
        "a body of exactly the limit refused",
    ),
    Mutant(
        "N12",
        S + "relay.py",
        'elif any(name == RELAYED for name, _ in scope.get("headers", [])):',
        "elif False:",
        "a relayed request relayed again (two processes may send it round)",
    ),
    Mutant(
        "N13",
        S + "relay.py",
        'forwarded = f"{forwarded}, {client[0]}" if forwarded else str(client[0])',
        'forwarded = f"{client[0]}, {forwarded}" if forwarded else str(client[0])',
        "the client's own say put last: the owner believes an address the client chose",
    ),
    Mutant(
        "N14",
        S + "relay.py",
        '_HEADERS = ("content-type", "cookie", "user-agent",',
        '_HEADERS = ("content-type", "user-agent",',
        "the session cookie not relayed: a member's change refused at the owner",
    ),
    Mutant(
        "N15",
        S + "relay.py",
        "    return f\"{base}{scope['path']}{'?' + query if query else ''}\"",
        "    return f\"{base}{scope['path']}\"",
        "the query string lost on the way",
    ),
    Mutant(
        "N16",
        S + "relay.py",
        '            "status": status,\n            "headers": [(b"content-type", kind.encode',
        '            "status": 200,\n            "headers": [(b"content-type", kind.encode',
        "the owner's refusal relayed as a success",
    ),
    Mutant(
        "N17",
        S + "relay.py",
        "        except Exception:  # the database is away",
        "        except OSError:  # the database is away",
        "a failed look-up of the owner answered 500, not served here",
    ),
    Mutant(
        "N18",
        S + "relay.py",
        "    if relayed and not again:",
        "    if False:",
        "forward sends on a request relayed here already",
    ),
    Mutant(
        "N19",
        S + "relay.py",
        "        if again:\n            return Response(status_code=204)\n",
        "",
        "a tournament's end refused when the owner of its other tables is away",
    ),
    Mutant(
        "N20",
        S + "club/purge.py",
        "s.purge_club(now, now - LINKS_KEPT_DAYS * DAY, now - LONGEST)",
        "s.purge_club(now, now - LONGEST, now - LINKS_KEPT_DAYS * DAY)",
        "the links' and the guesses' ages swapped",
    ),
    Mutant(
        "N21",
        S + "club/purge.py",
        "now - LINKS_KEPT_DAYS * DAY,",
        "now - (LINKS_KEPT_DAYS - 1) * DAY,",
        "an expired link forgotten a day early (unknown_link, not expired_link)",
    ),
    Mutant(
        "N22",
        S + "club/purge.py",
        "now - LONGEST)",
        "now - LONGEST + 60)",
        "counts of wrong guesses forgotten a minute before the longest lock is over",
    ),
    Mutant(
        "N23",
        S + "club/purge.py",
        '        except Exception:\n            log.exception("could not purge',
        '        except OSError:\n            log.exception("could not purge',
        "one failed purge ends the purging for good",
    ),
    Mutant(
        "N24",
        S + "club/in_step.py",
        "    if len(rest) == len(t.chat):\n        return\n",
        "",
        "told chat_hidden for a message the table does not have",
    ),
    Mutant(
        "N25",
        S + "club/in_step.py",
        "        if not m.suspended:\n            club.shut.discard(m.id)\n        elif",
        "        if not m.suspended:\n            pass\n        elif",
        "a member let back elsewhere stays shut here: a new suspension is not done",
    ),
    Mutant(
        "N26",
        S + "club/in_step.py",
        "    club.mutes = {m.id: m.muted_until for m in members if m.muted_until}",
        "    club.mutes.update({m.id: m.muted_until for m in members if m.muted_until})",
        "a mute ended elsewhere goes on here",
    ),
    Mutant(
        "N27",
        S + "club/in_step.py",
        "        club.hidden.add((table_id, at))\n",
        "",
        "a message hidden elsewhere not kept out here (it comes back at a restart of the table)",
    ),
    Mutant(
        "N28",
        S + "club/in_step.py",
        '        except Exception:\n            log.exception("could not read the club',
        '        except OSError:\n            log.exception("could not read the club',
        "one failed reading ends the catching up for good",
    ),
    Mutant(
        "N29",
        S + "showing.py",
        '"open": open_seat and st.open,',
        '"open": open_seat,',
        "a seat kept for an invited person shown open to anyone",
    ),
    Mutant(
        "N30",
        S + "showing.py",
        'if s.stored.kind == "person" and s.stored.token_hash is None and s.stored.open',
        'if s.stored.kind == "person" and s.stored.token_hash is None',
        "an invited seat's join link given to everyone",
    ),
    Mutant(
        "N31",
        S + "showing.py",
        "left = max(0.0, t.deadline - t.clock.now())",
        "left = t.deadline - t.clock.now()",
        "a turn clock past its deadline shows time below zero",
    ),
    Mutant(
        "N32",
        S + "showing.py",
        'people = any(s.stored.kind == "person" or s.stored.sits_from > 0 for s in t.seats)',
        'people = any(s.stored.kind == "person" for s in t.seats)',
        "a round whose person was replaced by a computer shown whole in the record",
    ),
    Mutant(
        "N33",
        S + "showing.py",
        "if not (self.hides_last_round or (finished_rounds and t.in_round)):",
        "if not self.hides_last_round:",
        "the finished rounds' record holds the round in play",
    ),
    Mutant(
        "N34",
        S + "showing.py",
        "ready = st.ready >= number or stand_in",
        "ready = st.ready > number or stand_in",
        "a person ready for the next round shown not ready",
    ),
    Mutant(
        "N35",
        S + "seats.py",
        "        self.away_before = 0.0\n        self.backed = False",
        "        self.backed = False",
        "a person who played keeps their earlier time away",
    ),
]

EQUIVALENT = {
    "O1": "a process's id is new at every start and a table it dropped writes nothing again "
    "(leases.Dropped): the owner alone fences as the epoch does",
    "C9": "the message model takes a text or a phrase, never both, so a text's phrase is None",
}
"""Survivors judged equivalent: no input the service accepts tells them apart."""

CLUB = ["server/test_club_rules.py", "server/test_storage_club_contract.py", "server/test_club.py"]
"""The tests of the club's modules (its rules, its storage, its service)."""

TESTS = {
    "turnclock.py": ["server/test_server_turn_clock.py", "server/test_server_clock.py"],
    "tables.py": [
        "server/test_server_turn_clock.py",
        "server/test_server_seating.py",
        "server/test_server_host.py",
        "server/test_server_clock.py",
        "server/test_server_friends.py",
    ],
    "registry.py": [
        "server/test_server_registry.py",
        "server/test_server_seating.py",
        "server/test_server_clock.py",
        "server/test_server_several.py",
    ],
    "chat.py": ["server/test_server_chat.py", "server/test_server_friends.py"],
    "leases.py": ["server/test_storage_leases.py", "server/test_server_several.py"],
    "src/domeng/storage/sql.py": ["server/test_storage_leases.py"],
    "app.py": ["server/test_server_several.py"],
    "limits.py": ["server/test_server_limits_bounds.py", "server/test_server_limits.py"],
    "host.py": ["server/test_server_host.py", "server/test_server_friends.py"],
    "ratings.py": ["history/test_ratings.py", "test_doctests.py", "history/test_history.py"],
    "coach.py": ["bots/test_coach_causes.py", "bots/test_coach.py"],
    "src/domeng/tournament/scoring.py": ["tournament", "server/test_tournament_duplicate.py"],
    "src/domeng/tournament/seating.py": ["tournament", "server/test_tournament_duplicate.py"],
    "src/domeng/tournament/plan.py": ["tournament", "server/test_tournament_duplicate.py"],
    "src/domeng/tournament/reading.py": [
        "tournament",
        "server/test_tournament_duplicate.py",
        "server/test_server_tournaments.py",
    ],
    "tournaments.py": [
        "server/test_tournament_rules.py",
        "server/test_tournament_duplicate.py",
        "server/test_server_tournaments.py",
        "server/test_server_same_name.py",
    ],
    "fixed.py": ["server/test_tournament_duplicate.py", "server/test_server_tournaments.py"],
    "moving.py": ["server/test_tournament_duplicate.py", "server/test_server_computer_tables.py"],
    "standings.py": [
        "engine/test_tally.py",
        "engine/test_standings.py",
        "server/test_server_standings.py",
    ],
    "passwords.py": CLUB,
    "throttle.py": CLUB,
    "members.py": CLUB,
    "state.py": CLUB,
    "moderation.py": CLUB,
    "roles.py": CLUB,
    "gate.py": CLUB,
    "sessions.py": CLUB,
    "routes.py": CLUB,
    "sql_club.py": CLUB,
    "memory_club.py": CLUB,
    "src/domeng/bots/levels.py": ["bots/test_ladder.py", "bots/test_expert.py"],
    "seatname.py": [
        "engine/test_seatname.py",
        "test_doctests.py",
        "server/test_server_same_name.py",
        "test_play_command.py",
    ],
    "calibration.py": [
        "history/test_history.py",
        "bots/test_ladder.py",
        "sim/test_trials_script.py",
        "server/test_server_calibration.py",
    ],
    "benchmarks/trials.py": ["sim/test_trials_script.py"],
    "src/domeng/storage/writer.py": [
        "server/test_storage_writer_batches.py",
        "server/test_storage_writer_on_loop.py",
        "server/test_storage_contract.py",
    ],
    "servicelock.py": ["server/test_server_storage_sqlite.py"],
    "forwarded.py": ["server/test_server_forwarded.py"],
    "paging.py": [
        "server/test_server_paging.py",
        "server/test_server_players.py",
        "server/test_server_friends.py",
        "server/test_server_replays.py",
        "server/test_server_hints.py",
    ],
    "relay.py": ["server/test_server_relay.py", "server/test_server_several.py"],
    "src/domeng/server/club/purge.py": ["server/test_club_rules.py", "server/test_club.py"],
    "in_step.py": ["server/test_club_rules.py", "server/test_club.py"],
    "showing.py": [
        "server/test_server_showing.py",
        "server/test_server_host.py",
        "server/test_server_seating.py",
        "server/test_server_friends.py",
        "server/test_server_turn_clock.py",
        "server/test_server_live_round_hidden.py",
        "server/test_server_clock.py",
        "server/test_server_reconnect_and_rounds.py",
    ],
    "seats.py": [
        "server/test_server_showing.py",
        "server/test_server_turn_clock.py",
        "server/test_server_clock.py",
        "server/test_server_seating.py",
    ],
}
"""The test files that cover each module, by its name, or by its path where two modules
share a name (the quick ones first: -x stops at a kill)."""


def run(m: Mutant) -> str:
    """ "killed", "survived" or "n/a" (its text is not in its file)."""
    path = ROOT / m.file
    source = path.read_text(encoding="utf-8")
    if source.count(m.old) != 1:
        return "n/a"
    tests = [f"tests/{t}" for t in TESTS.get(m.file) or TESTS[path.name]]
    try:
        path.write_text(source.replace(m.old, m.new), encoding="utf-8")
        command = [sys.executable, "-m", "pytest", "-x", "-q", "-p", "no:cacheprovider"]
        done = subprocess.run(
            [*command, *tests], cwd=ROOT, capture_output=True, text=True, timeout=900
        )
        return "survived" if done.returncode == 0 else "killed"
    except subprocess.TimeoutExpired:
        return "killed"
    finally:
        path.write_text(source, encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("ids", nargs="*", help="the mutants to try (all when none)")
    args = parser.parse_args()
    chosen = [m for m in MUTANTS if not args.ids or m.id in args.ids]
    counts = {"killed": 0, "survived": 0, "n/a": 0, "equivalent": 0}
    for m in chosen:
        start = time.monotonic()
        result = run(m)
        if result == "survived" and m.id in EQUIVALENT:
            result = "equivalent"
        counts[result] += 1
        note = f" ({EQUIVALENT[m.id]})" if result == "equivalent" else ""
        print(f"{m.id:4} {result:10} {time.monotonic() - start:5.0f} s  {m.what}{note}", flush=True)
    tried = len(chosen) - counts["n/a"]
    print(
        f"mutants: {counts['killed']} killed of {tried} tried, {counts['equivalent']} judged "
        f"equivalent, {counts['survived']} survived ({counts['n/a']} not applicable)"
    )


if __name__ == "__main__":
    main()
