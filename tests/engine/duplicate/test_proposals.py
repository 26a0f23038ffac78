"""Scoring one proposal (rules §4.1–4.4, §10 cases 6 and 9); every value computed by hand.

Board premiums used below (§9 A3): TW A1 A8 H1; DW H8; TL F6; DL A4 G7 G9 H4 I7 I9 H12.
"""

import pytest

from engine.board import Board, Rack
from engine.duplicate.proposals import Outcome, Proposal, ScoringSettings, score_proposal
from engine.errors import EngineError
from tests.engine.builders import EMPTY, Words, board_with

REQUIRED = ScoringSettings(score_required=True)
FREE = ScoringSettings(score_required=False)  # club training: no score asked


# H4 MOITAI: M H4, O H5, I H6, T H7, A H8, I H9 (the first top of conformance p0000).
MOITAI = board_with((7, 3, "MOITAI", True))


LEXICON = Words(
    "MOITAI", "MOITAIS", "WAI", "BAS", "ES", "IS", "OE", "ETE", "TETE", "KIF", "AMI", "ZOO",
    "KAKIS", "RESTAURE", "OS", "SA",
)  # fmt: skip


def judge(
    word: str,
    reference: str = "",
    claimed: int | None = None,
    *,
    board: Board = MOITAI,
    rack: str = "AEEGIPW",
    top: int = 50,
    settings: ScoringSettings | None = None,
    lexicon: Words = LEXICON,
    late: bool = False,
    top_move: tuple[str, str] | None = None,
) -> Outcome:
    return score_proposal(
        board=board,
        rack=Rack(rack),
        round_number=1 if board.is_empty() else 2,
        top_score=top,
        proposal=Proposal(word, reference, claimed, late=late),
        lexicon=lexicon,
        settings=settings or FREE,
        top_move=top_move,
    )


# --- §10 case 6: scoring, through proposals -------------------------------------------


def test_joker_on_a_double_letter_scores_zero() -> None:
    # 7G "eTE": joker E on G7 (DL) 0, T already on H7 1, E on I7 (DL) 1*2 = 2 -> 3.
    # With a real E on G7 it would be 2 + 1 + 2 = 5.
    outcome = judge("eTE", "7G", 3, rack="?EAAAAA", settings=REQUIRED)
    assert (outcome.kind, outcome.score, outcome.code) == ("valid", 3, "ok")
    assert judge("ETE", "7G", 5, rack="EEAAAAA").score == 5


def test_two_triple_words_and_bingo_after_the_multipliers() -> None:
    # Board: ANE down from A5. A1 RESTAURE uses the A on A5 and places 7 tiles:
    # R A1 (TW) 1, E 1, S 1, T A4 (DL) 2, A (board) 1, U 1, R 1, E A8 (TW) 1 = 9;
    # ×3 ×3 = 81; +50 for seven tiles after the multipliers = 131 (not (9 + 50) × 9).
    board = board_with((0, 4, "ANE", False))
    outcome = judge("RESTAURE", "A1", 131, board=board, rack="RESTURE", top=131)
    assert outcome.score == 131
    assert outcome.code == "ok"


def test_a_premium_square_already_covered_scores_plain() -> None:
    # 8G BAS: B on G8 3, A already on H8 (the DW star, used by move 1) 1, S on I8 1 -> 5.
    assert judge("BAS", "8G", rack="BSEEEEE").score == 5


# --- valid, warnings ------------------------------------------------------------------


def test_valid_proposal_names_words_and_reference() -> None:
    # 6F WAI: W on F6 (TL) 30, A on G6 1, I on H6 1 -> 32.
    outcome = judge("WAI", "6F", 32, settings=REQUIRED)
    assert (outcome.kind, outcome.code, outcome.score, outcome.raw_score) == ("valid", "ok", 32, 32)
    assert outcome.reference == "6F"
    assert outcome.words == ("WAI",)
    assert outcome.reason == "WAI at 6F scores 32."


def test_wrong_claimed_score_with_required_entry_pays_the_exact_score() -> None:
    outcome = judge("WAI", "6F", 30, settings=REQUIRED)
    assert (outcome.kind, outcome.code, outcome.score) == ("warning", "warning.score_wrong", 32)
    assert outcome.params["claimed"] == 30
    # WAI is the top chosen (32): a wrong score on it needs no correction slip (§5.9);
    # on another word worth the top, or with no top named, the slip is sent.
    kw = dict(top=32, settings=REQUIRED)
    assert judge("WAI", "6F", 30, top_move=("6F", "WAI"), **kw).params["slip_optional"] is True
    assert "slip_optional" not in judge("WAI", "6F", 30, top_move=("H4", "MOITAIS"), **kw).params
    assert "slip_optional" not in judge("WAI", "6F", 30, **kw).params


def test_missing_score_warns_only_when_scores_are_required() -> None:
    assert judge("WAI", "6F", settings=REQUIRED).code == "warning.score_missing"
    outcome = judge("WAI", "6F")
    assert (outcome.kind, outcome.score) == ("valid", 32)
    assert judge("WAI", "6F", 30).code == "ok"  # a score not required is not judged


def test_inverted_reference_is_a_warning_and_pays_the_valid_reading() -> None:
    # "F6" reads horizontally (F6 F7 F8): nowhere near a letter. 6F, vertical, gives 32.
    outcome = judge("WAI", "F6", 32)
    assert (outcome.kind, outcome.code, outcome.score) == (
        "warning",
        "warning.inverted_reference",
        32,
    )
    assert outcome.reference == "6F"


# Both ways from one square: a lone A on H9. "OS" from G8:
#   G8 across: O G8 1 + S G9 (DL) 2 = 3, cross SA: S 2 + A 1 = 3 -> 6;
#   8G down:   O G8 1 + S H8 (DW) 1 = 2 ×2 = 4, cross SA across: (S 1 + A 1) ×2 = 4 -> 8.
LONE_A = board_with((7, 8, "A", True))


def test_both_ways_the_claimed_score_picks_the_direction() -> None:
    kw = dict(board=LONE_A, rack="OSLLLLL", settings=REQUIRED)
    assert (judge("OS", "G8", 6, **kw).code, judge("OS", "G8", 6, **kw).score) == ("ok", 6)
    other = judge("OS", "G8", 8, **kw)
    assert (other.code, other.score, other.reference) == ("warning.inverted_reference", 8, "8G")


def test_both_ways_with_a_wrong_score_pays_the_written_place() -> None:
    # The written reference is a correct location: its exact score, with a warning (§5.5).
    kw = dict(board=LONE_A, rack="OSLLLLL", settings=REQUIRED)
    for reference, score in (("G8", 6), ("8G", 8)):
        outcome = judge("OS", reference, 7, **kw)
        assert (outcome.code, outcome.score, outcome.reference) == (
            "warning.score_wrong", score, reference)  # fmt: skip
        assert outcome.params["both_ways"] is True
    # Scores not required and none given: the written reading stands.
    assert judge("OS", "8G", board=LONE_A, rack="OSLLLLL").score == 8


# 7H TETE: T on H7 (board), E on I7 (DL), T on J7, E on K7; the rack ?ET has one E.
#   joker on I7: 1 + 0 + 1 + 1 = 3; joker on K7: 1 + 2 + 1 + 0 = 4.
def test_joker_not_circled_pays_the_minimum_or_the_claimed_circling() -> None:
    outcome = judge("TETE", "7H", rack="?ETAAAA")
    assert (outcome.code, outcome.score, outcome.word) == ("warning.joker_not_circled", 3, "TeTE")
    outcome = judge("TETE", "7H", 4, rack="?ETAAAA")
    assert (outcome.code, outcome.score, outcome.word) == ("warning.joker_not_circled", 4, "TETe")


def test_joker_circled_well_or_badly() -> None:
    assert judge("TETe", "7H", 4, rack="?ETAAAA", settings=REQUIRED).code == "ok"
    # Marked on I7 but the 4 claimed is the other circling: paid 4, wrong circle (§5.3.1).
    outcome = judge("TeTE", "7H", 4, rack="?ETAAAA")
    assert (outcome.code, outcome.score) == ("warning.joker_wrong_circle", 4)
    # Marked on I7, score wrong: the marked circling is exact (3) with a score warning.
    outcome = judge("TeTE", "7H", 10, rack="?ETAAAA", settings=REQUIRED)
    assert (outcome.code, outcome.score) == ("warning.score_wrong", 3)


def test_extension_of_a_board_word_ignores_the_reference() -> None:
    # N9: MOITAIS extends MOITAI whatever the reference: S on H10 -> 2+1+1+1+1+1+1 = 8.
    outcome = judge("MOITAIS", "H5", 8, rack="SEEEEEE", settings=REQUIRED)
    assert (outcome.code, outcome.score, outcome.reference) == ("ok", 8, "H4")
    assert outcome.params["reference_ignored"] is True


# --- 5-point penalty (§10 case 9) -----------------------------------------------------


def test_claimed_score_found_elsewhere_costs_five_points() -> None:
    # 6G is wrong (W would land on I of H6); 6F, vertical too, is worth the 32 claimed.
    outcome = judge("WAI", "6G", 32)
    assert (outcome.kind, outcome.code, outcome.score, outcome.raw_score) == (
        "penalty",
        "penalty.wrong_reference",
        27,
        32,
    )
    assert outcome.reference == "6F"
    missing = judge("WAI", "", 32)
    assert (missing.code, missing.score) == ("penalty.missing_reference", 27)


def test_penalty_on_a_solution_worth_four_or_less_is_a_zero() -> None:
    # 4G AMI: A on G4 1, M on H4 (board, DL already used) 2, I on I4 1 -> 4. 4F clashes.
    outcome = judge("AMI", "4F", 4, rack="AIEEEEE")
    assert (outcome.kind, outcome.code, outcome.score, outcome.raw_score) == (
        "zero",
        "zero.penalty_small",
        0,
        4,
    )


def test_penalty_wins_when_it_pays_more_than_the_written_place() -> None:
    # 6G KIF: K G6 10 + I 1 + F I6 4 = 15. 9G KIF: K G9 (DL) 20 + I 1 + F I9 (DL) 8 = 29.
    # Written 6G with 29 claimed: 15 with a warning, or 29 - 5 = 24 at 9G: 24 is kept.
    outcome = judge("KIF", "6G", 29, rack="KFAEEEE")
    assert (outcome.code, outcome.score, outcome.reference) == ("penalty.wrong_reference", 24, "9G")
    assert judge("KIF", "6G", 15, rack="KFAEEEE").score == 15


# --- zeros ----------------------------------------------------------------------------


def test_zero_for_a_word_not_in_the_dictionary() -> None:
    outcome = judge("WAI", "6F", 32, lexicon=Words("MOITAI"))
    assert (outcome.kind, outcome.code, outcome.score, outcome.raw_score) == (
        "zero",
        "zero.invalid_word",
        0,
        0,
    )
    assert outcome.invalid_words == ("WAI",)
    assert outcome.proposed_score == 32
    assert outcome.reason == "WAI is not in the dictionary: 0."


def test_zero_names_the_invalid_cross_word() -> None:
    # I5 ES forms OE (O of H5 over E) and IS (I of H6 over S); OE is refused.
    outcome = judge("ES", "I5", rack="ESAAAAA", lexicon=Words("ES", "IS"))
    assert (outcome.code, outcome.invalid_words) == ("zero.invalid_word", ("OE",))
    assert "OE is not in the dictionary" in outcome.reason


def test_zero_for_placement_letters_tiles_reference_proposal_and_lateness() -> None:
    assert judge("ZOO", "A1", rack="ZOOAAAA").code == "zero.placement"
    assert judge("ZOO", "A1", rack="ZOOAAAA").params["error"] == "move.not_connected"
    letters = judge("WAI", "6F", rack="AEEGIPS")
    assert (letters.code, letters.params["error"]) == ("zero.letters", "move.letters")
    tiles = judge("BAS", "8G", rack="BSEEEEE", settings=ScoringSettings(max_tiles=1))
    assert tiles.code == "zero.too_many_tiles"
    assert judge("WAI", "").code == "zero.no_reference"
    assert judge("WAI", "P1").code == "zero.placement"  # an unreadable reference
    assert judge("").code == "zero.no_proposal"
    assert judge("WAI", "6F", 32, late=True).code == "zero.late"
    for outcome in (letters, tiles, judge("")):
        assert (outcome.kind, outcome.score) == ("zero", 0)


# --- entry errors ---------------------------------------------------------------------


def test_claimed_score_above_the_top_is_a_wrong_score_never_a_refusal() -> None:
    # §4.3: the exact score at the written place, with a warning; nothing names the top.
    outcome = judge("WAI", "6F", 40, top=32, settings=REQUIRED)
    assert (outcome.kind, outcome.code, outcome.score) == ("warning", "warning.score_wrong", 32)
    assert "top" not in outcome.params
    # §4.2: a move worth more than the top can only come from a typing error: 0.
    computed = judge("WAI", "6F", 32, top=30)
    assert (computed.kind, computed.code, computed.score) == ("zero", "zero.above_top", 0)
    assert "30" not in computed.reason


def test_bad_characters_and_sources_are_refused() -> None:
    with pytest.raises(EngineError) as word:
        judge("WA1", "6F")
    assert word.value.code == "word.character"
    with pytest.raises(EngineError) as source:
        score_proposal(
            board=MOITAI, rack=Rack("AEEGIPW"), round_number=2, top_score=50,
            proposal=Proposal("WAI", "6F", source="phone"), lexicon=LEXICON,
        )  # fmt: skip
    assert source.value.code == "proposal.source"


# --- move 1 ---------------------------------------------------------------------------


def test_first_move_wrong_reference_is_never_penalised() -> None:
    # MOITAI through H8: H4 (M on the DL) (4+5) ×2 = 18 is the maximum (H3 16, H8 14).
    for reference in ("A1", "8H", "", "H8"):
        outcome = judge("MOITAI", reference, 18, board=EMPTY, rack="AEIIMOT", settings=REQUIRED)
        assert (outcome.code, outcome.score, outcome.reference) == ("ok", 18, "H4")


def test_first_move_score_missing_or_not_the_maximum_is_a_warning() -> None:
    kw = dict(board=EMPTY, rack="AEIIMOT", settings=REQUIRED)
    assert judge("MOITAI", "H8", 14, **kw).code == "warning.score_wrong"
    assert judge("MOITAI", "H8", 14, **kw).score == 18
    assert judge("MOITAI", **kw).code == "warning.score_missing"
    assert judge("MOITAI", board=EMPTY, rack="AEIIMOT", settings=FREE).code == "ok"


def test_first_move_joker_pays_the_maximum_circling() -> None:
    # KAKIS with K A I S ?: joker on the K of H6 and the real K on H4 (DL):
    # (20 + 1 + 0 + 1 + 1) ×2 = 46, the maximum (the other circling gives 26).
    kw = dict(board=EMPTY, rack="KAIS?EE")
    outcome = judge("KAKIS", "", 46, **kw)
    assert (outcome.code, outcome.score, outcome.word) == ("warning.joker_not_circled", 46, "KAkIS")
    assert judge("KAkIS", "H4", 46, **kw).code == "ok"
    wrong = judge("kAKIS", "H4", 26, **kw)
    assert (wrong.code, wrong.score) == ("warning.joker_wrong_circle", 46)


def test_first_move_letters_and_invalid_word() -> None:
    assert judge("MOITAI", board=EMPTY, rack="AEIIMOS").code == "zero.letters"
    assert judge("TAIMOI", board=EMPTY, rack="AEIIMOT").code == "zero.invalid_word"


# --- Issue 15: a zero names the fault where the player wrote the word --------------------

# The demo game before its round 5 (seed 20250104): H4 DALOTS, 5D JACTAMeS, J4 DeLIIEZ,
# 6A NOUES; rack OUR?NIE, whose top is A2 hURONIEN.
DEMO_ROUND_5 = board_with(
    (7, 3, "DALOTS", True), (3, 4, "JACTAMeS", False), (9, 3, "DeLIIEZ", True),
    (0, 5, "NOUES", False),
)  # fmt: skip
HURONIEN = Words("HURONIEN", "NOUES", "DALOTS", "JACTAMES", "DELIIEZ")


def test_a_shifted_reference_is_a_placement_fault_as_typed() -> None:
    # A3 hURONIEN (horizontal, one square right of the top): its 4th letter, O, falls on
    # A6, which holds the N of NOUES: an "erreur de grille" (§4.2). The zero says so, with
    # the reference and the word as typed (the circled joker kept), not the rack letters
    # that the other direction, 3A, would lack.
    top = judge("hURONIEN", "A2", rack="OUR?NIE", board=DEMO_ROUND_5, lexicon=HURONIEN, top=80)
    assert (top.kind, top.reference) == ("valid", "A2")  # through the N of NOUES on A6
    outcome = judge("hURONIEN", "A3", rack="OUR?NIE", board=DEMO_ROUND_5, lexicon=HURONIEN)
    assert (outcome.kind, outcome.score, outcome.code) == ("zero", 0, "zero.placement")
    assert (outcome.reference, outcome.word) == ("A3", "hURONIEN")
    assert outcome.params["error"] == "move.clash"
    assert (outcome.params["square"], outcome.params["letter"]) == ("A6", "O")
    assert outcome.reason.startswith("hURONIEN cannot be played at A3: 0.")
    # Written 3A (vertical down column 3), the fault is the rack's: 8 letters from 7 tiles.
    down = judge("hURONIEN", "3A", rack="OUR?NIE", board=DEMO_ROUND_5, lexicon=HURONIEN)
    assert (down.code, down.reference, down.word) == ("zero.letters", "3A", "hURONIEN")
