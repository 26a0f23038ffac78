"""The card version of Scrabble (seed page 000): rules, game records and engine opponents.

A pure library beside :mod:`engine.duplicate`, sharing the tiles, the lexicon and the seeded
generator. docs/cards.md states the rules as implemented and every decision taken where the
page is silent.
"""

from engine.cards.deck import DECK_SIZE, Deck, card_value
from engine.cards.game import CardGame, Challenge, End, Turn
from engine.cards.rules import Outcome, Placed, Play, evaluate, play_from_word
from engine.cards.table import Table, Word

__all__ = [
    "DECK_SIZE",
    "CardGame",
    "Challenge",
    "Deck",
    "End",
    "Outcome",
    "Placed",
    "Play",
    "Table",
    "Turn",
    "Word",
    "card_value",
    "evaluate",
    "play_from_word",
]
