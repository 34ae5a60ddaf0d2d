"""What a table is created with: its variants, pace, stand-in, clock, end and talk."""

from __future__ import annotations

from dataclasses import dataclass, field

from domeng.engine import Variants

from .documents import Json

DEFAULT_PACE_MS = 800
MAX_PACE_MS = 60_000
DEFAULT_REPLACE_AFTER_MS = 30_000
MIN_TURN_SECONDS = 5
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

    def json(self) -> Json:
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
        )
