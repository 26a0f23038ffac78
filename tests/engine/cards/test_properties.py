"""Property: whatever legal moves the players choose, the table only ever holds whole, valid
words, and the 112 cards stay accounted for.

The seeded games play the engine's best moves; here Hypothesis picks any legal move (or a
pass or an exchange) at each turn, with Prime cards on any square, to reach removals and
positions a greedy player never makes. Each of 8 examples plays up to 20 turns (about 5 s of CPU).
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.cards.deck import EXCHANGE_MIN_DECK
from engine.cards.game import CardGame
from engine.cards.players import legal_plays
from engine.cards.rules import Play
from engine.cards.table import runs

TURNS = 20


def _check(game: CardGame, lexicon) -> None:
    game.check_accounts()
    assert set(runs(game.table.cells)) == set(game.table.owners)
    assert {sq for w in game.table.owners for sq in w.squares()} == set(game.table.cells)
    for word in game.table.owners:
        assert lexicon.contains(word.letters), word


@settings(
    max_examples=8,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(players=st.integers(2, 6), seed=st.integers(0, 2**64 - 1), data=st.data())
def test_any_legal_moves_keep_the_table_whole_and_valid(conformance_lexicon, players, seed, data):
    lexicon = conformance_lexicon
    game = CardGame(players, seed, lexicon=lexicon, strict=True)
    for _ in range(TURNS):
        if game.over:
            break
        seat = game.current
        hand = game.hands[seat]
        plays = legal_plays(game.table, hand, lexicon)
        choice = data.draw(st.integers(-2, len(plays) - 1), label="move")
        if choice >= 0:
            scoring = plays[choice]
            play = scoring.play
            primes = sorted(set(c for c in hand if c in "23"))
            if primes and not game.table.is_empty() and data.draw(st.booleans(), label="prime"):
                squares = sorted({sq for w in scoring.words for sq in w.word.squares()})
                square = data.draw(st.sampled_from(squares), label="square")
                play = Play(play.cards, data.draw(st.sampled_from(primes)), square)
            game.play(seat, play)
            game.accept()
        elif choice == -1 and len(game.deck) >= EXCHANGE_MIN_DECK:
            n = data.draw(st.integers(1, len(hand)), label="exchange")
            game.exchange(seat, hand[:n])
        else:
            game.pass_turn(seat)
        _check(game, lexicon)
