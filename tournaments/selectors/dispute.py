"""The arbiters' dispute checker: is a word in the tournament's lexicon, and with a reference,
does the move fit the board of the game's current round and what does it score there.

It reads and computes, it never writes: the engine's own checker (``engine.check``) places
the move on the round's board with the round's rack and scores it with the game's formula
(bonuses, most tiles), so the answer is the one the slip would get for its placement. A
refusal (an unreadable reference, a word of other characters, a placement that does not
fit, letters the rack lacks) is the engine's coded error, worded by ``tournaments.wording``;
a placement that does not fit is an answer (``MoveCheck.fits`` false, with its code), an
unreadable word or reference a refusal (``ServiceError``).

Arbiters only (``console.dispute`` and the API check the role first): before the close the
answer says whether a word is valid, which no player may learn.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engine.check import check_move, normalise_word
from engine.errors import EngineError
from engine.notation import parse_reference
from tournaments import adapter
from tournaments.errors import ServiceError
from tournaments.models import Game, Round
from tournaments.selectors.games import current_round

MAX_WORD = 30
MAX_REFERENCE = 10


@dataclass(frozen=True, slots=True)
class FormedWord:
    """A word the move forms, where, what it scores and whether the lexicon has it."""

    word: str
    reference: str
    score: int
    valid: bool


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """The move on the round's board. When it fits (``fits``): reference, word as placed
    (lowercase jokers), its score (bingo included), tiles placed and every word it forms.
    When it does not: the engine's refusal (``code``, ``params``: off the board, a clash,
    letters the rack lacks…), which is the answer to the dispute, not an error."""

    round_number: int
    fits: bool
    reference: str = ""
    word: str = ""
    score: int = 0
    placed: int = 0
    words: tuple[FormedWord, ...] = ()
    code: str = ""
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def valid(self) -> bool:
        return self.fits and all(w.valid for w in self.words)


@dataclass(frozen=True, slots=True)
class DisputeAnswer:
    """The word as typed and as looked up, whether the lexicon has it, and the move."""

    typed: str
    word: str
    in_lexicon: bool
    lexicon: str
    move: MoveCheck | None


def dispute_check(game: Game, *, word: str, reference: str = "") -> DisputeAnswer:
    """Look ``word`` up in the game's lexicon (jokers as lowercase letters are read as the
    letters they stand for) and, with ``reference``, place it on the board of the game's
    current round (cancelled rounds aside) with that round's rack."""
    word, reference = (word or "").strip(), (reference or "").strip()
    if len(word) > MAX_WORD or len(reference) > MAX_REFERENCE:
        raise ServiceError("dispute.too_long", "The word or the reference is too long.",
                           word_max=MAX_WORD, reference_max=MAX_REFERENCE)  # fmt: skip
    row = game.tournament.lexicon
    if row is None:
        raise ServiceError("tournament.no_lexicon", "The tournament has no lexicon.")
    lexicon = adapter.engine_lexicon(row)
    try:
        folded = normalise_word(word)
    except EngineError as error:
        raise ServiceError.from_engine(error) from error
    answer = DisputeAnswer(word, folded, lexicon.contains(folded.upper()), row.name, None)
    if not reference:
        return answer
    try:
        parse_reference(reference)  # an unreadable reference is a refusal, not an answer
    except EngineError as error:
        raise ServiceError.from_engine(error) from error
    rnd = current_round(game, cancelled=False)
    if rnd is None:
        raise ServiceError("dispute.no_round", "No round is drawn: there is no board to check.")
    move = _placed(rnd, reference, word, lexicon)
    return DisputeAnswer(word, folded, answer.in_lexicon, row.name, move)


def _placed(rnd: Round, reference: str, word: str, lexicon: object) -> MoveCheck:
    var = adapter.variant(rnd.game.variant_code)
    try:
        checked = check_move(
            adapter.board(rnd.board_before),
            adapter.rack(rnd.rack),
            reference,
            word,
            lexicon=lexicon,  # type: ignore[arg-type]
            bonuses=var.bonuses,
            max_tiles=var.max_tiles,
        )
    except EngineError as error:
        return MoveCheck(rnd.number, False, code=error.code, params=dict(error.details))
    invalid = set(checked.invalid_words)
    words = tuple(
        FormedWord(w.word.upper(), str(w.reference), w.score, w.word.upper() not in invalid)
        for w in checked.words
    )
    return MoveCheck(rnd.number, True, checked.coord, checked.word, checked.score,
                     checked.placed, words)  # fmt: skip
