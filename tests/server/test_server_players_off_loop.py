"""Light computer players choose on the event loop (faster than a hop to a thread and
back); the others think in worker processes, never on the loop."""

from __future__ import annotations

import asyncio
import concurrent.futures
import random
import threading
from concurrent.futures import ProcessPoolExecutor

import pytest

from domeng.engine import Game, Move, SeatView
from domeng.server import players
from domeng.server.players import BotRunner


def test_a_light_computer_player_chooses_on_the_loop(monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[int] = []
    real = players.choose_move

    def choose(level: str, seed: int, v: SeatView) -> Move:
        if v is not view:  # the session's service (conftest.py) plays in its own thread
            return real(level, seed, v)
        threads.append(threading.get_ident())
        return v.legal_moves[0]

    monkeypatch.setattr(players, "choose_move", choose)
    game = Game()
    game.deal(random.Random(1))
    turn = game.turn
    assert turn is not None
    view = game.view(turn)

    async def run() -> tuple[Move, int]:
        runner = BotRunner()
        try:
            return await runner.choose("basic", 1, view), threading.get_ident()
        finally:
            runner.close()

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        chosen, loop_thread = pool.submit(asyncio.run, run()).result(timeout=30)
    assert chosen in view.legal_moves
    assert threads == [loop_thread]


def test_the_light_players_are_random_and_basic_and_the_others_use_processes() -> None:
    assert {"random", "basic"} == players.LIGHT_LEVELS
    runner = BotRunner()
    try:
        assert isinstance(runner._executor(), ProcessPoolExecutor)
    finally:
        runner.close()
