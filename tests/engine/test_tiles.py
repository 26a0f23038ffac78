"""The tile set and board layout checked against rules §9 A2–A3 (the computed checks there)."""

from engine import tiles


def test_bag_has_102_tiles_worth_197() -> None:
    assert sum(tiles.COUNTS.values()) == 102
    assert tiles.COUNTS["?"] == 2
    assert sum(tiles.COUNTS[ch] * tiles.VALUES[ch] for ch in tiles.COUNTS) == 197
    assert sum(tiles.COUNTS[v] for v in "AEIOU") == 44
    assert sum(tiles.COUNTS[c] for c in tiles.CONSONANTS) == 55


def test_premium_counts() -> None:
    # 61 premium squares: 24 DL, 12 TL, 17 DW (centre included), 8 TW.
    assert len(tiles.DOUBLE_LETTER) == 24
    assert len(tiles.TRIPLE_LETTER) == 12
    assert len(tiles.DOUBLE_WORD) == 17
    assert len(tiles.TRIPLE_WORD) == 8
    assert sum(m > 1 for m in tiles.LETTER_MULTIPLIERS) == 36
    assert sum(m > 1 for m in tiles.WORD_MULTIPLIERS) == 25


def test_layout_is_symmetric() -> None:
    for r in range(15):
        for c in range(15):
            for rr, cc in ((c, r), (14 - r, c), (r, 14 - c)):
                assert tiles.letter_multiplier(r, c) == tiles.letter_multiplier(rr, cc)
                assert tiles.word_multiplier(r, c) == tiles.word_multiplier(rr, cc)


def test_named_squares() -> None:
    assert tiles.word_multiplier(7, 7) == 2  # H8 star
    assert tiles.word_multiplier(0, 0) == 3  # A1
    assert tiles.letter_multiplier(1, 5) == 3  # B6
    assert tiles.letter_multiplier(7, 3) == 2  # H4
