"""FISF move references (rules §3 N1–N2).

``H4`` is horizontal (row letter then column), ``4H`` vertical (column then row letter).
Case is ignored and inner spaces are tolerated (FISF prints "H 4").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.errors import EngineError
from engine.tiles import ROWS, SIZE

_HORIZONTAL = re.compile(r"^([A-Z])(\d+)$")
_VERTICAL = re.compile(r"^(\d+)([A-Z])$")


@dataclass(frozen=True, slots=True)
class Reference:
    """The square of a word's first letter and its direction."""

    row: int
    col: int
    horizontal: bool

    def __str__(self) -> str:
        if self.horizontal:
            return f"{ROWS[self.row]}{self.col + 1}"
        return f"{self.col + 1}{ROWS[self.row]}"

    def inverted(self) -> Reference:
        """The same square read in the other direction (an inverted reference, §4.3)."""
        return Reference(self.row, self.col, not self.horizontal)


def _check(row_letter: str, number: str, text: str) -> tuple[int, int]:
    if row_letter not in ROWS:
        raise EngineError(
            "reference.row",
            f"'{text}': rows go from A to O, there is no row {row_letter}.",
            reference=text,
            row=row_letter,
        )
    col = int(number)
    if not 1 <= col <= SIZE or number.startswith("0"):
        raise EngineError(
            "reference.column",
            f"'{text}': columns go from 1 to 15, there is no column {number}.",
            reference=text,
            column=number,
        )
    return ROWS.index(row_letter), col - 1


def parse_reference(text: str) -> Reference:
    """Read a reference such as ``H4``, ``4h`` or ``h 4``; refuse ``P1``, ``16A``, ``H0``."""
    compact = re.sub(r"\s+", "", text or "").upper()
    if match := _HORIZONTAL.match(compact):
        row, col = _check(match.group(1), match.group(2), text.strip())
        return Reference(row, col, True)
    if match := _VERTICAL.match(compact):
        row, col = _check(match.group(2), match.group(1), text.strip())
        return Reference(row, col, False)
    raise EngineError(
        "reference.syntax",
        f"'{(text or '').strip()}' is not a reference: write the row letter then the column "
        "for a horizontal word (H4), the column then the row letter for a vertical one (4H).",
        reference=text,
    )
