"""The electronic score sheet (page 004): typed lines, moves scored on the sheet's own board,
tiles followed, and the two end lines. Every expected figure is computed by hand in the
comments from the letter values (page 004) and the premium squares (rules §9 A3)."""

from __future__ import annotations

import pytest

from engine.classic.sheet import SheetEnd, SheetTurn, parse_turn, sheet_end, sheet_state
from engine.errors import EngineError


def lines(*typed: str) -> list[SheetTurn]:
    return [parse_turn(t) for t in typed]


def test_page_004_example_lettres_restantes_9_and_4_partie_terminee_13() -> None:
    # Ana, Ben and Cal in playing order; their scores are typed as bare scores (page 004's
    # sheet keeps only points). Ben keeps 9 points of tiles, Cal 4, Ana went out:
    # Ben 280 - 9 = 271, Cal 250 - 4 = 246, Ana 300 + (9 + 4) = 313.
    state = sheet_state(3, lines("300", "280", "250"), SheetEnd(("0", "9", "4"), 0))
    assert state.totals == (300, 280, 250)
    assert [(a.minus, a.plus) for a in state.adjustments or ()] == [(0, 13), (9, 0), (4, 0)]
    assert state.finals == (313, 271, 246)
    assert state.ranks == (1, 2, 3)


def test_moves_are_scored_on_the_sheets_board() -> None:
    # H8 CHAT: C3 on H8 (the star, word x2), H4, A1, T1: (3 + 4 + 1 + 1) x 2 = 18.
    # 9H HARPe (down column 9 from H9): H already there (4, no premium for it), A on I9
    # (double letter: 2), R on J9 (1), P on K9 (3), a joker as E on L9 (0): 10.
    state = sheet_state(2, lines("H8 CHAT", "passe", "9H HARPe"))
    assert [line.score for line in state.lines] == [18, 0, 10]
    assert state.totals == (28, 0)
    assert [line.placed for line in state.lines] == ["CHAT", "", "ARP?"]
    assert state.lines[2].move is not None and state.lines[2].move.word == "HARPe"
    assert state.next_player == 1
    # 102 tiles, 8 on the board: 94 not played; one joker left of two, one H of two.
    assert len(state.not_played) == 94
    assert state.not_played.count("?") == 1 and state.not_played.count("H") == 1
    assert state.tracked


def test_seven_tiles_earn_the_50_point_bonus() -> None:
    # H4 CARTONS: C on H4 (double letter: 6), A R T 1 each, O on H8 (word x2), N S 1 each:
    # (6 + 1 + 1 + 1 + 1 + 1 + 1) x 2 = 24, seven tiles placed: + 50 = 74.
    state = sheet_state(2, lines("H4 CARTONS"))
    assert state.lines[0].score == 74


def test_unseen_letters_are_the_bag_and_the_other_racks() -> None:
    state = sheet_state(2, lines("H8 CHAT"))
    # The French bag holds 15 E and 2 jokers; none is on the board yet. Typing one's own
    # rack EE? leaves 13 E and 1 joker unseen, 102 - 4 - 3 = 95 tiles.
    unseen = state.unseen("eé?")
    assert unseen.count("E") == 13 and unseen.count("?") == 1 and len(unseen) == 95
    with pytest.raises(EngineError) as err:
        state.unseen("HH")  # one H of two is on the board
    assert err.value.code == "sheet.rack_unseen"


def test_a_bare_score_leaves_the_board_as_it_was_and_says_so() -> None:
    state = sheet_state(2, lines("H8 CHAT", "23"))
    assert state.totals == (18, 23)
    assert not state.tracked
    assert state.board.tile_count() == 4


def test_a_tile_played_out_is_refused_with_its_line_number() -> None:
    # The French bag holds one K. H8 KA puts it down; I7 KO asks for a second one.
    with pytest.raises(EngineError) as err:
        sheet_state(2, lines("H8 KA", "I7 KO"))
    assert err.value.code == "sheet.tiles_gone"
    assert err.value.details["number"] == 2
    assert err.value.details["letter"] == "K"


def test_a_move_that_does_not_fit_names_its_line() -> None:
    with pytest.raises(EngineError) as err:
        sheet_state(2, lines("H8 CHAT", "A1 ZOO"))
    assert err.value.code == "move.not_connected"
    assert err.value.details["number"] == 2


def test_after_a_blocked_game_nobody_adds() -> None:
    # Blocked: each subtracts their own tiles, typed as letters (Q 8 + E 1 = 9; W 10).
    state = sheet_state(2, lines("120", "95"), SheetEnd(("QE", "W"), None))
    assert state.finals == (111, 85)
    assert [a.plus for a in state.adjustments or ()] == [0, 0]


def test_ties_are_ex_aequo_unless_fewest_tiles_is_chosen() -> None:
    # Blocked game, 200 and 208 before the end lines. Player 1 keeps A E (1 + 1 = 2, two
    # tiles): 198. Player 2 keeps K (10, one tile): 198. A tie.
    turns = lines("200", "208")
    end = SheetEnd(("AE", "K"), None)
    assert sheet_state(2, turns, end).finals == (198, 198)
    assert sheet_state(2, turns, end).ranks == (1, 1)  # ex aequo by default (page 004)
    # Fewest tiles left (page 001): player 2, with one tile, wins the tie.
    assert sheet_state(2, turns, end, "fewest_tiles").ranks == (2, 1)
    # That tie-break counts tiles, so a bare value is not enough.
    with pytest.raises(EngineError) as err:
        sheet_end((200, 208), SheetEnd(("2", "10"), None), "AEK", "fewest_tiles")
    assert err.value.code == "sheet.letters_needed"


def test_end_lines_are_checked() -> None:
    with pytest.raises(EngineError) as err:
        sheet_state(2, lines("10", "20"), SheetEnd(("3", "4"), 0))
    assert err.value.code == "end.not_out"  # who went out holds no tile
    with pytest.raises(EngineError) as err:
        sheet_state(2, lines("10", "20"), SheetEnd(("3",), None))
    assert err.value.code == "sheet.left_count"
    # One K in the bag: it cannot be left on both racks, nor after it was played.
    with pytest.raises(EngineError) as err:
        sheet_state(2, lines("H8 KA", "20"), SheetEnd(("K", ""), None))
    assert err.value.code == "sheet.left_unseen"


def test_parse_errors_have_codes() -> None:
    refused = (("", "sheet.empty"), ("H8 CHAT 12", "sheet.line"), ("5000", "sheet.score_range"))
    for text, code in refused:
        with pytest.raises(EngineError) as err:
            parse_turn(text)
        assert err.value.code == code
    assert parse_turn("échange").kind == "exchange"
    assert parse_turn("-").kind == "pass"
    assert parse_turn("-12") == SheetTurn("score", score=-12)


def test_a_word_typed_in_lowercase_asks_for_capitals() -> None:
    # Lowercase letters are jokers; CHAT in lowercase would need four of the two jokers.
    with pytest.raises(EngineError) as err:
        sheet_state(2, lines("H8 chat"))
    assert err.value.code == "sheet.jokers" and err.value.details["number"] == 1
