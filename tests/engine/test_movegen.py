"""Move generation: hand-computed scores on tiny lexicons, and a brute-force comparison.

Premium squares used below (rules §9 A3): TW A1 A8 H1 H15 …; DW B2 H8 …; TL B6 …;
DL A4 H4 H12 I9 D8 L8 …. Letter values: A E I N O R S T U L 1, D G 2, B C M P 3,
F H V 4, J Q 8, K W X Y Z 10, joker 0.
"""

from __future__ import annotations

import itertools
import tempfile
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.board import Board, Rack
from engine.lexicon.automaton import Lexicon, build_lexicon_file
from engine.movegen import Top, anchor_bounds, best_moves, find_top, generate_moves
from engine.moves import Move
from engine.notation import Reference, parse_reference
from engine.tiles import LETTER_MULTIPLIERS, SIZE, VALUES, WORD_MULTIPLIERS

_LEXICONS: dict[tuple[str, ...], Lexicon] = {}


def lexicon(*words: str) -> Lexicon:
    key = tuple(sorted(set(words)))
    if key not in _LEXICONS:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "t.lex"
            build_lexicon_file(key, path, name="test", source="tests", version="1")
            _LEXICONS[key] = Lexicon.load(path)
    return _LEXICONS[key]


def board(*placements: tuple[str, str]) -> Board:
    """A board with words laid at FISF references, e.g. ("A2", "TTENDR")."""
    cells = ["."] * (SIZE * SIZE)
    for ref_text, word in placements:
        ref = parse_reference(ref_text)
        for i, ch in enumerate(word):
            r, c = (ref.row, ref.col + i) if ref.horizontal else (ref.row + i, ref.col)
            cells[r * SIZE + c] = ch
    return Board("".join(cells))


def listing(moves: Iterable[Move]) -> list[str]:
    return [str(m) for m in moves]


# ------------------------------------------------------------------ hand-computed cases


def test_first_move_through_h8_doubled() -> None:
    # CHAT = C3 + H4 + A1 + T1 = 9, H8 is a double word: 18. The word must cover H8:
    # H5..H8 horizontally, 8E..8H vertically; none reaches H4/H12 (DL) or D8/L8 (DL).
    # Sorted by row first: 8E (row E) comes before H5.
    moves = generate_moves(Board(), Rack("CHAT"), lexicon("CHAT"))
    assert listing(moves) == [
        "8E CHAT 18",
        "8F CHAT 18",
        "8G CHAT 18",
        "H5 CHAT 18",
        "H6 CHAT 18",
        "H7 CHAT 18",
        "H8 CHAT 18",
        "8H CHAT 18",
    ]
    assert all(m.placed == 4 for m in moves)


def test_first_move_must_cover_h8() -> None:
    # A two-letter word covers H8 only from H7, H8 (horizontal) and 8G, 8H (vertical).
    # AS = 1 + 1 = 2, doubled by H8 = 4.
    moves = generate_moves(Board(), Rack("AS"), lexicon("AS"))
    assert listing(moves) == ["8G AS 4", "H7 AS 4", "H8 AS 4", "8H AS 4"]


def test_joker_on_double_letter_scores_zero() -> None:
    # kIWIS with the joker as K: k0 + I1 + W10 + I1 + S1 = 13, ×2 (H8) = 26 wherever k
    # stands, even on H4 (double letter: 0 × 2 = 0; a real K there would make 86).
    # From H8 the S lands on H12 (DL): 0 + 1 + 10 + 1 + 2 = 14, ×2 = 28.
    # Vertical moves mirror them (D8 and L8 are DL too).
    moves = generate_moves(Board(), Rack("?IWIS"), lexicon("KIWIS"))
    assert listing(moves) == [
        "H8 kIWIS 28",
        "8H kIWIS 28",
        "8D kIWIS 26",
        "8E kIWIS 26",
        "8F kIWIS 26",
        "8G kIWIS 26",
        "H4 kIWIS 26",
        "H5 kIWIS 26",
        "H6 kIWIS 26",
        "H7 kIWIS 26",
    ]
    assert {m.placed for m in moves} == {5}


def test_word_over_two_triple_words_is_worth_nine_times() -> None:
    # A on A1 (TW) + TTENDR already on A2..A7 + E on A8 (TW):
    # ATTENDRE = 1+1+1+1+1+2+1+1 = 9 (the E on A4, a DL, was already there: plain);
    # ×3 ×3 = 81.
    moves = generate_moves(board(("A2", "TTENDR")), Rack("AE"), lexicon("ATTENDRE"))
    assert listing(moves) == ["A1 ATTENDRE 81"]
    assert moves[0].placed == 2


def test_seven_tiles_bonus_added_after_multipliers() -> None:
    # ENTRAIS, every letter worth 1: 7, plus 1 when a letter lands on a DL (H4 or H12);
    # ×2 for H8; then +50.  H5 covers H5..H11, no DL: 14 + 50 = 64.  H2..H4 cover H4 and
    # H6..H8 cover H12: 16 + 50 = 66.  (Bonus before doubling would give 114 or more.)
    moves = generate_moves(Board(), Rack("AEINRST"), lexicon("ENTRAIS"))
    horizontal = {m.coord: m.score for m in moves if m.reference.horizontal}
    assert horizontal == {"H2": 66, "H3": 66, "H4": 66, "H5": 64, "H6": 66, "H7": 66, "H8": 66}
    assert len(moves) == 14
    assert all(m.placed == 7 for m in moves)
    # Without the bonus table entry: 16 and 14.
    plain = generate_moves(Board(), Rack("AEINRST"), lexicon("ENTRAIS"), bonuses={})
    assert {m.score for m in plain} == {14, 16}


def test_eight_tiles_variant_bonus_and_max_tiles() -> None:
    # H8 CHANTEES covers H8 (DW) .. H15 (TW), T on H12 (DL):
    # C3 + H4 + A1 + N1 + T1×2 + E1 + E1 + S1 = 14, ×2 ×3 = 84.
    lex = lexicon("CHANTEES", "CHANTES")
    rack = Rack("ACEEHNST")
    classic = {f"{m.coord} {m.word}": m.score for m in generate_moves(Board(), rack, lex)}
    assert classic["H8 CHANTEES"] == 84
    variant = generate_moves(Board(), rack, lex, bonuses={7: 50, 8: 75, 9: 100})
    assert {f"{m.coord} {m.word}": m.score for m in variant}["H8 CHANTEES"] == 84 + 75
    # "7 sur 8": at most 7 tiles, so only CHANTES remains.
    capped = generate_moves(Board(), rack, lex, max_tiles=7)
    assert capped and all(m.word == "CHANTES" and m.placed == 7 for m in capped)
    assert generate_moves(Board(), rack, lex, max_tiles=1) == []


def test_nine_tile_rack_with_two_jokers() -> None:
    # Rack A C E H N S T + 2 jokers; CHANTEES needs a second E, so one E (index 5 or 6)
    # is a joker, and the other joker may stand for any other letter of the word or not
    # be used: 2 words with one joker, 13 with two (pairs {e, x}, e in {5, 6}, x != e).
    moves = generate_moves(Board(), Rack("ACEHNST??"), lexicon("CHANTEES"))
    at_h8 = {m.word: m for m in moves if m.coord == "H8"}
    expected = set()
    for jokers in [{5}, {6}] + [{e, x} for e in (5, 6) for x in range(8) if x != e]:
        expected.add("".join(ch.lower() if i in jokers else ch for i, ch in enumerate("CHANTEES")))
    assert len(expected) == 15
    assert set(at_h8) == expected
    # With the joker on the E of H14: 3+4+1+1+2+1+0+1 = 13, ×6 = 78, 8 tiles placed.
    assert at_h8["CHANTEeS"].score == 78
    assert at_h8["CHANTEeS"].placed == 8
    # Both jokers, one on H8 (DW) as C: 0+4+1+1+2+1+0+1 = 10, ×6 = 60.
    assert at_h8["cHANTEeS"].score == 60


def test_covered_premiums_score_plain() -> None:
    # K on B2 (DW) and S on B6 (TL) are already there: KIWIS = 10+1+10+1+1 = 23,
    # B3..B5 carry no premium.
    moves = generate_moves(board(("B2", "K"), ("B6", "S")), Rack("IWI"), lexicon("KIWIS"))
    assert listing(moves) == ["B2 KIWIS 23"]


def test_cross_words_count() -> None:
    # OS on H8-H9.  NU on I8-I9: N1 + U1×2 (I9 DL) = 3; cross-words ON = 1+1 = 2 and
    # SU = 1 + 2 = 3: 8 in all.  One-tile moves: U under S (SU = 3, read vertically since
    # it forms no horizontal word), N under O (ON = 2).
    moves = generate_moves(board(("H8", "OS")), Rack("NU"), lexicon("OS", "NU", "ON", "SU"))
    assert listing(moves) == ["I8 NU 8", "9H SU 3", "8H ON 2"]


def test_one_tile_move_listed_once() -> None:
    # B on H7, L on G8.  A on H8 (DW) makes BA horizontally, (3+1)×2 = 8, and LA
    # vertically, (1+1)×2 = 4: one move of 12, read horizontally.  A under B on I7 (DL):
    # BA vertical = 3 + 2 = 5.  A right of L on G9 (DL): LA = 1 + 2 = 3.
    moves = generate_moves(board(("H7", "B"), ("G8", "L")), Rack("A"), lexicon("BA", "LA"))
    assert listing(moves) == ["H7 BA 12", "7H BA 5", "G8 LA 3"]
    assert [m.placed for m in moves] == [1, 1, 1]


def test_one_tile_vertical_word_only() -> None:
    # L on G8.  A under it on H8 (DW) forms only a vertical word: 8G LA = (1+1)×2 = 4.
    # A right of it on G9 (DL) forms only a horizontal word: G8 LA = 1 + 2 = 3.
    moves = generate_moves(board(("G8", "L")), Rack("A"), lexicon("LA"))
    assert listing(moves) == ["8G LA 4", "G8 LA 3"]


def test_extensions_front_back_both_with_board_joker() -> None:
    # RoI on H7-H9 (o is a joker, worth 0, covering H8).  TRoIS (T on H6, S on H10, both
    # plain squares): 1+1+0+1+1 = 4; TRoI: 3; RoIS: 3.  The board joker stays lower case.
    lex = lexicon("ROI", "ROIS", "TROI", "TROIS")
    moves = generate_moves(board(("H7", "RoI")), Rack("ST"), lex)
    assert listing(moves) == ["H6 TRoIS 4", "H6 TRoI 3", "H7 RoIS 3"]


def test_cross_word_through_a_board_joker() -> None:
    # A joker e on G9; rack A S; words AS and ES.
    # H8 AS: A on H8 (DW), S on H9 under the e: AS = (1+1)×2 = 4, cross eS = 0+1 = 1: 5.
    # 10F AS: A on F10 (TL) = 3, S on G10 = 1: 4, cross eS horizontally = 0+1 = 1: 5.
    # S alone on G10: G9 eS = 1 (horizontal); S alone on H9: 9G eS = 1 (vertical only).
    lex = lexicon("AS", "ES")
    moves = generate_moves(board(("G9", "e")), Rack("AS"), lex)
    assert listing(moves) == ["10F AS 5", "H8 AS 5", "G9 eS 1", "9G eS 1"]


def test_rack_joker_as_different_letters_gives_different_moves() -> None:
    # L on H8; "?" + L makes La and Le, horizontally (H8) and vertically (8H), each worth
    # L1 + 0 = 1 (H9, I8 carry no premium).
    lex = lexicon("LA", "LE")
    assert listing(generate_moves(board(("H8", "L")), Rack("?"), lex)) == [
        "H8 La 1",
        "H8 Le 1",
        "8H La 1",
        "8H Le 1",
    ]
    # With a real E as well: the real E gives LE = 2 (H9 or I8), listed besides the joker
    # moves.  Both tiles: joker as L on G9 (DL, still 0) above an E on H9 makes lE
    # downwards = 0 + 1 = 1 plus the cross-word LE = 2: 3; mirrored, joker on I7 (DL)
    # left of an E on I8: I7 lE = 1 + 2 = 3.
    assert listing(generate_moves(board(("H8", "L")), Rack("E?"), lex)) == [
        "9G lE 3",
        "I7 lE 3",
        "H8 LE 2",
        "8H LE 2",
        "H8 La 1",
        "H8 Le 1",
        "8H La 1",
        "8H Le 1",
    ]


def test_words_touching_the_edges() -> None:
    # E in the corner O15.  L or N on O14 (plain) left of it: LE, NE = 2 horizontally;
    # on N15 (plain) above it: LE, NE = 2 vertically.  15N is row N, before row O.
    moves = generate_moves(board(("O15", "E")), Rack("LN"), lexicon("LE", "NE"))
    assert listing(moves) == ["15N LE 2", "15N NE 2", "O14 LE 2", "O14 NE 2"]


def test_word_reaching_the_edge_from_the_middle() -> None:
    # ZO on A13-A14; S on A15 (TW): ZOS = (10+1+1)×3 = 36.  Nothing may follow A15.
    moves = generate_moves(board(("A13", "ZO")), Rack("S"), lexicon("ZOS", "ZOSS"))
    assert listing(moves) == ["A13 ZOS 36"]


def test_no_legal_move() -> None:
    lex = lexicon("ZZZZ")
    assert generate_moves(Board(), Rack("AB"), lex) == []
    assert find_top(Board(), Rack("AB"), lex) == Top(score=0, moves=(), n_moves=None)
    assert find_top(Board(), Rack(""), lex, count_moves=True) == Top(score=0, moves=(), n_moves=0)
    assert best_moves(Board(), Rack("AB"), lex, 5) == []


def test_zero_point_move_is_a_top() -> None:
    # Two jokers as A and S: "as" is worth 0 at its four places; the top is 0, not "none".
    top = find_top(Board(), Rack("??"), lexicon("AS"))
    assert top.score == 0
    assert top.n_moves is None
    assert find_top(Board(), Rack("??"), lexicon("AS"), count_moves=True) == Top(0, top.moves, 4)
    assert [m.word for m in top.moves] == ["as"] * 4


def test_full_board_has_no_move() -> None:
    full = Board("E" * (SIZE * SIZE))
    assert generate_moves(full, Rack("EEEEEEE??"), lexicon("EE", "EEE")) == []


def test_modes_agree() -> None:
    lex = lexicon("AS", "SA", "ASE", "SAS", "ES", "SE", "ESSE", "SEAS")
    b = board(("H7", "SE"), ("G9", "A"))
    rack = Rack("AES?S")
    everything = generate_moves(b, rack, lex)
    assert everything == sorted(everything, key=Move.sort_key)
    assert len({(m.reference, m.word) for m in everything}) == len(everything)
    top = find_top(b, rack, lex)
    assert find_top(b, rack, lex, count_moves=True) == Top(top.score, top.moves, len(everything))
    assert top.moves == tuple(m for m in everything if m.score == everything[0].score)
    assert top.score == everything[0].score
    for n in (1, 3, 10, len(everything), len(everything) + 5):
        assert best_moves(b, rack, lex, n) == everything[:n]
    assert best_moves(b, rack, lex, 0) == []


def test_references_and_moves_are_proper_objects() -> None:
    moves = generate_moves(Board(), Rack("AS"), lexicon("AS"))
    move = next(m for m in moves if m.coord == "H7")
    assert isinstance(move, Move)
    assert move.reference == Reference(7, 6, True)
    assert isinstance(move.reference.horizontal, bool)
    assert move == Move(Reference(7, 6, True), "AS", 4, 2)
    assert hash(move) == hash(Move(Reference(7, 6, True), "AS", 4, 2))
    with pytest.raises(AttributeError):
        move.score = 3  # type: ignore[misc]


def test_bad_arguments() -> None:
    with pytest.raises(ValueError):
        generate_moves(Board(), Rack("AS"), lexicon("AS"), max_tiles=-1)


# ------------------------------------------------------------------ brute force

LM = LETTER_MULTIPLIERS
WM = WORD_MULTIPLIERS


def _value(ch: str) -> int:
    return 0 if ch.islower() else VALUES[ch]


def brute_force(
    cells: str, rack: str, words: list[str], bonuses: Mapping[int, int], max_tiles: int | None
) -> set[tuple[str, str, int, int]]:
    """Every legal move as (reference, word, score, placed), by trying every word at every
    square in both directions, independently of the engine's algorithm."""
    grid = [list(cells[r * SIZE : (r + 1) * SIZE]) for r in range(SIZE)]
    empty_board = all(ch == "." for ch in cells)
    lexicon_set = set(words)
    rack_count = Counter(rack)
    jokers = rack_count["?"]
    limit = len(rack) if max_tiles is None else min(max_tiles, len(rack))
    found: set[tuple[str, str, int, int]] = set()

    def at(r: int, c: int) -> str:
        return grid[r][c] if 0 <= r < SIZE and 0 <= c < SIZE else "."

    for horizontal in (True, False):

        def square(line: int, pos: int, horizontal: bool = horizontal) -> tuple[int, int]:
            return (line, pos) if horizontal else (pos, line)

        for line in range(SIZE):
            for start in range(SIZE):
                before = square(line, start - 1)
                if at(*before) != ".":
                    continue
                for word in words:
                    end = start + len(word)
                    if end > SIZE or at(*square(line, end)) != ".":
                        continue
                    squares = [square(line, start + i) for i in range(len(word))]
                    existing = [at(r, c) for r, c in squares]
                    if any(
                        e != "." and e.upper() != w for e, w in zip(existing, word, strict=True)
                    ):
                        continue
                    new = [i for i, e in enumerate(existing) if e == "."]
                    if not new or len(new) > limit:
                        continue
                    if empty_board:
                        if (7, 7) not in squares:
                            continue
                    elif not any(
                        at(r + dr, c + dc) != "."
                        for i in new
                        for r, c in [squares[i]]
                        for dr, dc in ((1, 0), (-1, 0), (0, 1), (0, -1))
                    ):
                        continue
                    # one-tile move read vertically only when it has no horizontal word
                    if not horizontal and len(new) == 1:
                        r, c = squares[new[0]]
                        if at(r, c - 1) != "." or at(r, c + 1) != ".":
                            continue
                    # cross words of the new tiles: (letters before, letters after)
                    crosses: list[tuple[str, str] | None] = []
                    ok = True
                    for i in new:
                        r, c = squares[i]
                        dr, dc = (1, 0) if horizontal else (0, 1)
                        head = ""
                        rr, cc = r - dr, c - dc
                        while at(rr, cc) != ".":
                            head = at(rr, cc) + head
                            rr, cc = rr - dr, cc - dc
                        tail = ""
                        rr, cc = r + dr, c + dc
                        while at(rr, cc) != ".":
                            tail += at(rr, cc)
                            rr, cc = rr + dr, cc + dc
                        if head or tail:
                            if (head + word[i] + tail).upper() not in lexicon_set:
                                ok = False
                                break
                            crosses.append((head, tail))
                        else:
                            crosses.append(None)
                    if not ok:
                        continue
                    # every way to take each new letter from a real tile or a joker
                    for choice in itertools.product((False, True), repeat=len(new)):
                        use_joker = dict(zip(new, choice, strict=True))
                        if sum(choice) > jokers:
                            continue
                        real = Counter(word[i] for i in new if not use_joker[i])
                        if any(real[ch] > rack_count[ch] for ch in real):
                            continue
                        text = "".join(
                            (word[i].lower() if use_joker[i] else word[i])
                            if existing[i] == "."
                            else existing[i]
                            for i in range(len(word))
                        )
                        main, mult, cross_total = 0, 1, 0
                        for i, ch in enumerate(text):
                            r, c = squares[i]
                            if existing[i] == ".":
                                letter = _value(ch) * LM[r * SIZE + c]
                                main += letter
                                mult *= WM[r * SIZE + c]
                            else:
                                main += _value(ch)
                        for k, i in enumerate(new):
                            cross = crosses[k]
                            if cross is None:
                                continue
                            r, c = squares[i]
                            head, tail = cross
                            total = sum(_value(x) for x in head + tail)
                            total += _value(text[i]) * LM[r * SIZE + c]
                            cross_total += total * WM[r * SIZE + c]
                        score = main * mult + cross_total + bonuses.get(len(new), 0)
                        r0, c0 = squares[0]
                        ref = str(Reference(r0, c0, horizontal))
                        found.add((ref, text, score, len(new)))
    return found


ALPHABET = "AEISTRZ"


@st.composite
def positions(draw: st.DrawFn) -> tuple[str, str, list[str], dict[int, int], int | None]:
    words = sorted(
        draw(st.sets(st.text(alphabet=ALPHABET, min_size=2, max_size=5), min_size=30, max_size=200))
    )
    grid = ["."] * (SIZE * SIZE)
    if draw(st.booleans()):
        # a few segments of board letters, some of them jokers, anywhere (edges included)
        for _ in range(draw(st.integers(1, 6))):
            horizontal = draw(st.booleans())
            text = draw(st.text(alphabet=ALPHABET + ALPHABET.lower()[:3], min_size=1, max_size=4))
            row = draw(st.integers(0, SIZE - 1))
            col = draw(st.integers(0, SIZE - 1))
            for i, ch in enumerate(text):
                r, c = (row, col + i) if horizontal else (row + i, col)
                if r < SIZE and c < SIZE:
                    grid[r * SIZE + c] = ch
    rack = draw(st.text(alphabet=ALPHABET, min_size=0, max_size=7))
    rack += "?" * draw(st.integers(0, 2))
    bonuses = draw(
        st.sampled_from([{7: 50}, {2: 5, 3: 7, 4: 11, 5: 13}, {1: 3, 5: 40, 7: 50, 8: 75, 9: 100}])
    )
    max_tiles = draw(st.sampled_from([None, None, 1, 2, 3]))
    return "".join(grid), rack, words, bonuses, max_tiles


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(position=positions())
def test_generator_matches_brute_force(
    position: tuple[str, str, list[str], dict[int, int], int | None],
) -> None:
    cells, rack, words, bonuses, max_tiles = position
    lex = lexicon(*words)
    moves = generate_moves(Board(cells), Rack(rack), lex, bonuses=bonuses, max_tiles=max_tiles)
    got = [(m.coord, m.word, m.score, m.placed) for m in moves]
    assert len(got) == len(set(got)), "a move is listed twice"
    assert len({(m.reference, m.word) for m in moves}) == len(moves)
    expected = brute_force(cells, rack, words, bonuses, max_tiles)
    assert set(got) == expected
    assert moves == sorted(moves, key=Move.sort_key)
    top = find_top(Board(cells), Rack(rack), lex, bonuses=bonuses, max_tiles=max_tiles)
    counted = find_top(
        Board(cells), Rack(rack), lex, bonuses=bonuses, max_tiles=max_tiles, count_moves=True
    )
    assert counted == Top(top.score, top.moves, len(moves))
    # the pruning bound is never below what an anchor really yields
    for vertical, line, at, bound, best_there in anchor_bounds(
        Board(cells), Rack(rack), lex, bonuses=bonuses, max_tiles=max_tiles
    ):
        assert best_there < 0 or bound >= best_there, (vertical, line, at)
    best = max((m.score for m in moves), default=0)
    assert top.score == best
    assert list(top.moves) == [m for m in moves if m.score == best]
    assert (
        best_moves(Board(cells), Rack(rack), lex, 7, bonuses=bonuses, max_tiles=max_tiles)
        == moves[:7]
    )


@settings(max_examples=40, deadline=None)
@given(
    cells=st.text(alphabet=".AEZae", min_size=SIZE * SIZE, max_size=SIZE * SIZE),
    rack=st.text(alphabet="AEZ?", max_size=9),
)
def test_dense_random_boards_never_crash(cells: str, rack: str) -> None:
    lex = lexicon("AE", "EA", "AZE", "ZEE", "EAEA", "AAA", "ZAZA")
    moves = generate_moves(Board(cells), Rack(rack), lex)
    assert set((m.coord, m.word, m.score, m.placed) for m in moves) == brute_force(
        cells, rack, ["AAA", "AE", "AZE", "EA", "EAEA", "ZAZA", "ZEE"], {7: 50}, None
    )
