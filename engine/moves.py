"""A scored move, as the generator lists it and the checker confirms it."""

from __future__ import annotations

from dataclasses import dataclass

from engine.notation import Reference


@dataclass(frozen=True, slots=True, order=False)
class Move:
    """A legal placement: reference, full word (lowercase letter = joker), score, tiles placed."""

    reference: Reference
    word: str
    score: int
    placed: int

    @property
    def coord(self) -> str:
        return str(self.reference)

    @property
    def jokers_used(self) -> int:
        """Jokers this move takes from the rack (lowercase letters on newly covered squares).

        Only meaningful for generated moves, whose ``word`` marks board jokers too; the
        generator fills ``placed`` so callers compare racks instead when they need exactness.
        """
        return sum(1 for ch in self.word if ch.islower())

    def sort_key(self) -> tuple[int, int, int, int, str]:
        """Listing order: score descending, then reference in board order, then word."""
        ref = self.reference
        return (-self.score, ref.row, ref.col, 0 if ref.horizontal else 1, self.word)

    def __str__(self) -> str:
        return f"{self.coord} {self.word} {self.score}"
