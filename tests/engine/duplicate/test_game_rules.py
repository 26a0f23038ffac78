"""Cancelled rounds (§1.5), rounds without a move (R1.11), E2/E4/E5, the joker game (V1)
and the rack sizes of the variants (§8), with stub tops."""

from collections import Counter

import pytest

from engine.duplicate.game import Game
from engine.duplicate.racks import ManualSource, SeededSource
from engine.duplicate.variants import VARIANTS
from engine.errors import EngineError
from tests.engine.duplicate.stubs import NO_MOVE, StubTop, lay, placing
from tests.engine.duplicate.test_game import check_accounting


def test_cancelling_a_drawn_round_puts_everything_back() -> None:
    game = Game(ManualSource(), placing(3))
    game.offer_rack("AEIBCDF")
    game.place()  # reliquat BCDF, bag 95
    game.offer_rack("AEO")
    cancelled = game.cancel("wrong timing")
    assert cancelled.status == "cancelled" and cancelled.cancel_reason == "wrong timing"
    assert cancelled.number == 2 and cancelled.cumulative == 10
    assert game.rack == "" and len(game.bag) == 99  # BCDF and AEO both back (R1.12)
    assert game.number == 2  # the replacement round keeps the number
    check_accounting(game)
    refused = game.offer_rack("BCDFAEO")  # the same rack, in another order
    assert refused.error.code == "rack.repeat"
    assert game.offer_rack("BCDFAEU").accepted
    assert game.pending.rack == "-BCDFAEU"
    rnd = game.place()
    assert [r.status for r in game.history] == ["played", "cancelled", "played"]
    assert rnd.cumulative == 20


def test_cancelling_a_placed_round_takes_its_top_off_the_board() -> None:
    game = Game(ManualSource(), placing(3))
    game.offer_rack("AEIBCDF")
    game.place()
    board = game.board
    game.offer_rack("AEO")
    game.place()
    game.cancel()
    assert game.board == board and game.cumulative == 10
    assert game.rack == "" and len(game.bag) == 99
    with pytest.raises(EngineError) as info:  # only the last round, only once
        game.cancel()
    assert info.value.code == "cancel.nothing"


def play_until(game: Game, left: int) -> bool:
    """Play tops until at most ``left`` tiles are unplayed; False if the game ended first."""
    while len(game.remaining()) > left:
        if game.play_round() is None:
            return False
    return game.end is None


def test_e4_when_the_cancelled_rack_cannot_be_replaced() -> None:
    for seed in range(1, 40):  # the first seed whose game reaches 7 tiles or fewer unplayed
        game = Game(SeededSource(seed), placing())
        if play_until(game, 7):
            break
    else:
        pytest.fail("no seed reached the end of the bag")
    pending = game.draw()
    assert Counter(pending.draw.tiles) == Counter(game.remaining())  # the rack is all of R
    game.cancel()
    assert game.draw() is None
    assert game.end.code == "E4"
    check_accounting(game)


def no_move_with(letter: str, count: int | None = None):
    def finder(board, rack):
        return NO_MOVE if letter in rack.tiles else placing(count)(board, rack)

    return finder


def test_a_rack_without_a_move_goes_back_whole_and_a_new_one_is_drawn() -> None:
    for seed in range(1, 40):  # the first seed where a K comes up while the game goes on
        game = Game(SeededSource(seed), no_move_with("K", 3))
        game.play_to_end()
        voided = [r for r in game.played if any(d.rejected == "no_move" for d in r.draws)]
        if voided:
            break
    else:
        pytest.fail("no seed drew a K before the end")
    rnd = voided[0]
    bad = next(d for d in rnd.draws if d.rejected == "no_move")
    assert "K" in bad.tiles and bad.message.startswith("no legal move with ")
    assert rnd.rack.startswith("-") and rnd.reliquat == ""  # everything went back (R1.11)
    assert all("K" not in r.draw.tiles for r in game.played)
    check_accounting(game)


def test_e2_when_no_drawable_rack_has_a_move() -> None:
    ends = Counter()
    for seed in range(1, 15):
        game = Game(SeededSource(seed), no_move_with("K"))
        game.play_to_end()
        ends[game.end.code] += 1
        if game.end.code == "E2":
            # Every rack the tiles left allow holds the K: K is in R and R fits one rack.
            assert "K" in game.remaining() and len(game.remaining()) <= 7
            void = game.history[-1]  # the racks tried are kept in a void round
            assert void.status == "void" and void.top is None
            assert all(d.rejected in ("no_move", "repeat") for d in void.draws)
    assert ends["E2"] > 0
    assert set(ends) <= {"E2", "E3"}


def test_stop_ends_the_game_e5() -> None:
    game = Game(SeededSource(1), placing(3))
    game.play_round()
    game.draw()
    end = game.stop("power cut")
    assert end.code == "E5" and game.draw() is None
    assert "power cut" in end.sentence()
    check_accounting(game)


def test_a_game_ends_after_its_announced_rounds_only_between_rounds() -> None:
    game = Game(SeededSource(1), placing(3))
    game.play_round()
    game.draw()  # round 2 drawn, its top not placed: not between two rounds
    with pytest.raises(EngineError) as info:
        game.end_as_announced()
    assert info.value.code == "end.round_pending"
    game.place()
    left = game.remaining()
    end = game.end_as_announced()
    assert (end.code, end.remaining) == ("announced", left) and game.draw() is None
    assert end.sentence() == "Game over, announced: the announced rounds have been played."
    assert game.end_as_announced() is end  # again: the same end
    check_accounting(game)


# Variants -----------------------------------------------------------------------------------------
@pytest.mark.parametrize(("code", "size"), [("7sur8", 8), ("7et8", 8), ("789", 9), ("blitz", 7)])
def test_rack_sizes_of_the_variants(code: str, size: int) -> None:
    game = Game(SeededSource(8), placing(4), VARIANTS[code])
    rounds = game.play_to_end()
    assert len(rounds[0].draw.tiles) == size
    assert all(len(r.draw.tiles) == size for r in rounds[:5])


def test_joker_game_racks_hold_one_joker_and_the_joker_comes_back() -> None:
    # The stub lays the first 3 rack tiles, a joker standing for E (see stubs.lay).
    game = Game(SeededSource(6), placing(3), VARIANTS["joker"])
    assert game.reserve == "??" and len(game.bag) == 100
    swaps = 0
    while True:
        bag_empty = not game.bag  # then every joker left comes at once (R1.3)
        if (pending := game.draw()) is None:
            break
        jokers_left = game.reserve + game.rack
        held = jokers_left.count("?") if bag_empty else (1 if "?" in jokers_left else 0)
        assert pending.draw.tiles.count("?") == held
        rnd = game.place()
        check_accounting(game)
        if rnd.joker_swap:
            swaps += 1
            assert rnd.joker_swap == "E"
            assert "e" not in game.board.cells  # the real E replaced the joker
    assert swaps > 0
    # A joker stays on the board (as e) only once the bag has no E left.
    assert game.board.cells.count("e") + (game.reserve + game.rack).count("?") == 2


def test_joker_game_rack_after_a_swap_shows_the_joker_as_new() -> None:
    game = Game(ManualSource(), placing(3), VARIANTS["joker"])
    outcome = game.offer_rack("ABCDEF")  # the joker is added: ?ABCDEF
    assert outcome.draw.rack == "?ABCDEF"
    rnd = game.place()  # lays ?, A, B: the joker as E, swapped for an E from the bag
    assert rnd.joker_swap == "E" and game.reserve == "??"  # back beside the second one
    assert game.offer_rack("GH").draw.rack == "CDEF+?GH"  # 4 kept, the joker, 2 drawn


def keeping_the_joker(board, rack) -> StubTop:
    """A top laying every letter of the rack but its jokers (up to 7), or the jokers when
    nothing else is left: the joker game's jokers then stay aside until the bag is empty."""
    letters = rack.tiles.replace("?", "")[:7] or rack.tiles
    return StubTop(10, (lay(board, letters),), 1)


def test_joker_game_ends_by_the_rules_when_only_the_jokers_set_aside_remain() -> None:
    # Issue 12: the tops never use the joker, so the bag empties while one joker sits on the
    # rack and the other aside. R = {?, ?} must go on (E3), not loop on one-joker racks
    # until "no valid rack": both jokers come as the last rack (R1.3), and once they are
    # laid every tile is placed (E1).
    game = Game(SeededSource(3), keeping_the_joker, VARIANTS["joker"])
    rounds = game.play_to_end()
    assert game.end is not None and game.end.code == "E1"
    last = rounds[-1]
    assert last.draw.tiles == "??" and last.status == "played"
    assert all(r.draw.tiles.count("?") == 1 for r in rounds[:-1])
    assert game.board.tile_count() == 102 and game.remaining() == ""
    check_accounting(game)
