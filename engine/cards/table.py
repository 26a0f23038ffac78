"""The table of the card game: cards laid on an unbounded grid, and the words they spell.

There is no board, so no edge and no premium square. A position is ``(row, col)``, any
integers; the first word goes through the centre ``(0, 0)``. A card on the table is written
like a board square: an upper-case letter, or a lower-case letter for a joker standing for it.

A *word on the table* is a maximal run of two or more cards in a row or a column. Every card
on the table belongs to at least one word (the rules guarantee it: a first word has two
letters, every later card touches the table, and removal keeps whole words). Each word has
an *owner*, the seat of the player whose move last formed it; the removal rule needs it.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from engine.tiles import VALUES

Square = tuple[int, int]
CENTRE: Square = (0, 0)


def letter_value(card: str) -> int:
    """Value of a card on the table: its letter's value, 0 for a joker (lower case)."""
    return 0 if card.islower() else VALUES[card]


@dataclass(frozen=True, slots=True, order=True)
class Word:
    """A run of cards: first square, direction, and its letters (lower case = joker)."""

    row: int
    col: int
    horizontal: bool
    text: str

    def squares(self) -> tuple[Square, ...]:
        if self.horizontal:
            return tuple((self.row, self.col + i) for i in range(len(self.text)))
        return tuple((self.row + i, self.col) for i in range(len(self.text)))

    @property
    def letters(self) -> str:
        """The word as the lexicon reads it (upper case, jokers as their letter)."""
        return self.text.upper()

    def value(self) -> int:
        """Sum of its letters (the page: every word scores the total of its cards)."""
        return sum(letter_value(ch) for ch in self.text)

    def to_json(self) -> dict:
        return {"row": self.row, "col": self.col, "horizontal": self.horizontal, "word": self.text}

    @classmethod
    def from_json(cls, data: Mapping) -> Word:
        return cls(int(data["row"]), int(data["col"]), bool(data["horizontal"]), str(data["word"]))

    def __str__(self) -> str:
        arrow = "→" if self.horizontal else "↓"
        return f"{self.text}@{self.row},{self.col}{arrow}"


def _step(horizontal: bool) -> Square:
    return (0, 1) if horizontal else (1, 0)


def run_through(cells: Mapping[Square, str], square: Square, horizontal: bool) -> Word:
    """The run of cards through ``square`` (which must hold a card) in one direction."""
    dr, dc = _step(horizontal)
    r, c = square
    while (r - dr, c - dc) in cells:
        r, c = r - dr, c - dc
    start = (r, c)
    letters = []
    while (r, c) in cells:
        letters.append(cells[(r, c)])
        r, c = r + dr, c + dc
    return Word(start[0], start[1], horizontal, "".join(letters))


def runs(cells: Mapping[Square, str]) -> list[Word]:
    """Every run of two or more cards, sorted (the words a table spells)."""
    out = []
    for r, c in cells:
        for horizontal in (True, False):
            dr, dc = _step(horizontal)
            if (r - dr, c - dc) in cells or (r + dr, c + dc) not in cells:
                continue  # not the first card of a run of two or more
            out.append(run_through(cells, (r, c), horizontal))
    return sorted(out)


@dataclass(frozen=True, slots=True)
class Table:
    """Cards on the table and the owner of each word. Immutable: a move makes a new table."""

    cells: Mapping[Square, str] = field(default_factory=lambda: MappingProxyType({}))
    owners: Mapping[Word, int] = field(default_factory=lambda: MappingProxyType({}))

    @classmethod
    def build(cls, cells: Mapping[Square, str], owners: Mapping[Word, int]) -> Table:
        return cls(MappingProxyType(dict(cells)), MappingProxyType(dict(owners)))

    @classmethod
    def from_words(cls, *words: tuple[Word, int]) -> Table:
        """A table holding the given ``(word, owner)`` pairs (tests and examples)."""
        cells: dict[Square, str] = {}
        for word, _ in words:
            for square, ch in zip(word.squares(), word.text, strict=True):
                if cells.get(square, ch) != ch:
                    raise ValueError(f"{word} disagrees with a card already at {square}")
                cells[square] = ch
        owners = dict(words)
        table = cls.build(cells, owners)
        if set(runs(cells)) != set(owners):
            raise ValueError("the words given are not exactly the runs they make")
        return table

    def __len__(self) -> int:
        return len(self.cells)

    def is_empty(self) -> bool:
        return not self.cells

    def at(self, square: Square) -> str | None:
        return self.cells.get(square)

    def words(self) -> list[Word]:
        return sorted(self.owners)

    def cards(self) -> Iterator[str]:
        """The cards as deck cards (a joker is ``?``), for accounting."""
        for ch in self.cells.values():
            yield "?" if ch.islower() else ch

    def bounds(self) -> tuple[int, int, int, int]:
        """``(top, left, bottom, right)`` of the cards, inclusive; the table must not be empty."""
        rows = [r for r, _ in self.cells]
        cols = [c for _, c in self.cells]
        return min(rows), min(cols), max(rows), max(cols)

    def lines(self) -> list[str]:
        """A picture of the table, ``.`` for an empty square, for people and logs."""
        if not self.cells:
            return []
        top, left, bottom, right = self.bounds()
        return [
            "".join(self.cells.get((r, c), ".") for c in range(left, right + 1))
            for r in range(top, bottom + 1)
        ]

    def invalid_words(self, lexicon) -> list[Word]:
        return [w for w in self.words() if not lexicon.contains(w.letters)]


def squares_of(words: Iterable[Word]) -> set[Square]:
    out: set[Square] = set()
    for word in words:
        out.update(word.squares())
    return out
