"""Game formulas (rules §8) as plain parameters, so one `Game` plays every one of them.

A variant only says *how big* a rack is, what a bingo earns, how many tiles may go down at
once, whether the joker game's special rules apply and how long a round lasts. The warning
settings are read by the players' scoring (``proposals``/``totals``), not by the game itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.errors import EngineError
from engine.tiles import CLASSIC_BONUSES


@dataclass(frozen=True, slots=True)
class Variant:
    """One formula. ``code`` is what records and the command line store.

    ``minimum_strict_until`` is the last round that needs 2 vowels and 2 consonants (R1.4);
    later rounds need 1 and 1. ``warning_penalty_from`` is the first warning of a game that
    costs points (4 in standard games, 6 in blitz and the original formulas, §4.3).
    """

    code: str
    name: str
    rack_size: int = 7
    bonuses: Mapping[int, int] = field(default_factory=lambda: CLASSIC_BONUSES)
    max_tiles: int | None = None
    joker_game: bool = False
    seconds_per_move: int = 180
    warning_before_end: int = 30
    warning_penalty_from: int = 4
    minimum_strict_until: int = 15

    def __hash__(self) -> int:  # the bonus table is a mapping; the code identifies a variant
        return hash(self.code)

    def minimum_for(self, round_number: int) -> int:
        """The vowel/consonant minimum the rules set for a round, before any relaxation."""
        return 2 if round_number <= self.minimum_strict_until else 1

    def to_json(self) -> dict:
        """Every parameter, so a record stays readable if the registry changes later."""
        return {
            "code": self.code,
            "name": self.name,
            "rack_size": self.rack_size,
            "bonuses": {str(k): v for k, v in sorted(self.bonuses.items())},
            "max_tiles": self.max_tiles,
            "joker_game": self.joker_game,
            "seconds_per_move": self.seconds_per_move,
            "warning_before_end": self.warning_before_end,
            "warning_penalty_from": self.warning_penalty_from,
            "minimum_strict_until": self.minimum_strict_until,
        }


def _bonuses(**by_tiles: int) -> Mapping[int, int]:
    return MappingProxyType({int(k[1:]): v for k, v in by_tiles.items()})


#: The standard game ("partie normale"): 7 tiles, +50 for seven, 3 minutes a round.
STANDARD = Variant("standard", "Partie normale")

#: Codes older releases stored, read as today's. ``classic`` was the standard game's code
#: until the classic formula (``engine.classic``, a turn-based game) needed the word.
LEGACY_CODES: Mapping[str, str] = MappingProxyType({"classic": STANDARD.code})

#: The registry, by the code records and ``--variant`` use.
VARIANTS: Mapping[str, Variant] = MappingProxyType(
    {
        v.code: v
        for v in (
            STANDARD,
            Variant("joker", "Partie joker", joker_game=True, warning_penalty_from=6),
            Variant(
                "7sur8", "7 sur 8", rack_size=8, max_tiles=7, warning_penalty_from=6
            ),  # V2: at most 7 of the 8 tiles, +50 for 7
            Variant(
                "7et8",
                "7 et 8",
                rack_size=8,
                bonuses=_bonuses(n7=50, n8=75),
                warning_penalty_from=6,
            ),
            Variant(
                "789",
                "7, 8 et 9",
                rack_size=9,
                bonuses=_bonuses(n7=50, n8=75, n9=100),
                warning_penalty_from=6,
            ),
            Variant(
                "semi-rapid",
                "Semi-rapide",
                seconds_per_move=120,
                warning_before_end=20,
            ),  # semi-rapide is not blitz nor an original formula: the 4th warning costs (§4.3)
            Variant(
                "blitz",
                "Blitz",
                seconds_per_move=60,
                warning_before_end=20,
                warning_penalty_from=6,
            ),
        )
    }
)


def canonical_code(code: str) -> str:
    """Today's code for ``code``: an old record's or row's ``classic`` is ``standard``."""
    return LEGACY_CODES.get(code, code)


def get_variant(code: str) -> Variant:
    """The registered variant for a code (old codes too), or a coded refusal listing the
    known codes."""
    try:
        return VARIANTS[canonical_code(code)]
    except KeyError:
        known = ", ".join(VARIANTS)
        raise EngineError(
            "variant.unknown",
            f"'{code}' is not a game variant; known variants: {known}.",
            variant=code,
        ) from None
