"""Seeded engine-vs-engine games played to their end: tiles, end, adjustments, replay."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.board import Rack
from engine.classic.game import Game
from engine.classic.players import EnginePlayer, Exchange, Pass, Play, apply, player_seed
from engine.classic.record import game_to_record, load_record, replay
from engine.classic.settings import Settings
from engine.errors import EngineError
from engine.tiles import COUNTS, VALUES

pytest.importorskip("engine._core")


def _levels(seed: int, players: int) -> str:
    """All best, all weak, or alternating from either level, as the seed goes."""
    kind = seed % 4
    levels = ["best" if (kind == 0 or (kind > 1 and (seat + kind) % 2)) else "weak"
              for seat in range(players)]  # fmt: skip
    return ",".join(levels)


#: 20 games: 2, 3 and 4 players, both levels.
GAMES = [(2 + seed % 3, _levels(seed, 2 + seed % 3), seed) for seed in range(1, 21)]


def engine_players(lexicon, levels: str, seed: int) -> list[EnginePlayer]:
    return [
        EnginePlayer(lexicon, level, player_seed(seed, seat))
        for seat, level in enumerate(levels.split(","))
    ]


def tiles_everywhere(game: Game) -> Counter:
    return game.board.tiles() + Counter(game.bag) + Counter("".join(game.racks))


def play_checked(game: Game, players: list[EnginePlayer]) -> None:
    """Play to the end, checking after every turn that the 102 tiles are all accounted for."""
    assert tiles_everywhere(game) == Counter(COUNTS)
    while game.current is not None:
        before = len(game.turns)
        apply(game, players[game.current].choose(game))
        assert len(game.turns) > before
        assert game.accounting()["total"] == 102
        assert tiles_everywhere(game) == Counter(COUNTS)
        assert game.turns[-1].bag == len(game.bag)


@pytest.mark.parametrize(("players", "levels", "seed"), GAMES)
def test_a_seeded_game_reaches_its_end_and_replays_identically(
    conformance_lexicon, players, levels, seed
) -> None:
    game = Game(players, seed, lexicon=conformance_lexicon)
    play_checked(game, engine_players(conformance_lexicon, levels, seed))
    end = game.end
    left = [sum(VALUES[t] for t in rack) for rack in game.racks]
    if end.reason == "out":
        assert game.racks[end.player] == "" and game.bag == ""
        assert end.adjustments[end.player].plus == sum(left)
    else:
        assert all(a.plus == 0 for a in end.adjustments)
    for adj, score, value in zip(end.adjustments, game.scores, left, strict=True):
        assert adj.final == score - value + adj.plus
    # Scores add up turn by turn (no challenge in engine games).
    for seat in range(players):
        assert sum(t.score for t in game.turns if t.player == seat) == game.scores[seat]

    seats = [{"name": f"P{i}", "level": lv} for i, lv in enumerate(levels.split(","))]
    record = game_to_record(game, players=seats, lexicon=conformance_lexicon.identity)
    loaded = load_record(load_record(record).to_json())
    assert replay(loaded, lexicon=conformance_lexicon) is None
    again = Game(players, seed, lexicon=conformance_lexicon)
    play_checked(again, engine_players(conformance_lexicon, levels, seed))
    assert game_to_record(again, players=seats, lexicon=conformance_lexicon.identity) == record


def test_most_engine_games_end_with_a_player_going_out(conformance_lexicon) -> None:
    reasons = Counter()
    for players, levels, seed in GAMES:
        game = Game(players, seed, lexicon=conformance_lexicon)
        play_checked(game, engine_players(conformance_lexicon, levels, seed))
        reasons[game.end.reason] += 1
    assert reasons["out"] >= len(GAMES) - 2


def test_exchange_is_refused_once_the_bag_holds_fewer_than_7_tiles(conformance_lexicon) -> None:
    seen = set()
    for seed in range(1, 40):
        game = Game(2, seed, lexicon=conformance_lexicon)
        players = engine_players(conformance_lexicon, "best,best", seed)
        while game.current is not None and len(game.bag) >= 7:
            if len(game.bag) == 7 and 7 not in seen:
                turn = game.exchange(game.racks[game.current][0])  # exactly 7: allowed
                assert turn.action == "exchange" and len(game.bag) == 7
                assert tiles_everywhere(game) == Counter(COUNTS)
                seen.add(7)
                continue
            apply(game, players[game.current].choose(game))
        if game.current is None or not game.bag:
            continue
        racks, bag, turns = game.racks, game.bag, game.turns
        with pytest.raises(EngineError) as err:
            game.exchange(game.racks[game.current][0])
        assert err.value.code == "exchange.bag_low"
        assert err.value.details == {"minimum": 7, "bag": len(bag)}
        assert (game.racks, game.bag, game.turns) == (racks, bag, turns)
        seen.add(len(bag))
        if 7 in seen and len(seen) >= 3:
            break
    assert 7 in seen and len(seen) >= 3  # 7 allowed, several sizes below 7 refused


def test_an_engine_player_without_a_move_exchanges_while_it_may_else_passes(tmp_path) -> None:
    from engine.lexicon.automaton import Lexicon, build_lexicon_file

    path = tmp_path / "tiny.lex"
    build_lexicon_file(["WWWWWWWW"], path, name="tiny", source="test", version="1")
    lexicon = Lexicon.load(path)  # one word no rack can make: never a legal move
    game = Game(2, 4, lexicon=lexicon)
    rack = game.racks[game.current]
    assert EnginePlayer(lexicon, "best").choose(game) == Exchange(rack)
    assert EnginePlayer(lexicon, "weak").choose(game) == Exchange(rack)
    game = Game(2, 4, Settings(exchange_minimum=100), lexicon=lexicon)
    assert EnginePlayer(lexicon, "best").choose(game) == Pass()


def test_engine_players_pick_the_top_or_a_lower_move(conformance_lexicon) -> None:
    from engine.movegen import find_top

    game = Game(2, 8, lexicon=conformance_lexicon)
    top = find_top(game.board, Rack(game.racks[game.current]), conformance_lexicon)
    best = EnginePlayer(conformance_lexicon, "best").choose(game)
    assert isinstance(best, Play)
    assert (best.coord, best.word) == (top.moves[0].coord, top.moves[0].word)
    weak = EnginePlayer(conformance_lexicon, "weak", 3).choose(game)
    assert game.play(weak.coord, weak.word).score < top.score


def test_a_tampered_record_shows_its_first_difference(conformance_lexicon) -> None:
    game = Game(2, 21, Settings(challenge="points", challenge_points=5))
    game.lexicon = conformance_lexicon
    play_checked(game, engine_players(conformance_lexicon, "best,weak", 21))
    record = game_to_record(game, lexicon=conformance_lexicon.identity)
    record["turns"][4]["score"] += 3
    record["turns"][4]["scores"][record["turns"][4]["player"]] += 3
    diff = replay(load_record(record), lexicon=conformance_lexicon)
    assert (diff.turn, diff.field) == (5, "score")
    assert diff.recorded == diff.recomputed + 3
    assert str(diff).startswith("turn 5: score: recorded ")

    record = game_to_record(game, lexicon=conformance_lexicon.identity)
    record["adjustments"][0]["minus"] += 1
    diff = replay(load_record(record), lexicon=conformance_lexicon)
    assert (diff.turn, diff.field) == (0, "adjustments[0].minus")

    record = game_to_record(game, lexicon=conformance_lexicon.identity)
    record["source"]["seed"] = 22
    diff = replay(load_record(record), lexicon=conformance_lexicon)
    assert diff.turn == 0 and diff.field.startswith(("opening", "racks"))
