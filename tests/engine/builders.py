"""Small builders shared by engine tests: boards laid word by word, toy word lists."""

from __future__ import annotations

from engine.board import Board

EMPTY = Board()


def board_with(*words: tuple[int, int, str, bool]) -> Board:
    """A board with words laid as (row, col, word, horizontal), 0-based; lowercase = joker."""
    placed = {}
    for row, col, word, horizontal in words:
        for i, ch in enumerate(word):
            placed[(row, col + i) if horizontal else (row + i, col)] = ch
    return EMPTY.with_tiles(placed)


class Words:
    """A lexicon stand-in holding exactly the given words."""

    def __init__(self, *words: str) -> None:
        self.words = set(words)

    def contains(self, word: str) -> bool:
        return word in self.words
