"""The move checker: every expected score below is computed by hand in its comment."""

import pytest

from engine.board import Rack
from engine.check import check_move
from engine.errors import EngineError
from tests.engine.builders import EMPTY, Words, board_with

MOITAI = board_with((7, 3, "MOITAI", True))  # H4 MOITAI, the first top of conformance p0000


def test_first_move_through_the_star() -> None:
    # M (worth 2) on H4 (DL) -> 4; O, I, T, A (on H8, DW), I worth 1 each -> 5.
    # (4 + 5) * 2 = 18.
    move = check_move(EMPTY, Rack("AEIIMOT"), "H4", "MOITAI")
    assert move.score == 18
    assert move.placed == 6
    assert move.coord == "H4"


def test_second_move_on_a_triple_letter() -> None:
    # 6F vertical: W on F6 (TL) 10*3=30, A on G6 1, I already on H6 1 -> 32 (conformance p0001).
    move = check_move(MOITAI, Rack("AEEGIPW"), "6F", "WAI")
    assert move.score == 32
    assert [w.word for w in move.words] == ["WAI"]


def test_cross_words_count_and_premium_is_shared() -> None:
    # 8G vertical "BAS": B on G8 (plain) 3, A on H8 (already covered, plain) 1, S on I8 1 -> 5.
    move = check_move(MOITAI, Rack("BSEEEEE"), "8G", "BAS")
    assert move.score == 5
    # Parallel play under MOITAI: I5 "ES"? E on I5 forms OE vertically, S on I6 forms IS.
    # I5 ES: E 1 + S 1 = 2 (no premium on I5, I6); OE: O 1 + E 1 = 2; IS: I 1 + S 1 = 2 -> 6.
    move = check_move(MOITAI, Rack("ESAAAAA"), "I5", "ES")
    assert move.score == 6
    assert sorted(w.word for w in move.words) == ["ES", "IS", "OE"]


def test_joker_is_worth_zero_on_a_double_letter() -> None:
    # H6 "MOT" covers H6, H7, H8 (DW): (M 2 + O 1 + T 1) * 2 = 8.
    # With M a joker: (0 + 1 + 1) * 2 = 4. On H4 (a DL) a joker M would still be 0.
    assert check_move(EMPTY, Rack("MOTAAAA"), "H6", "MOT").score == 8
    joker = check_move(EMPTY, Rack("?OTAAAA"), "H6", "mOT")
    assert joker.score == 4
    assert joker.jokers_as == ("M",)
    assert joker.word == "mOT"
    assert not joker.joker_inferred


def test_uppercase_letter_missing_uses_a_free_joker_at_the_lowest_reading() -> None:
    # H5 "KAKI" covers H5..H8 (H8 = DW); the rack K, A, I, ? lacks a second K.
    # Joker as the first K: (0 + 1 + 10 + 1) * 2 = 24; as the second K: (10 + 1 + 0 + 1) * 2
    # = 24. Now "KAKIS" at H4 (DL under the first K), covering H4..H8:
    # joker on H4: (0 + 1 + 10 + 1 + 1) * 2 = 26; joker on H6: (10*2 + 1 + 0 + 1 + 1) * 2 = 46.
    # The checker pays the lowest reading, 26, and says it chose the joker.
    move = check_move(EMPTY, Rack("KAIS?"), "H4", "KAKIS")
    assert move.score == 26
    assert move.joker_inferred
    assert move.jokers_as == ("K",)
    assert move.word == "kAKIS"
    circled = check_move(EMPTY, Rack("KAIS?"), "H4", "KAkIS")
    assert circled.score == 46
    assert not circled.joker_inferred


def test_seven_tiles_get_fifty_after_multipliers() -> None:
    # H2 "RETINAS": R on H2, E on H3, T on H4 (DL) 1*2, I, N, A, S on H8 (DW):
    # 1 + 1 + 2 + 1 + 1 + 1 + 1 = 8, times 2 = 16, then +50 for seven tiles = 66.
    move = check_move(EMPTY, Rack("AEINRST"), "H2", "RETINAS")
    assert move.score == 66
    assert move.placed == 7


def test_two_triple_words_multiply_by_nine() -> None:
    # U on A4 (a DL, covered earlier) with N under it on B4. Play A1 "ZAOUIRE" + "E" on A8:
    # Z on A1 (TW) 10, A 1, O 1, U existing 1 (its DL no longer counts), I 1, R 1, E 1,
    # E on A8 (TW) 1 -> 17, times 3 * 3 = 153; 7 tiles placed -> +50 = 203.
    board = board_with((0, 3, "U", True), (1, 3, "N", True))
    move = check_move(board, Rack("ZAOIREE"), "A1", "ZAOUIREE")
    assert move.score == 203
    assert move.placed == 7
    assert move.words[0].score == 153


def test_covered_premium_scores_plain_value() -> None:
    # H4 is a DL already covered by the M of MOITAI. 4G vertical "EM":
    # E on G4 (plain) 1 + M on H4 (covered earlier, plain) 2 -> 3.
    move = check_move(MOITAI, Rack("EAAAAAA"), "4G", "EM")
    assert move.score == 3


def test_dictionary_reported_separately() -> None:
    move = check_move(MOITAI, Rack("ESAAAAA"), "I5", "ES", lexicon=Words("ES", "OE"))
    assert move.words_checked
    assert move.invalid_words == ("IS",)
    assert not move.valid
    blind = check_move(MOITAI, Rack("ESAAAAA"), "I5", "ES")
    assert not blind.words_checked and blind.invalid_words == ()


@pytest.mark.parametrize(
    ("board", "rack", "ref", "word", "code"),
    [
        (EMPTY, "AEIIMOT", "P1", "MOT", "reference.row"),
        (EMPTY, "AEIIMOT", "H14", "MOITAI", "move.off_board"),
        (EMPTY, "AEIIMOT", "H1", "MOT", "move.first_not_centre"),
        (MOITAI, "AEIIMOT", "H4", "MOITAI", "move.no_tile"),
        (MOITAI, "AEIIMOT", "H4", "MAIS", "move.clash"),
        (MOITAI, "AEIIMOT", "A1", "MOT", "move.not_connected"),
        (MOITAI, "AEIIMOT", "H10", "MOT", "move.adjacent"),
        (MOITAI, "BCDFGHJ", "6F", "WAI", "move.letters"),
        (MOITAI, "AEEGIPW", "6F", "wAI", "move.jokers"),
        (MOITAI, "AEEGIPW", "6F", "W4I", "word.character"),
        (MOITAI, "AEEGIPW", "6F", "W", "word.too_short"),
    ],
)
def test_refusals_carry_a_code_and_a_sentence(board, rack, ref, word, code) -> None:
    with pytest.raises(EngineError) as caught:
        check_move(board, Rack(rack), ref, word)
    assert caught.value.code == code
    assert len(str(caught.value)) > 10


def test_accents_are_folded_and_board_jokers_kept_lowercase() -> None:
    board = board_with((7, 5, "MeR", True))  # H6 MeR with a joker E on H7
    # 6G vertical "ÉMU": E on G6 1, M existing 2, U on I6 1 -> 4 (no premium on G6, I6).
    move = check_move(board, Rack("EUAAAAA"), "6G", "ÉMU")
    assert move.score == 4
    # Extending MeR to MeRE at H6: joker keeps value 0: M 2 + 0 + R 1 + E on H9 1 = 4.
    move = check_move(board, Rack("EAAAAAA"), "H6", "MERE")
    assert move.word == "MeRE"
    assert move.score == 4
