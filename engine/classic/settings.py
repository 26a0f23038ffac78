"""The settings of a classic game, fixed before the first move (docs/classic.md).

The seed pages leave two things to the table: what a challenger risks when the word
challenged is valid (page 001: "fixez la règle avant la première pose"), and whether a tie
after the adjustments stays a tie (official rules, page 004) or goes to the player with the
fewest tiles left (page 001). Both are settings here, with the official choice as default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from engine.board import MAX_RACK
from engine.errors import EngineError
from engine.tiles import CLASSIC_BONUSES

#: What happens to the challenger when the challenged word is valid.
CHALLENGE_RULES = ("none", "lose_turn", "points")
#: How equal final scores are ranked.
TIE_BREAKS = ("ex_aequo", "fewest_tiles")
MIN_PLAYERS, MAX_PLAYERS = 2, 4


@dataclass(frozen=True, slots=True)
class Settings:
    """``challenge``: the valid-word sanction (``none``, ``lose_turn`` — the challenger's
    next turn is lost —, or ``points`` — ``challenge_points`` taken off the challenger);
    ``tie_break``: ``ex_aequo`` or ``fewest_tiles``; ``pass_rounds``: the game is blocked
    after that many rounds in which every player passed (2 in the seed pages);
    ``exchange_minimum``: tiles the bag must hold for an exchange (7)."""

    challenge: str = "none"
    challenge_points: int = 0
    tie_break: str = "ex_aequo"
    pass_rounds: int = 2
    exchange_minimum: int = 7
    rack_size: int = 7
    bonuses: Mapping[int, int] = field(default_factory=lambda: CLASSIC_BONUSES)

    def __post_init__(self) -> None:
        if self.challenge not in CHALLENGE_RULES:
            raise EngineError(
                "settings.challenge",
                f"The challenge rule is one of {', '.join(CHALLENGE_RULES)}, "
                f"not {self.challenge!r}.",
                choices=CHALLENGE_RULES,
            )
        if self.challenge == "points" and not (
            isinstance(self.challenge_points, int) and self.challenge_points > 0
        ):
            raise EngineError(
                "settings.challenge_points",
                "A challenge that costs points needs a whole number of points above 0.",
            )
        if self.challenge != "points" and self.challenge_points:
            raise EngineError(
                "settings.challenge_points",
                "Challenge points only apply with the 'points' challenge rule.",
            )
        if self.tie_break not in TIE_BREAKS:
            raise EngineError(
                "settings.tie_break",
                f"The tie-break is one of {', '.join(TIE_BREAKS)}, not {self.tie_break!r}.",
                choices=TIE_BREAKS,
            )
        for name, high in (("pass_rounds", 10), ("exchange_minimum", 100), ("rack_size", MAX_RACK)):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= high:
                raise EngineError(f"settings.{name}", f"{name} is a whole number from 1 to {high}.")
        object.__setattr__(self, "bonuses", MappingProxyType(dict(self.bonuses)))

    def to_json(self) -> dict:
        return {
            "challenge": self.challenge,
            "challenge_points": self.challenge_points,
            "tie_break": self.tie_break,
            "pass_rounds": self.pass_rounds,
            "exchange_minimum": self.exchange_minimum,
            "rack_size": self.rack_size,
            "bonuses": {str(k): v for k, v in sorted(self.bonuses.items())},
        }

    @classmethod
    def from_json(cls, data: Any) -> Settings:
        """Read settings written by :meth:`to_json`; anything malformed is ``settings.*``."""
        if not isinstance(data, dict):
            raise EngineError("settings.json", "The settings are a JSON object.")
        known = set(cls.__dataclass_fields__)
        if unknown := sorted(set(data) - known):
            raise EngineError("settings.json", f"Unknown setting {unknown[0]!r}.")
        values = dict(data)
        if "bonuses" in values:
            try:
                values["bonuses"] = {int(k): int(v) for k, v in values["bonuses"].items()}
            except (AttributeError, TypeError, ValueError):
                raise EngineError(
                    "settings.bonuses", "Bonuses map a number of tiles to points."
                ) from None
        return cls(**values)
