"""One player's proposal for one round, judged against the master board (rules §4.1–4.6).

Each move is valued on the board as it stood before the round, with the round's rack (S1).
:func:`score_proposal` returns what the arbiter writes in the grey zone of a bulletin
(FISF23 §5.3–5.9); docs/rules-scoring.md tables every case with its rule. From move 2 the
readings are tried in this order:
1. the word at the written reference, every word formed valid ("localisation correcte"):
   the exact score of that place; a claimed score that only the other direction from the
   same square gives means the reference was inverted (paid, with a warning);
2. a word extending a board word of 3+ letters: the reference is ignored (N9);
3. connecting letters instead of (or beside) a reference: the places they locate (N7);
4. the same square in the other direction: an inverted reference, paid with a warning;
5. a place in the written direction (either, without a reference) worth exactly the claimed
   score: claimed − 5, or 0 when it is worth ≤ 4 (§4.4). When the written place itself
   forms an invalid word, the slip may be a *raccordement fallacieux*: the −5 stands by
   default and the outcome asks for the arbiter's review (``review="fallacieux"``);
6. zero, naming the first fault: invalid word(s), rack letters, tile limit, placement.
A penalty that would pay more than reading 1 or 4 wins (§5.4.2b). Move 1 always pays the
word's maximum horizontally through H8 (N8, §5.4.2a).

Cases the rulebook leaves to the arbiter's judgement (a possible raccordement fallacieux,
several solutions on one bulletin, connecting letters that fit several places, an illegible
slip) get the rulebook's default outcome plus a ``review`` reason and the ``alternative``
outcome the arbiter may choose instead; software never decides them alone.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from itertools import combinations
from types import MappingProxyType
from typing import Any, overload

from engine.board import EMPTY, Board, Rack, fold_text
from engine.check import CheckedMove, WordList, check_move
from engine.errors import EngineError
from engine.notation import Reference, parse_reference
from engine.tiles import CENTRE, CLASSIC_BONUSES, SIZE

KINDS = ("valid", "zero", "warning", "penalty")
#: Why an outcome waits for the arbiter (docs/rules-scoring.md, "Arbiter review").
REVIEWS = ("fallacieux", "several_solutions", "connecting_places", "illegible")
SOURCES = ("tablet", "arbiter")
PENALTY = 5
MIN_CONNECTING = 3  # connecting letters a location needs (N7)
_LETTERS = frozenset({"move.letters", "move.jokers"})
_PLACES = [(h, r, c) for h in (True, False) for r in range(SIZE) for c in range(SIZE)]
_SCORE = {True: "warning.score_missing", False: "warning.score_wrong"}  # by "claimed is None"

#: English sentences by code; the site translates from ``code`` and ``params`` instead.
REASONS: Mapping[str, str] = MappingProxyType(
    {
        "ok": "{word} at {reference} scores {score}.",
        "moyenne": "{word} repeats the refused {invalid}: the average, {score}, is paid.",
        "zero.late": "The proposal was handed in after the end of the round: 0.",
        "zero.no_proposal": "No proposal was handed in: 0.",
        "zero.invalid_word": "{invalid} {verb} not in the dictionary: 0.",
        "zero.letters": "{word} at {reference} uses letters not in the rack {rack}: 0. {detail}",
        "zero.too_many_tiles": "{word} places too many tiles: 0. {detail}",
        "zero.placement": "{word} cannot be played at {reference}: 0. {detail}",
        "zero.no_reference": "{word} has no location: 0.",
        "zero.penalty_small": "{word} scores {claimed} at {reference}, not {written}: 0.",
        "zero.above_top": "{word} at {reference} would score more than the top: 0.",
        "zero.several_solutions": "Several solutions on one slip, one of them refused: 0.",
        "zero.illegible": "The slip cannot be read: 0.",
        "warning.inverted_reference": "{word} fits at {reference}, not {written}: a warning.",
        "warning.score_missing": "{word} at {reference} scores {score}, none written: a warning.",
        "warning.score_wrong": "{word} at {reference} scores {score}, not {claimed}: a warning.",
        "warning.joker_not_circled": "{word} at {reference}: joker not marked, a warning.",
        "warning.joker_wrong_circle": "{word} at {reference}: wrong joker marked, a warning.",
        "warning.location_modes": "{word}: reference and connecting letters disagree, {reference}"
        " is kept with a warning.",
        "warning.few_connecting": "{word} at {reference}: fewer than 3 connecting letters, a"
        " warning.",
        "warning.hard_to_read": "{word} at {reference}: the slip is hard to read, a warning.",
        "penalty.wrong_reference": "{word} scores {claimed} at {reference}, not {written}: {score}",
        "penalty.missing_reference": "{word} has no location, {claimed} at {reference}: {score}.",
        # The arbiter's decisions (engine.duplicate.decisions) and a late arrival (totals).
        "warning.arbiter": "The arbiter's warning: {reason}",
        "penalty.arbiter": "The arbiter's 5-point penalty: {reason}",
        "zero.arbiter": "The arbiter's zero: {reason}",
        "zero.late_arrival": "The round was played before the player arrived: 0.",
    }
)


@dataclass(frozen=True, slots=True)
class Proposal:
    """What a player handed in; a lowercase letter in ``word`` is a circled joker. ``late``
    is set by the caller from the server clock (M4): handed in after "terminé".

    Paper slips only (an arbiter types them): ``connecting`` holds the board letters the
    player copied to locate the word (N7), instead of or beside the reference;
    ``illegible`` marks a slip the arbiter could not read for sure; ``others`` are further
    solutions written, not struck, on the same bulletin (§5.4.2b)."""

    word: str = ""
    reference: str = ""
    claimed_score: int | None = None
    source: str = "tablet"
    late: bool = False
    connecting: str = ""
    illegible: bool = False
    others: tuple[Proposal, ...] = ()


@dataclass(frozen=True, slots=True)
class ScoringSettings:
    """``score_required``: players must give a score, as the rulebook asks on every bulletin
    (the default); a missing or wrong one then costs a warning. Turned off (club training
    on tablets) a claimed score, when one is given, only chooses between readings (joker
    circlings, both directions, the 5-point penalty)."""

    score_required: bool = True
    bonuses: Mapping[int, int] = field(default_factory=lambda: CLASSIC_BONUSES)
    max_tiles: int | None = None

    def limits(self) -> dict[str, Any]:
        return {"bonuses": self.bonuses, "max_tiles": self.max_tiles}


@dataclass(frozen=True, slots=True)
class Outcome:
    """The decision on one proposal.

    ``score`` is credited for the round (before game-level warning penalties); ``raw_score``
    is the move's own value before any 5-point penalty, which solos compare (§4.6).
    ``proposed_score`` is what the move would be worth if its words were valid (the cap of
    a "moyenne", §4.5): its value where it was placed, else the claimed score.
    ``review`` (one of :data:`REVIEWS`, or empty) says the rulebook leaves this outcome to
    the arbiter's judgement; ``alternative`` is then the outcome he may choose instead.
    """

    kind: str
    score: int
    raw_score: int
    code: str
    reason: str
    params: Mapping[str, object] = field(default_factory=dict, hash=False)
    words: tuple[str, ...] = ()
    reference: str = ""
    word: str = ""
    invalid_words: tuple[str, ...] = ()
    proposed_score: int | None = None
    review: str = ""
    alternative: Outcome | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"unknown outcome kind {self.kind!r}")
        if self.review and self.review not in REVIEWS:
            raise ValueError(f"unknown review reason {self.review!r}")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


def english_reason(code: str, params: Mapping[str, Any]) -> str:
    """The English sentence of ``code`` filled from ``params``: the refused words
    (``params["invalid_words"]``, a tuple) joined here, for this sentence only, so the
    params stay structured and each language joins them its own way."""
    values = defaultdict(str, params)
    if invalid := invalid_words_of(params):
        values.update(invalid=" and ".join(invalid), verb="is" if len(invalid) == 1 else "are")
    return REASONS[code].format_map(values).strip()


def invalid_words_of(params: Mapping[str, Any]) -> tuple[str, ...]:
    """The refused words of an outcome's params, stored or fresh: the tuple (a list once
    stored as JSON) ``invalid_words``, or the English prose ``invalid`` ("A and B") of
    outcomes stored before the words were kept apart."""
    if words := params.get("invalid_words"):
        return tuple(str(w) for w in words)
    return tuple(w for w in str(params.get("invalid") or "").split(" and ") if w)


def make_outcome(kind: str, code: str, score: int, raw: int, **params: Any) -> Outcome:
    """Build an outcome whose reason is the English template of ``code`` filled in. The
    refused words are kept as a tuple, ``params["invalid_words"]`` (older stored outcomes
    have them as English prose, ``params["invalid"]``: ``A and B``)."""
    move: CheckedMove | None = params.pop("move", None)
    invalid = tuple(params.pop("invalid_words", ()))
    proposed = params.pop("proposed", None)
    params.setdefault("word", move.word if move else "")
    params.setdefault("reference", str(move.reference) if move else "")
    params["score"] = score
    if invalid:
        params["invalid_words"] = invalid
    reason = english_reason(code, params)
    words = tuple(w.word for w in move.words) if move else ()
    ref, word = str(params["reference"]), str(params["word"])
    return Outcome(kind, score, raw, code, reason, params, words, ref, word, invalid, proposed)


def with_review(outcome: Outcome, reason: str, alternative: Outcome, **params: Any) -> Outcome:
    """``outcome`` (the rulebook's default) waiting for the arbiter, who may keep it or
    choose ``alternative`` (§4.4, §4.7: software never judges plausibility or intent)."""
    merged = {**outcome.params, **params}
    return replace(outcome, review=reason, alternative=alternative, params=merged)


def _recoded(outcome: Outcome, kind: str, code: str) -> Outcome:
    """The same move and score under another code (a warning added to a readable move)."""
    return replace(outcome, kind=kind, code=code, reason=english_reason(code, outcome.params))


@dataclass(frozen=True, slots=True)
class _Ctx:
    board: Board
    rack: Rack
    lexicon: WordList
    settings: ScoringSettings
    claimed: int | None
    written: str
    top: int
    connecting: str = ""
    top_move: Reference | None = None
    top_word: str = ""

    def check(self, ref: Reference, word: str) -> CheckedMove:
        s, lex = self.settings, self.lexicon
        return check_move(self.board, self.rack, ref, word, lexicon=lex, **s.limits())

    def attempt(self, ref: Reference, word: str) -> CheckedMove | None:
        try:
            return self.check(ref, word)
        except EngineError:
            return None

    def about(self) -> dict[str, Any]:
        return {"claimed": self.claimed, "written": self.written}

    def is_top(self, move: CheckedMove) -> bool:
        """The top word chosen for the round, at its place (not any move worth the top)."""
        return move.reference == self.top_move and move.word.upper() == self.top_word.upper()


@dataclass(frozen=True, slots=True)
class _Reading:
    """The written word laid from one square in one direction. ``base``: the placement with
    the fewest jokers; ``own``: the player's circling if possible (``base`` when no joker is
    needed and none marked); ``variants``: every circling of letters the rack lacks."""

    ref: Reference
    base: CheckedMove | None = None
    error: EngineError | None = None
    own: CheckedMove | None = None
    circled: bool = False
    variants: tuple[CheckedMove, ...] = ()

    @property
    def acceptable(self) -> bool:
        return self.base is not None and not self.base.invalid_words

    def moves(self) -> tuple[CheckedMove, ...]:
        return self.variants + ((self.own,) if self.own else ())

    def choose(self, claimed: int | None) -> tuple[CheckedMove, str | None]:
        """§5.3.1–5.3.2: the claimed score if some circling gives it ("score existant"),
        else the player's own circling if possible, else the minimum over circlings.
        Returns the move and the joker warning it carries, if any."""
        if self.own is not None and self.own.score == claimed:
            return self.own, None
        match = next((m for m in self.variants if m.score == claimed), None)
        if match is None and self.own is not None:
            return self.own, None
        chosen = match or self.variants[0]
        if self.circled:
            return chosen, "warning.joker_wrong_circle"
        return chosen, "warning.joker_not_circled" if chosen.jokers_as else None


def _read(ctx: _Ctx, ref: Reference, word: str) -> _Reading:
    try:
        base = ctx.check(ref, word.upper())
    except EngineError as error:
        return _Reading(ref, error=error)
    if base.invalid_words:
        return _Reading(ref, base=base)
    dr, dc = (0, 1) if ref.horizontal else (1, 0)
    new = [i for i in range(len(word)) if ctx.board.at(ref.row + dr * i, ref.col + dc * i) == EMPTY]
    circled = any(word[i].islower() for i in new)
    own = ctx.attempt(ref, word) if circled else (None if base.joker_inferred else base)
    variants = [base]
    # The circlings to compare with the claimed score: those of the letters the rack lacks;
    # and, when the player circled a letter, every circling of the rack's jokers (a joker
    # may stand for a letter the rack also holds, §5.3.1).
    sizes = {len(base.jokers_as)} if base.joker_inferred else set()
    if circled:
        sizes |= set(range(1, ctx.rack.jokers + 1))
    if sizes:
        lowered = (
            "".join(ch.lower() if i in combo else ch for i, ch in enumerate(word.upper()))
            for size in sorted(sizes)
            for combo in combinations(new, size)
        )
        found = [m for m in (ctx.attempt(ref, w) for w in lowered) if m is not None]
        variants = found + ([] if base.joker_inferred else [base])
    variants.sort(key=lambda m: (m.score, m.word))
    return _Reading(ref, base, None, own, circled, tuple(variants))


def _settle(ctx: _Ctx, reading: _Reading, warning: str | None = None, **extra: Any) -> Outcome:
    """Pay a readable solution with one warning at most (§5.8), the first that applies:
    inverted reference, joker marking, then score missing or wrong (if scores are required)."""
    move, joker_warning = reading.choose(ctx.claimed)
    warning = warning or joker_warning
    if warning is None and ctx.settings.score_required and ctx.claimed != move.score:
        warning = _SCORE[ctx.claimed is None]
    if warning == "warning.score_wrong" and ctx.is_top(move):
        extra["slip_optional"] = True  # a wrong score on the top word needs no slip (§5.9)
    kind, code = ("warning", warning) if warning else ("valid", "ok")
    return make_outcome(kind, code, move.score, move.score, move=move, **ctx.about(), **extra)


@overload
def _penalty(ctx: _Ctx, word: str, ref: Reference | None, paid: Outcome) -> Outcome: ...
@overload
def _penalty(ctx: _Ctx, word: str, ref: Reference | None, paid: None = None) -> Outcome | None: ...
def _penalty(
    ctx: _Ctx, word: str, ref: Reference | None, paid: Outcome | None = None
) -> Outcome | None:
    """§4.4: the first place, in board order, of the word in the written direction (either,
    without a reference) worth exactly the claimed score. Brute force over the squares:
    the checker refuses most of them at once. When a ``paid`` reading exists, the penalty
    replaces it only if it pays more (§5.4.2b); the result is then never ``None``."""
    claimed = ctx.claimed
    if claimed is None or (paid is not None and claimed - PENALTY <= paid.score):
        return paid
    for horizontal, row, col in _PLACES:
        if ref is not None and horizontal != ref.horizontal:
            continue
        reading = _read(ctx, Reference(row, col, horizontal), word)
        moves = reading.moves() if reading.acceptable else ()
        if move := next((m for m in moves if m.score == claimed), None):
            code = "penalty.wrong_reference" if ctx.written else "penalty.missing_reference"
            kind, code = ("penalty", code) if claimed >= PENALTY else ("zero", "zero.penalty_small")
            score = max(0, claimed - PENALTY)
            return make_outcome(kind, code, score, claimed, move=move, **ctx.about())
    return paid


def _extensions(ctx: _Ctx, word: str) -> list[_Reading]:
    """N9: every place where the word runs through 3+ consecutive letters already on the
    board; the checker's adjacency rule makes that run a whole board word being extended."""
    rows = ctx.board.to_lines()
    lines = {True: rows, False: ["".join(c) for c in zip(*rows, strict=True)]}
    readings = []
    for horizontal, row, col in _PLACES:
        line, at = (lines[True][row], col) if horizontal else (lines[False][col], row)
        cells = line[at : at + len(word)]
        if len(cells) == len(word) and EMPTY in cells and re.search(r"[^.]{3}", cells):
            readings.append(_read(ctx, Reference(row, col, horizontal), word))
    return readings


def _zero(
    ctx: _Ctx, word: str, readings: list, error: Any, first: bool = False, *, written: Any = None
) -> Outcome:
    """Zero (§4.2), naming the first fault: the word itself invalid; then the fault where
    the player wrote it (``written``, the reading at the written reference: an "erreur de
    grille", of letters or of the tile limit there, or an unreadable reference); then the
    invalid cross-words of the first reading that fits, the rack letters or the tile limit
    of another reading, a missing location, the placement. The word and the reference are
    shown as typed (a circled joker stays lowercase): a fault found at a place the player
    never wrote would read as a reference he never gave (issue 15)."""
    found: list[_Reading] = [r for r in readings if r is not None]
    placed = next((r.base for r in found if r.base is not None), None)
    common: dict[str, Any] = dict(word=word, reference=ctx.written, rack=ctx.rack.tiles)
    invalid = list(placed.invalid_words) if placed else []
    if not ctx.lexicon.contains(word.upper()) and word.upper() not in invalid:
        invalid.insert(0, word.upper())
    common["proposed"] = placed.score if placed else ctx.claimed
    if invalid and not ctx.lexicon.contains(word.upper()):
        common["reference"] = str(placed.reference) if placed else ctx.written
        return make_outcome("zero", "zero.invalid_word", 0, 0, **common, invalid_words=invalid)
    fault = written.error if written is not None else (error if ctx.written else None)
    if not first and fault is not None:
        return _fault(fault, common)
    if invalid:
        common["reference"] = str(placed.reference) if placed else ctx.written
        return make_outcome("zero", "zero.invalid_word", 0, 0, **common, invalid_words=invalid)
    for r in found:
        if r.error is not None and r.error.code in _LETTERS | {"move.too_many_tiles"}:
            return _fault(r.error, {**common, "reference": str(r.ref)})
    if not ctx.written and not first:
        return make_outcome("zero", "zero.no_reference", 0, 0, **common)
    error = error or next((r.error for r in found if r.error is not None), None)
    return _fault(error, common)


def _fault(error: Any, common: dict[str, Any]) -> Outcome:
    """The zero naming ``error``: letters the rack lacks, too many tiles, else placement.
    The error's own details (the square, the letter…) go with it, so the fault can be
    worded in full; the word and reference stay as the player wrote them."""
    code = getattr(error, "code", "")
    details = getattr(error, "details", None) or {}
    common = {**{k: v for k, v in details.items() if k not in common}, **common}
    if code in _LETTERS:
        kind = "zero.letters"
    elif code == "move.too_many_tiles":
        kind = "zero.too_many_tiles"
    else:
        kind = "zero.placement"
    params = {**common, "detail": getattr(error, "message", ""), "error": code}
    return make_outcome("zero", kind, 0, 0, **params)


def _later_move(ctx: _Ctx, word: str) -> Outcome:
    """Moves from the second on: the readings of the module docstring, in order."""
    ref, error = None, None
    if ctx.written:
        try:
            ref = parse_reference(ctx.written)
        except EngineError as exc:  # an unreadable reference is a wrong location
            error = exc
    written = _read(ctx, ref, word) if ref else None
    if ctx.connecting:
        return _connecting(ctx, word, written)
    if ref and written and written.acceptable:
        return _penalty(ctx, word, ref, _both_ways(ctx, written, _read(ctx, ref.inverted(), word)))
    extensions = _extensions(ctx, word)
    if good := [r for r in extensions if r.acceptable]:
        # N9, reference ignored: the place giving the claimed score if any, else the lowest.
        paid = [r.choose(ctx.claimed)[0].score for r in good]
        pick = paid.index(ctx.claimed) if ctx.claimed in paid else paid.index(min(paid))
        return _settle(ctx, good[pick], reference_ignored=True)
    inverted = _read(ctx, ref.inverted(), word) if ref else None
    if inverted is not None and inverted.acceptable:
        return _penalty(ctx, word, ref, _settle(ctx, inverted, "warning.inverted_reference"))
    penalty = _penalty(ctx, word, ref)
    if written is not None and written.base is not None:  # fits where written, invalid word
        refused = _zero(ctx, word, [written], error, written=written)
        if penalty is None or penalty.kind == "zero":
            return refused
        # A shifted reference whose written place forms invalid words: −5 by default, the
        # arbiter judges whether those words make a raccordement fallacieux (§4.4).
        return with_review(penalty, "fallacieux", refused, formed=list(refused.invalid_words))
    return penalty or _zero(ctx, word, [written, *extensions, inverted], error, written=written)


def _both_ways(ctx: _Ctx, written: _Reading, inverted: _Reading) -> Outcome:
    """§5.5: a word playable both ways from the written square. A claimed score matching
    only the other direction shows the reference was inverted: that reading, with a
    warning. Otherwise the written reading is a correct location and pays its exact score
    (a score warning when the score is required and wrong). The "lower of the two" of
    §5.5 needs the word's written direction, which a typed slip does not carry
    (docs/rules-choices.md)."""
    if not inverted.acceptable:
        return _settle(ctx, written)
    claimed = ctx.claimed
    w_score, i_score = written.choose(claimed)[0].score, inverted.choose(claimed)[0].score
    if claimed is not None and w_score != claimed and i_score == claimed:
        return _settle(ctx, inverted, "warning.inverted_reference")
    return _settle(ctx, written, both_ways=True)


def _board_letters(board: Board, move: CheckedMove) -> Counter[str]:
    """The letters already on the board that the move's words run through (what a player
    copies as connecting letters, N7)."""
    squares = set()
    for formed in move.words:
        ref = formed.reference
        dr, dc = (0, 1) if ref.horizontal else (1, 0)
        for i in range(len(formed.word)):
            r, c = ref.row + dr * i, ref.col + dc * i
            if board.at(r, c) != EMPTY:
                squares.add((r, c))
    return Counter(board.at(r, c).upper() for r, c in squares)


def _connecting(ctx: _Ctx, word: str, written: _Reading | None) -> Outcome:
    """N7, §5.4.2b: the places (either direction) where the word is valid and runs
    through every connecting letter written. Beside a reference: agreeing, the reference
    decides; disagreeing, the valid one is kept with a warning. Alone: one place is the
    location (a warning under 3 letters, except move 2 after a 2-letter word); several:
    the place giving the claimed score, else the lowest, for the arbiter to review; none:
    as if no location was given (the 5-point penalty, else zero)."""
    wanted = Counter(fold_text(ctx.connecting).upper().replace(" ", ""))
    places = []
    for horizontal, row, col in _PLACES:
        reading = _read(ctx, Reference(row, col, horizontal), word)
        base = reading.base
        if base is not None and reading.acceptable and not wanted - _board_letters(ctx.board, base):
            places.append(reading)
    plain = replace(ctx, connecting="")
    if written is not None and written.acceptable:
        if any(p.ref == written.ref for p in places):
            return _later_move(plain, word)
        return _settle(ctx, written, "warning.location_modes")
    if not places:
        return _later_move(plain, word)
    warning = "warning.location_modes" if ctx.written else None
    if not warning and sum(wanted.values()) < MIN_CONNECTING and ctx.board.tile_count() > 2:
        warning = "warning.few_connecting"
    paid = [p.choose(ctx.claimed)[0].score for p in places]
    if ctx.claimed in paid:
        return _settle(ctx, places[paid.index(ctx.claimed)], warning)
    low, high = places[paid.index(min(paid))], places[paid.index(max(paid))]
    default = _settle(ctx, low, warning)
    if len(places) == 1 or min(paid) == max(paid):
        return default
    where = [str(p.ref) for p in places]
    return with_review(default, "connecting_places", _settle(ctx, high, warning), places=where)


def _first_move(ctx: _Ctx, word: str) -> Outcome:
    """Move 1 (N8, §5.4.2a): whatever the reference, the word is laid horizontally through
    H8 where it scores most, over every circling; a warning when the marked joker is not
    that reading's, or (if scores are required) the score is missing or not that maximum."""
    row, centre = CENTRE
    starts = range(max(0, centre + 1 - len(word)), min(centre, SIZE - len(word)) + 1)
    readings = [_read(ctx, Reference(row, c, True), word) for c in starts]
    marked = {i for i, ch in enumerate(word) if ch.islower()}
    options = [m for r in readings if r.acceptable for m in r.moves()]
    if not options:
        error = None if readings else EngineError("word.too_long", "A word has at most 15 letters.")
        return _zero(ctx, word, readings, error, first=True)
    jokers = lambda m: {i for i, ch in enumerate(m.word) if ch.islower()}  # noqa: E731
    move = max(options, key=lambda m: (m.score, jokers(m) == marked, -m.reference.col))
    warning = None
    if jokers(move) != marked:
        warning = "warning.joker_wrong_circle" if marked else "warning.joker_not_circled"
    elif ctx.settings.score_required and ctx.claimed != move.score:
        warning = _SCORE[ctx.claimed is None]
    kind, code = ("warning", warning) if warning else ("valid", "ok")
    return make_outcome(kind, code, move.score, move.score, move=move, **ctx.about())


def score_proposal(
    *,
    board: Board,
    rack: Rack,
    round_number: int,
    top_score: int,
    proposal: Proposal,
    lexicon: WordList,
    settings: ScoringSettings | None = None,
    top_move: tuple[str, str] | None = None,
) -> Outcome:
    """Judge one bulletin (readings: module docstring) on the master board before the round
    (first-move rules when it is empty). ``top_move`` is the top chosen for the round as
    ``(reference, word)``: a wrong score on that word needs no correction slip (§5.9).

    A claimed score above the top is a wrong score, judged like any other (§4.3); a move
    whose own value is above the top gets 0 (§4.2: only a typing error can make one).
    Raises :class:`EngineError` for entry errors the arbiter retypes: ``proposal.source``,
    ``proposal.claimed_score`` (negative), ``word.character``; none of them depends on the
    top or the lexicon, so a refusal never tells a player anything about the round."""
    if round_number < 1 or top_score < 0 or (round_number == 1 and not board.is_empty()):
        raise ValueError("round 1 is played on an empty board and a top is never negative")
    slips = (proposal, *proposal.others)
    for slip in slips:
        _entry_errors(slip)
    if proposal.late:
        return make_outcome("zero", "zero.late", 0, 0)
    top_ref, top_word = None, ""
    if top_move is not None:
        top_ref, top_word = parse_reference(top_move[0]), top_move[1]
    settings = settings or ScoringSettings()

    def one(slip: Proposal) -> Outcome:
        word = "".join(fold_text(slip.word or "").split())
        if not word:
            return make_outcome("zero", "zero.no_proposal", 0, 0)
        written = " ".join((slip.reference or "").split())
        ctx = _Ctx(board, rack, lexicon, settings, slip.claimed_score, written, top_score,
                   slip.connecting.strip(), top_ref, top_word)  # fmt: skip
        outcome = _first_move(ctx, word) if board.is_empty() else _later_move(ctx, word)
        if outcome.raw_score > top_score:
            return make_outcome("zero", "zero.above_top", 0, 0, word=outcome.word,
                                reference=outcome.reference)  # fmt: skip
        return outcome

    outcome = _several([one(slip) for slip in slips]) if proposal.others else one(proposal)
    if proposal.illegible:
        return _illegible(outcome)
    return outcome


def automatic_claim(
    *, board: Board, rack: Rack, reference: str, word: str, settings: ScoringSettings
) -> int | None:
    """The score a tablet writes for its player (rules §4.1 S2): with scores required the
    app computes the claimed score, the move's value where the player placed it, checked
    for placement and rack letters only, **never against the lexicon** (that would tell
    the player his word's validity before the close). ``None`` when scores are not
    required or the move does not fit there: the slip is then judged without a score."""
    if not settings.score_required or not reference.strip() or not word.strip():
        return None
    try:
        return check_move(board, rack, reference, word, lexicon=None, **settings.limits()).score
    except EngineError:
        return None


def _entry_errors(proposal: Proposal) -> None:
    if proposal.source not in SOURCES:
        raise EngineError("proposal.source", f"A proposal comes from {' or '.join(SOURCES)}.")
    word = "".join(fold_text(proposal.word or "").split())
    text = word + "".join(fold_text(proposal.connecting or "").split())
    if bad := [ch for ch in text if not (ch.isascii() and ch.isalpha())]:
        message = f"'{proposal.word}' contains {bad[0]!r}: a word is made of letters only."
        raise EngineError("word.character", message, word=proposal.word, character=bad[0])
    claimed = proposal.claimed_score
    if claimed is not None and claimed < 0:
        raise EngineError("proposal.claimed_score", "A claimed score is never negative.")


def _several(outcomes: list[Outcome]) -> Outcome:
    """§4.2, §5.4.2b: several solutions on one bulletin. All acceptable: the one worth
    most to the player; one refused: zero. Whether they really are independent solutions
    (not a struck-out try, not "playing on two boards") is the arbiter's call: review,
    with zero or the best solution as the alternative."""
    kept = [o for o in outcomes if o.kind != "zero"]
    best = max(kept, key=lambda o: o.score, default=None)
    first = best or outcomes[0]
    zero = make_outcome("zero", "zero.several_solutions", 0, 0, word=first.word,
                        reference=first.reference, solutions=len(outcomes))  # fmt: skip
    if best is None:
        return zero
    if len(kept) == len(outcomes):
        return with_review(best, "several_solutions", zero, solutions=len(outcomes))
    return with_review(zero, "several_solutions", best)


def _illegible(read: Outcome) -> Outcome:
    """§4.2 and §4.3: an illegible slip scores 0; one the arbiter could read, with effort,
    pays its reading with a warning. The arbiter marked it illegible: zero by default, the
    reading typed (a "hard to read" warning on a valid move) as the alternative."""
    alternative = (
        _recoded(read, "warning", "warning.hard_to_read") if read.kind == "valid" else read
    )
    zero = make_outcome("zero", "zero.illegible", 0, 0, word=read.word, reference=read.reference)
    return with_review(zero, "illegible", alternative)
