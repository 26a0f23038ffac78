"""One move of the card game: is it legal, what does it score, which words leave the table.

:func:`evaluate` is the single judge used by the game, the engine opponents and replay. It
checks the geometry only; whether the words exist is a matter for a challenge (the page:
"on ne sort le dico que pour les contestations"), see :func:`invalid_words`.

Every refusal is an :class:`~engine.errors.EngineError` with a ``play.*`` code.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from engine.cards.deck import HAND_SIZE, PRIME_FACTOR, canonical
from engine.cards.table import CENTRE, Square, Table, Word, run_through, runs, squares_of
from engine.errors import EngineError
from engine.tiles import JOKER, LETTERS

#: Bonus for laying seven letter cards in one move (a Prime card does not count).
SCRABBLE_BONUS = 50
SCRABBLE_CARDS = HAND_SIZE
#: The first word of the game is doubled, as on the board's centre square.
FIRST_FACTOR = 2


@dataclass(frozen=True, slots=True, order=True)
class Placed:
    """One letter card laid on the table; ``joker`` when it is a joker announced as ``letter``."""

    row: int
    col: int
    letter: str
    joker: bool = False

    @property
    def square(self) -> Square:
        return (self.row, self.col)

    @property
    def card(self) -> str:
        """The card it takes from the hand."""
        return JOKER if self.joker else self.letter

    @property
    def face(self) -> str:
        """How it shows on the table (lower case for a joker)."""
        return self.letter.lower() if self.joker else self.letter

    def to_json(self) -> dict:
        return {"row": self.row, "col": self.col, "letter": self.letter, "joker": self.joker}


@dataclass(frozen=True, slots=True)
class Play:
    """A move: the letter cards laid, and at most one Prime card put on one square."""

    cards: tuple[Placed, ...]
    prime: str | None = None
    prime_at: Square | None = None

    def hand_cards(self) -> str:
        """The cards this move takes from the hand, in canonical order."""
        return canonical([p.card for p in self.cards] + ([self.prime] if self.prime else []))

    def to_json(self) -> dict:
        out: dict = {"cards": [p.to_json() for p in sorted(self.cards)]}
        if self.prime and self.prime_at is not None:
            out["prime"] = {"card": self.prime, "row": self.prime_at[0], "col": self.prime_at[1]}
        return out

    @classmethod
    def from_json(cls, data: Mapping) -> Play:
        cards = tuple(
            Placed(int(c["row"]), int(c["col"]), str(c["letter"]), bool(c.get("joker", False)))
            for c in data["cards"]
        )
        prime = data.get("prime")
        if prime:
            return cls(cards, str(prime["card"]), (int(prime["row"]), int(prime["col"])))
        return cls(cards)


def play_from_word(
    table: Table,
    row: int,
    col: int,
    horizontal: bool,
    word: str,
    *,
    prime: str | None = None,
    prime_at: Square | None = None,
) -> Play:
    """A move written as a whole word from its first square (lower case = joker).

    Squares already holding a card are skipped (the word reads through them), which is how
    players say a move: "ACHATS from (0, -1) across" around the ``CHAT`` already there.
    """
    dr, dc = (0, 1) if horizontal else (1, 0)
    cards = []
    for i, ch in enumerate(word):
        square = (row + dr * i, col + dc * i)
        if square in table.cells:
            continue
        cards.append(Placed(square[0], square[1], ch.upper(), ch.islower()))
    return Play(tuple(cards), prime, prime_at)


@dataclass(frozen=True, slots=True)
class ScoredWord:
    word: Word
    base: int
    factor: int

    @property
    def score(self) -> int:
        return self.base * self.factor

    def to_json(self) -> dict:
        return {
            **self.word.to_json(),
            "base": self.base,
            "factor": self.factor,
            "score": self.score,
        }


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a legal move does: words formed and scored, words removed, the table after."""

    play: Play
    words: tuple[ScoredWord, ...]
    bonus: int
    removed: tuple[Word, ...]
    discarded: str  # letter cards leaving the game with the removed words (jokers as ``?``)
    table: Table

    @property
    def score(self) -> int:
        return sum(w.score for w in self.words) + self.bonus


def _check_cards(play: Play, hand: str) -> None:
    if not play.cards:
        raise EngineError("play.empty", "A move lays at least one letter card.")
    for placed in play.cards:
        if placed.letter not in LETTERS or len(placed.letter) != 1:
            raise EngineError(
                "play.letter",
                f"A card laid bears a letter A–Z, not {placed.letter!r}.",
                letter=placed.letter,
            )
    squares = [p.square for p in play.cards]
    if len(set(squares)) != len(squares):
        raise EngineError("play.same_square", "Two cards are laid on the same square.")
    if play.prime is not None and play.prime not in PRIME_FACTOR:
        raise EngineError("play.prime_card", f"{play.prime!r} is not a Prime card (2 or 3).")
    if (play.prime is None) != (play.prime_at is None):
        raise EngineError(
            "play.prime_square",
            "A Prime card is played with the square of the letter it goes on.",
        )
    short = Counter(play.hand_cards()) - Counter(hand)
    if short:
        missing = canonical(short.elements())
        raise EngineError("play.not_in_hand", f"The hand does not hold {missing}.", missing=missing)


def _main_direction(cells: Mapping[Square, str], play: Play) -> bool:
    """Direction of the main word; a single card goes the way it forms a word (across first)."""
    rows = {p.row for p in play.cards}
    cols = {p.col for p in play.cards}
    if len(play.cards) > 1:
        if len(rows) == 1:
            return True
        if len(cols) == 1:
            return False
        raise EngineError("play.line", "The cards laid must be on one row or one column.")
    only = play.cards[0].square
    return (
        len(run_through(cells, only, True).text) >= 2
        or len(run_through(cells, only, False).text) < 2
    )


@dataclass(frozen=True, slots=True)
class Scoring:
    """A legal move's words and score, before the removal (what move search needs)."""

    play: Play
    words: tuple[ScoredWord, ...]
    bonus: int
    cells: Mapping[Square, str]  # the table's cards with the move's

    @property
    def score(self) -> int:
        return sum(w.score for w in self.words) + self.bonus


def score_play(table: Table, hand: str, play: Play) -> Scoring:
    """Judge and score ``play`` from ``hand`` (geometry, cards, Prime), without the removal.

    Raises ``EngineError`` (``play.*``) when the move breaks a rule of the page.
    """
    _check_cards(play, hand)
    for placed in play.cards:
        if placed.square in table.cells:
            raise EngineError(
                "play.occupied",
                f"Square {placed.row},{placed.col} already holds a card.",
                row=placed.row,
                col=placed.col,
            )
    first = table.is_empty()
    cells = dict(table.cells)
    for placed in play.cards:
        cells[placed.square] = placed.face
    horizontal = _main_direction(cells, play)
    lo = min(play.cards)
    main = run_through(cells, lo.square, horizontal)
    new_squares = {p.square for p in play.cards}
    if not new_squares <= set(main.squares()):
        raise EngineError("play.gap", "The cards laid must make one word with no gap.")
    formed = [main] if len(main.text) >= 2 else []
    for placed in sorted(play.cards):
        cross = run_through(cells, placed.square, not horizontal)
        if len(cross.text) >= 2:
            formed.append(cross)
    if first:
        if CENTRE not in main.squares():
            raise EngineError(
                "play.centre", "The first word must cover the centre of the table (0, 0)."
            )
        if len(main.text) < 2:
            raise EngineError("play.short", "The first word has at least two letters.")
        if play.prime:
            raise EngineError(
                "play.first_prime",
                "No Prime card on the first word: it already counts double.",
            )
    elif not any(sq in table.cells for sq in squares_of(formed)):
        raise EngineError("play.not_connected", "The move must touch a card already on the table.")
    if play.prime and play.prime_at not in squares_of(formed):
        raise EngineError(
            "play.prime_square",
            "The Prime card must go on a letter of a word the move forms.",
        )
    scored = []
    for word in formed:
        factor = FIRST_FACTOR if first else 1
        if play.prime and play.prime_at in word.squares():
            factor *= PRIME_FACTOR[play.prime]
        scored.append(ScoredWord(word, word.value(), factor))
    bonus = SCRABBLE_BONUS if len(play.cards) >= SCRABBLE_CARDS else 0
    return Scoring(play, tuple(scored), bonus, MappingProxyType(cells))


def evaluate(table: Table, hand: str, play: Play, mover: int) -> Outcome:
    """Judge, score and carry out ``play`` by seat ``mover``: the words it removes, the table after.

    Raises ``EngineError`` (``play.*``) when the move breaks a rule of the page.
    """
    scoring = score_play(table, hand, play)
    cells = scoring.cells
    formed = [w.word for w in scoring.words]
    still = set(runs(cells))
    owners = {w: o for w, o in table.owners.items() if w in still and w not in formed}
    owners.update({w: mover for w in formed})
    removed, kept_cells = removal(cells, owners, formed, mover)
    discarded = canonical(
        "?" if ch.islower() else ch for sq, ch in cells.items() if sq not in kept_cells
    )
    final_cells = {sq: ch for sq, ch in cells.items() if sq in kept_cells}
    final_owners = {w: o for w, o in owners.items() if w not in removed}
    return Outcome(
        play=play,
        words=scoring.words,
        bonus=scoring.bonus,
        removed=tuple(sorted(removed)),
        discarded=discarded,
        table=Table.build(final_cells, final_owners),
    )


def removal(
    cells: Mapping[Square, str], owners: Mapping[Word, int], formed: list[Word], mover: int
) -> tuple[set[Word], set[Square]]:
    """The words the mover removes and the squares that keep their card.

    A word placed by another player goes when the move used at most one of its letters
    (a letter is *used* when its card belongs to a word the move formed). A card goes only
    when every word it belongs to goes, so a card shared with a kept word stays. The table
    may never keep part of a word: a removal that would leave a fragment standing (two or
    more cards of a removed word held in place by kept words) is not made, that word stays.
    """
    used = squares_of(formed)
    formed_set = set(formed)
    removed = {
        w
        for w, owner in owners.items()
        if owner != mover and w not in formed_set and len(used & set(w.squares())) <= 1
    }
    while True:
        kept = [w for w in owners if w not in removed]
        kept_cells = squares_of(kept)
        left = {sq: cells[sq] for sq in kept_cells}
        fragments = [w for w in runs(left) if w not in owners or w in removed]
        if not fragments:
            return removed, kept_cells
        restore = {
            w
            for fragment in fragments
            for w in removed
            if w.horizontal == fragment.horizontal and set(fragment.squares()) <= set(w.squares())
        }
        if not restore:  # every run lies inside a word of the table: a broken invariant
            raise RuntimeError(f"fragments {fragments} belong to no removed word")
        removed -= restore


def invalid_words(outcome: Outcome | Scoring, lexicon) -> list[Word]:
    """The words a move formed that the lexicon does not hold (what a challenge looks at)."""
    return [s.word for s in outcome.words if not lexicon.contains(s.word.letters)]
