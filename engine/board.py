"""Immutable values: the board, the rack and a move.

Text formats (issue 3): a board is 15 lines of 15 characters, ``.`` for an empty square,
``A``–``Z`` a tile, ``a``–``z`` a joker standing for that letter; a rack is a string of
tiles with ``?`` for a joker.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from dataclasses import dataclass

from engine.errors import EngineError
from engine.tiles import JOKER, LETTERS, ROWS, SIZE

EMPTY = "."
MAX_RACK = 9


def fold_letter(ch: str) -> str:
    """Fold one typed character to a tile letter: accents dropped, upper-cased (A1).

    Lower case is kept as the caller's business (it marks a joker in a word), so this only
    strips accents; ``Œ``/``Æ`` need two tiles and are handled by :func:`fold_text`.
    """
    base = unicodedata.normalize("NFD", ch)[0]
    return base


def fold_text(text: str) -> str:
    """Fold accents of a typed word or rack, keeping the case of each letter."""
    out = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in "Œœ":
            out.append("OE" if ch == "Œ" else "oe")
        elif ch in "Ææ":
            out.append("AE" if ch == "Æ" else "ae")
        else:
            out.append(fold_letter(ch))
    return "".join(out)


@dataclass(frozen=True, slots=True)
class Board:
    """The 225 squares, row-major from A1: ``.``, a tile letter, or a lowercase joker."""

    cells: str = EMPTY * (SIZE * SIZE)

    def __post_init__(self) -> None:
        if len(self.cells) != SIZE * SIZE:
            raise EngineError(
                "board.size",
                f"A board has {SIZE * SIZE} squares, not {len(self.cells)}.",
                expected=SIZE * SIZE,
                count=len(self.cells),
            )
        bad = set(self.cells) - set(EMPTY + LETTERS + LETTERS.lower())
        if bad:
            raise EngineError(
                "board.character",
                f"A board square holds '.', a letter A–Z or a joker a–z, not {sorted(bad)[0]!r}.",
                character=sorted(bad)[0],
            )

    @classmethod
    def from_lines(cls, lines: list[str] | tuple[str, ...]) -> Board:
        """Build from 15 strings of 15 characters (the conformance format)."""
        rows = [line.strip() for line in lines if line.strip()]
        if len(rows) != SIZE:
            raise EngineError(
                "board.rows",
                f"A board has {SIZE} lines, this one has {len(rows)}.",
                count=len(rows),
            )
        for i, row in enumerate(rows):
            if len(row) != SIZE:
                raise EngineError(
                    "board.columns",
                    f"Line {i + 1} of the board has {len(row)} characters instead of {SIZE}.",
                    line=i + 1,
                    count=len(row),
                )
        return cls("".join(rows))

    @classmethod
    def from_text(cls, text: str) -> Board:
        """Build from the 15-line text format."""
        return cls.from_lines(text.splitlines())

    def to_lines(self) -> list[str]:
        return [self.cells[r * SIZE : (r + 1) * SIZE] for r in range(SIZE)]

    def to_text(self) -> str:
        return "\n".join(self.to_lines()) + "\n"

    def at(self, row: int, col: int) -> str:
        return self.cells[row * SIZE + col]

    def is_empty(self) -> bool:
        return self.cells.count(EMPTY) == SIZE * SIZE

    def tile_count(self) -> int:
        return SIZE * SIZE - self.cells.count(EMPTY)

    def with_tiles(self, placed: dict[tuple[int, int], str]) -> Board:
        """A new board with the given squares filled (squares must be empty)."""
        cells = list(self.cells)
        for (row, col), letter in placed.items():
            if cells[row * SIZE + col] != EMPTY:
                raise ValueError(f"square {row},{col} is not empty")  # caller bug
            cells[row * SIZE + col] = letter
        return Board("".join(cells))

    def tiles(self) -> Counter[str]:
        """Tiles on the board as rack letters (a joker counts as ``?``)."""
        return Counter(JOKER if ch.islower() else ch for ch in self.cells if ch != EMPTY)


@dataclass(frozen=True, slots=True)
class Rack:
    """Tiles a player may place: upper-case letters and ``?`` for a joker, up to 9."""

    tiles: str

    def __post_init__(self) -> None:
        if len(self.tiles) > MAX_RACK:
            raise EngineError(
                "rack.size",
                f"A rack holds at most {MAX_RACK} tiles, not {len(self.tiles)}.",
                max=MAX_RACK,
                count=len(self.tiles),
            )
        bad = set(self.tiles) - set(LETTERS + JOKER)
        if bad:
            raise EngineError(
                "rack.character",
                f"A rack holds letters A–Z and '?' for a joker, not {sorted(bad)[0]!r}.",
                character=sorted(bad)[0],
            )

    @classmethod
    def parse(cls, text: str) -> Rack:
        """Read a typed rack: accents folded, case ignored, spaces and '+'/'-' marks ignored."""
        folded = fold_text(text).upper()
        return cls("".join(ch for ch in folded if ch not in " +-\t"))

    def counts(self) -> Counter[str]:
        return Counter(self.tiles)

    @property
    def jokers(self) -> int:
        return self.tiles.count(JOKER)

    def __str__(self) -> str:
        return self.tiles


def row_name(row: int) -> str:
    return ROWS[row]
