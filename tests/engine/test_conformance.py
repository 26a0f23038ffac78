"""Exactness against the conformance positions (tests/data/conformance).

Every position's top score, top example and number of top placements were found by an
independent generator on ``words-fr-libre.txt.gz``; the lexicon is built from that list once
per session.

Counting convention: on the empty board the reference counts horizontal placements only —
each vertical first move is the mirror image (the premium layout is symmetric about the
A1–O15 diagonal) of a horizontal one with the same word and score. Our generator lists both,
since a vertical first move is legal; the test checks that mirror relation and compares the
horizontal count. Everywhere else the counts must match as they are.
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board, Rack
from engine.lexicon.automaton import Lexicon
from engine.movegen import anchor_bounds, find_top, generate_moves
from engine.moves import Move
from engine.tiles import LETTERS
from tests.engine.conftest import conformance_positions

WORDS_SHA256 = "d82717276cf291312661943f2891b0db5fe74fe3dcd91ad8d6b612f7e74e1d58"
ALL_POSITIONS = conformance_positions()


@pytest.fixture(scope="session")
def french(conformance_lexicon: Lexicon) -> Lexicon:
    return conformance_lexicon


def test_lexicon_identity(french: Lexicon) -> None:
    # Word count and sha256 as stated in tests/data/conformance/README.md.
    assert french.identity.word_count == 405_691
    assert french.identity.sha256 == WORDS_SHA256


def test_lexicon_membership(french: Lexicon) -> None:
    # first and last words of the list, and words of the positions
    for word in ("ABACA", "ZZZZ", "MOITAI", "WAI", "GUETE", "KIWIS", "ZYTHUMS"):
        assert word in french, word
    for word in ("AA", "ABAC", "MOITAIX", "QQ", "W", "", "ZZZZZ"):
        assert word not in french, word


@pytest.mark.parametrize("position", ALL_POSITIONS, ids=[p["id"] for p in ALL_POSITIONS])
def test_position(position: dict, french: Lexicon) -> None:
    board = Board.from_lines(position["board"])
    rack = Rack(position["rack"])
    top = find_top(board, rack, french)

    assert top.score == position["top_score"]
    example = (position["top_example"]["coord"], position["top_example"]["word"])
    placements = [(m.coord, m.word) for m in top.moves]
    assert example in placements
    assert len(set(placements)) == len(placements)
    assert all(m.score == top.score for m in top.moves)
    assert list(top.moves) == sorted(top.moves, key=Move.sort_key)

    if board.is_empty():
        across = {
            (m.reference.row, m.reference.col, m.word) for m in top.moves if m.reference.horizontal
        }
        down = {
            (m.reference.col, m.reference.row, m.word)
            for m in top.moves
            if not m.reference.horizontal
        }
        assert across == down  # each vertical first move mirrors a horizontal one
        assert len(across) == position["n_top_moves"]
    else:
        assert len(placements) == position["n_top_moves"]

    # the full enumeration agrees with the top-only mode
    everything = generate_moves(board, rack, french)
    assert len(everything) == find_top(board, rack, french, count_moves=True).n_moves
    assert tuple(m for m in everything if m.score == top.score) == top.moves
    assert everything[: len(top.moves)] == list(top.moves)


def assert_pruning_exact(board: Board, rack: Rack, lexicon: Lexicon) -> None:
    """The pruned top search against the full enumeration, and its bound anchor by anchor."""
    everything = generate_moves(board, rack, lexicon)
    best = everything[0].score if everything else 0
    top = find_top(board, rack, lexicon)
    assert top.score == best
    assert top.moves == tuple(m for m in everything if m.score == best)
    checked = 0
    for vertical, line, at, bound, best_there in anchor_bounds(board, rack, lexicon):
        # best_there is -1 where nothing is playable; the bound may then be "no move" too
        assert best_there < 0 or bound >= best_there, (vertical, line, at, bound, best_there)
        checked += best_there >= 0
    assert checked or not everything


@pytest.mark.parametrize("position", ALL_POSITIONS, ids=[p["id"] for p in ALL_POSITIONS])
def test_pruning_bound_on_position(position: dict, french: Lexicon) -> None:
    assert_pruning_exact(Board.from_lines(position["board"]), Rack(position["rack"]), french)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    index=st.integers(0, len(ALL_POSITIONS) - 1),
    letters=st.text(alphabet=LETTERS, min_size=1, max_size=7),
    jokers=st.integers(0, 2),
)
def test_pruning_bound_on_other_racks(
    index: int, letters: str, jokers: int, conformance_lexicon: Lexicon
) -> None:
    # the conformance boards with racks nobody chose: heavy letters, jokers, short racks
    rack = Rack(("?" * jokers + letters)[:7])
    board = Board.from_lines(ALL_POSITIONS[index]["board"])
    assert_pruning_exact(board, rack, conformance_lexicon)


def test_portable_walk_agrees(french: Lexicon) -> None:
    # The walk exists twice in the core: portable, and with the POPCNT instruction when the
    # processor has it (the one the other tests run on such a machine). The portable copy
    # must give the same tops and move lists.
    from engine import _core

    if not _core.hardware_popcount():
        pytest.skip("this processor runs the portable walk in every other test already")
    positions = [(Board.from_lines(p["board"]), Rack(p["rack"])) for p in ALL_POSITIONS]
    fast = [(find_top(b, r, french), generate_moves(b, r, french)) for b, r in positions]
    _core.hardware_popcount(False)
    try:
        portable = [(find_top(b, r, french), generate_moves(b, r, french)) for b, r in positions]
    finally:
        _core.hardware_popcount(True)
    assert portable == fast
    for (top, _), p in zip(portable, ALL_POSITIONS, strict=True):
        assert top.score == p["top_score"], p["id"]
