"""Scoring of a placement (rules §2 T4), in plain Python.

This is the reference scorer the move checker uses; the compiled generator has its own
implementation, and the tests hold each against the other and against hand computations.
"""

from __future__ import annotations

from collections.abc import Mapping

from engine.tiles import CLASSIC_BONUSES, LETTER_MULTIPLIERS, SIZE, VALUES, WORD_MULTIPLIERS


def tile_value(letter: str) -> int:
    """Face value of a tile as written on the board: a lowercase letter is a joker, worth 0."""
    return 0 if letter.islower() else VALUES[letter]


def word_score(squares: list[tuple[int, int, str, bool]]) -> int:
    """Score one word from its squares ``(row, col, letter, newly_placed)``.

    Letter premiums apply first, then the word premiums, and only on newly covered squares.
    """
    total = 0
    factor = 1
    for row, col, letter, new in squares:
        value = tile_value(letter)
        if new:
            index = row * SIZE + col
            value *= LETTER_MULTIPLIERS[index]
            factor *= WORD_MULTIPLIERS[index]
        total += value
    return total * factor


def bingo_bonus(placed: int, bonuses: Mapping[int, int] = CLASSIC_BONUSES) -> int:
    """Bonus for placing ``placed`` tiles at once, added after the multipliers."""
    return bonuses.get(placed, 0)
