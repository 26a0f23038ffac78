"""Turns of a game: challenges, pass, exchange, turn order, end and final scores."""

from __future__ import annotations

import pytest

from engine.cards.deck import Deck
from engine.cards.game import CardGame
from engine.cards.rules import Placed, Play, play_from_word
from engine.errors import EngineError
from tests.engine.builders import Words
from tests.engine.cards.conftest import table_of

LEXICON = Words("CHAT", "CHATS", "ACHATS", "ES", "TE")


def _game(players: int = 2, seed: int = 5, **kw) -> CardGame:
    return CardGame(players, seed, lexicon=LEXICON, **kw)


def _rig(game: CardGame, hand: str) -> int:
    """Give the seat to play ``hand`` (keeping the 112 cards accounted for)."""
    seat = game.current
    game.deck.add(game.hands[seat])
    game.hands[seat] = ""
    for card in hand:
        game.deck._counts[card] -= 1
        assert game.deck._counts[card] >= 0
    game.hands[seat] = "".join(sorted(hand))
    game.deck._counts = +game.deck._counts
    game.check_accounts()
    return seat


def test_players_from_2_to_6():
    for bad in (1, 7, 0, True, "3"):
        with pytest.raises(EngineError) as caught:
            CardGame(bad, 1)
        assert caught.value.code == "cards.players"
    assert CardGame(6, 1).order()[0] == CardGame(6, 1).first


def test_a_move_stands_unchallenged_and_the_mover_draws_back_to_seven():
    game = _game()
    seat = _rig(game, "ACHTEEE")
    game.play(seat, play_from_word(game.table, 0, 0, True, "CHAT"))
    turn = game.accept()
    assert turn.score == 18 and game.scores[seat] == 18
    assert len(game.hands[seat]) == 7 and len(turn.drawn) == 4
    assert game.current == (seat + 1) % 2
    game.check_accounts()


def test_challenge_of_an_invalid_word_sends_the_cards_back_and_is_a_pass():
    game = _game()
    seat = _rig(game, "ACHTEEE")
    hand = game.hands[seat]
    game.play(seat, play_from_word(game.table, 0, 0, True, "TACHE"))
    turn = game.challenge((seat + 1) % 2)
    assert turn.challenge.valid is False and turn.challenge.invalid == ("TACHE",)
    assert turn.score == 0 and game.scores == [0, 0]
    assert game.hands[seat] == hand and game.table.is_empty()
    assert turn.counts_as_pass and game.passes == 1
    game.check_accounts()


def test_challenge_of_a_valid_move_costs_the_challenger_ten_points():
    game = _game(3)
    seat = _rig(game, "ACHTEEE")
    game.play(seat, play_from_word(game.table, 0, 0, True, "CHAT"))
    other = (seat + 2) % 3
    turn = game.challenge(other)
    assert turn.challenge.valid and turn.challenge.penalty == 10
    assert game.scores[seat] == 18 and game.scores[other] == -10
    assert turn.scores[other] == -10


def test_challenge_rules():
    game = _game()
    with pytest.raises(EngineError) as caught:
        game.challenge(0)
    assert caught.value.code == "challenge.nothing"
    seat = _rig(game, "ACHTEEE")
    game.play(seat, play_from_word(game.table, 0, 0, True, "CHAT"))
    for by in (seat, 5, -1):
        with pytest.raises(EngineError) as caught:
            game.challenge(by)
        assert caught.value.code == "challenge.seat"
    with pytest.raises(EngineError) as caught:
        game.pass_turn((seat + 1) % 2)  # nobody moves while a challenge may come
    assert caught.value.code == "turn.pending"


def test_strict_game_refuses_an_invalid_word():
    game = _game(strict=True)
    seat = _rig(game, "ACHTEEE")
    with pytest.raises(EngineError) as caught:
        game.play(seat, play_from_word(game.table, 0, 0, True, "TACHE"))
    assert caught.value.code == "play.invalid_word"
    assert game.pending is None


def test_turn_order_and_refusals():
    game = _game()
    with pytest.raises(EngineError) as caught:
        game.pass_turn((game.current + 1) % 2)
    assert caught.value.code == "turn.not_yours"


def test_exchange_gives_back_and_draws_the_same_number():
    game = _game()
    seat = game.current
    hand = game.hands[seat]
    turn = game.exchange(seat, hand[:3])
    assert turn.exchanged == "".join(sorted(hand[:3], key="ABCDEFGHIJKLMNOPQRSTUVWXYZ?23".index))
    assert len(turn.drawn) == 3 and len(game.hands[seat]) == 7
    assert len(game.deck) == 112 - 14 and not turn.counts_as_pass
    game.check_accounts()


def test_exchange_refusals():
    game = _game()
    seat = game.current
    for cards, code in (("", "exchange.count"), ("A" * 8, "exchange.count"), ("K", None)):
        if code is None and "K" in game.hands[seat]:
            continue
        with pytest.raises(EngineError) as caught:
            game.exchange(seat, cards)
        assert caught.value.code == (code or "exchange.not_in_hand")
    game.deck = Deck(game.deck.cards()[:6])  # six cards left: no exchange any more
    with pytest.raises(EngineError) as caught:
        game.exchange(seat, game.hands[seat][:1])
    assert caught.value.code == "exchange.deck"


def test_a_whole_round_of_passes_ends_the_game_cards_in_hand_subtracted():
    game = _game(3)
    first = game.current
    for i in range(2):
        game.pass_turn((first + i) % 3)
        assert not game.over
    game.hands = ["AB3", "?Z", "KE2"]
    game.pass_turn((first + 2) % 3)
    assert game.end.reason == "passes" and game.end.out is None
    assert game.end.adjustments == (-(1 + 3 + 20), -(0 + 10), -(10 + 1 + 10))
    assert game.end.scores == game.end.adjustments
    with pytest.raises(EngineError) as caught:
        game.pass_turn(game.current)
    assert caught.value.code == "game.over"


def test_an_exchange_breaks_a_round_of_passes():
    game = _game(2)
    first = game.current
    game.pass_turn(first)
    game.exchange((first + 1) % 2, game.hands[(first + 1) % 2][:1])
    game.pass_turn(first)
    assert not game.over


def test_going_out_with_the_deck_empty_ends_at_once_prime_cards_count():
    game = _game(3)
    seat = game.current
    game.table = table_of((0, 0, True, "CHAT", (seat + 1) % 3))
    game.deck = Deck()
    game.hands[seat] = "S"
    game.hands[(seat + 1) % 3] = "KE2"  # 10 + 1 + 10
    game.hands[(seat + 2) % 3] = "?3"  # 0 + 20
    game.play(seat, Play((Placed(0, 4, "S"),)))
    turn = game.accept()
    assert turn.score == 3 + 4 + 1 + 1 + 1
    assert game.end.reason == "out" and game.end.out == seat
    adjustments = [0, 0, 0]
    adjustments[seat] = 21 + 20
    adjustments[(seat + 1) % 3] = -21
    adjustments[(seat + 2) % 3] = -20
    assert list(game.end.adjustments) == adjustments
    assert game.end.scores[seat] == 10 + 41


def test_a_hand_of_only_prime_cards_is_not_out():
    game = _game(2)
    seat = game.current
    game.table = table_of((0, 0, True, "CHAT", (seat + 1) % 2))
    game.deck = Deck()
    game.hands[seat] = "S2"
    game.play(seat, Play((Placed(0, 4, "S"),)))
    game.accept()
    assert not game.over and game.hands[seat] == "2"
