"""Rack validity (§1.2, §10 cases 1–2), rack notation (N5) and typed racks."""

import pytest

from engine.bag import Bag
from engine.duplicate.racks import (
    DrawContext,
    PredrawnSource,
    format_rack,
    meets_minimum,
    minimum_failure,
    parse_typed_rack,
    required_minimum,
)
from engine.errors import EngineError

FULL = Bag.full().tiles()


# §10 case 1, m = 2 ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("rack", "ok"),
    [
        ("AEIBCDF", True),
        ("AEIOUBS", True),
        ("AEIOUYB", True),  # Y counted as the second consonant
        ("ABCDFGH", False),  # one vowel, no flexible tile
        ("A?BCDFG", True),  # ? as the second vowel
        ("Y?BCDFG", True),  # Y and ? as the two vowels
        ("Y??BCDF", True),
    ],
)
def test_case_1_minimum_two_and_two(rack: str, ok: bool) -> None:
    assert meets_minimum(rack, 2) is ok


# §10 case 2, m = 1 after move 15 ------------------------------------------------------------
@pytest.mark.parametrize(("rack", "ok"), [("BCDFGHA", True), ("BCDFGHJ", False)])
def test_case_2_minimum_one_and_one(rack: str, ok: bool) -> None:
    assert meets_minimum(rack, 1) is ok


def test_case_2_move_15_still_needs_two_and_move_16_one() -> None:
    assert required_minimum(15, FULL) == 2
    assert required_minimum(16, FULL) == 1
    assert minimum_failure("BCDFGHA", required_minimum(15, FULL), 15) is not None
    assert minimum_failure("BCDFGHA", required_minimum(16, FULL), 16) is None


def test_each_flexible_tile_counts_on_one_side_only() -> None:
    # {A, B, ?} with m = 2: the joker can give the 2nd vowel or the 2nd consonant, not both
    # (Eliot, counting it on both sides, would accept; the FISF reading refuses).
    assert not meets_minimum("AB?", 2)
    assert meets_minimum("AB??", 2)
    assert meets_minimum("YB", 1)
    assert not meets_minimum("BC", 1)


def test_relaxed_minimum_when_the_tiles_left_cannot_give_two_and_two() -> None:
    # Only one vowel left among everything unplayed: 2+2 is impossible, 1+1 applies (R1.5).
    assert required_minimum(5, "ABCDFGHJKLMN") == 1
    # With a Y the second vowel exists: 2+2 still applies.
    assert required_minimum(5, "ABCDFGHJKLMNY") == 2


@pytest.mark.parametrize(
    ("rack", "m", "number", "sentence"),
    [
        ("ABCDFGH", 2, 7, "only 1 vowel: move 7 needs 2 vowels and 2 consonants"),
        ("BCDFGHJ", 1, 16, "no vowel: move 16 needs 1 vowel and 1 consonant"),
        ("AEIOUEB", 2, 3, "only 1 consonant: move 3 needs 2 vowels and 2 consonants"),
        ("AEIOUEA", 2, 3, "no consonant: move 3 needs 2 vowels and 2 consonants"),
        ("AB?", 2, 20, "1 vowel, 1 consonant and 1 Y or joker: move 20 needs 2 vowels and 2 "
         "consonants"),
    ],
)  # fmt: skip
def test_minimum_failure_sentences(rack: str, m: int, number: int, sentence: str) -> None:
    assert minimum_failure(rack, m, number) == sentence


def test_rack_notation() -> None:
    assert format_rack("", "EPSHM?W") == "EPSHM?W"
    assert format_rack("W", "EPS?HM") == "W+EPS?HM"
    assert format_rack("ME", "EQ?DA") == "EM+EQ?DA"  # reliquat in alphabetical order
    assert format_rack("?A", "BC") == "A?+BC"  # joker last
    assert format_rack("", "ECULUQT", after_rejection=True) == "-ECULUQT"


# Typed racks ---------------------------------------------------------------------------------
def test_typed_rack_forms() -> None:
    assert parse_typed_rack("EPS?HMW", reliquat="", joker="", needed=7) == "EPS?HMW"
    # new letters only, the full rack without '+', and RELIQUAT+NEW all give the new letters
    assert parse_typed_rack("eps", reliquat="WXYZ", joker="", needed=3) == "EPS"
    assert parse_typed_rack("ZYXWEPS", reliquat="WXYZ", joker="", needed=3) == "EPS"
    assert parse_typed_rack("WXZY+EPS", reliquat="WXYZ", joker="", needed=3) == "EPS"
    assert parse_typed_rack("-ÉPS", reliquat="WXYZ", joker="", needed=3) == "EPS"
    # the joker game's own joker may be typed or not
    assert parse_typed_rack("?ABCDEF", reliquat="", joker="?", needed=6) == "ABCDEF"
    assert parse_typed_rack("ABCDEF", reliquat="", joker="?", needed=6) == "ABCDEF"
    assert parse_typed_rack("E+?ABCDF", reliquat="E", joker="?", needed=5) == "ABCDF"


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("AB1", "rack.character"),
        ("WX+EPS", "rack.reliquat"),
        ("EPSA", "rack.count"),
        ("EP", "rack.count"),
        ("A+B+C", "rack.character"),
    ],
)
def test_typed_rack_errors(text: str, code: str) -> None:
    with pytest.raises(EngineError) as info:
        parse_typed_rack(text, reliquat="WXYZ", joker="", needed=3)
    assert info.value.code == code


def _ctx(index: int, attempt: int, reliquat: str = "", needed: int = 7) -> DrawContext:
    return DrawContext(index, index + 1, attempt, reliquat, "", needed, Bag.full())


def test_predrawn_source_gives_each_round_its_racks() -> None:
    source = PredrawnSource.from_text("# a comment\nABCDFGH AEIBCDF\nAE+STU  # kept\n")
    assert source.new_letters(_ctx(0, 0)) == "ABCDFGH"
    assert source.new_letters(_ctx(0, 1)) == "AEIBCDF"
    with pytest.raises(EngineError) as info:  # the file rejected ABCDFGH: keeping it is a mismatch
        source.check(_ctx(0, 0), accepted=True)
    assert info.value.code == "predrawn.accepted"
    assert source.new_letters(_ctx(1, 0, "AE", 3)) == "STU"
    with pytest.raises(EngineError) as info:
        source.new_letters(_ctx(2, 0))
    assert info.value.code == "predrawn.exhausted"
