"""Who plays first: the letter nearest to A; a joker or a tie draws again (page 003)."""

from __future__ import annotations

from collections import Counter

from engine.bag import Bag, Xoshiro256
from engine.classic.opening import draw_first_player


class Rigged:
    """A generator that makes the bag hand out the given tiles in that order."""

    def __init__(self, bag: Bag, tiles: str) -> None:
        self.bag, self.tiles = bag, list(tiles)

    def below(self, n: int) -> int:
        assert n == len(self.bag)
        return self.bag.tiles().index(self.tiles.pop(0))


def test_the_letter_nearest_to_a_plays_first() -> None:
    bag = Bag.full()
    opening = draw_first_player(3, bag, Rigged(bag, "MDT"))
    assert opening.first == 1
    assert opening.rounds == (((0, "M"), (1, "D"), (2, "T")),)
    assert opening.order(3) == (1, 2, 0)  # then round the table


def test_a_joker_is_laid_down_and_its_drawer_draws_again() -> None:
    bag = Bag.full()
    opening = draw_first_player(2, bag, Rigged(bag, "?CB"))
    assert opening.rounds == (((0, "?"), (0, "C"), (1, "B")),)
    assert opening.first == 1


def test_players_tied_on_the_best_letter_draw_again_alone() -> None:
    bag = Bag.full()
    opening = draw_first_player(3, bag, Rigged(bag, "BZBEA"))
    # Seats 0 and 2 tie on B; seat 1's Z is out. The replay: 0 draws E, 2 draws A.
    assert opening.rounds == (((0, "B"), (1, "Z"), (2, "B")), ((0, "E"), (2, "A")))
    assert opening.first == 2
    assert opening.order(3) == (2, 0, 1)


def test_a_tie_below_the_best_letter_changes_nothing() -> None:
    bag = Bag.full()
    opening = draw_first_player(3, bag, Rigged(bag, "CCA"))
    assert opening.first == 2 and len(opening.rounds) == 1


def test_every_tile_drawn_goes_back_into_the_bag() -> None:
    bag = Bag.full()
    draw_first_player(4, bag, Rigged(bag, "E?EEAAIU"))
    assert len(bag) == 102 and bag.counts() == Bag.full().counts()


def test_seeded_draws_follow_the_rule() -> None:
    for seed in range(40):
        bag = Bag.full()
        opening = draw_first_player(4, bag, Xoshiro256(seed))
        last = {p: t for p, t in opening.rounds[-1] if t != "?"}
        assert last[opening.first] == min(last.values())
        assert Counter(last.values())[last[opening.first]] == 1
        assert len(bag) == 102
