"""The ``tirage-classic`` record: challenges and lost turns replay; malformed input is coded."""

from __future__ import annotations

import copy

import pytest

from engine.classic.game import Game
from engine.classic.record import game_to_record, load_record, replay
from engine.classic.settings import Settings
from engine.errors import EngineError
from tests.engine.builders import Words


def two_letters(game: Game) -> str:
    letters = [t for t in game.racks[game.current] if t != "?"]
    return letters[0] + letters[1]


def challenged_game() -> tuple[Game, Words]:
    """Seat A's phony is challenged off; B's valid word is challenged (B's challenger then
    loses a turn); an exchange and passes follow until the game is blocked."""
    probe = Game(2, 3, Settings(challenge="lose_turn"))
    first = probe.current
    phony = two_letters(probe)
    words = Words()
    game = Game(2, 3, Settings(challenge="lose_turn"), lexicon=words)
    game.play("H7", phony, challenged_by=1 - first)  # invalid: back on the rack
    word = two_letters(game)
    words.words.add(word)
    game.play("H7", word, challenged_by=first)  # valid: the challenger loses a turn
    assert [t.action for t in game.turns] == ["play", "play", "lost"]
    game.exchange(game.racks[game.current][:2])
    while game.end is None:
        game.pass_turn()
    return game, words


def test_a_game_with_challenges_and_a_lost_turn_replays_exactly() -> None:
    game, words = challenged_game()
    assert game.end.reason == "blocked"
    record = game_to_record(game)
    turns = record["turns"]
    assert turns[0]["challenge"]["valid"] is False and turns[0]["score"] == 0
    assert turns[1]["challenge"] == {
        "by": turns[0]["player"],
        "valid": True,
        "invalid_words": [],
        "penalty": 0,
        "lose_turn": True,
    }
    assert turns[2]["action"] == "lost" and turns[2]["player"] == turns[0]["player"]
    assert replay(load_record(record), lexicon=words) is None

    tampered = copy.deepcopy(record)
    tampered["turns"][1]["challenge"]["by"] = 1 - tampered["turns"][0]["player"]  # own play
    diff = replay(load_record(tampered), lexicon=words)
    assert (diff.turn, diff.field) == (2, "action")
    assert "challenge.own" in diff.recomputed

    tampered = copy.deepcopy(record)
    del tampered["turns"][2]  # the lost turn
    for i, turn in enumerate(tampered["turns"]):
        turn["number"] = i + 1
    diff = replay(load_record(tampered), lexicon=words)
    assert diff.turn == 3 and diff.field in ("action", "player")


def test_the_points_sanction_is_recorded_and_replayed() -> None:
    probe = Game(2, 6)
    word = two_letters(probe)
    words = Words(word)
    game = Game(2, 6, Settings(challenge="points", challenge_points=10), lexicon=words)
    challenger = 1 - game.current
    game.play("H7", word, challenged_by=challenger)
    record = game_to_record(game)
    assert record["turns"][0]["challenge"]["penalty"] == 10
    assert record["turns"][0]["scores"][challenger] == -10
    assert replay(load_record(record), lexicon=words) is None


def base_record() -> dict:
    game = Game(2, 1)
    game.pass_turn()
    return game_to_record(game)


@pytest.mark.parametrize(
    ("change", "code", "words"),
    [
        (lambda r: r.update(settings={"challenge": "shout"}), "settings.challenge", "one of"),
        (lambda r: r["source"].update(seed=-1), "record.source", "seed"),
        (lambda r: r["source"].update(kind="manual"), "record.source", "manual"),
        (lambda r: r.update(players=[{}]), "record.field", "2 to 4"),
        (lambda r: r["turns"][0].update(number=2), "record.field", "numbered"),
        (lambda r: r["turns"][0].update(action="dance"), "record.field", "action"),
        (lambda r: r["turns"][0].update(player=7), "record.field", "no player 7"),
        (lambda r: r["turns"][0].update(scores=[0]), "record.field", "scores"),
        (lambda r: r["turns"][0].update(action="play"), "record.field", "a play has a move"),
        (lambda r: r["turns"][0].update(challenge={"by": 5}), "record.field", "no player 5"),
        (lambda r: r.pop("turns"), "record.field", "'turns'"),
    ],
)
def test_malformed_records_are_refused_with_a_code(change, code, words) -> None:
    record = base_record()
    change(record)
    with pytest.raises(EngineError) as err:
        load_record(record)
    assert err.value.code == code and words in str(err.value)
