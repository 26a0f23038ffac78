"""Checking one proposed move: the tablet and the arbiter both call this.

Placement and rack letters are checked first and refused with an :class:`EngineError`;
the dictionary is consulted separately (``invalid_words``) so that a tablet can confirm a
placement and show its score without revealing whether the words are valid.

The implementation is deliberately plain Python and independent of the compiled move
generator: property tests hold one against the other.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from itertools import combinations
from typing import Protocol

from engine.board import EMPTY, Board, Rack, fold_text
from engine.errors import EngineError
from engine.notation import Reference, parse_reference
from engine.scoring import bingo_bonus, word_score
from engine.tiles import CENTRE, CLASSIC_BONUSES, JOKER, ROWS, SIZE

_WORD = re.compile(r"^[A-Za-z]+$")


class WordList(Protocol):
    def contains(self, word: str) -> bool: ...


@dataclass(frozen=True, slots=True)
class FormedWord:
    """A word the move forms, with the reference of its first letter and its score."""

    word: str
    reference: Reference
    score: int


@dataclass(frozen=True, slots=True)
class CheckedMove:
    """A placement that fits the board and the rack.

    ``word`` marks with lowercase letters every joker in it, placed now or already on the
    board. ``jokers_as`` lists the letters the rack's jokers stand for, in word order.
    ``joker_inferred`` is true when the proposal did not say which letter was a joker and
    the checker chose the reading (the lowest-scoring one, as §4.3 pays the minimum).
    ``invalid_words`` is empty when every word formed is in the lexicon, or when no
    lexicon was given (``words_checked`` is then false).
    """

    reference: Reference
    word: str
    score: int
    placed: int
    words: tuple[FormedWord, ...]
    jokers_as: tuple[str, ...]
    joker_inferred: bool
    invalid_words: tuple[str, ...]
    words_checked: bool

    @property
    def coord(self) -> str:
        return str(self.reference)

    @property
    def valid(self) -> bool:
        """Placement fits and every word formed was found in the lexicon."""
        return self.words_checked and not self.invalid_words


def _square(row: int, col: int) -> str:
    return f"{ROWS[row]}{col + 1}"


def _normalise_word(word: str) -> str:
    folded = fold_text((word or "").strip())
    folded = re.sub(r"\s+", "", folded)
    if not folded:
        raise EngineError("word.empty", "No word was given.")
    if not _WORD.match(folded):
        bad = next(ch for ch in folded if not ch.isascii() or not ch.isalpha())
        raise EngineError(
            "word.character",
            f"'{word}' contains {bad!r}: a word is made of letters only.",
            word=word,
            character=bad,
        )
    if len(folded) < 2:
        raise EngineError("word.too_short", "A word has at least two letters.", word=word)
    if len(folded) > SIZE:
        raise EngineError(
            "word.too_long",
            f"'{word}' has {len(folded)} letters; the board has 15.",
            word=word,
            length=len(folded),
        )
    return folded


def normalise_word(word: str) -> str:
    """A typed word as the checker reads it (accents folded, spaces dropped, the case of
    each letter kept: lowercase marks a joker), or the ``word.*`` refusal: what the
    arbiter's dispute checker looks up in the lexicon without placing it."""
    return _normalise_word(word)


def _line(board: Board, row: int, col: int, horizontal: bool, new: dict) -> list:
    """The whole word through (row, col) along a direction, with new tiles included."""
    dr, dc = (0, 1) if horizontal else (1, 0)

    def filled(r: int, c: int) -> str | None:
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            return None
        if (r, c) in new:
            return new[(r, c)]
        ch = board.at(r, c)
        return None if ch == EMPTY else ch

    r, c = row, col
    while filled(r - dr, c - dc):
        r, c = r - dr, c - dc
    squares = []
    while (letter := filled(r, c)) is not None:
        squares.append((r, c, letter, (r, c) in new))
        r, c = r + dr, c + dc
    return squares


def _formed_words(board: Board, ref: Reference, new: dict) -> list[FormedWord]:
    main = _line(board, ref.row, ref.col, ref.horizontal, new)
    words = [main]
    for r, c in new:
        cross = _line(board, r, c, not ref.horizontal, new)
        if len(cross) >= 2:
            words.append(cross)
    formed = []
    for squares in words:
        r0, c0 = squares[0][0], squares[0][1]
        horizontal = len(squares) < 2 or squares[1][0] == r0
        formed.append(
            FormedWord(
                word="".join(s[2] for s in squares),
                reference=Reference(r0, c0, horizontal),
                score=word_score(squares),
            )
        )
    return formed


def _assign_jokers(
    wanted: list[tuple[tuple[int, int], str]], rack: Rack
) -> list[tuple[set[int], bool]]:
    """Every way to take the new tiles from the rack: the set of indexes played as jokers.

    Lowercase letters must be jokers. An uppercase letter the rack lacks may use a free
    joker; which occurrence does so is a choice, returned as several candidate readings.
    """
    counts = rack.counts()
    forced = {i for i, (_, letter) in enumerate(wanted) if letter.islower()}
    free_jokers = counts[JOKER] - len(forced)
    if free_jokers < 0:
        raise EngineError(
            "move.jokers",
            f"The word uses {len(forced)} jokers but the rack {rack} holds {counts[JOKER]}.",
            jokers=len(forced),
            held=counts[JOKER],
            rack=rack.tiles,
        )
    need = Counter(letter for i, (_, letter) in enumerate(wanted) if i not in forced)
    short = {letter: n - counts[letter] for letter, n in need.items() if n > counts[letter]}
    missing = sum(short.values())
    if missing > free_jokers:
        letters = "".join(sorted(letter * n for letter, n in short.items()))
        raise EngineError(
            "move.letters",
            f"The rack {rack} does not hold the letters needed: {letters} missing.",
            missing=letters,
            rack=rack.tiles,
        )
    if missing == 0:
        return [(forced, False)]
    # Each short letter must take jokers on `short[letter]` of its occurrences.
    options: list[list[tuple[int, ...]]] = []
    for letter, n in short.items():
        positions = [i for i, (_, ch) in enumerate(wanted) if ch == letter and i not in forced]
        options.append(list(combinations(positions, n)))
    readings: list[set[int]] = [set(forced)]
    for choice in options:
        readings = [r | set(c) for r in readings for c in choice]
    return [(reading, True) for reading in readings]


def check_move(
    board: Board,
    rack: Rack,
    reference: str | Reference,
    word: str,
    *,
    lexicon: WordList | None = None,
    bonuses: Mapping[int, int] = CLASSIC_BONUSES,
    max_tiles: int | None = None,
) -> CheckedMove:
    """Fit a proposed move on the board and the rack, score it and check its words.

    Raises :class:`EngineError` for a bad reference or word, a placement that does not fit
    (off the board, clash, no tile placed, not connected, first move off H8, continuing an
    adjacent word) and letters the rack lacks.
    """
    ref = reference if isinstance(reference, Reference) else parse_reference(reference)
    text = _normalise_word(word)
    dr, dc = (0, 1) if ref.horizontal else (1, 0)
    end_row, end_col = ref.row + dr * (len(text) - 1), ref.col + dc * (len(text) - 1)
    if end_row >= SIZE or end_col >= SIZE:
        raise EngineError(
            "move.off_board",
            f"{text.upper()} at {ref} does not fit: it would run past the edge of the board.",
            word=text.upper(),
            reference=str(ref),
        )
    wanted: list[tuple[tuple[int, int], str]] = []
    written: list[str] = []
    for i, letter in enumerate(text):
        r, c = ref.row + dr * i, ref.col + dc * i
        on_board = board.at(r, c)
        if on_board == EMPTY:
            wanted.append(((r, c), letter))
            written.append(letter)
        elif on_board.upper() != letter.upper():
            raise EngineError(
                "move.clash",
                f"Letter {i + 1} of {text.upper()}, {letter.upper()}, falls on "
                f"{_square(r, c)} which already holds {on_board.upper()}.",
                position=i + 1,
                word=text.upper(),
                letter=letter.upper(),
                square=_square(r, c),
                occupant=on_board.upper(),
            )
        else:
            written.append(on_board)
    if not wanted:
        raise EngineError(
            "move.no_tile",
            f"{text.upper()} at {ref} places no tile.",
            word=text.upper(),
            reference=str(ref),
        )
    for r, c in ((ref.row - dr, ref.col - dc), (end_row + dr, end_col + dc)):
        if 0 <= r < SIZE and 0 <= c < SIZE and board.at(r, c) != EMPTY:
            raise EngineError(
                "move.adjacent",
                f"{text.upper()} at {ref} touches the letter on {_square(r, c)} along its line: "
                "the word written must include it.",
                word=text.upper(),
                reference=str(ref),
                square=_square(r, c),
            )
    if max_tiles is not None and len(wanted) > max_tiles:
        raise EngineError(
            "move.too_many_tiles",
            f"At most {max_tiles} tiles may be placed in one move.",
            max_tiles=max_tiles,
        )
    if board.is_empty():
        if CENTRE not in {square for square, _ in wanted}:
            raise EngineError(
                "move.first_not_centre", "The first word of the game must cover the star, H8."
            )
    elif len(wanted) == len(text) and not any(
        0 <= r + a < SIZE and 0 <= c + b < SIZE and board.at(r + a, c + b) != EMPTY
        for (r, c), _ in wanted
        for a, b in ((0, 1), (0, -1), (1, 0), (-1, 0))
    ):
        raise EngineError(
            "move.not_connected",
            f"{text.upper()} at {ref} does not touch any letter on the board.",
            word=text.upper(),
            reference=str(ref),
        )
    candidates = []
    for jokers, inferred in _assign_jokers(wanted, rack):
        new = {
            square: (letter.lower() if i in jokers else letter.upper())
            for i, (square, letter) in enumerate(wanted)
        }
        formed = _formed_words(board, ref, new)
        score = sum(w.score for w in formed) + bingo_bonus(len(new), bonuses)
        candidates.append((score, new, formed, inferred))
    score, new, formed, inferred = min(candidates, key=lambda c: c[0])
    full = "".join(
        new.get((ref.row + dr * i, ref.col + dc * i), ch) for i, ch in enumerate(written)
    )
    invalid: tuple[str, ...] = ()
    if lexicon is not None:
        invalid = tuple(w.word.upper() for w in formed if not lexicon.contains(w.word.upper()))
    return CheckedMove(
        reference=ref,
        word=full,
        score=score,
        placed=len(new),
        words=tuple(formed),
        jokers_as=tuple(letter.upper() for letter in new.values() if letter.islower()),
        joker_inferred=inferred,
        invalid_words=invalid,
        words_checked=lexicon is not None,
    )
