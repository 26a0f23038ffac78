"""The game loop with stub tops (rules §1, §2, §8): draws, rejections, reliquat, end, cancel."""

from collections import Counter

import pytest

from engine.duplicate.game import Game
from engine.duplicate.racks import ManualSource, PredrawnSource, SeededSource, meets_minimum
from engine.errors import EngineError
from engine.tiles import COUNTS
from tests.engine.duplicate.stubs import StubTop, lay, placing


def tiles_everywhere(game: Game) -> Counter:
    return game.board.tiles() + Counter(game.bag) + Counter(game.rack) + Counter(game.reserve)


def check_accounting(game: Game) -> None:
    assert game.accounting()["total"] == 102
    assert tiles_everywhere(game) == Counter(COUNTS)


def test_a_seeded_game_keeps_every_tile_accounted_for() -> None:
    game = Game(SeededSource(3), placing(3))
    check_accounting(game)
    while game.draw():
        check_accounting(game)
        rnd = game.place()
        check_accounting(game)
        # Three tiles laid: the reliquat is the rack minus those three.
        assert Counter(rnd.next_reliquat) == Counter(rnd.draw.tiles) - Counter(rnd.draw.tiles[:3])
    assert game.end is not None


def test_each_rack_completes_the_reliquat_and_meets_the_minimum() -> None:
    game = Game(SeededSource(11), placing(3))
    rounds = game.play_to_end()
    previous = ""
    for rnd in rounds:
        first = rnd.draws[0]
        assert first.reliquat == previous  # kept from the round before
        for draw in rnd.draws:
            assert meets_minimum(draw.tiles, rnd.minimum) is (draw.rejected is None)
        kept = rnd.draw
        assert kept.rack.startswith("-") is bool(rnd.rejections)
        if rnd.rejections:
            assert kept.reliquat == ""  # R1.8: the reliquat went back with the rejected rack
        previous = rnd.next_reliquat
    assert rounds[15].number == 16 and rounds[15].minimum == 1
    assert all(r.minimum == 2 for r in rounds[:15])


def test_racks_shrink_when_the_bag_runs_low() -> None:
    game = Game(SeededSource(4), placing(3))
    sizes = []
    while True:
        left = len(game.remaining())  # R before the draw
        if (pending := game.draw()) is None:
            break
        # R1.3: the reliquat plus the missing tiles, or plus whatever the bag still holds.
        assert len(pending.draw.tiles) == min(7, left)
        sizes.append(len(pending.draw.tiles))
        game.place()
    assert sizes[0] == 7 and min(sizes) < 7


def test_the_same_seed_gives_the_same_game() -> None:
    racks = [[r.rack for r in Game(SeededSource(99), placing(4)).play_to_end()] for _ in "ab"]
    assert racks[0] == racks[1]
    assert racks[0] != [r.rack for r in Game(SeededSource(98), placing(4)).play_to_end()]


# Manual racks ---------------------------------------------------------------------------------
def manual(count: int = 3) -> Game:
    return Game(ManualSource(), placing(count))


def test_case_3_a_rejection_returns_the_reliquat_to_the_bag() -> None:
    game = manual(3)
    assert game.offer_rack("AEIBCDF").accepted
    game.place()  # lays A, E, I: the reliquat is BCDF
    assert game.rack == "BCDF"
    assert len(game.bag) == 95
    outcome = game.offer_rack("GHJ")  # BCDF+GHJ: no vowel
    assert not outcome.accepted
    assert outcome.draw.rack == "BCDF+GHJ"
    # Everything went back, reliquat included: 95 + 4 = 99, then a fresh rack of 7.
    assert game.rack == "" and len(game.bag) == 99
    again = game.offer_rack("-OUBCDFG")
    assert again.accepted and again.draw.rack == "-OUBCDFG"
    assert len(game.bag) == 92
    check_accounting(game)


def test_a_manual_rack_that_misses_the_minimum_is_refused_with_a_sentence() -> None:
    game = manual()
    outcome = game.offer_rack("ABCDFGH")
    assert outcome.error.code == "rack.minimum"
    assert outcome.error.message == "only 1 vowel: move 1 needs 2 vowels and 2 consonants"
    assert game.pending is None
    assert len(game.bag) == 102
    assert game.offer_rack("ABCDEFG").accepted
    rnd = game.place()
    assert [d.rack for d in rnd.rejections] == ["ABCDFGH"]
    assert rnd.rack == "-ABCDEFG"


def test_a_manual_rack_with_letters_not_in_the_bag_changes_nothing() -> None:
    game = manual()
    with pytest.raises(EngineError) as info:
        game.offer_rack("KKAEBCD")  # one K in the game
    assert info.value.code == "rack.not_in_bag"
    assert "K" in info.value.message
    assert len(game.bag) == 102 and game.history == ()


def test_full_rack_and_reliquat_forms_are_accepted() -> None:
    game = manual(3)
    game.offer_rack("AEIBCDF")
    game.place()
    assert game.offer_rack("BCDF+AEO").accepted
    game.place()  # lays B, C, D: reliquat AEFO
    assert game.offer_rack("AEFOLMN").draw.rack == "AEFO+LMN"  # full rack typed plainly


def test_typed_racks_only_in_manual_games() -> None:
    with pytest.raises(EngineError) as info:
        Game(SeededSource(1), placing()).offer_rack("AEIBCDF")
    assert info.value.code == "draw.not_manual"
    with pytest.raises(EngineError) as info:
        Game(ManualSource(), placing()).draw()
    assert info.value.code == "draw.manual"


def test_a_rack_cannot_be_drawn_before_the_top_is_placed() -> None:
    game = manual()
    game.offer_rack("AEIBCDF")
    with pytest.raises(EngineError) as info:
        game.offer_rack("AEIBCDF")
    assert info.value.code == "draw.pending"


# Pre-drawn games --------------------------------------------------------------------------------
def test_a_predrawn_game_replays_its_racks() -> None:
    # Round 2 lays B, C, D of BCDFAEO: reliquat AEFO. AEFO+UIA has one consonant: rejected.
    source = PredrawnSource(["AEIBCDF", "BCDF+AEO", ["AEFO+UIA", "-AEGHJKL"]])
    game = Game(source, placing(3))
    racks = [game.play_round().rack for _ in range(3)]
    assert racks == ["AEIBCDF", "BCDF+AEO", "-AEGHJKL"]
    assert [d.rack for d in game.history[2].rejections] == ["AEFO+UIA"]
    check_accounting(game)


def test_a_predrawn_game_that_disagrees_with_the_rules_is_refused() -> None:
    game = Game(PredrawnSource([["AEIBCDF", "AEOBCDF"]]), placing(3))
    with pytest.raises(EngineError) as info:  # the file says AEIBCDF was rejected
        game.draw()
    assert info.value.code == "predrawn.accepted"
    game = Game(PredrawnSource(["AEIBCDF", "BCDG+AEO"]), placing(3))
    game.play_round()
    with pytest.raises(EngineError) as info:  # the file kept a reliquat other than ours
        game.draw()
    assert info.value.code == "rack.reliquat"


# The top ----------------------------------------------------------------------------------------
def test_the_arbiter_picks_another_tie() -> None:
    def two_ties(board, rack):
        first = lay(board, rack.tiles[:2])
        second = lay(board, rack.tiles[2:4])
        return StubTop(10, (first, second))

    game = Game(ManualSource(), two_ties)
    pending = game.offer_rack("AEIBCDF").round
    assert pending.top.word == "AE"  # default: first in listing order (same square here)
    rnd = game.place(pending.tied[1])
    assert rnd.top.word == "IB" and rnd.choice.chosen_by == "arbiter"
    assert rnd.next_reliquat == "ACDEF"


def test_cumulative_top() -> None:
    game = Game(SeededSource(5), placing(2, score=12))
    rounds = game.play_to_end()
    assert [r.cumulative for r in rounds[:3]] == [12, 24, 36]
    assert game.cumulative == 12 * len(rounds)


def test_the_library_does_not_import_django() -> None:
    import subprocess
    import sys

    code = "import sys, engine.duplicate.cli; print('django' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
