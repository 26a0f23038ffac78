"""End of game (§1.4, §10 case 4) and the search for another drawable rack (E2/E4)."""

import pytest

from engine.duplicate.endgame import end_before_draw, other_rack_exists


# §10 case 4 -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("remaining", "code"),
    [
        ("BC", "E3"),
        ("YB", None),  # Y counts as the vowel
        ("?", "E3"),  # a single tile, whatever it is
        ("E?", None),
        ("", "E1"),
        ("??", None),  # each joker on one side
        ("E", "E3"),
        ("AEIOU", "E3"),
        ("BCDFGHJKLMN", "E3"),
        ("BCDFGHJKLMNA", None),
    ],
)
def test_case_4_end_of_game(remaining: str, code: str | None) -> None:
    end = end_before_draw(remaining)
    assert (end.code if end else None) == code


def test_end_sentence_names_the_rule() -> None:
    assert end_before_draw("BC").sentence() == (
        "Game over, E3: the tiles left cannot make a rack with a vowel and a consonant."
    )


def test_another_rack_exists_unless_every_rack_is_excluded() -> None:
    # 7 tiles left: the only rack is all of them (E4 after cancelling it).
    assert not other_rack_exists("ABCDEFG", 7, 1, {"ABCDEFG"})
    assert other_rack_exists("ABCDEFG", 7, 1, set())
    # 8 tiles: 8 different racks of 7, excluding one leaves others.
    assert other_rack_exists("ABCDEFGH", 7, 1, {"ABCDEFG"})
    # Racks of 7 from ABCDEFGH that keep a vowel (A or E): dropping A or E still leaves one.
    every = {"BCDEFGH", "ACDEFGH", "ABDEFGH", "ABCEFGH", "ABCDFGH", "ABCDEGH", "ABCDEFH"}
    assert other_rack_exists("ABCDEFGH", 7, 1, every)  # ABCDEFG is still possible
    assert not other_rack_exists("ABCDEFGH", 7, 1, every | {"ABCDEFG"})


def test_another_rack_must_meet_the_minimum() -> None:
    # Tiles left: A, E and six consonants; racks of 7 with 2+2 need both A and E.
    pool = "AEBCDFGH"
    valid = {"AEBCDFG", "AEBCDFH", "AEBCDGH", "AEBCFGH", "AEBDFGH", "AECDFGH"}
    canon = {"".join(sorted(r)) for r in valid}
    assert other_rack_exists(pool, 7, 2, canon - {min(canon)})
    assert not other_rack_exists(pool, 7, 2, canon)


def test_fixed_tiles_are_part_of_every_rack() -> None:
    # Joker game: the joker is always on the rack; the pool gives the 6 others.
    assert other_rack_exists("BCDFGH", 6, 1, set(), fixed="?")
    assert not other_rack_exists("BCDFGH", 6, 1, {"BCDFGH?"}, fixed="?")
