"""`domeng play`: terminal play against four computer players, driven through click's
CliRunner (and the session directly for crafted positions)."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from rich.console import Console
from rich.text import Text

from domeng.cli import main
from domeng.commands.invocation import command_line
from domeng.engine import Game, move, parse_tile
from domeng.engine.moves import End
from domeng.engine.record import load_record, load_recorded_game
from domeng.engine.seatname import split_name
from domeng.engine.standings import standings
from domeng.engine.tiles import FULL_SET, mask_of, tiles_of
from domeng.terminal import PlaySession, Seat, new_seats
from domeng.terminal.render import line_text, round_summary, your_tiles
from domeng.terminal.widths import NO_BREAK

# At every tile question one of 1-5 is playable; "l" answers an end question.
CYCLE = "1\n2\n3\n4\n5\nl\n"


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DOMENG_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "data"


def play(*args: str, input: str = "") -> Result:
    return CliRunner().invoke(main, ["play", *args], input=input)


def saved_games(data_dir: Path) -> list[Path]:
    return sorted((data_dir / "games").glob("*.json"))


def the_game(data_dir: Path) -> Path:
    games = saved_games(data_dir)
    assert len(games) == 1, games
    return games[0]


def without_path(output: str) -> str:
    return "\n".join(line for line in output.splitlines() if ".json" not in line)


# -- whole rounds ---------------------------------------------------------------


def test_whole_rounds_by_picking_tiles(data_dir: Path) -> None:
    result = play("--seed", "7", input=CYCLE * 8)
    assert result.exit_code == 0, result.output
    assert "Traceback" not in result.output
    out = result.output
    assert "Seed 7" in out
    assert "Round 1 is over" in out and "Round 2 is over" in out
    assert "Tiles left" in out and "(unused)" in out
    assert "STONES this round:" in out and "Standings" in out
    assert "Press Enter for the next round, q to quit" in out
    assert "wins the round" in out or "win the round" in out
    # The game was saved as it went and replays.
    game, players = load_record(the_game(data_dir))
    assert players[0] == "You"
    assert players[1:] == ["Besse (basic)", "Cicci (basic)", "Daeng (basic)", "Emba (basic)"]
    assert len(game.rounds) >= 2
    assert all(r.finished for r in game.rounds[:-1])


def test_the_screen_shows_line_tiles_players_stones_and_turn(data_dir: Path) -> None:
    result = play("--seed", "3", input=CYCLE * 3)
    out = result.output
    assert result.exit_code == 0
    assert "Line: [" in out
    assert "Your tiles: 1) [" in out and "*" in out
    assert "(* = you may play it)" in out
    # the computer players by the ladder's name for players, as the browser's plates
    for name in (
        "Besse (Casual player)",
        "Cicci (Casual player)",
        "Daeng (Casual player)",
        "Emba (Casual player)",
    ):
        assert name in out
    assert "Tiles" in out and "STONES" in out and "CAMAT titles" in out
    assert "table: 25 stones" in out or "table: " in out
    assert "CAMAT: none yet" in out
    assert "▶" in out
    assert "Your turn" in out


def test_q_at_the_end_of_a_round_quits(data_dir: Path) -> None:
    # Answer every question with a tile or an end until the round is over, then q.
    result = play("--seed", "11", input=CYCLE * 8)
    assert result.exit_code == 0
    out = result.output
    first = out.index("Press Enter for the next round")
    rest = out[:first]
    # Count how many answers the first round took, then replay with q right after it.
    answers = rest.count("Your turn — play which tile") + rest.count("Which end?")
    lines = (CYCLE * 8).splitlines()[:answers]
    for word in ("q", "exit"):  # as at the tile question, "exit" quits here too
        again = play("--seed", "11", input="\n".join([*lines, word, ""]))
        assert again.exit_code == 0
        assert "Round 2 —" not in again.output
        assert "The game is saved in" in again.output
        game, _ = load_record(saved_games(data_dir)[-1])
        assert len(game.rounds) == 1 and game.round.finished


# -- bad input --------------------------------------------------------------------


def test_bad_input_is_asked_again(data_dir: Path) -> None:
    bad = "x\n\n9\n0\n7-7\n²\n٣\n"
    result = play("--seed", "7", input=(bad + CYCLE) * 8)
    assert result.exit_code == 0
    out = result.output
    assert "'x' is not a tile number" in out
    assert "Type the number of a tile" in out
    assert "There is no tile 9" in out
    assert "There is no tile 0" in out
    assert "'7-7' is not a tile number" in out
    assert "'²' is not a tile number" in out and "'٣' is not a tile number" in out
    assert "does not fit the ends" in out and "You may play:" in out
    assert "Traceback" not in out


def test_a_tile_can_be_named_and_help_is_there(data_dir: Path) -> None:
    result = play("--seed", "7", input="h\n6-3\n" + CYCLE * 6)
    assert result.exit_code == 0
    assert "Type the number of a tile to play it" in result.output


# -- end of input, Ctrl-C, saving --------------------------------------------------


def test_end_of_input_saves_and_exits_cleanly(data_dir: Path) -> None:
    result = play("--seed", "5")
    assert result.exit_code == 0
    assert "Traceback" not in result.output
    assert "End of input. The game is saved in" in result.output
    path = the_game(data_dir)
    assert str(path) in result.output
    assert path.name.endswith("-5.json")
    game, _ = load_record(path)
    assert game.round.turn == 0  # it stopped at the person's question
    doc = json.loads(path.read_text())
    assert doc["format"] == "domeng.record/1"
    assert doc["variants"] == {"opening": "double", "block_passes": "penalized"}


def test_the_saved_game_replays(data_dir: Path) -> None:
    play("--seed", "9", "--opening", "free", "--block-passes", "free", input=CYCLE * 8)
    path = the_game(data_dir)
    replay = CliRunner().invoke(main, ["replay", str(path), "--json"])
    assert replay.exit_code == 0, replay.output
    summary = json.loads(replay.output)
    game, _ = load_record(path)
    assert len(summary["rounds"]) == len(game.rounds)
    assert game.variants.to_json() == {"opening": "free", "block_passes": "free"}


# -- resume -------------------------------------------------------------------------


def test_resume_continues_the_same_game(data_dir: Path) -> None:
    first = play("--seed", "21", input=CYCLE * 4)
    assert first.exit_code == 0
    path = the_game(data_dir)
    before, _ = load_record(path)
    text_before = path.read_text()
    r = before.round
    # Resume and stop at once: the same round, hands and turn, nothing changed.
    again = play("--resume", str(path))
    assert again.exit_code == 0, again.output
    assert f"Resuming round {r.number} after {len(r.plays)} plays" in again.output
    # printed with plain spaces (a no-break space joins a tile to its number)
    assert your_tiles(before.view(0)).plain.replace(NO_BREAK, " ").rstrip() in again.output
    assert path.read_text() == text_before
    after, _ = load_record(path)
    assert after.round.number == r.number
    assert after.round.hands == r.hands and after.round.turn == r.turn == 0
    # Resume and go on playing: the game grows from where it was, in the same file.
    more = play("--resume", str(path), input=CYCLE * 8)
    assert more.exit_code == 0
    grown, _ = load_record(path)
    assert saved_games(data_dir) == [path]
    assert len(grown.rounds) > len(before.rounds)
    assert grown.rounds[r.number - 1].dealt == r.dealt
    assert grown.rounds[r.number - 1].plays[: len(r.plays)] == r.plays


def test_resume_ignores_changed_variants_with_a_note(data_dir: Path) -> None:
    play("--seed", "4", input=CYCLE)
    path = the_game(data_dir)
    result = play("--resume", str(path), "--opening", "free")
    assert result.exit_code == 0
    assert "--opening is taken from the saved game" in result.output
    game, _ = load_record(path)
    assert game.variants.opening.value == "double"


def test_resume_deals_on_from_the_seed_of_the_game_negative_ones_too(data_dir: Path) -> None:
    whole = play("--seed", "-1", input=CYCLE * 8)
    assert whole.exit_code == 0
    path = the_game(data_dir)
    assert path.name.endswith("--1.json")
    straight, _ = load_record(path)
    assert len(straight.rounds) >= 2
    # the same game saved right after round 1, then resumed: round 2 is the same deal
    doc = json.loads(path.read_text())
    doc["rounds"] = doc["rounds"][:1]
    path.write_text(json.dumps(doc))
    again = play("--resume", str(path), input="q\n")
    assert again.exit_code == 0, again.output
    assert "Seed -1: the next rounds are dealt from it" in again.output
    resumed, _ = load_record(path)
    assert resumed.rounds[1].dealt == straight.rounds[1].dealt
    # a renamed file: the seed is printed; --seed is honoured; the saved players stay
    renamed = path.rename(path.with_name("mine.json"))
    other = play("--resume", str(renamed), "--seed", "5", "--opponents", "expert", input="q\n")
    assert "Seed 5: the next rounds are dealt from it" in other.output
    assert "the saved game's computer players (Casual player) play on" in other.output


def test_resume_of_a_bad_file_is_a_clear_error(tmp_path: Path) -> None:
    missing = play("--resume", str(tmp_path / "nope.json"))
    assert missing.exit_code == 1
    assert "cannot resume" in missing.output and "Traceback" not in missing.output
    bad = tmp_path / "bad.json"
    bad.write_text("{not json")
    result = play("--resume", str(bad))
    assert result.exit_code == 1
    assert "cannot resume" in result.output and "bad JSON" in result.output


# -- seeds and options ------------------------------------------------------------------


def test_same_seed_and_inputs_give_the_same_game(data_dir: Path) -> None:
    a = play("--seed", "13", input=CYCLE * 8)
    b = play("--seed", "13", input=CYCLE * 8)
    assert a.exit_code == b.exit_code == 0
    assert without_path(a.output) == without_path(b.output)
    first, second = saved_games(data_dir)
    assert load_record(first)[0].rounds[0].dealt == load_record(second)[0].rounds[0].dealt
    assert json.loads(first.read_text()) == json.loads(second.read_text())


def test_another_seed_gives_another_deal(data_dir: Path) -> None:
    play("--seed", "1")
    play("--seed", "2")
    one, two = (load_record(p)[0] for p in saved_games(data_dir))
    assert one.rounds[0].dealt != two.rounds[0].dealt


def test_a_random_seed_is_printed(data_dir: Path) -> None:
    result = play()
    assert result.exit_code == 0
    assert "Seed " in result.output and "domeng play --seed " in result.output


def test_invalid_opponents_is_a_clear_error() -> None:
    result = play("--opponents", "nobody")
    assert result.exit_code == 2
    assert "no computer player called 'nobody'" in result.output
    assert "basic" in result.output
    oracle = play("--opponents", "oracle")
    assert oracle.exit_code == 2
    assert "no computer player called 'oracle'" in oracle.output


def test_other_opponents_and_name(data_dir: Path) -> None:
    result = play("--seed", "2", "--opponents", "random", "--name", "Andi", input=CYCLE * 8)
    assert result.exit_code == 0
    assert "Andi at seat 0 against four computer players: Beginner (random)." in result.output
    _, players = load_record(the_game(data_dir))
    assert players == [
        "Andi",
        "Besse (random)",
        "Cicci (random)",
        "Daeng (random)",
        "Emba (random)",
    ]


def test_an_empty_name_is_refused() -> None:
    result = play("--name", "  ")
    assert result.exit_code == 2
    assert "your name cannot be empty" in result.output


# -- the session on crafted positions ----------------------------------------------------


def _crafted_game() -> Game:
    """Seat 0 in turn on ends 0 (left) and 1 (right), holding 1-0 (fits both: the end
    matters) and 4-1 (fits the right end only)."""
    wanted = [
        ["6-6", "1-0", "5-5", "4-1", "5-4"],
        ["6-3"],
        ["6-2"],
        ["3-1"],
        ["2-0"],
    ]
    used = mask_of(parse_tile(t) for hand in wanted for t in hand)
    spare = iter(tiles_of(FULL_SET & ~used))
    hands = []
    for hand in wanted:
        tiles = [parse_tile(t) for t in hand]
        while len(tiles) < 5:
            tiles.append(next(spare))
        hands.append(mask_of(tiles))
    unused = mask_of(spare)
    game = Game()
    r = game.start_round(hands, unused)
    for t, end in (("6-6", End.RIGHT), ("6-3", End.RIGHT), ("6-2", End.LEFT)):
        r.play(move(t, end))
    r.play(move("3-1", End.RIGHT))
    r.play(move("2-0", End.LEFT))
    assert r.turn == 0 and r.ends == (0, 1)
    return game


class Script:
    """Answers questions from a list; then end of input (or Ctrl-C)."""

    def __init__(self, answers: list[str], *, then: type[BaseException] = EOFError) -> None:
        self.answers: Iterator[str] = iter(answers)
        self.then = then
        self.prompts: list[str] = []

    def __call__(self, prompt: Text) -> str:
        self.prompts.append(prompt.plain)
        try:
            return next(self.answers)
        except StopIteration:
            raise self.then from None


def _session(game: Game, tmp_path: Path, script: Script) -> tuple[PlaySession, io.StringIO]:
    out = io.StringIO()
    console = Console(file=out, width=100, highlight=False)
    seats = new_seats("You", "basic", 1)
    session = PlaySession(
        game, seats, path=tmp_path / "g.json", seed=1, console=console, ask=script, echo=True
    )
    return session, out


def test_the_end_is_asked_when_it_matters(tmp_path: Path) -> None:
    game = _crafted_game()
    # Hand, highest first: 5-5, 5-4, 4-1, 1-0; 1-0 is number 4.
    script = Script(["4", "x", "b", "4", "left"])
    session, out = _session(game, tmp_path, script)
    session.run()
    text = out.getvalue()
    question = (
        "[1|0] fits both ends: l) left, next to 0 (the line then shows 1 and 1)"
        " · r) right, next to 1 (then 0 and 0)"
    )
    assert any(question in p for p in script.prompts)
    assert "Type l for the left end or r for the right end" in text
    assert sum("Which end?" in p for p in script.prompts) == 3
    assert "You play [1|0] at the left end — MAPPAKULING: both ends show 1" in text
    doc = json.loads((tmp_path / "g.json").read_text())
    assert doc["rounds"][0]["plays"][5] == {"seat": 0, "tile": "1-0", "end": "left"}


def test_the_end_is_not_asked_when_it_does_not_matter(tmp_path: Path) -> None:
    script = Script(["3"])
    session, out = _session(_crafted_game(), tmp_path, script)
    session.run()
    assert not any("Which end?" in p for p in script.prompts)
    assert "You play [1|4] at the right end" in out.getvalue()


def test_ctrl_c_saves_and_quits(tmp_path: Path) -> None:
    game = _crafted_game()
    session, out = _session(game, tmp_path, Script([], then=KeyboardInterrupt))
    session.run()
    assert "Interrupted. The game is saved in" in out.getvalue()
    saved, _ = load_record(tmp_path / "g.json")
    assert saved.round.plays == game.round.plays


def test_a_tile_that_cannot_open_the_round(tmp_path: Path) -> None:
    game = Game()
    hands = [
        mask_of(parse_tile(t) for t in h.split())
        for h in (
            "6-6 6-4 5-1 3-0 2-2",
            "4-4 6-3 2-1 5-5 1-0",
            "6-5 3-2 4-3 0-0 1-1",
            "6-2 6-1 5-4 5-3 3-1",
            "6-0 5-2 5-0 4-2 4-0",
        )
    ]
    game.start_round(hands, mask_of(parse_tile(t) for t in ("4-1", "3-3", "2-0")))
    script = Script(["2", "1"])
    session, out = _session(game, tmp_path, script)
    session.run()
    text = out.getvalue()
    assert "[6|4] cannot open this round. You may play: 1) [6|6]." in text
    assert "You open with the LEMPA [6|6]" in text


def test_an_ending_award_that_finds_no_stones_is_told(unpaid_ending: Game) -> None:
    # Seed 0, random moves: round 25's CUCUQ award finds an empty table and a FIRST
    # CAPPU with no stones; the list of stones showed the passes only.
    game = unpaid_ending
    out = io.StringIO()
    Console(file=out, width=100, highlight=False).print(
        round_summary(game.round, [f"P{s}" for s in range(5)])
    )
    text = out.getvalue()
    assert "P3 was owed 1 STONE for the ending and received 0 STONES: the table and the" in text
    assert "becomes CAMAT" in text


def test_helpers() -> None:
    assert line_text([(6, 6), (6, 3), (3, 2)]) == "[6|6][6|3][3|2]"
    assert line_text([]) == "(empty)"
    assert split_name("Besse (basic)") == ("Besse", "basic")
    assert split_name("Besse (expert:fast)") == ("Besse", "expert:fast")
    assert split_name("Andi") == ("Andi", None)
    assert Seat("You").player is None


# -- the end of a game: --until ----------------------------------------------------------


def _final_rows(output: str) -> list[list[str]]:
    """The rows of the final standings table: rank, player, then the eight figures."""
    lines = output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.split()[:2] == ["#", "Player"])
    return [line.split() for line in lines[start + 1 : start + 6]]


def _expected_rows(game: Game, names: list[str]) -> list[list[str]]:
    rows = []
    for s in standings(game):
        figures = (s.titles, s.stones, s.received, s.rounds_won)
        counts = (s.ceki, s.pollo, s.manguno, s.mattikkeng)
        rows.append([str(s.rank), names[s.seat], *(str(n) for n in (*figures, *counts))])
    return rows


PLAIN_NAMES = ["You", "Besse", "Cicci", "Daeng", "Emba"]


def test_until_rounds_1_plays_one_round_and_shows_the_final_standings(data_dir: Path) -> None:
    result = play("--seed", "7", "--until", "rounds=1", input=CYCLE * 8)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "The game ends after 1 round (--until rounds=1)." in out
    assert "Round 1 is over" in out and "Round 2 —" not in out
    assert "Press Enter for the next round" not in out  # the game is over: nothing to ask
    assert "That was the last round: the game ends after 1 round." in out
    assert "Final standings after 1 round" in out
    assert "# Player" in out and "MATTIKKENG" in out
    game, _ = load_record(the_game(data_dir))
    assert len(game.rounds) == 1 and game.round.finished
    assert _final_rows(out) == _expected_rows(game, PLAIN_NAMES)
    # Seed 7: three players end round 1 with 2 stones, all from the table: a shared win.
    assert [row[0] for row in _final_rows(out)] == ["1", "1", "1", "4", "5"]
    assert "You, Besse and Daeng share the win: no CAMAT titles, 2 STONES and 2" in out
    # the command on one line: beside the words, or under them when it does not fit there
    again = command_line("replay", the_game(data_dir))
    assert f"Replay it with: {again}\n" in out or f"Replay it with:\n{again}\n" in out
    assert "Traceback" not in out


def test_until_titles_ends_after_the_round_that_elects_the_camat(data_dir: Path) -> None:
    result = play("--seed", "7", "--until", "titles=1", input=CYCLE * 400)
    assert result.exit_code == 0, result.output
    game, _ = load_record(the_game(data_dir))
    assert game.round.finished and max(game.titles) == 1
    assert all(max(r.titles) == 0 for r in game.rounds[:-1])  # not one round later
    assert game.round.camat_elected
    winner = PLAIN_NAMES[game.round.camat or 0]
    assert f"{winner} wins the game with 1 CAMAT title." in result.output
    assert f"Final standings after {len(game.rounds)} rounds" in result.output
    assert _final_rows(result.output) == _expected_rows(game, PLAIN_NAMES)
    assert result.output.count("Press Enter for the next round") == len(game.rounds) - 1


def test_without_until_the_game_goes_on(data_dir: Path) -> None:
    result = play("--seed", "7", input=CYCLE * 8)
    assert "Final standings" not in result.output
    assert "The game ends" not in result.output


@pytest.mark.parametrize(
    ("value", "words"),
    [
        ("titles", "'titles' is not titles=N or rounds=N"),
        ("3", "'3' is not titles=N or rounds=N"),
        ("points=3", "'points=3' is not titles=N or rounds=N"),
        ("rounds=0", "the count in 'rounds=0' must be a whole number from 1"),
        ("rounds=-2", "the count in 'rounds=-2' must be a whole number from 1"),
        ("titles=1.5", "must be a whole number from 1"),
        ("titles=", "must be a whole number from 1"),
        ("rounds=٣", "must be a whole number from 1"),
    ],
)
def test_a_bad_until_is_a_clear_error(data_dir: Path, value: str, words: str) -> None:
    result = play("--until", value)
    assert result.exit_code == 2
    assert "Invalid value for '--until'" in result.output
    assert words in result.output
    assert "titles=N (the game ends once a player has N CAMAT titles)" in result.output
    assert "Traceback" not in result.output
    assert not saved_games(data_dir)  # refused before a game began


def test_until_accepts_spaces_and_capitals(data_dir: Path) -> None:
    result = play("--seed", "7", "--until", " Rounds = 1 ", input=CYCLE * 8)
    assert result.exit_code == 0, result.output
    assert "The game ends after 1 round (--until rounds=1)." in result.output


def test_until_counts_the_saved_rounds_of_a_resumed_game(data_dir: Path) -> None:
    play("--seed", "7", input=CYCLE * 8)
    path = the_game(data_dir)
    doc = json.loads(path.read_text())
    doc["rounds"] = doc["rounds"][:1]  # saved right after round 1
    path.write_text(json.dumps(doc))
    # rounds=2: round 2 is played, then the game ends.
    more = play("--resume", str(path), "--until", "rounds=2", input=CYCLE * 8)
    assert more.exit_code == 0, more.output
    assert "The game ends after 2 rounds (--until rounds=2)." in more.output
    game, _ = load_record(path)
    assert len(game.rounds) == 2 and game.round.finished
    assert "Final standings after 2 rounds" in more.output
    assert _final_rows(more.output) == _expected_rows(game, PLAIN_NAMES)
    # A game already at its end: the standings at once, nothing dealt or changed.
    before = path.read_text()
    again = play("--resume", str(path), "--until", "rounds=1")
    assert again.exit_code == 0, again.output
    assert "Final standings after 2 rounds" in again.output
    assert "Round 3" not in again.output and "Your turn" not in again.output
    assert path.read_text() == before
    # Without --until the same game plays on.
    on = play("--resume", str(path), input="q\n")
    assert "Round 3 —" in on.output and "Final standings" not in on.output


def test_quitting_before_the_end_saves_as_ever(data_dir: Path) -> None:
    result = play("--seed", "7", "--until", "rounds=5")
    assert result.exit_code == 0
    assert "End of input. The game is saved in" in result.output
    assert "Final standings" not in result.output


def test_a_resumed_game_keeps_its_stand_ins_marks(data_dir: Path) -> None:
    # A record downloaded from a table where a computer played for the person: the
    # terminal saves the game again after every move, the marks must stay.
    play("--seed", "21", input=CYCLE * 4)
    path = the_game(data_dir)
    doc = json.loads(path.read_text())
    first = doc["rounds"][0]["plays"]
    marked = [k for k, p in enumerate(first) if p["seat"] == 0][:1]
    assert marked
    first[marked[0]]["stand_in"] = True
    path.write_text(json.dumps(doc))
    more = play("--resume", str(path), input=CYCLE * 8)
    assert more.exit_code == 0, more.output
    recorded = load_recorded_game(path)
    assert len(recorded.game.rounds[0].plays) > marked[0]
    assert recorded.stand_ins[0] == frozenset(marked)
    assert all(not s for s in recorded.stand_ins[1:])


# -- the person at the keyboard, help, the commands printed, --player ----------------


def test_the_person_is_told_in_the_second_person(data_dir: Path) -> None:
    result = play("--seed", "7", "--until", "rounds=1", input=CYCLE * 8)
    assert result.exit_code == 0, result.output
    out = result.output
    assert "  You play [" in out or "  You open with" in out
    wrong = ("plays", "opens", "receives", "has", "is", "wins", "becomes")
    assert [verb for verb in wrong if f"You {verb} " in out] == []
    assert "from You" not in out and "for You" not in out


def test_help_gives_the_glossary_and_r_the_rules(data_dir: Path) -> None:
    from domeng.i18n import catalog

    result = play("--seed", "7", "--until", "rounds=1", input="h\nr\n" + CYCLE * 8)
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())  # the terminal's soft wraps aside
    terms = catalog("en")["terms"]
    assert isinstance(terms, dict)
    for word, meaning in terms.items():
        assert f"{word} — {' '.join(meaning.split())}" in out, word
    assert "r shows the whole rules" in out
    assert "The rules of Domeng" in out and "MANGUNO: the line is blocked" in out
    assert "Type h for help and the game's words, r for the rules" in out
    # after the rules the table is shown again, the tiles in sight above the question
    after_rules = result.output.split("MANGUNO: the line is blocked", 1)[1]
    asked = after_rules.split("Your turn", 1)[0]
    assert "Your tiles: 1) [" in asked and "Line:" in asked


def test_counted_for_the_player_comes_after_the_winning_play(data_dir: Path) -> None:
    result = play("--seed", "7", "--player", "Bob", "--until", "rounds=2", input=CYCLE * 16)
    assert result.exit_code == 0, result.output
    out = result.output
    counted = [i for i in range(len(out)) if out.startswith("Counted for Bob", i)]
    assert len(counted) == 2, out
    for number, at in enumerate(counted, start=1):
        over = out.index(f"Round {number} is over")
        assert over < at, out  # the round's end and its summary are shown first
        standings = out.index("Standings", over)
        assert standings < at


def test_the_printed_commands_work_from_where_the_user_is(tmp_path: Path) -> None:
    import os
    import shlex
    import subprocess
    import sys

    script = Path(sys.executable).parent / "domeng"
    if not script.is_file():
        pytest.skip("no domeng script beside this interpreter")
    env = dict(os.environ, DOMENG_DATA_DIR=str(tmp_path), PATH="/usr/bin:/bin")
    for start in ([str(script)], [sys.executable, "-m", "domeng"]):
        first = subprocess.run(
            [*start, "play", "--seed", "5", "--lang", "en"],
            input="q\n",
            capture_output=True,
            text=True,
            env=env,
            timeout=120,
        )
        assert first.returncode == 0, first.stderr
        lines = first.stdout.splitlines()
        k = next(k for k, s in enumerate(lines) if s.startswith("Continue it with:"))
        # on one line: beside the words, or under them when it does not fit there
        line = lines[k].removeprefix("Continue it with:").strip() or lines[k + 1]
        command = shlex.split(line)
        assert command[: len(start)] == [os.path.abspath(start[0]), *start[1:]], line
        again = subprocess.run(
            command, input="q\n", capture_output=True, text=True, env=env, timeout=120
        )
        assert again.returncode == 0, again.stderr
        assert "Resuming the game saved in" in again.stdout


def test_the_program_is_named_as_it_was_started(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    from domeng.commands.invocation import program

    script = tmp_path / "bin" / "domeng"
    script.parent.mkdir()
    script.write_text("#!/bin/sh\n", "utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", "/usr/bin:/bin")
    assert program(str(script)) == [str(script)]  # not on the PATH: its path
    monkeypatch.setenv("PATH", f"{script.parent}:/usr/bin:/bin")
    assert program(str(script)) == ["domeng"]  # this very program is on the PATH
    other = tmp_path / "other" / "domeng"
    other.parent.mkdir()
    other.write_text("#!/bin/sh\n", "utf-8")
    assert program(str(other)) == [str(other)]  # another domeng on the PATH: not that one
    main_py = tmp_path / "domeng" / "__main__.py"
    assert program(str(main_py)) == [sys.executable, "-m", "domeng"]
    assert program("") == [sys.executable, "-m", "domeng"]
    assert command_line("replay", "a b.json", argv0=str(script)) == "domeng replay 'a b.json'"
