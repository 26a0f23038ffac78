"""End-of-game adjustments and the final ranking (seed pages 001 and 004).

When a player goes out (plays their last tile with the bag empty), every other player
subtracts the value of the tiles left on their rack and the one who went out adds the sum
of those values. When the game is blocked (every player passed twice in a row), each player
subtracts their own tiles and nobody adds anything. Page 004's sheet example: Ben keeps 9
points of tiles, Cal 4, Ana went out — Ben −9, Cal −4, Ana +13.

These functions take tile *values* so that a paper score sheet, where only the "lettres
restantes" line is typed, is adjusted by the same code as an engine game.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.errors import EngineError
from engine.scoring import tile_value
from engine.tiles import JOKER


def rack_value(tiles: str) -> int:
    """Face value of rack tiles (``?`` is a joker, worth 0)."""
    return sum(0 if t == JOKER else tile_value(t) for t in tiles)


@dataclass(frozen=True, slots=True)
class Adjustment:
    """One player's end line: score before, value of the tiles left (``minus``), the others'
    total for the player who went out (``plus``), and the final score."""

    player: int
    before: int
    minus: int
    plus: int
    remaining: str = ""

    @property
    def final(self) -> int:
        return self.before - self.minus + self.plus

    def to_json(self) -> dict:
        return {
            "player": self.player,
            "remaining": self.remaining,
            "before": self.before,
            "minus": self.minus,
            "plus": self.plus,
            "final": self.final,
        }


def adjust(
    scores: Sequence[int],
    left: Sequence[int],
    went_out: int | None,
    remaining: Sequence[str] | None = None,
) -> tuple[Adjustment, ...]:
    """Adjust ``scores`` by the values ``left`` on each rack; ``went_out`` is the player who
    played their last tile (``None`` after a blocked game, when nobody adds)."""
    if len(scores) != len(left):
        raise ValueError("one remaining value per player")  # caller bug
    if any(v < 0 for v in left):
        raise EngineError("end.negative", "The value of the tiles left cannot be negative.")
    if went_out is not None:
        if not 0 <= went_out < len(scores):
            raise EngineError("end.player", f"There is no player {went_out + 1}.")
        if left[went_out]:
            raise EngineError(
                "end.not_out",
                f"Player {went_out + 1} went out: no tile can be left on their rack.",
                player=went_out,
            )
    others = sum(left)
    names = remaining or [""] * len(scores)
    return tuple(
        Adjustment(
            player=i,
            before=score,
            minus=left[i],
            plus=others if i == went_out else 0,
            remaining=names[i],
        )
        for i, score in enumerate(scores)
    )


def ranks(finals: Sequence[int], tiles_left: Sequence[int], tie_break: str) -> tuple[int, ...]:
    """Each player's place (1 = winner); equal players share a place (ex æquo) unless the
    ``fewest_tiles`` tie-break separates them by the number of tiles left on their rack."""

    def key(i: int) -> tuple[int, ...]:
        return (-finals[i], tiles_left[i]) if tie_break == "fewest_tiles" else (-finals[i],)

    keys = [key(i) for i in range(len(finals))]
    return tuple(1 + sum(1 for other in keys if other < mine) for mine in keys)
