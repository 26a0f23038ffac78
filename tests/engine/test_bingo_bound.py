"""The seven-tile bound of the top search (docs/engine.md, "Top search", bingo.c).

A move placing all seven tiles of a joker-free rack on a span with no board tile spells a
7-letter anagram of the rack, with one board tile x an 8-letter anagram of rack + x; the top
search drops such spans from its bounds when no such word exists. These tests put 7- and
8-letter words within reach (so the spans that do hold a word are there) and compare the
pruned search with a brute force written in the tests.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board, Rack
from engine.movegen import anchor_bounds, find_top, generate_moves
from engine.tiles import SIZE
from tests.engine.test_movegen import board, brute_force, lexicon, listing

CLASSIC = {7: 50}


def test_seven_letter_anagram_found() -> None:
    # TRAINES and its anagram RATINES, first move through H8 (double word): seven 1-point
    # letters, one of them on the double letter H4 (or 8D...) when the word starts early
    # enough (7 squares cannot cover both H4 and H12): (7 + 1) x 2 + 50.
    top = find_top(Board(), Rack("AEINRST"), lexicon("TRAINES", "RATINES", "AS", "TA"))
    assert top.score == (7 + 1) * 2 + 50
    assert {m.word for m in top.moves} <= {"TRAINES", "RATINES"}
    assert all(m.placed == 7 for m in top.moves)


def test_no_anagram_means_no_bingo() -> None:
    # The 7-letter word needs a letter the rack lacks: only the 2-letter words are playable.
    moves = generate_moves(Board(), Rack("AEINRSU"), lexicon("TRAINES", "AS", "SA"))
    top = find_top(Board(), Rack("AEINRSU"), lexicon("TRAINES", "AS", "SA"))
    assert top.score == max(m.score for m in moves) == 4
    assert listing(top.moves) == [str(m) for m in moves if m.score == 4]


def test_eight_letter_anagram_through_one_tile() -> None:
    # CANOTIER = the rack ACEINRT + the O of ON on the board: only an 8-letter word through
    # that tile can take the seven tiles.
    lex = lexicon("CANOTIER", "NO", "ON")
    b = board(("H8", "ON"))
    moves = generate_moves(b, Rack("ACEINRT"), lex)
    eight = [m for m in moves if m.placed == 7]
    assert eight, "CANOTIER through the O must be found by the full enumeration"
    top = find_top(b, Rack("ACEINRT"), lex)
    best = max(m.score for m in moves)
    assert top.score == best
    assert list(top.moves) == [m for m in moves if m.score == best]


LETTERS = "AEINRST"


@st.composite
def bingo_positions(draw: st.DrawFn) -> tuple[str, str, list[str]]:
    rack = "".join(draw(st.permutations(LETTERS)))
    extra = draw(st.sampled_from("AEOSTZ"))
    # some anagrams of the rack (7 letters) and of rack + extra (8), some near misses, and
    # short words to connect
    sevens = {"".join(draw(st.permutations(rack))) for _ in range(draw(st.integers(0, 2)))}
    eights = {"".join(draw(st.permutations(rack + extra))) for _ in range(draw(st.integers(0, 2)))}
    misses = {"".join(draw(st.permutations(rack[:6] + "O"))) for _ in range(2)}
    short = draw(
        st.sets(st.text(alphabet=LETTERS + extra, min_size=2, max_size=4), min_size=10, max_size=60)
    )
    words = sorted(sevens | eights | misses | short)
    grid = ["."] * (SIZE * SIZE)
    if draw(st.booleans()):
        for _ in range(draw(st.integers(1, 4))):
            horizontal = draw(st.booleans())
            text = draw(st.text(alphabet=LETTERS + extra + "e", min_size=1, max_size=3))
            row, col = draw(st.integers(0, SIZE - 1)), draw(st.integers(0, SIZE - 1))
            for i, ch in enumerate(text):
                r, c = (row, col + i) if horizontal else (row + i, col)
                if r < SIZE and c < SIZE:
                    grid[r * SIZE + c] = ch
    return "".join(grid), rack, words


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=bingo_positions())
def test_pruned_top_matches_brute_force_with_bingos(position: tuple[str, str, list[str]]) -> None:
    cells, rack, words = position
    lex = lexicon(*words)
    expected = brute_force(cells, rack, words, CLASSIC, None)
    best = max((score for _, _, score, _ in expected), default=0)
    top = find_top(Board(cells), Rack(rack), lex)
    assert top.score == best
    assert {(m.coord, m.word) for m in top.moves} == {
        (ref, word) for ref, word, score, _ in expected if score == best
    }
    for vertical, line, at, bound, best_there in anchor_bounds(Board(cells), Rack(rack), lex):
        assert best_there < 0 or bound >= best_there, (vertical, line, at)
