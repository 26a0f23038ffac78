"""Small stand-ins for the move generator, to test the game rules on their own.

The game never checks a top's legality (the generator's job): it only needs a reference, a
word covering empty squares (or board letters) and a score. These stubs lay rack tiles on
the first free horizontal stretch, which keeps every test's arithmetic easy to follow.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from engine.board import EMPTY, Board, Rack
from engine.moves import Move
from engine.notation import Reference
from engine.tiles import SIZE


@dataclass(frozen=True)
class StubTop:
    score: int
    moves: tuple[Move, ...]
    n_moves: int = 0


NO_MOVE = StubTop(0, ())


def first_free(board: Board, length: int) -> Reference:
    """The first square (row-major) starting ``length`` empty squares along its row."""
    for row in range(SIZE):
        for col in range(SIZE - length + 1):
            if all(board.at(row, col + i) == EMPTY for i in range(length)):
                return Reference(row, col, True)
    raise AssertionError("board full")


def lay(board: Board, tiles: str, score: int = 10, joker_as: str = "E") -> Move:
    """A move laying ``tiles`` (in this order) on the first free stretch; ``?`` → joker."""
    word = "".join(joker_as.lower() if t == "?" else t for t in tiles)
    return Move(first_free(board, len(tiles)), word, score, len(tiles))


def placing(count: int | None = None, score: int = 10) -> Callable[[Board, Rack], StubTop]:
    """A finder whose only top lays the first ``count`` rack tiles (all when ``None``)."""

    def finder(board: Board, rack: Rack) -> StubTop:
        tiles = rack.tiles if count is None else rack.tiles[:count]
        return StubTop(score, (lay(board, tiles, score),), 1)

    return finder
