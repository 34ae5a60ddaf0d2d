"""The hand-made records in examples/: each replays to its committed expected output.

Three independent checks guard every example:

1. ``domeng replay`` prints exactly the committed ``.out.json`` and ``.out.txt``.
2. A small, deliberately naive referee written here from rules.md alone (no
   engine code) recomputes the ``--json`` document from the record; it must
   agree with the committed file. The same referee is run against the engine
   on random games.
3. ``FACTS``: the figures that make each example what it is, worked out by hand
   from rules.md (the reasoning is in the comments and in examples/README.md).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from domeng.cli import main
from domeng.engine import BlockPasses, Game, Opening, Variants
from domeng.engine.record import record_of, replay_summary

EXAMPLES_DIR = Path(__file__).resolve().parent.parent / "examples"
EXAMPLES = [
    "01-first-cappu",
    "02-ceki",
    "03-pollo",
    "04-manguno",
    "05-mattikkeng-one",
    "06-mattikkeng-equal",
    "07-mattikkeng-two",
    "08-table-runs-out",
    "09-giver-too-few",
    "10-camat",
    "11-opening-free",
    "12-block-passes-free",
    "13-stand-in",
]

# -- a naive referee, from rules.md only ---------------------------------------

Tile = tuple[int, int]


def _tile(text: str) -> Tile:
    a, b = (int(x) for x in text.split("-"))
    return (max(a, b), min(a, b))


def _fits(t: Tile, n: int) -> bool:
    return n in t


class Referee:
    """The ``domeng replay --json`` document of a valid record, computed naively."""

    def __init__(self, doc: dict[str, Any]) -> None:
        variants = doc.get("variants", {})
        self.penalized = variants.get("block_passes", "penalized") == "penalized"
        self.stones = [0] * 5
        self.table = 25
        self.camat: int | None = None
        self.titles = [0] * 5
        self.winner: int | None = None
        self.rounds = [self.round(number, rd) for number, rd in enumerate(doc["rounds"], 1)]

    def summary(self) -> dict[str, Any]:
        next_starter = None
        if self.rounds and self.rounds[-1]["finished"]:
            next_starter = self.camat if self.camat is not None else self.winner
        return {"rounds": self.rounds, "next_starter": next_starter}

    def give(self, receiver: int, amount: int, givers: list[int]) -> int:
        """Table first, then the givers in order; returns what the receiver got."""
        take = min(amount, self.table)
        self.table -= take
        self.stones[receiver] += take
        got, rest = take, amount - take
        for g in givers:
            if g == receiver:
                continue
            part = min(rest, self.stones[g])
            self.stones[g] -= part
            self.stones[receiver] += part
            got += part
            rest -= part
        return got

    def do_pass(self, seat: int) -> None:
        bunge = not self.has_played[seat]
        givers = [self.last_mappano] if self.last_mappano is not None else []
        got = self.give(seat, 2 if bunge else 1, givers)
        self.passes.append({"seat": seat, "passebunge": bunge, "stones": got})

    def can_play(self, seat: int) -> bool:
        left, right = self.ends
        return any(_fits(t, left) or _fits(t, right) for t in self.hands[seat])

    def round(self, number: int, rd: dict[str, Any]) -> dict[str, Any]:
        hands = self.hands = [[_tile(t) for t in h] for h in rd["hands"]]
        if number == 1:
            lempa = next((n, n) for n in (6, 5, 4, 3) if any((n, n) in h for h in hands))
            starter = next(s for s in range(5) if lempa in hands[s])
        else:
            assert self.winner is not None
            starter = self.camat if self.camat is not None else self.winner
        self.has_played = [False] * 5
        self.last_mappano: int | None = None
        self.ends = [-1, -1]
        self.passes: list[dict[str, Any]] = []
        out: dict[str, Any] = {
            "number": number,
            "starter": starter,
            "finished": False,
            "end": None,
            "first_cappu": None,
            "finish": None,
            "manguno": None,
            "mattikkeng": [],
            "winner": None,
            "cucuq": None,
        }
        elected = False
        ends = self.ends
        seat = starter
        for k, play in enumerate(rd["plays"]):
            t = _tile(play["tile"])
            hands[seat].remove(t)
            self.has_played[seat] = True
            self.last_mappano = seat
            if k == 0:
                ends[:] = [t[0], t[1]]
                mappakuling = False
            else:
                if "end" in play:
                    side = 0 if play["end"] == "left" else 1
                else:
                    side = 0 if _fits(t, ends[0]) and not _fits(t, ends[1]) else 1
                shown = ends[side]
                ends[side] = t[1] if t[0] == shown else t[0]
                mappakuling = ends[0] == ends[1]
            if not hands[seat]:  # FIRST CAPPU
                finish = "plain" if not mappakuling else ("pollo" if t[0] == t[1] else "ceki")
                cucuq = (seat - 1) % 5
                self.give(cucuq, {"plain": 1, "ceki": 3, "pollo": 5}[finish], [seat])
                out.update(end="cappu", first_cappu=seat, finish=finish, winner=seat)
                out.update(cucuq=cucuq, finished=True)
                self.winner = seat
                if self.table == 0 and self.stones[seat] == 0:
                    self.camat, elected = seat, True
                    self.titles[seat] += 1
                    self.stones = [0] * 5
                    self.table = 25
                break
            if not any(self.can_play(s) for s in range(5)):  # MANGUNO
                manguno = seat
                if self.penalized:
                    for j in range(1, 6):
                        self.do_pass((manguno + j) % 5)
                pips = [sum(a + b for a, b in h) for h in hands]
                order = [(manguno + j) % 5 for j in range(1, 5)]
                matt = [s for s in order if pips[s] <= pips[manguno]]
                if not matt:
                    cucuq = (manguno - 1) % 5
                    self.give(cucuq, 1, [manguno])
                    self.winner = manguno
                    out.update(cucuq=cucuq)
                else:
                    best = min(pips[s] for s in matt)
                    self.winner = next(s for s in matt if pips[s] == best)
                    single = len(matt) == 1 and pips[self.winner] < pips[manguno]
                    others = [s for s in matt if s != self.winner]
                    self.give(manguno, 5 if single else 1, [self.winner, *others])
                out.update(end="block", manguno=manguno, mattikkeng=matt, winner=self.winner)
                out.update(finished=True)
                break
            seat = (seat + 1) % 5
            while not self.can_play(seat):
                self.do_pass(seat)
                seat = (seat + 1) % 5
        out["passes"] = self.passes
        out.update(stones=list(self.stones), table=self.table, camat=self.camat)
        out.update(camat_elected=elected, camat_titles=list(self.titles))
        return out


def referee(doc: dict[str, Any]) -> dict[str, Any]:
    """The ``domeng replay --json`` document of a valid record, computed naively."""
    return Referee(doc).summary()


# -- the hand-checked figures -----------------------------------------------------

# Per example: per round (end, finish or MATTIKKENG list, winner, stones after, table after).
FACTS: dict[str, list[tuple[str, object, int, list[int], int]]] = {
    # Besse opens 6-6; Cicci passes four times without a tile played (4 PASSEBUNGE = 8),
    # Daeng 2+2+1, Emba 1+1+1; Besse goes out with 2-1 on ends 6|2: plain, CUCUQ Andi 1.
    "01-first-cappu": [("cappu", "plain", 1, [1, 0, 8, 5, 3], 8)],
    # Besse's last tile 5-0 on ends 0|5 leaves 5|5: CEKI, CUCUQ Andi gets 3 (1+1+3 = 5).
    "02-ceki": [("cappu", "ceki", 1, [5, 0, 1, 2, 4], 13)],
    # Daeng's last tile 0-0 on ends 0|0: POLLO, CUCUQ Cicci gets 5 (1 + 5 = 6).
    "03-pollo": [("cappu", "pollo", 3, [4, 1, 6, 0, 3], 11)],
    # Besse blocks the line at 6|6 holding 11 pips; nobody else has 11 or fewer:
    # Besse wins, CUCUQ Andi gets 1 after the five passes.
    "04-manguno": [("block", [], 1, [2, 1, 1, 1, 3], 17)],
    # Andi blocks with 12 pips; only Daeng (9) is lower: Andi gets 5.
    "05-mattikkeng-one": [("block", [3], 3, [6, 1, 2, 1, 2], 13)],
    # Emba blocks with 12 pips; only Daeng, with 12 too: Emba gets 1.
    "06-mattikkeng-equal": [("block", [3], 3, [1, 3, 2, 1, 2], 16)],
    # Andi blocks with 22; Cicci (5) and Emba (13) are MATTIKKENG: Cicci wins, Andi gets 1.
    "07-mattikkeng-two": [("block", [2, 4], 2, [2, 1, 1, 1, 1], 19)],
    # Round 2 empties the table: Daeng's last PASS is paid by Emba (LAST MAPPANO), then
    # Emba's FIRST CAPPU pays CUCUQ Daeng herself. Round 3 starts with the table empty:
    # every PASS is paid by the LAST MAPPANO, Daeng's own pass as MANGUNO moves nothing,
    # and Besse (the lowest of three MATTIKKENG) gives Daeng his 1.
    "08-table-runs-out": [
        ("block", [3, 4], 4, [2, 2, 4, 2, 2], 13),
        ("cappu", "plain", 4, [4, 4, 7, 8, 2], 0),
        ("block", [4, 0, 1], 1, [8, 2, 10, 1, 4], 0),
    ],
    # Round 3 with the table empty: Emba's CEKI owes CUCUQ Daeng 3 but Emba holds only 2;
    # Daeng gets 2, Emba is left with none and the table is empty: Emba becomes CAMAT.
    "09-giver-too-few": [
        ("block", [3], 3, [2, 6, 2, 1, 2], 12),
        ("block", [2], 2, [8, 8, 3, 3, 3], 0),
        ("cappu", "ceki", 4, [0, 0, 0, 0, 0], 25),
    ],
    # Round 2: Emba's CEKI empties her and the table: CAMAT Emba, 25 back on the table.
    # Rounds 3 and 4 are opened by the CAMAT Emba, though Andi won round 3.
    "10-camat": [
        ("cappu", "plain", 0, [3, 4, 4, 3, 4], 7),
        ("cappu", "ceki", 4, [0, 0, 0, 0, 0], 25),
        ("block", [], 0, [3, 2, 3, 1, 4], 12),
        ("cappu", "plain", 4, [5, 2, 3, 2, 4], 9),
    ],
    # Cicci holds 6-6 and so starts, but opens with 3-2 (variant opening: free).
    "11-opening-free": [("cappu", "plain", 4, [3, 2, 3, 3, 0], 14)],
    # The deal and plays of 07 in variant block_passes: free: nobody passes after
    # Andi's blocking play, so only the MANGUNO's 1 stone moves.
    "12-block-passes-free": [("block", [2, 4], 2, [1, 0, 0, 0, 0], 24)],
    # The game of 02 with Cicci's three plays a stand-in's: the marks change nothing.
    "13-stand-in": [("cappu", "ceki", 1, [5, 0, 1, 2, 4], 13)],
}
STARTERS: dict[str, list[int]] = {
    "08-table-runs-out": [1, 4, 4],
    "09-giver-too-few": [2, 3, 2],
    "10-camat": [0, 0, 4, 4],
    "11-opening-free": [2],
}


def _record(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((EXAMPLES_DIR / f"{name}.json").read_text("utf-8"))
    return doc


def _expected_json(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((EXAMPLES_DIR / f"{name}.out.json").read_text("utf-8"))
    return doc


def _runner() -> CliRunner:
    """A runner that keeps stderr apart from stdout, whatever the click version."""
    try:
        return CliRunner(mix_stderr=False)  # type: ignore[call-arg]  # click < 8.2
    except TypeError:
        return CliRunner()  # click >= 8.2 always keeps them apart


def _run(*args: str) -> tuple[int, str, str]:
    result = _runner().invoke(main, ["replay", *args])
    return result.exit_code, result.stdout, result.stderr


def test_the_examples_folder_holds_exactly_these() -> None:
    records = sorted(
        p.name[: -len(".json")]
        for p in EXAMPLES_DIR.glob("*.json")
        if not p.name.endswith(".out.json")
    )
    assert records == EXAMPLES
    readme = (EXAMPLES_DIR / "README.md").read_text("utf-8")
    for name in EXAMPLES:
        assert f"{name}.json" in readme


@pytest.mark.parametrize("name", EXAMPLES)
def test_replay_json_matches_the_committed_output(name: str) -> None:
    code, out, err = _run(str(EXAMPLES_DIR / f"{name}.json"), "--json")
    assert (code, err) == (0, "")
    assert out == (EXAMPLES_DIR / f"{name}.out.json").read_text("utf-8")
    assert json.loads(out) == _expected_json(name)


@pytest.mark.parametrize("name", EXAMPLES)
def test_replay_telling_matches_the_committed_output(name: str) -> None:
    code, out, err = _run(str(EXAMPLES_DIR / f"{name}.json"))
    assert (code, err) == (0, "")
    assert out == (EXAMPLES_DIR / f"{name}.out.txt").read_text("utf-8")
    assert "\x1b[" not in out


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_naive_referee_agrees_with_the_committed_output(name: str) -> None:
    assert referee(_record(name)) == _expected_json(name)


@pytest.mark.parametrize("name", EXAMPLES)
def test_the_hand_checked_figures(name: str) -> None:
    rounds = _expected_json(name)["rounds"]
    assert len(rounds) == len(FACTS[name])
    for got, (end, how, winner, stones, table) in zip(rounds, FACTS[name], strict=True):
        assert got["end"] == end
        if end == "cappu":
            assert got["finish"] == how
            assert got["first_cappu"] == winner
        else:
            assert got["mattikkeng"] == how
        assert got["winner"] == winner
        assert got["stones"] == stones
        assert got["table"] == table
        assert sum(stones) + table == 25
    if name in STARTERS:
        assert [r["starter"] for r in rounds] == STARTERS[name]


def test_the_variants_examples_use_their_variants() -> None:
    assert _record("11-opening-free")["variants"]["opening"] == "free"
    first = _record("11-opening-free")["rounds"][0]["plays"][0]["tile"]
    assert first == "3-2"  # not the 6-6 that made Cicci the starter
    free = _record("12-block-passes-free")
    assert free["variants"]["block_passes"] == "free"
    assert _expected_json("12-block-passes-free")["rounds"][0]["passes"] == []
    same = _record("07-mattikkeng-two")["rounds"]
    assert free["rounds"] == same


def test_the_stand_in_example_is_the_ceki_game_told_as_a_computer_s_plays() -> None:
    marked = _record("13-stand-in")["rounds"][0]["plays"]
    plain = _record("02-ceki")["rounds"][0]["plays"]
    assert [{k: v for k, v in p.items() if k != "stand_in"} for p in marked] == plain
    assert [k for k, p in enumerate(marked, 1) if p.get("stand_in") is True] == [2, 6, 8]
    assert marked[3]["stand_in"] is False  # false is the seat's own play, like no mark
    assert _expected_json("13-stand-in") == _expected_json("02-ceki")
    told = (EXAMPLES_DIR / "13-stand-in.out.txt").read_text("utf-8").splitlines()
    ceki = (EXAMPLES_DIR / "02-ceki.out.txt").read_text("utf-8").splitlines()
    changed = [(a, b) for a, b in zip(ceki, told, strict=True) if a != b]
    assert changed == [
        (
            "   2. Cicci plays [6|4] at the right end: the line shows 6 and 4.",
            "   2. A computer plays for Cicci: [6|4] at the right end; the line shows 6 and 4.",
        ),
        (
            "   6. Cicci plays [0|6] at the right end — MAPPAKULING: both ends show 6.",
            "   6. A computer plays for Cicci: [0|6] at the right end — MAPPAKULING: both"
            " ends show 6.",
        ),
        (
            "   8. Cicci plays [5|6] at the left end: the line shows 5 and 3.",
            "   8. A computer plays for Cicci: [5|6] at the left end; the line shows 5 and 3.",
        ),
    ]


def test_every_telling_ends_with_the_standings_so_far() -> None:
    told = (EXAMPLES_DIR / "10-camat.out.txt").read_text("utf-8")
    tail = told[told.index("Standings after 4 rounds\n========================\n") :]
    # Emba: the only CAMAT title. Besse and Daeng hold 2 stones each: Daeng received
    # fewer over the game (9 against 12), so Daeng ranks above Besse.
    ranks = [" ".join(line.split()[:2]) for line in tail.splitlines()[2:7]]
    assert ranks == ["1. Emba", "2. Daeng", "3. Besse", "4. Cicci", "5. Andi"]
    assert "Emba leads with 1 CAMAT title." in tail
    assert "  Daeng                 9           0" in tail
    assert "  Besse                12           0" in tail
    assert tail.endswith("Next to start: Emba.\n")
    for name in EXAMPLES:
        text = (EXAMPLES_DIR / f"{name}.out.txt").read_text("utf-8")
        rounds = len(_record(name)["rounds"])
        assert f"\nStandings after {rounds} round" in text, name


def test_the_camat_example_elects_and_resets() -> None:
    rounds = _expected_json("10-camat")["rounds"]
    assert [r["camat_elected"] for r in rounds] == [False, True, False, False]
    assert [r["camat"] for r in rounds] == [None, 4, 4, 4]
    assert rounds[-1]["camat_titles"] == [0, 0, 0, 0, 1]
    assert _expected_json("10-camat")["next_starter"] == 4


def test_giving_what_the_table_lacks() -> None:
    text = (EXAMPLES_DIR / "08-table-runs-out.out.txt").read_text("utf-8")
    assert "Daeng receives 1 STONE from Emba — PASS." in text  # the LAST MAPPANO
    assert "Daeng receives 1 STONE from Emba — CUCUQ of a FIRST CAPPU." in text
    assert "Daeng receives 1 STONE from Besse — MANGUNO beaten by MATTIKKENG." in text
    few = (EXAMPLES_DIR / "09-giver-too-few.out.txt").read_text("utf-8")
    assert "Daeng receives 2 STONES from Emba — CUCUQ of a CEKI." in few
    short = "Daeng was owed 3 STONES for the ending and received 2 STONES: the table and the"
    assert short + " givers had no more." in few  # said, or the CEKI looks underpaid
    assert "Emba becomes CAMAT (titles: 1)" in few


@pytest.mark.parametrize("seed", range(12))
def test_the_referee_agrees_with_the_engine_on_random_games(seed: int) -> None:
    rng = random.Random(seed)
    variants = Variants(rng.choice(list(Opening)), rng.choice(list(BlockPasses)))
    game = Game(variants)
    for _ in range(rng.randint(3, 25)):
        game.deal(rng)
        while not game.round.finished and rng.random() > 0.002:
            game.play(rng.choice(game.legal_moves()))
        if not game.round.finished:
            break
    doc = record_of(game, ["A", "B", "C", "D", "E"])
    assert referee(json.loads(json.dumps(doc))) == replay_summary(game)
