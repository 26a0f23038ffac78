"""Choosing the top among tied moves (§2 T2, T6; §10 case 5)."""

import pytest

from engine.board import Board
from engine.duplicate.top import (
    choose_top,
    ends_game,
    joker_swap,
    jokers_from_rack,
    new_tiles,
    rack_tiles_used,
)
from engine.errors import EngineError
from engine.moves import Move
from engine.notation import parse_reference
from tests.engine.duplicate.stubs import StubTop

# "LA" on H7–H8 (row H = index 7, columns 7 and 8 = indexes 6 and 7).
LA = Board().with_tiles({(7, 6): "L", (7, 7): "A"})


def mv(coord: str, word: str, score: int = 30, placed: int = 0) -> Move:
    return Move(parse_reference(coord), word, score, placed or len(word))


def test_jokers_counted_from_the_rack_only() -> None:
    board = Board().with_tiles({(7, 6): "L", (7, 7): "a"})  # the A on H8 is a joker
    extend = mv("H7", "LaS", placed=1)  # S on H9 from the rack; the lowercase a is the board's
    assert jokers_from_rack(board, extend) == 0
    assert rack_tiles_used(board, extend) == "S"
    assert jokers_from_rack(board, mv("H7", "Las", placed=1)) == 1
    assert new_tiles(board, extend) == {(7, 8): "S"}


# §10 case 5 -----------------------------------------------------------------------------------
def test_case_5_the_joker_free_tie_is_mandatory() -> None:
    with_joker = mv("G7", "Es")  # G7–G8, placed E and a joker as S; sorts first (row G)
    without = mv("H7", "LAS", placed=1)  # extends LA with a real S
    top = StubTop(30, (with_joker, without))
    choice = choose_top(LA, top, remaining="ES?ABCDEFGHIJ")
    assert choice.chosen == without
    assert choice.eligible == (without,)
    assert choice.tied == (with_joker, without)
    assert choice.chosen_by == "default"


def test_case_5_among_joker_free_ties_the_one_emptying_r_is_mandatory() -> None:
    # Bag empty, rack AEST: R = AEST. "AS" leaves ET (goes on), "SETA" empties R (E1).
    keeps = mv("G7", "AS")
    empties = mv("I7", "SETA")
    choice = choose_top(LA, StubTop(30, (keeps, empties)), remaining="AEST")
    assert choice.chosen == empties
    assert ends_game(LA, empties, "AEST") and not ends_game(LA, keeps, "AEST")


def test_keeping_the_joker_comes_before_ending_the_game() -> None:
    # R = AEST?: the joker move empties R, the other keeps the joker (rule 1 wins, T6.2).
    ends_with_joker = mv("I7", "SETAe")
    keeps_joker = mv("G7", "AS")
    choice = choose_top(LA, StubTop(30, (ends_with_joker, keeps_joker)), remaining="AEST?")
    assert choice.chosen == keeps_joker


def test_with_two_jokers_the_fewest_used_wins() -> None:
    two = mv("G7", "es")
    one = mv("I7", "eS")
    choice = choose_top(LA, StubTop(30, (two, one)), remaining="ES??ABCDEFGH")
    assert choice.chosen == one


def test_a_game_ending_move_counts_e3_too() -> None:
    # R = AEBC: playing AE leaves BC (only consonants, E3); playing BE leaves AC (goes on).
    vowels = mv("G7", "AE")
    other = mv("G9", "BE")
    assert choose_top(LA, StubTop(30, (other, vowels)), remaining="ABCE").chosen == vowels


def test_default_order_is_the_listing_order() -> None:
    # No rule applies: the first in Move.sort_key order (row, column, horizontal, word).
    a, b, c = mv("H9", "SA", placed=2), mv("9H", "SI", placed=2), mv("G7", "OS")
    choice = choose_top(LA, StubTop(30, (a, b, c)), remaining="AEIOSSSTTUV")
    assert choice.tied == (c, a, b)
    assert choice.chosen == c


def test_first_move_top_is_horizontal() -> None:
    vertical = mv("8D", "KoTER")  # sorts first: row D before row H
    horizontal = mv("H4", "KoTER")
    choice = choose_top(Board(), StubTop(46, (vertical, horizontal)), remaining="?EKNORTX")
    assert choice.chosen == horizontal
    assert choice.eligible == (horizontal,)


def test_the_arbiter_may_pick_another_allowed_tie() -> None:
    a, b = mv("G7", "OS"), mv("H9", "SA", placed=2)
    choice = choose_top(LA, StubTop(30, (a, b)), remaining="AEIOSSTTUV", choice=b)
    assert choice.chosen == b
    assert choice.chosen_by == "arbiter"


def test_the_arbiter_cannot_break_the_joker_rule() -> None:
    with_joker, without = mv("G7", "Es"), mv("H7", "LAS", placed=1)
    with pytest.raises(EngineError) as info:
        choose_top(LA, StubTop(30, (with_joker, without)), "ES?ABCDEF", choice=with_joker)
    assert info.value.code == "top.not_allowed"
    assert "T6.1" in info.value.message


def test_the_arbiter_cannot_pick_a_move_that_is_not_a_top() -> None:
    with pytest.raises(EngineError) as info:
        choose_top(LA, StubTop(30, (mv("G7", "OS"),)), "AEIOSTTUV", choice=mv("G9", "OS"))
    assert info.value.code == "top.not_tied"


def test_joker_swap_only_while_the_letter_is_in_the_bag() -> None:
    from collections import Counter

    move = mv("G7", "Es")
    assert joker_swap(LA, move, Counter("SS")) == "S"
    assert joker_swap(LA, move, Counter("AB")) == ""
    assert joker_swap(LA, mv("G7", "ES"), Counter("SS")) == ""
