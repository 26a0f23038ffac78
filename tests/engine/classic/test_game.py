"""Turns, challenges, exchanges and end conditions of a classic game (toy lexicon)."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.bag import canonical
from engine.classic.game import Game
from engine.classic.settings import Settings
from engine.errors import EngineError
from engine.tiles import COUNTS, VALUES
from tests.engine.builders import Words


def all_tiles(game: Game) -> Counter:
    """Board + bag + racks as rack letters: always the 102 tiles of the French set."""
    return game.board.tiles() + Counter(game.bag) + Counter("".join(game.racks))


def two_letters(game: Game) -> str:
    """Two non-joker letters of the mover's rack, as a "word" to lay on H7–H8."""
    letters = [t for t in game.racks[game.current] if t != "?"]
    return letters[0] + letters[1]


def hand_score(word: str) -> int:
    # H7 has no premium, H8 is the star (double word): (a + b) × 2.
    return (VALUES[word[0]] + VALUES[word[1]]) * 2


def test_a_game_starts_with_seven_tiles_each_and_the_rest_in_the_bag() -> None:
    game = Game(3, 7)
    assert [len(r) for r in game.racks] == [7, 7, 7]
    assert len(game.bag) == 102 - 21
    assert all_tiles(game) == Counter(COUNTS)
    assert game.current == game.order[0] == game.opening.first


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players) -> None:
    with pytest.raises(EngineError) as err:
        Game(players, 1)
    assert err.value.code == "classic.players"


def test_an_unchallenged_play_stands_even_if_not_a_word() -> None:
    game = Game(2, 3, lexicon=Words())  # no word is valid
    mover, word = game.current, two_letters(game)
    turn = game.play("H7", word)
    assert turn.score == hand_score(word) and turn.challenge is None
    assert game.scores[mover] == hand_score(word)
    assert len(game.racks[mover]) == 7 and len(turn.drawn) == 2
    assert game.board.tile_count() == 2 and game.current != mover
    assert all_tiles(game) == Counter(COUNTS)


def test_a_challenged_invalid_play_goes_back_scores_0_and_loses_the_turn() -> None:
    game = Game(2, 3, lexicon=Words())
    mover, word = game.current, two_letters(game)
    other = 1 - mover
    rack = game.racks[mover]
    turn = game.play("H7", word, challenged_by=other)
    assert turn.score == 0 and game.scores == (0, 0)
    assert turn.challenge.valid is False and turn.challenge.invalid_words == (word,)
    assert game.racks[mover] == rack and game.board.is_empty() and turn.drawn == ""
    assert game.current == other
    assert all_tiles(game) == Counter(COUNTS)


@pytest.mark.parametrize(
    ("settings", "penalty", "lost"),
    [
        (Settings(), 0, False),
        (Settings(challenge="points", challenge_points=5), 5, False),
        (Settings(challenge="lose_turn"), 0, True),
    ],
)
def test_a_challenged_valid_play_stands_and_the_challenger_gets_the_sanction(
    settings, penalty, lost
) -> None:
    probe = Game(2, 3)
    word = two_letters(probe)
    game = Game(2, 3, settings, lexicon=Words(word))
    mover = game.current
    other = 1 - mover
    turn = game.play("H7", word, challenged_by=other)
    assert turn.challenge.valid is True
    assert turn.challenge.penalty == penalty and turn.challenge.lose_turn is lost
    assert game.scores[mover] == hand_score(word)
    assert game.scores[other] == -penalty
    if lost:  # the challenger's next turn is lost: the player who played moves again
        assert game.turns[-1].action == "lost" and game.turns[-1].player == other
        assert game.current == mover
    else:
        assert game.current == other and len(game.turns) == 1


def test_challenges_need_a_lexicon_and_another_player() -> None:
    game = Game(2, 3)
    word = two_letters(game)
    with pytest.raises(EngineError) as err:
        game.play("H7", word, challenged_by=1 - game.current)
    assert err.value.code == "challenge.no_lexicon"
    game = Game(2, 3, lexicon=Words(word))
    with pytest.raises(EngineError) as err:
        game.play("H7", word, challenged_by=game.current)
    assert err.value.code == "challenge.own"
    with pytest.raises(EngineError) as err:
        game.play("H7", word, challenged_by=2)
    assert err.value.code == "challenge.player"
    assert game.turns == ()


def test_a_misplaced_play_is_refused_and_changes_nothing() -> None:
    game = Game(2, 3)
    word = two_letters(game)
    with pytest.raises(EngineError) as err:
        game.play("A1", word)  # the first word must cover the star
    assert err.value.code == "move.first_not_centre"
    assert game.turns == () and game.board.is_empty()


def test_an_exchange_draws_new_tiles_then_puts_the_old_ones_back() -> None:
    game = Game(2, 5)
    mover, rack = game.current, game.racks[game.current]
    turn = game.exchange(rack[:3])
    assert turn.action == "exchange" and turn.exchanged == canonical(rack[:3])
    assert len(turn.drawn) == 3 and turn.score == 0
    assert len(game.racks[mover]) == 7 and len(game.bag) == 102 - 14
    assert all_tiles(game) == Counter(COUNTS)
    with pytest.raises(EngineError) as err:
        game.exchange("")
    assert err.value.code == "exchange.empty"
    rack = game.racks[game.current]
    absent = next(t for t in "ABCDEFGHIJKLMNOPQRSTUVWXYZ" if t not in rack)
    with pytest.raises(EngineError) as err:
        game.exchange(absent)
    assert err.value.code == "exchange.tiles"


def test_every_player_passing_twice_in_a_row_blocks_the_game() -> None:
    game = Game(2, 9)
    racks = game.racks
    for _ in range(3):
        game.pass_turn()
    assert game.end is None
    game.pass_turn()
    assert game.end.reason == "blocked" and game.end.player is None and game.current is None
    for adj, rack in zip(game.end.adjustments, racks, strict=True):
        value = sum(VALUES[t] for t in rack)
        assert (adj.minus, adj.plus, adj.final, adj.remaining) == (value, 0, -value, rack)
    with pytest.raises(EngineError) as err:
        game.pass_turn()
    assert err.value.code == "game.over"


def test_exchanges_and_withdrawn_plays_count_as_passes_and_a_play_resets_the_count() -> None:
    game = Game(3, 2, lexicon=Words())
    game.exchange(game.racks[game.current][0])
    game.play("H7", two_letters(game), challenged_by=game.order[2])  # withdrawn
    for _ in range(3):
        game.pass_turn()
    assert game.end is None and len(game.turns) == 5
    game.pass_turn()  # six turns in a row without a tile placed: 2 rounds of 3 players
    assert game.end.reason == "blocked"

    game = Game(2, 2)
    game.pass_turn()
    game.pass_turn()
    game.play("H7", two_letters(game))
    for _ in range(3):
        game.pass_turn()
    assert game.end is None
    game.pass_turn()
    assert game.end.reason == "blocked"


def test_the_blocked_rule_counts_rounds_as_set() -> None:
    game = Game(2, 2, Settings(pass_rounds=3))  # six scoreless turns, as WESPA does for two
    for _ in range(5):
        game.pass_turn()
    assert game.end is None
    game.pass_turn()
    assert game.end.reason == "blocked"


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ({"challenge": "shout"}, "settings.challenge"),
        ({"challenge": "points"}, "settings.challenge_points"),
        ({"challenge_points": 5}, "settings.challenge_points"),
        ({"tie_break": "coin"}, "settings.tie_break"),
        ({"pass_rounds": 0}, "settings.pass_rounds"),
        ({"colour": "red"}, "settings.json"),
    ],
)
def test_bad_settings_are_refused_with_a_code(data, code) -> None:
    with pytest.raises(EngineError) as err:
        Settings.from_json(data)
    assert err.value.code == code


def test_settings_round_trip() -> None:
    settings = Settings(challenge="points", challenge_points=10, tie_break="fewest_tiles")
    assert Settings.from_json(settings.to_json()) == settings
