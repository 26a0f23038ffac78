"""Seeded engine games to their end: the 112 cards, the table's words, records and replay.

Every game is checked after every turn: the 112 cards are all in the deck, a hand, on the
table or discarded; every run of cards on the table is a word of the lexicon with an owner
(the table never holds an incomplete or invalid word); then the game's record, through JSON,
replays identically, engine choices included.

How many: ``TIRAGE_CARDS_GAMES`` seeds per player count (2 to 6), 4 by default = 20 games,
about 5 s of CPU. The issue's 200 games are ``TIRAGE_CARDS_GAMES=40`` (docs/cards.md says
when it was last run and how long it took).
"""

from __future__ import annotations

import json
import os

import pytest

from engine.cards.game import CardGame
from engine.cards.match import play_engine_game
from engine.cards.players import best_play
from engine.cards.record import HUMAN, game_to_record, load_record, replay
from engine.cards.rules import Placed, Play
from engine.cards.table import runs

PER_SIZE = int(os.environ.get("TIRAGE_CARDS_GAMES", "4"))
GAMES = [(players, 1000 * players + k) for players in range(2, 7) for k in range(PER_SIZE)]


def _levels(players: int, seed: int) -> list[str]:
    """Mostly strong seats; every other game puts weak seats in odd places."""
    if seed % 2:
        return ["weak" if seat % 2 else "strong" for seat in range(players)]
    return ["strong"] * players


def _check_turn(game, turn, lexicon):
    game.check_accounts()
    cells = game.table.cells
    assert set(runs(cells)) == set(game.table.owners)
    for word in game.table.owners:
        assert lexicon.contains(word.letters), word
    covered = {sq for w in game.table.owners for sq in w.squares()}
    assert covered == set(cells)  # no lone card
    assert all(len(hand) <= 7 for hand in game.hands)
    assert turn.scores == tuple(game.scores)


@pytest.mark.parametrize(("players", "seed"), GAMES)
def test_seeded_engine_game_to_its_end(conformance_lexicon, players, seed):
    lexicon = conformance_lexicon
    game = play_engine_game(
        players,
        seed,
        lexicon,
        _levels(players, seed),
        after_turn=lambda g, t: _check_turn(g, t, lexicon),
    )
    assert game.over and game.history
    end = game.end
    if end.reason == "out":
        assert len(game.deck) == 0 and game.hands[end.out] == ""
        assert end.adjustments[end.out] == -sum(
            a for seat, a in enumerate(end.adjustments) if seat != end.out
        )
    else:
        assert all(t.counts_as_pass for t in game.history[-players:])
    assert end.scores == tuple(s + a for s, a in zip(game.scores, end.adjustments, strict=True))
    record = load_record(json.dumps(game_to_record(game)))
    assert replay(record, lexicon) == []


def test_a_changed_record_is_caught_at_its_first_difference(conformance_lexicon):
    game = play_engine_game(3, 77, conformance_lexicon)
    data = game_to_record(game)
    data["turns"][4]["score"] += 1
    data["turns"][6]["scores"][0] += 1
    diffs = replay(data, conformance_lexicon)
    assert len(diffs) == 1 and diffs[0].turn == 5 and diffs[0].field == "score"
    data = game_to_record(game)
    data["turns"][2]["action"] = "pass"
    data["turns"][2].pop("play")
    diffs = replay(data, conformance_lexicon)
    assert diffs[0].turn == 3 and diffs[0].field == "action"


def test_replay_of_a_challenged_game(conformance_lexicon):
    """Human seats, one challenge each way: the record keeps them and replays identically."""
    lexicon = conformance_lexicon
    game = CardGame(2, 9, lexicon=lexicon)
    seat = game.current
    game.play(seat, best_play(game.table, game.hands[seat], lexicon))
    game.challenge(1 - seat)  # a valid move: the challenger loses 10
    other = game.current
    (word,) = game.table.words()
    dr, dc = (0, 1) if word.horizontal else (1, 0)
    end = word.squares()[-1]
    square = (end[0] + dr, end[1] + dc)
    letter = next(
        c for c in game.hands[other] if c.isalpha() and not lexicon.contains(word.letters + c)
    )
    hand = game.hands[other]
    game.play(other, Play((Placed(square[0], square[1], letter),)))
    game.challenge(seat)  # the word does not exist: cards back, a pass
    assert game.hands[other] == hand and game.table.words() == [word]
    data = game_to_record(game, kinds=[HUMAN, HUMAN])
    assert data["turns"][0]["challenge"] == {"by": 1 - seat, "valid": True, "invalid": []}
    assert data["turns"][0]["scores"][1 - seat] == -10
    assert data["turns"][1]["challenge"]["valid"] is False and data["turns"][1]["score"] == 0
    assert replay(load_record(json.dumps(data)), lexicon) == []
