"""The compiled generator and the plain-Python checker must agree on every move.

Every move the generator lists for a sample of conformance positions is re-checked by
``check_move``: same score, every word formed in the lexicon. And every tied top the
generator reports must have the top score of ``tests/data/conformance``.
"""

from __future__ import annotations

import pytest

from engine.board import Board, Rack
from engine.check import check_move
from engine.movegen import generate_moves
from tests.engine.conftest import conformance_positions

# Every 12th position: all joker counts are represented and the run stays short.
SAMPLE = conformance_positions()[::12]


@pytest.mark.parametrize("position", SAMPLE, ids=[p["id"] for p in SAMPLE])
def test_every_generated_move_passes_the_checker(position: dict, conformance_lexicon) -> None:
    board = Board.from_lines(position["board"])
    rack = Rack(position["rack"])
    moves = generate_moves(board, rack, conformance_lexicon)
    assert moves, "a conformance position always has a legal move"
    assert moves[0].score == position["top_score"]
    for move in moves:
        checked = check_move(board, rack, move.reference, move.word, lexicon=conformance_lexicon)
        assert checked.score == move.score, str(move)
        assert checked.placed == move.placed, str(move)
        assert checked.valid, f"{move}: {checked.invalid_words}"
        assert not checked.joker_inferred, "generated words mark every joker in lowercase"
