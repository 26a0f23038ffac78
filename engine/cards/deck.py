"""The 112 cards of the card game and the seeded deck they are drawn from.

102 letter cards are the board game's tiles (letters, values and counts from
:mod:`engine.tiles`, jokers included) and 10 *Prime* cards: 8 "mot compte double" written
``2`` and 2 "mot compte triple" written ``3``. A hand or a deck is written as a string of
cards in canonical order: A…Z, ``?`` for a joker, then ``2`` and ``3``.

The deck draws with the generator every game family shares (:class:`engine.bag.Xoshiro256`)
and the same rule as :class:`engine.bag.Bag`: ``i = below(cards in deck)``, take the i-th card
of the canonical order. ``Bag`` only holds tiles, so the deck is its own small multiset.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from types import MappingProxyType

from engine.bag import Xoshiro256
from engine.tiles import COUNTS, JOKER, LETTERS, VALUES

DOUBLE = "2"
TRIPLE = "3"
PRIMES = DOUBLE + TRIPLE
CARD_ORDER = LETTERS + JOKER + PRIMES
_RANK = {card: i for i, card in enumerate(CARD_ORDER)}

#: How many of each card the box holds: 102 letter cards and 10 Prime cards.
DECK_COUNTS = MappingProxyType({**COUNTS, DOUBLE: 8, TRIPLE: 2})
DECK_SIZE = sum(DECK_COUNTS.values())  # 112
HAND_SIZE = 7
#: An exchange needs at least this many cards left in the deck.
EXCHANGE_MIN_DECK = 7

#: Factor a Prime card applies to every word formed that holds its letter.
PRIME_FACTOR = MappingProxyType({DOUBLE: 2, TRIPLE: 3})
#: What an unplayed Prime card costs at the end of the game (the page: −10 and −20).
PRIME_PENALTY = MappingProxyType({DOUBLE: 10, TRIPLE: 20})


def card_value(card: str) -> int:
    """End-of-game value of a card in hand: the letter's value, 0 for a joker, 10/20 a Prime."""
    return PRIME_PENALTY[card] if card in PRIME_PENALTY else VALUES[card]


def hand_value(cards: Iterable[str]) -> int:
    return sum(card_value(card) for card in cards)


def canonical(cards: Iterable[str]) -> str:
    """Cards in deck order (A…Z, ``?``, ``2``, ``3``): two hands are equal when these are."""
    return "".join(sorted(cards, key=_RANK.__getitem__))


def is_card(card: str) -> bool:
    return card in _RANK


def is_prime(card: str) -> bool:
    return card in PRIME_FACTOR


def full_deck() -> str:
    """The 112 cards in canonical order."""
    return "".join(card * DECK_COUNTS[card] for card in CARD_ORDER)


class Deck:
    """A multiset of cards in canonical order. Mutable: only a game holds one."""

    __slots__ = ("_counts",)

    def __init__(self, cards: Iterable[str] = ()) -> None:
        self._counts: Counter[str] = Counter()
        self.add(cards)

    @classmethod
    def full(cls) -> Deck:
        return cls(full_deck())

    def __len__(self) -> int:
        return sum(self._counts.values())

    def cards(self) -> str:
        return "".join(c * self._counts[c] for c in CARD_ORDER if self._counts[c])

    def counts(self) -> Counter[str]:
        return Counter(self._counts)

    def add(self, cards: Iterable[str]) -> None:
        for card in cards:
            if card not in _RANK:
                raise ValueError(f"not a card: {card!r}")  # caller bug
            self._counts[card] += 1

    def draw(self, rng: Xoshiro256, n: int) -> str:
        """Draw up to ``n`` cards one by one (fewer when the deck runs out), in draw order."""
        out = []
        for _ in range(min(n, len(self))):
            index = rng.below(len(self))
            for card in CARD_ORDER:
                index -= self._counts[card]
                if index < 0:
                    break
            self._counts[card] -= 1
            out.append(card)
        self._counts = +self._counts
        return "".join(out)


def start_rank(card: str) -> int:
    """Closeness to A for the starting draw: a joker first (it may be an A), Prime cards last.

    The page says "the letter nearest to A starts"; a joker can stand for A, and a Prime card
    is no letter at all, so it ranks behind Z (docs/cards.md, "Who starts").
    """
    if card == JOKER:
        return 0
    if card in PRIME_FACTOR:
        return len(LETTERS) + 1
    return LETTERS.index(card) + 1
