"""The French tile set (rules §9 A1–A2) and the premium layout of the board (§9 A3).

Kept as plain data so variants and other code read one source of truth; the compiled
core receives these tables as arguments rather than hard-coding them.
"""

from __future__ import annotations

from types import MappingProxyType

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
JOKER = "?"

#: How many of each tile the bag holds (102 tiles: 100 letters and 2 jokers).
COUNTS = MappingProxyType(
    dict(
        zip(
            LETTERS + JOKER,
            (9, 2, 2, 3, 15, 2, 2, 2, 8, 1, 1, 5, 3, 6, 6, 2, 1, 6, 6, 6, 6, 2, 1, 1, 1, 1, 2),
            strict=True,
        )
    )
)

#: Face value of each tile; a joker is worth 0 wherever it lies.
VALUES = MappingProxyType(
    dict(
        zip(
            LETTERS + JOKER,
            (1, 3, 3, 2, 1, 4, 2, 4, 1, 8, 10, 1, 2, 1, 1, 3, 8, 1, 1, 1, 1, 4, 10, 10, 10, 10, 0),
            strict=True,
        )
    )
)

VOWELS = frozenset("AEIOU")
#: Y and the joker may count as a vowel or a consonant, at the arbiter's choice (R1.6).
FLEXIBLE = frozenset("Y?")
CONSONANTS = frozenset(LETTERS) - VOWELS - FLEXIBLE

SIZE = 15
ROWS = "ABCDEFGHIJKLMNO"
CENTRE = (7, 7)  # H8

#: Bonus for placing n tiles in one move, standard game and classic formula: +50 for seven.
CLASSIC_BONUSES = MappingProxyType({7: 50})


def _squares(refs: str) -> frozenset[tuple[int, int]]:
    """Squares named like ``"A1 H8"`` (row letter then column)."""
    return frozenset((ROWS.index(r[0]), int(r[1:]) - 1) for r in refs.split())


TRIPLE_WORD = _squares("A1 A8 A15 H1 H15 O1 O8 O15")
DOUBLE_WORD = _squares("B2 C3 D4 E5 K11 L12 M13 N14 B14 C13 D12 E11 K5 L4 M3 N2 H8")
TRIPLE_LETTER = _squares("B6 B10 F2 F6 F10 F14 J2 J6 J10 J14 N6 N10")
DOUBLE_LETTER = _squares(
    "A4 A12 C7 C9 D1 D8 D15 G3 G7 G9 G13 H4 H12 I3 I7 I9 I13 L1 L8 L15 M7 M9 O4 O12"
)


def letter_multiplier(row: int, col: int) -> int:
    """Letter premium of a square (1 when none)."""
    if (row, col) in TRIPLE_LETTER:
        return 3
    return 2 if (row, col) in DOUBLE_LETTER else 1


def word_multiplier(row: int, col: int) -> int:
    """Word premium of a square (1 when none)."""
    if (row, col) in TRIPLE_WORD:
        return 3
    return 2 if (row, col) in DOUBLE_WORD else 1


#: Row-major tables of the 225 squares, as the compiled core wants them.
LETTER_MULTIPLIERS = bytes(letter_multiplier(r, c) for r in range(SIZE) for c in range(SIZE))
WORD_MULTIPLIERS = bytes(word_multiplier(r, c) for r in range(SIZE) for c in range(SIZE))
