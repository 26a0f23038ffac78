"""The boards the compiled core keeps between calls (docs/engine.md, "Kept boards").

The core keeps the cross-checks and anchors of the last boards it saw and brings the closest
one up to date for the next board by recomputing only the rows and columns through the
squares that changed. Whatever the sequence of boards, the result must equal a computation
from scratch; the expected values of the hand case come from the word list and the rules
(letter values A 1, B 3), not from the code.
"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board, Rack
from engine.lexicon.automaton import Lexicon
from engine.movegen import board_tables, find_top, generate_moves
from engine.tiles import SIZE
from tests.engine.conftest import conformance_positions
from tests.engine.test_movegen import board, lexicon


def bits(letters: str) -> int:
    return sum(1 << (ord(ch) - ord("A")) for ch in letters)


def square(view: int, row: int, col: int) -> int:
    """Index of a square in the tables: view 0 row-major, view 1 column-major."""
    return row * SIZE + col if view == 0 else SIZE * SIZE + col * SIZE + row


def test_tables_by_hand() -> None:
    lex = lexicon("LA", "MA", "AB", "ABS", "BAS")
    # AB at H8 (row H = 7, columns 8-9 = indexes 7-8)
    xset, xsum, xflag, anchor, tiles = board_tables(board(("H8", "AB")), lex, kept=False)
    assert tiles == 2
    # G8, above the A: a horizontal move puts L + A vertically -> LA, MA
    g8 = square(0, 6, 7)
    assert (xset[g8], xsum[g8], xflag[g8], anchor[g8]) == (bits("LM"), 1, 1, 1)
    # H10, right of AB: horizontally nothing above or below (all letters, no cross word);
    # vertically the cross word is the row: AB + S = ABS, face value 1 + 3
    h10 = square(0, 7, 9)
    assert (xset[h10], xsum[h10], xflag[h10], anchor[h10]) == (
        bits("ABCDEFGHIJKLMNOPQRSTUVWXYZ"),
        0,
        0,
        1,
    )
    h10v = square(1, 7, 9)
    assert (xset[h10v], xsum[h10v], xflag[h10v], anchor[h10v]) == (bits("S"), 4, 1, 1)
    # H7, left of AB, vertically: ? + AB -> nothing in the list
    assert xset[square(1, 7, 6)] == 0
    # covered squares and far squares
    assert (xset[square(0, 7, 7)], anchor[square(0, 7, 7)]) == (0, 0)
    assert anchor[square(0, 0, 0)] == 0
    # the empty board: H8 is the only anchor, in both views
    _, _, _, anchor, tiles = board_tables(Board(), lex, kept=False)
    assert tiles == 0
    assert [i for i, a in enumerate(anchor) if a] == [square(0, 7, 7), square(1, 7, 7)]


WORDS = ("AA", "AE", "AI", "AS", "EAT", "ETE", "RAS", "RAT", "SA", "TA", "TE", "ES", "TES", "IS")
LETTERS = "AEIRSTZ"


@st.composite
def board_sequences(draw: st.DrawFn) -> list[str]:
    """Boards one after the other: moves laid along a line (tiles or jokers, possibly over
    other tiles), lines wiped, the board emptied, or an unrelated board."""
    cells = ["."] * (SIZE * SIZE)
    boards = []
    for _ in range(draw(st.integers(1, 12))):
        step = draw(st.sampled_from(["lay", "lay", "lay", "wipe", "empty", "other"]))
        if step in ("lay", "wipe"):
            horizontal = draw(st.booleans())
            line, start = draw(st.integers(0, SIZE - 1)), draw(st.integers(0, SIZE - 1))
            text = draw(st.text(alphabet=LETTERS + "ae", min_size=1, max_size=7))
            for i, ch in enumerate(text):
                r, c = (line, start + i) if horizontal else (start + i, line)
                if r < SIZE and c < SIZE:
                    cells[r * SIZE + c] = ch if step == "lay" else "."
        elif step == "empty":
            cells = ["."] * (SIZE * SIZE)
        else:
            seed = draw(st.integers(0, 2**16))
            rng = random.Random(seed)
            cells = [rng.choice(LETTERS + "......") for _ in range(SIZE * SIZE)]
        boards.append("".join(cells))
    return boards


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards=board_sequences(), revisit=st.integers(0, 11))
def test_kept_tables_equal_fresh_ones(boards: list[str], revisit: int) -> None:
    lex = lexicon(*WORDS)
    # an earlier board again, as when a round is replayed with another rack
    sequence = [*boards, boards[revisit % len(boards)]]
    for cells in sequence:
        kept = board_tables(Board(cells), lex)
        assert kept == board_tables(Board(cells), lex, kept=False), cells


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards=board_sequences(), rack=st.text(alphabet=LETTERS + "?", min_size=1, max_size=8))
def test_moves_through_kept_boards_equal_fresh_ones(boards: list[str], rack: str) -> None:
    lex = lexicon(*WORDS)
    for cells in boards:
        got = generate_moves(Board(cells), Rack(rack), lex), find_top(Board(cells), Rack(rack), lex)
        lex.handle.keep_boards(0)  # forget everything: computed from scratch
        try:
            fresh = (
                generate_moves(Board(cells), Rack(rack), lex),
                find_top(Board(cells), Rack(rack), lex),
            )
        finally:
            lex.handle.keep_boards(8)
        assert got == fresh


def test_games_in_order_equal_fresh_search(conformance_lexicon: Lexicon) -> None:
    # The conformance positions follow games round by round (then joker variants of
    # earlier rounds): the searches reuse the kept boards as a game does.
    positions = conformance_positions()
    searched = []
    for p in positions:
        searched.append(
            find_top(Board.from_lines(p["board"]), Rack(p["rack"]), conformance_lexicon)
        )
    before = conformance_lexicon.handle.keep_boards(0)
    try:
        for p, top in zip(positions, searched, strict=True):
            fresh = find_top(Board.from_lines(p["board"]), Rack(p["rack"]), conformance_lexicon)
            assert top == fresh, p["id"]
            assert top.score == p["top_score"], p["id"]
    finally:
        conformance_lexicon.handle.keep_boards(before)


def test_keep_boards_bounds() -> None:
    lex = lexicon(*WORDS)
    assert lex.handle.keep_boards(3) == 8
    assert lex.handle.keep_boards(8) == 3
    for bad in (-1, 9):
        try:
            lex.handle.keep_boards(bad)
        except ValueError:
            continue
        raise AssertionError(f"keep_boards({bad}) accepted")
