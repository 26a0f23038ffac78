"""Types of the compiled engine core (``engine/core/_core.c``), for the type checker.

The generated moves are instances of the classes given to ``configure`` (``engine.moves``'s
``Move`` and ``Reference``); the C code cannot name them, so they are ``object`` here and
``engine.movegen`` types what it returns."""

from collections.abc import Sequence
from typing import Any

from typing_extensions import Buffer

class Gaddag:
    n_cells: int
    n_nodes: int
    def __init__(self, buffer: Buffer, offset: int, n_cells: int) -> None: ...
    def contains(self, word: str, /) -> bool: ...
    def keep_boards(self, n: int, /) -> int: ...

def build_gaddag(blob: bytes, /) -> tuple[bytes, int, int]: ...
def configure(move_type: type, reference_type: type, /) -> None: ...

# The shape depends on ``mode``: 0 (all) and 2 (the n best) return a list of moves; 1 and 3
# (the top) return (best score, the tied moves, None or the number of moves generated).
# ``engine.movegen`` gives each use its precise type.
def generate(
    gaddag: Gaddag,
    board: str,
    rack: str,
    values: Sequence[int],
    letter_mult: Sequence[int],
    word_mult: Sequence[int],
    bonus: Sequence[int],
    max_tiles: int,
    mode: int,
    n: int,
    /,
) -> Any: ...
def anchor_bounds(
    gaddag: Gaddag,
    board: str,
    rack: str,
    values: Sequence[int],
    letter_mult: Sequence[int],
    word_mult: Sequence[int],
    bonus: Sequence[int],
    max_tiles: int,
    /,
) -> list[tuple[bool, int, int, int, int]]: ...
def board_tables(
    gaddag: Gaddag, cells: str, values: Sequence[int], kept: bool, /
) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], tuple[int, ...], int]: ...
def hardware_popcount(enable: bool = ..., /) -> bool: ...
