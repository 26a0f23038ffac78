"""A scored move, as the generator lists it and the checker confirms it, and the helpers that
put one on a board: shared by every game family (duplicate, classic)."""

from __future__ import annotations

from dataclasses import dataclass

from engine.board import EMPTY, Board
from engine.notation import Reference
from engine.tiles import JOKER


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


def squares(move: Move) -> list[tuple[int, int]]:
    """The squares the move's word covers, first letter first."""
    ref = move.reference
    dr, dc = (0, 1) if ref.horizontal else (1, 0)
    return [(ref.row + dr * i, ref.col + dc * i) for i in range(len(move.word))]


def new_tiles(board: Board, move: Move) -> dict[tuple[int, int], str]:
    """The tiles the move puts down: square → letter (lowercase for a joker)."""
    return {
        sq: ch for sq, ch in zip(squares(move), move.word, strict=True) if board.at(*sq) == EMPTY
    }


def rack_tiles_used(board: Board, move: Move) -> str:
    """The rack tiles the move uses, ``?`` for a joker (board jokers are not counted)."""
    return "".join(JOKER if ch.islower() else ch for ch in new_tiles(board, move).values())


def move_to_json(move: Move) -> dict:
    return {"coord": move.coord, "word": move.word, "score": move.score, "placed": move.placed}
