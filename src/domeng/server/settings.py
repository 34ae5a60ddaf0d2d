"""What a table is created with: its variants, pace, stand-in, clock, end and talk."""

from __future__ import annotations

from dataclasses import dataclass, field

from domeng.engine import Variants

from .documents import Json, SettingsDoc

DEFAULT_PACE_MS = 800
MAX_PACE_MS = 60_000
DEFAULT_REPLACE_AFTER_MS = 30_000
MIN_TURN_SECONDS = 5
DEFAULT_TURN_SECONDS = 60
"""A person's time for each move at a table where several people sit, unless named."""
MAX_TURN_SECONDS = 600


@dataclass(frozen=True, slots=True)
class Settings:
    """What a table is created with."""

    variants: Variants = field(default_factory=Variants)
    pace_ms: int = DEFAULT_PACE_MS
    stand_in: str | None = None
    """The computer player that plays for an absent person (None: wait for them)."""
    replace_after_ms: int | None = DEFAULT_REPLACE_AFTER_MS
    """How long a person may be away before the stand-in plays for them."""
    end_rounds: int | None = None
    end_titles: int | None = None
    turn_seconds: int | None = None
    """How long a person has for each move (None: no turn clock)."""
    spectator_chat: bool = False
    """Whether spectators may talk at the table."""
    hints: bool = False
    """Whether a person in turn may ask the coach for a hint (``{"type": "hint"}``)."""
    deals: tuple[tuple[tuple[tuple[str, ...], ...], tuple[str, ...]], ...] = ()
    """Deals fixed in advance, round by round (five hands and the three unused tiles, as
    tile names): a tournament's (:mod:`.tournaments`). Kept with the table, never shown
    in :meth:`json` (they are every hand of rounds not yet played)."""
    tournament: str | None = None
    """The tournament the table plays for: it plays on unwatched, as the tournament's."""

    def json(self) -> SettingsDoc:
        return {
            "variants": self.variants.to_json(),
            "pace_ms": self.pace_ms,
            "stand_in": self.stand_in,
            "replace_after_ms": self.replace_after_ms,
            "end": (
                {"rounds": self.end_rounds}
                if self.end_rounds is not None
                else {"titles": self.end_titles}
                if self.end_titles is not None
                else None
            ),
            "turn_seconds": self.turn_seconds,
            "spectator_chat": self.spectator_chat,
            "hints": self.hints,
        }

    def stored_json(self) -> Json:
        """What the storage keeps: :meth:`json`, with the fixed deals and the tournament."""
        kept: Json = dict(self.json())
        if self.deals:
            kept["deals"] = [[list(map(list, hands)), list(unused)] for hands, unused in self.deals]
        if self.tournament is not None:
            kept["tournament"] = self.tournament
        return kept

    @classmethod
    def from_json(cls, d: Json) -> Settings:
        end = d.get("end") or {}
        return cls(
            variants=Variants.from_json(d.get("variants", {})),
            pace_ms=int(d.get("pace_ms", DEFAULT_PACE_MS)),
            stand_in=d.get("stand_in"),
            replace_after_ms=d.get("replace_after_ms"),
            end_rounds=end.get("rounds"),
            end_titles=end.get("titles"),
            turn_seconds=d.get("turn_seconds"),
            spectator_chat=bool(d.get("spectator_chat", False)),
            hints=bool(d.get("hints", False)),
            deals=tuple(
                (tuple(tuple(h) for h in hands), tuple(unused))
                for hands, unused in d.get("deals", ())
            ),
            tournament=d.get("tournament"),
        )
