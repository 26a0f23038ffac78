"""Property test: random bulletins judged by ``score_proposal`` and by a second, deliberately
simple implementation of docs/rules-scoring.md's table written here.

Boards and racks come from seeded games on the conformance word list (rounds 2–12, racks
without a joker). A slip starts from one of the round's legal moves (the compiled generator
lists them) and gets one or two of the faults the rulebook lists: reference shifted by one
square or inverted, score off by k or missing, a letter misspelt, a letter the rack lacks.
The oracle below knows nothing of ``proposals.py``: it tries every place with the checker
(placement and words) and applies the table's rows in order, scores required.
A second property covers joker moves: correct circling, no circling, circled wrong.
"""

from __future__ import annotations

from functools import cache

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from engine.board import EMPTY, Board, Rack
from engine.check import CheckedMove, check_move
from engine.duplicate.game import Game
from engine.duplicate.proposals import Proposal, ScoringSettings, score_proposal
from engine.duplicate.racks import SeededSource
from engine.duplicate.top import engine_top_finder
from engine.duplicate.variants import get_variant
from engine.errors import EngineError
from engine.notation import Reference, parse_reference

pytest.importorskip("engine._core")

PLACES = [Reference(r, c, h) for h in (True, False) for r in range(15) for c in range(15)]
LEXICON = None


@pytest.fixture(scope="module", autouse=True)
def _lexicon(conformance_lexicon):
    global LEXICON
    LEXICON = conformance_lexicon


@cache
def positions(seed: int) -> tuple[tuple[Board, str, int, tuple], ...]:
    """(board before, rack, top score, legal moves) of the rounds of a seeded game."""
    from engine.movegen import generate_moves

    variant = get_variant("standard")
    game = Game(SeededSource(seed), engine_top_finder(LEXICON, variant), variant)
    out = []
    while (pending := game.draw()) is not None and pending.number <= 12:
        moves = tuple(generate_moves(game.board, Rack(game.rack), LEXICON))
        if pending.number >= 2:
            out.append((game.board, game.rack, pending.choice.score, moves))
        game.place()
    return tuple(out)


# --- the oracle: the table, row by row ----------------------------------------------------
def _fit(board: Board, rack: str, ref: Reference, word: str) -> CheckedMove | None:
    try:
        return check_move(board, Rack(rack), ref, word, lexicon=LEXICON)
    except EngineError:
        return None


def _valid(board: Board, rack: str, ref: Reference, word: str) -> CheckedMove | None:
    move = _fit(board, rack, ref, word)
    return move if move is not None and not move.invalid_words else None


def _extends(board: Board, ref: Reference, word: str) -> bool:
    """N9: the squares of the word hold a run of 3+ board letters and an empty square."""
    dr, dc = (0, 1) if ref.horizontal else (1, 0)
    cells = ""
    for i in range(len(word)):
        r, c = ref.row + dr * i, ref.col + dc * i
        if r > 14 or c > 14:
            return False
        cells += "x" if board.at(r, c) != EMPTY else "."
    return "." in cells and "xxx" in cells


def oracle(board: Board, rack: str, top: int, word: str, written: str, claimed: int | None):
    """(kind, code or "zero.*", score, review) by the table; scores required."""

    def paid(score: int, warning: str | None = None) -> tuple:
        if warning is None and claimed != score:
            warning = "warning.score_missing" if claimed is None else "warning.score_wrong"
        return ("warning", warning, score, "") if warning else ("valid", "ok", score, "")

    def penalty(directions: set[bool]) -> tuple | None:
        if claimed is None:
            return None
        for ref in PLACES:
            if ref.horizontal in directions:
                move = _valid(board, rack, ref, word)
                if move is not None and move.score == claimed:
                    if claimed <= 4:
                        return ("zero", "zero.penalty_small", 0, "")
                    code = "penalty.wrong_reference" if written else "penalty.missing_reference"
                    return ("penalty", code, claimed - 5, "")
        return None

    def better(result: tuple, directions: set[bool]) -> tuple:
        """The most favourable reading: a penalty paying more replaces it (P3)."""
        other = penalty(directions) if claimed is not None and claimed - 5 > result[2] else None
        return other if other is not None and other[0] == "penalty" else result

    try:
        ref = parse_reference(written) if written else None
    except EngineError:
        ref = None
    both = {True, False}
    result = None
    if ref is not None and (here := _valid(board, rack, ref, word)) is not None:
        there = _valid(board, rack, ref.inverted(), word)
        if there and claimed is not None and claimed != here.score and claimed == there.score:
            result = paid(there.score, "warning.inverted_reference")
        else:
            result = paid(here.score)
        result = better(result, {ref.horizontal})
    if result is None:
        ext = [_valid(board, rack, p, word) for p in PLACES if _extends(board, p, word)]
        ext = [m for m in ext if m is not None]
        if ext:
            scores = [m.score for m in ext]
            result = paid(claimed if claimed in scores else min(scores))
    there = _valid(board, rack, ref.inverted(), word) if ref is not None else None
    if result is None and there is not None:
        result = better(paid(there.score, "warning.inverted_reference"), {ref.horizontal})
    if result is None:
        result = penalty({ref.horizontal} if ref is not None else both)
        fits_invalid = ref is not None and _fit(board, rack, ref, word) is not None
        if result is not None and result[0] == "penalty" and fits_invalid:
            result = (*result[:3], "fallacieux")
        elif result is not None and fits_invalid:  # both zero: the invalid words are named
            result = ("zero", "zero.invalid_word", 0, "")
    if result is None:
        result = ("zero", "zero.*", 0, "")
    if result[2] > top or (result[0] == "penalty" and claimed > top):
        return ("zero", "zero.above_top", 0, "")
    return result


# --- the slips ------------------------------------------------------------------------------
FAULTS = ("none", "shift", "invert", "score", "no_score", "misspell", "letters")


def faulty_slip(data, board: Board, rack: str, moves: tuple) -> tuple[str, str, int | None]:
    move = data.draw(st.sampled_from([m for m in moves if m.word.isupper()]), label="move")
    word, ref, claimed = move.word, move.reference, move.score
    for fault in data.draw(st.lists(st.sampled_from(FAULTS), min_size=1, max_size=2)):
        if fault == "shift":
            dr, dc = data.draw(st.sampled_from([(0, 1), (0, -1), (1, 0), (-1, 0)]))
            row, col = min(14, max(0, ref.row + dr)), min(14, max(0, ref.col + dc))
            ref = Reference(row, col, ref.horizontal)
        elif fault == "invert":
            ref = ref.inverted()
        elif fault == "score" and claimed is not None:
            claimed = max(0, claimed + data.draw(st.sampled_from([-5, -2, -1, 1, 2, 7])))
        elif fault == "no_score":
            claimed = None
        elif fault in ("misspell", "letters"):
            i = data.draw(st.integers(0, len(word) - 1))
            pool = (
                "AEIOUSTRNL"
                if fault == "misspell"
                else "".join(ch for ch in "BCDFGHJKMPQVWXYZ" if ch not in rack)
            )
            if pool:
                word = word[:i] + data.draw(st.sampled_from(pool)) + word[i + 1 :]
    written = data.draw(st.sampled_from([str(ref), str(ref), ""]), label="written")
    return word, written, claimed


SLOW = settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))


@SLOW
@given(seed=st.integers(1, 8), data=st.data())
def test_outcomes_match_the_simple_table(seed: int, data) -> None:
    rounds = [p for p in positions(seed) if "?" not in p[1] and p[3]]
    if not rounds:
        return
    board, rack, top, moves = data.draw(st.sampled_from(rounds), label="round")
    if not any(m.word.isupper() for m in moves):
        return
    word, written, claimed = faulty_slip(data, board, rack, moves)
    outcome = score_proposal(
        board=board, rack=Rack(rack), round_number=2, top_score=top,
        proposal=Proposal(word, written, claimed), lexicon=LEXICON,
        settings=ScoringSettings(score_required=True),
    )  # fmt: skip
    kind, code, score, review = oracle(board, rack, top, word, written, claimed)
    event(f"{outcome.code} {outcome.review}".strip())
    got = (outcome.kind, outcome.score, outcome.review)
    assert got == (kind, score, review), (word, written, claimed, outcome.code, code)
    if code != "zero.*":
        assert outcome.code == code, (word, written, claimed)


@SLOW
@given(seed=st.integers(1, 8), data=st.data())
def test_joker_circling_pays_the_circled_or_the_claimed_reading(seed: int, data) -> None:
    rounds = [p for p in positions(seed) if "?" in p[1]]
    jokered = [(b, r, t, m) for b, r, t, ms in rounds for m in ms if not m.word.isupper()]
    if not jokered:
        return
    board, rack, top, move = data.draw(st.sampled_from(jokered), label="move")
    ref = str(move.reference)

    def judge(word: str, claimed: int | None):
        return score_proposal(
            board=board, rack=Rack(rack), round_number=2, top_score=top,
            proposal=Proposal(word, ref, claimed), lexicon=LEXICON,
        )  # fmt: skip

    exact = judge(move.word, move.score)
    assert (exact.kind, exact.code, exact.score) == ("valid", "ok", move.score)
    # Not circled. If the rack holds every letter, the word reads without a joker: its own
    # value at the place (a score warning if it differs from the claim). Otherwise the
    # claimed score exists for some circling: that score, with the joker warning (§5.3.2).
    plain = judge(move.word.upper(), move.score)
    no_joker = _valid(board, rack.replace("?", ""), move.reference, move.word.upper())
    if no_joker is not None:
        expected = "ok" if no_joker.score == move.score else "warning.score_wrong"
        assert (plain.code, plain.score) == (expected, no_joker.score)
    else:
        assert (plain.code, plain.score) == ("warning.joker_not_circled", move.score)
    # Circled on another letter while the claimed score is the generated circling's: paid,
    # with the wrong-circle warning, unless the player's own circling gives it too.
    new = [i for i, ch in enumerate(move.word) if board.at(
        move.reference.row + (0 if move.reference.horizontal else i),
        move.reference.col + (i if move.reference.horizontal else 0)) == EMPTY]  # fmt: skip
    jokers = [i for i in new if move.word[i].islower()]
    others = [i for i in new if move.word[i].isupper() and i not in jokers]
    if len(jokers) == 1 and others:
        i = data.draw(st.sampled_from(others), label="wrongly circled")
        word = "".join(ch.lower() if k == i else ch.upper() for k, ch in enumerate(move.word))
        wrong = judge(word, move.score)
        theirs = _valid(board, rack, move.reference, word)
        if theirs is not None and theirs.score == move.score:
            assert (wrong.code, wrong.score) == ("ok", move.score)  # their circling pays it
        elif theirs is not None:
            assert (wrong.code, wrong.score) == ("warning.joker_wrong_circle", move.score)
