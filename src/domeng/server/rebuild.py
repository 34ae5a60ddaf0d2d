"""A stored table's game, rebuilt by replaying its deals and plays."""

from __future__ import annotations

from domeng.engine import End, Game, move, parse_tile
from domeng.engine.tiles import mask_of
from domeng.storage import StoredTable

from .settings import Settings


def rebuild(stored: StoredTable, settings: Settings | None = None) -> Game:
    """Replay a stored table's deals and plays into a game (``settings``: the table's,
    when read already)."""
    settings = settings or Settings.from_json(stored.settings)
    game = Game(settings.variants)
    for d, plays in zip(stored.deals, stored.plays, strict=True):
        hands = [mask_of(parse_tile(t) for t in h) for h in d.hands]
        game.start_round(hands, mask_of(parse_tile(t) for t in d.unused))
        for p in plays:
            if game.turn != p.seat:
                raise ValueError(f"stored play out of turn in round {len(game.rounds)}")
            game.play(move(parse_tile(p.tile), End.parse(p.end)))
    return game
