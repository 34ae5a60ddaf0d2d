"""What a tournament fixes of a table it makes (:mod:`.tournaments`): the deals of its
rounds, the tournament it plays for, and its entrants' tokens and profiles; and the
fixed deal a table deals next."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field

from domeng.engine import Rounds, TileSet, parse_tile
from domeng.engine.tiles import mask_of
from domeng.storage import StoredSeat

from .settings import Settings


@dataclass(frozen=True, slots=True)
class Fixed:
    """A tournament's table: the deals in order, the tournament's id, and by seat the
    hash of the entrant's token (their one token for every table they sit at) and the
    profile their rounds count for."""

    deals: tuple[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]], ...]
    tournament: str
    token_hashes: dict[int, str] = field(default_factory=dict)
    profiles: dict[int, str] = field(default_factory=dict)
    fresh: bool = False
    """Every round a fresh game's first (variant ``rounds`` ``fresh``: duplicate)."""

    def apply(
        self, settings: Settings, seats: list[StoredSeat], tokens: dict[int, str]
    ) -> Settings:
        """Put the entrants' tokens and profiles on ``seats`` (their seat tokens are not
        given out: ``tokens`` loses them), and answer the settings with the deals."""
        for n, h in self.token_hashes.items():
            seats[n].token_hash = h
            tokens.pop(n, None)
        for n, profile in self.profiles.items():
            seats[n].profile = profile
        variants = settings.variants
        if self.fresh:
            variants = dataclasses.replace(variants, rounds=Rounds.FRESH)
        return dataclasses.replace(
            settings, variants=variants, deals=self.deals, tournament=self.tournament
        )


def fixed_deal(settings: Settings, dealt: int) -> tuple[list[TileSet], TileSet] | None:
    """The fixed deal of the round after ``dealt`` rounds, or None (deal at random)."""
    if dealt >= len(settings.deals):
        return None
    hands, unused = settings.deals[dealt]
    return (
        [mask_of(parse_tile(t) for t in h) for h in hands],
        mask_of(parse_tile(t) for t in unused),
    )
