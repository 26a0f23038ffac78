"""The 112 cards, the seeded deck and the draw for the first player (seed page 000)."""

from __future__ import annotations

from collections import Counter

from engine.bag import Xoshiro256
from engine.cards.deck import (
    DECK_SIZE,
    Deck,
    card_value,
    full_deck,
    hand_value,
    start_rank,
)
from engine.cards.game import CardGame

# The page's table "Lettre | Valeur | Quantité", typed from the page (not from engine/tiles).
PAGE = {
    "A": (1, 9), "B": (3, 2), "C": (3, 2), "D": (2, 3), "E": (1, 15), "F": (4, 2),
    "G": (2, 2), "H": (4, 2), "I": (1, 8), "J": (8, 1), "K": (10, 1), "L": (1, 5),
    "M": (2, 3), "N": (1, 6), "O": (1, 6), "P": (3, 2), "Q": (8, 1), "R": (1, 6),
    "S": (1, 6), "T": (1, 6), "U": (1, 6), "V": (4, 2), "W": (10, 1), "X": (10, 1),
    "Y": (10, 1), "Z": (10, 1), "?": (0, 2),
}  # fmt: skip


def test_the_box_holds_102_letter_cards_and_10_prime_cards():
    counts = Counter(full_deck())
    assert DECK_SIZE == 112 == len(full_deck())
    assert {card: n for card, n in counts.items() if card not in "23"} == {
        card: n for card, (_, n) in PAGE.items()
    }
    assert sum(n for card, n in counts.items() if card not in "23") == 102
    assert counts["2"] == 8 and counts["3"] == 2


def test_card_values_follow_the_page_and_prime_cards_cost_10_and_20():
    for card, (value, _) in PAGE.items():
        assert card_value(card) == value
    assert card_value("2") == 10 and card_value("3") == 20
    assert hand_value("KE?23") == 10 + 1 + 0 + 10 + 20


def test_deck_draw_is_reproducible_and_keeps_every_card():
    a, b = Deck.full(), Deck.full()
    drawn_a = a.draw(Xoshiro256(42), 30)
    drawn_b = b.draw(Xoshiro256(42), 30)
    assert drawn_a == drawn_b and len(drawn_a) == 30
    assert Counter(drawn_a) + a.counts() == Counter(full_deck())
    assert a.draw(Xoshiro256(1), 500) and len(a) == 0  # draws what is left, then stops


def test_start_rank_joker_first_prime_last():
    assert start_rank("?") < start_rank("A") < start_rank("B") < start_rank("Z") < start_rank("2")
    assert start_rank("2") == start_rank("3")


def test_first_player_is_nearest_to_a_ties_draw_again_and_seven_cards_each():
    for seed in range(40):
        game = CardGame(4, seed)
        last = game.start_draws[-1].cards
        ranks = {seat: start_rank(card) for seat, card in last}
        assert min(ranks.values()) == ranks[game.first]
        assert [r for r in ranks.values()].count(ranks[game.first]) == 1
        for earlier in game.start_draws[:-1]:  # a round with a tie for the best
            best = min(start_rank(c) for _, c in earlier.cards)
            assert sum(start_rank(c) == best for _, c in earlier.cards) >= 2
        assert all(len(hand) == 7 for hand in game.hands)
        assert len(game.deck) == 112 - 28
        game.check_accounts()
