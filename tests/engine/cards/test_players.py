"""Engine opponents: moves found on an unbounded table, the best one counting Prime cards.

Expected moves are worked out by hand on a lexicon of ten words (conftest.small_lexicon).
"""

from __future__ import annotations

import pytest

from engine.cards.players import best_play, legal_plays, weak_play, windows
from engine.cards.rules import evaluate
from engine.cards.table import Table
from tests.engine.cards.conftest import table_of


def _word_of(table, play):
    outcome = evaluate(table, "".join(p.card for p in play.cards) + (play.prime or ""), play, 1)
    return outcome, sorted(w.word.text for w in outcome.words)


def test_far_from_the_centre_the_best_move_is_found(small_lexicon):
    # With A and S on CHAT: ACHATS = 11, CHATS = 10, but S after CHAT with A above it
    # makes CHATS across and AS down: 10 + 2 = 12, the best.
    table = table_of((40, -30, True, "CHAT", 0))
    play = best_play(table, "ASKWXYZ", small_lexicon)
    outcome, words = _word_of(table, play)
    assert words == ["AS", "CHATS"] and outcome.score == 12
    assert {p.square for p in play.cards} == {(39, -26), (40, -26)}
    listed = {
        tuple(sorted(w.word.text for w in s.words))
        for s in legal_plays(table, "ASKWXYZ", small_lexicon)
    }
    assert {("ACHATS",), ("CHATS",), ("AS",)} <= listed


def test_best_play_puts_the_prime_card_where_it_pays_most(small_lexicon):
    table = table_of((40, -30, True, "CHAT", 0))
    # The double on the S shared by CHATS and AS: (10 + 2) * 2 = 24, more than ACHATS * 2.
    play = best_play(table, "AS2KWXY", small_lexicon)
    assert play.prime == "2" and play.prime_at == (40, -26)
    outcome, words = _word_of(table, play)
    assert words == ["AS", "CHATS"] and outcome.score == 24
    triple = best_play(table, "AS23KWX", small_lexicon)
    assert triple.prime == "3"  # the triple pays more than the double


def test_seven_cards_reaching_left_of_the_table(small_lexicon):
    # REPLANTAT = R1 E1 P3 L1 A1 N1 T1 A1 T1 = 11, seven letter cards laid: +50.
    for across in (True, False):
        table = table_of((0, 0, across, "AT", 0))
        play = best_play(table, "AELNPRT", small_lexicon)
        outcome, words = _word_of(table, play)
        assert words == ["REPLANTAT"] and outcome.score == 61 and len(play.cards) == 7


def test_seven_cards_reaching_right_of_the_table(small_lexicon):
    for across in (True, False):
        table = table_of((3, 5, across, "RE", 0))
        play = best_play(table, "AALNPTT", small_lexicon)
        outcome, words = _word_of(table, play)
        assert words == ["REPLANTAT"] and outcome.score == 61


def test_first_word_goes_through_the_centre_doubled(small_lexicon):
    play = best_play(Table(), "ACHTSZ2", small_lexicon)
    outcome, words = _word_of(Table(), play)
    assert words == ["CHATS"] and outcome.score == 10 * 2 and play.prime is None
    assert (0, 0) in {p.square for p in play.cards}


def test_weak_level_lays_at_most_four_cards(small_lexicon):
    table = table_of((0, 0, True, "AT", 0))
    assert best_play(table, "AELNPRT", small_lexicon) is not None
    weak = weak_play(table, "AELNPRT", small_lexicon)
    assert weak is None or len(weak.cards) <= 4


def test_no_move_means_none(small_lexicon):
    assert best_play(table_of((0, 0, True, "AT", 0)), "KWXYZ", small_lexicon) is None
    assert best_play(Table(), "23", small_lexicon) is None


@pytest.mark.parametrize("length", [2, 4, 8, 9, 12, 15])
def test_windows_hold_every_main_word_reaching_out_of_the_table(length):
    # A table of one word across, columns 0..length-1, row 0. A main word across lies in
    # [-7, length + 6], has at most 15 letters and at most 7 cards outside the table.
    table = table_of((0, 0, True, "A" * length, 0))
    starts = windows(table)
    for a in range(-7, length):
        for b in range(max(a, 0), min(a + 14, length + 6) + 1):
            if max(0, -a) + max(0, b - length + 1) > 7:
                continue
            assert any(c <= a and b <= c + 14 and r <= -1 and r + 14 >= 1 for r, c in starts)
    # Moves down crossing it: every column, rows -7..7 and the word's row.
    for col in range(-1, length + 1):
        for a in range(-7, 1):
            for b in range(0, a + 15):
                if b - a > 14 or max(0, -a) + max(0, b) > 7:
                    continue
                assert any(r <= a and b <= r + 14 and c <= col <= c + 14 for r, c in starts)


def test_windows_of_a_deep_table_hold_every_move_of_15_lines():
    # A table 20 lines deep (a word down): moves across on any line, perpendicular words
    # (down) of any 15 consecutive lines of the table, must fit in one window.
    table = table_of(
        (0, 0, False, "A" * 15, 0), (14, 0, True, "AB", 0), (14, 1, False, "BCDEFG", 0)
    )
    top, left, bottom, right = table.bounds()
    starts = windows(table)
    for row_lo in range(top - 1, bottom + 1 - 14 + 1):
        for col in range(left - 7, right + 8):
            assert any(
                r <= row_lo and row_lo + 14 <= r + 14 and c <= col <= c + 14 for r, c in starts
            )
