"""Every bulletin case of docs/rules-scoring.md's table, one test row each, on a real board.

The board is round 2 of ``python -m engine play --seed 1`` (fr-libre lexicon): move 1 put
ADONIsA on H3–H9 (A H3, D H4, O H5, N H6, I H7, joker s H8, A H9); the rack is NANMEEE and
the top G6 AMENEE 21. The word list is a stand-in holding the words the rows need, so every
value below is computed by hand from the premiums (§9 A3: DL G3 G7 G9 G13; the DW of H8 and
the DL of H4 were used by move 1):

* MENA G3: M G3 (DL) 4 + E 1 + N 1 + A 1 = 7; crosses MA 4+1, ED 1+2, NO 1+1, AN 1+1 = 12 -> 19
* MENA G7: M G7 (DL) 4 + E 1 + N G9 (DL) 2 + A 1 = 8; MI 4+1, Es 1+0, NA 2+1 = 9 -> 17
* MENA G9: M (DL) 4 + E + N + A = 7; MA 4+1 = 5 -> 12; MENA 3E and 9E: 2+1+2+1 = 6 (no cross)
* MENA G4 forms MD, EO, NN (and AI): invalid pairs, the shifted-reference case of the issue
* AMENE G2: A 1 + M G3 (DL) 4 + E + N + E = 8; MA 5, ED 3, NO 2, EN 2 -> 20
* MANNE G9: M G9 (DL) 4 + A + N + N + E G13 (DL) 2 = 9; MA 5 -> 14;
  MANNE 9G: M G9 (DL) 4 + A H9 1 + N I9 (DL) 2 + N 1 + E 1 = 9
* AMENEE G6 (the top): A 1 + M G7 (DL) 4 + E + N G9 (DL) 2 + E + E = 10; AN 2, MI 5, Es 1,
  NA 3 -> 21
* NA 3G: N G3 (DL) 2 + A H3 1 = 3
Move 1 rows use the round-1 rack ODA?ANI on the empty board: H3 ADONIsA = (1 + D on H4 (DL)
4 + 1 + 1 + 1 + s 0 + 1) x2 on H8 = 18, +50 = 68, the maximum; AIDA scores (1+1+2+1) x2 = 10
from every start (no DL within reach).
"""

from __future__ import annotations

import pytest

from engine.board import Rack
from engine.duplicate.proposals import Outcome, Proposal, ScoringSettings, score_proposal
from tests.engine.builders import EMPTY, Words, board_with

BOARD = board_with((7, 2, "ADONIsA", True))
RACK, TOP, TOP_MOVE = "NANMEEE", 21, ("G6", "AMENEE")
LEXICON = Words(
    "ADONISA", "AMENEE", "MENA", "AMENE", "MANNE", "AIDA",
    "GENE", "MA", "ED", "NO", "AN", "MI", "ES", "NA", "EN", "AI",
)  # fmt: skip


def judge(
    word: str = "",
    reference: str = "",
    claimed: int | None = None,
    *,
    first: bool = False,
    top: int = TOP,
    score_required: bool = True,
    **extra,
) -> Outcome:
    return score_proposal(
        board=EMPTY if first else BOARD,
        rack=Rack("ODA?ANI" if first else RACK),
        round_number=1 if first else 2,
        top_score=68 if first else top,
        proposal=Proposal(word, reference, claimed, **extra),
        lexicon=LEXICON,
        settings=ScoringSettings(score_required=score_required),
        top_move=("H3", "ADONIsA") if first else TOP_MOVE,
    )


def slip(word: str, reference: str = "", claimed: int | None = None, **kw) -> Proposal:
    return Proposal(word, reference, claimed, source="arbiter", **kw)


# (row id of the docs table, the slip, expected (kind, code, score, reference, review)).
ROWS = [
    # §4.2 zeros
    ("Z1", dict(), ("zero", "zero.no_proposal", 0, "", "")),
    ("Z2", dict(word="MENA", reference="G3", claimed=19, late=True),
     ("zero", "zero.late", 0, "", "")),
    ("Z3", dict(word="NAME", reference="G3", claimed=19),
     ("zero", "zero.invalid_word", 0, "G3", "")),
    ("Z4", dict(word="MENA", reference="G4"), ("zero", "zero.invalid_word", 0, "G4", "")),
    ("Z5", dict(word="MENA", reference="A1"), ("zero", "zero.placement", 0, "A1", "")),
    ("Z6", dict(word="GENE", reference="G3", claimed=10), ("zero", "zero.letters", 0, "G3", "")),
    ("Z7", dict(word="MENA", reference="G3", claimed=19, others=(slip("NAME", "G3"),)),
     ("zero", "zero.several_solutions", 0, "G3", "several_solutions")),
    ("Z8", dict(word="MENA", reference="G4", claimed=19),
     ("penalty", "penalty.wrong_reference", 14, "G3", "fallacieux")),
    ("Z9", dict(word="NA", reference="9F", claimed=3), ("zero", "zero.penalty_small", 0, "3G", "")),
    ("Z10", dict(word="MENA", reference="G3", claimed=19, top=18),
     ("zero", "zero.above_top", 0, "G3", "")),
    ("Z11", dict(word="MENA", reference="G3", claimed=19, illegible=True),
     ("zero", "zero.illegible", 0, "G3", "illegible")),
    # §4.3 warnings
    ("W1", dict(word="AIDA", reference="H8", claimed=12, first=True),
     ("warning", "warning.score_wrong", 10, "H5", "")),
    ("W2", dict(word="ADONISA", claimed=68, first=True),
     ("warning", "warning.joker_not_circled", 68, "H3", "")),
    ("W3", dict(word="MENA", reference="G3"), ("warning", "warning.score_missing", 19, "G3", "")),
    ("W4", dict(word="MANNE", reference="G9", claimed=15),
     ("warning", "warning.score_wrong", 14, "G9", "")),
    ("W5", dict(word="MENA", reference="G3", claimed=25),
     ("warning", "warning.score_wrong", 19, "G3", "")),
    ("W6", dict(word="MENA", claimed=19, connecting="AD"),
     ("warning", "warning.few_connecting", 19, "G3", "")),
    ("W7", dict(word="MENA", reference="G4", claimed=19, connecting="ADON"),
     ("warning", "warning.location_modes", 19, "G3", "")),
    ("W8", dict(word="AMENE", reference="2G", claimed=20),
     ("warning", "warning.inverted_reference", 20, "G2", "")),
    ("W9", dict(word="MANNE", reference="G9", claimed=9),
     ("warning", "warning.inverted_reference", 9, "9G", "")),
    ("W10", dict(word="AMENEE", reference="G6", claimed=20),
     ("warning", "warning.score_wrong", 21, "G6", "")),
    ("W11", dict(word="ADONISA", claimed=60, first=True),
     ("warning", "warning.joker_not_circled", 68, "H3", "")),
    ("W12", dict(word="MENA", reference="G3", claimed=19),
     ("valid", "ok", 19, "G3", "")),
    ("W13", dict(word="MENA", reference="G3", score_required=False),
     ("valid", "ok", 19, "G3", "")),
    # §4.4 penalty
    ("P1", dict(word="MENA", reference="G13", claimed=19),
     ("penalty", "penalty.wrong_reference", 14, "G3", "")),
    ("P2", dict(word="MENA", claimed=19), ("penalty", "penalty.missing_reference", 14, "G3", "")),
    ("P3", dict(word="MENA", reference="G9", claimed=19),
     ("penalty", "penalty.wrong_reference", 14, "G3", "")),
    ("P4", dict(word="MENA", claimed=17, connecting="A"),
     ("warning", "warning.few_connecting", 17, "G7", "")),
    ("P5", dict(word="MENA", connecting="A"),
     ("warning", "warning.few_connecting", 6, "3E", "connecting_places")),
    ("P6", dict(word="MENA", reference="G3", claimed=19, others=(slip("MANNE", "G9", 14),)),
     ("valid", "ok", 19, "G3", "several_solutions")),
]  # fmt: skip


@pytest.mark.parametrize(("row", "slip_fields", "expected"), ROWS, ids=[r[0] for r in ROWS])
def test_table_row(row: str, slip_fields: dict, expected: tuple) -> None:
    fields = dict(slip_fields)
    if fields.get("illegible") or fields.get("others") or fields.get("connecting"):
        fields["source"] = "arbiter"  # paper-only fields: an arbiter types the slip
    outcome = judge(**fields)
    got = (outcome.kind, outcome.code, outcome.score, outcome.reference, outcome.review)
    assert got == expected


def test_every_row_is_in_the_docs_table() -> None:
    from pathlib import Path

    table = (Path(__file__).resolve().parents[3] / "docs" / "rules-scoring.md").read_text()
    for row, *_ in ROWS:
        assert f"| {row} |" in table, row


# --- what the rows' outcomes carry beyond the code -----------------------------------


def test_z3_z4_name_the_invalid_words() -> None:
    assert judge("NAME", "G3", 19).invalid_words == ("NAME", "AD", "MO")
    assert judge("MENA", "G4").invalid_words == ("MD", "EO", "NN")


def test_z7_p6_several_solutions_offer_the_other_decision() -> None:
    refused = judge("MENA", "G3", 19, source="arbiter", others=(slip("NAME", "G3"),))
    assert (refused.alternative.code, refused.alternative.score) == ("ok", 19)
    kept = judge("MENA", "G3", 19, source="arbiter", others=(slip("MANNE", "G9", 14),))
    assert (kept.alternative.code, kept.alternative.score) == ("zero.several_solutions", 0)


def test_z8_fallacieux_defaults_to_minus_five_and_offers_the_zero() -> None:
    outcome = judge("MENA", "G4", 19)
    assert outcome.raw_score == 19  # solos compare the move's own value (§4.6)
    assert outcome.params["formed"] == ["MD", "EO", "NN"]
    assert (outcome.alternative.kind, outcome.alternative.code) == ("zero", "zero.invalid_word")
    assert outcome.alternative.invalid_words == ("MD", "EO", "NN")


def test_z9_keeps_the_raw_score_for_solos() -> None:
    assert judge("NA", "9F", 3).raw_score == 3


def test_z11_illegible_offers_the_reading_with_a_warning() -> None:
    outcome = judge("MENA", "G3", 19, source="arbiter", illegible=True)
    alternative = outcome.alternative
    assert (alternative.kind, alternative.code, alternative.score) == (
        "warning", "warning.hard_to_read", 19)  # fmt: skip


def test_w2_w11_mark_the_joker_and_pay_one_warning() -> None:
    assert judge("ADONISA", claimed=68, first=True).word == "ADONIsA"
    assert judge("ADONIsA", "H3", 68, first=True).code == "ok"


def test_w10_only_the_chosen_top_word_needs_no_correction_slip() -> None:
    assert judge("AMENEE", "G6", 20).params["slip_optional"] is True
    assert "slip_optional" not in judge("MENA", "G3", 18).params


def test_p5_connecting_letters_in_several_places_offer_the_highest() -> None:
    outcome = judge("MENA", connecting="A", source="arbiter")
    assert outcome.params["places"] == ["G3", "G7", "G9", "3E", "9E"]
    assert (outcome.alternative.score, outcome.alternative.reference) == (19, "G3")


def test_connecting_letters_matching_no_place_leave_the_reference_to_decide() -> None:
    # No valid MENA runs through a Z: as if only the reference were written (P1, P2).
    wrong = judge("MENA", "G13", 19, source="arbiter", connecting="Z")
    assert (wrong.code, wrong.score, wrong.reference) == ("penalty.wrong_reference", 14, "G3")
    none = judge("MENA", "", 19, source="arbiter", connecting="Z")
    assert (none.code, none.score) == ("penalty.missing_reference", 14)
