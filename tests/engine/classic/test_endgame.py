"""End-of-game adjustments and ranking, against the seed pages' rules and worked example."""

from __future__ import annotations

import pytest

from engine.classic.endgame import adjust, rack_value, ranks
from engine.errors import EngineError


def test_page_004_example_ben_9_cal_4_ana_went_out_adds_13() -> None:
    # Page 004: "lettres restantes" 9 for Ben and 4 for Cal, "partie terminée" 13 for Ana.
    # Scores before the end lines are chosen here; the page gives only the adjustments.
    ana, ben, cal = adjust([300, 280, 250], [0, 9, 4], went_out=0)
    assert (ana.minus, ana.plus, ana.final) == (0, 13, 313)
    assert (ben.minus, ben.plus, ben.final) == (9, 0, 271)
    assert (cal.minus, cal.plus, cal.final) == (4, 0, 246)


def test_the_remaining_values_come_from_the_tile_values() -> None:
    # Q = 8, E = 1 (page 001's table): 9 like Ben; H = 4 like Cal; a joker is worth 0.
    assert rack_value("QE") == 9
    assert rack_value("H") == 4
    assert rack_value("?H") == 4
    assert rack_value("") == 0


def test_after_a_blocked_game_everyone_subtracts_and_nobody_adds() -> None:
    adjustments = adjust([120, 95], [7, 12], went_out=None)
    assert [(a.minus, a.plus, a.final) for a in adjustments] == [(7, 0, 113), (12, 0, 83)]


def test_the_player_who_went_out_holds_no_tile() -> None:
    with pytest.raises(EngineError) as err:
        adjust([10, 20], [3, 4], went_out=0)
    assert err.value.code == "end.not_out"
    with pytest.raises(EngineError) as err:
        adjust([10, 20], [0, -1], went_out=0)
    assert err.value.code == "end.negative"


def test_ties_are_ex_aequo_by_default() -> None:
    assert ranks([400, 400, 300], [2, 1, 0], "ex_aequo") == (1, 1, 3)
    assert ranks([250, 300, 250, 300], [0, 0, 0, 0], "ex_aequo") == (3, 1, 3, 1)


def test_the_fewest_tiles_setting_breaks_a_tie_by_tiles_left() -> None:
    # Page 001: "le joueur qui a le moins de lettres restantes l'emporte".
    assert ranks([400, 400, 300], [2, 1, 0], "fewest_tiles") == (2, 1, 3)
    assert ranks([400, 400, 300], [1, 1, 0], "fewest_tiles") == (1, 1, 3)  # still equal
