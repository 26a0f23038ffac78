"""Players in a game record: replay recomputes every outcome and every total.

Three players through a seeded game on the conformance word list: ``ana`` hands in the
top each round, ``bob`` the best move that is not a top, ``cle`` is absent from round 1
and hands in a word not in the list from round 2 on. By the rules alone: ana scores the
top total (her solos earn nothing with 3 players, fewer than 16), cle scores 0, and the
record must replay without a single difference until an outcome is tampered with.
"""

from __future__ import annotations

import json

import pytest

from engine.board import Rack
from engine.cli import main
from engine.duplicate.game import Game
from engine.duplicate.proposals import Proposal, ScoringSettings, score_proposal
from engine.duplicate.racks import SeededSource
from engine.duplicate.record import game_to_record, load_record, replay
from engine.duplicate.scoresheet import (
    check_totals,
    game_scores,
    player_entry,
    rescoring_hook,
    scoring_json,
    scoring_settings,
    totals_json,
)
from engine.duplicate.top import engine_top_finder
from engine.duplicate.totals import TotalsSettings, game_result
from engine.duplicate.variants import get_variant
from engine.movegen import generate_moves

PLAYERS = [{"id": "ana", "name": "Ana"}, {"id": "bob", "name": "Bob"}, {"id": "cle", "name": "Clé"}]


def _play(lexicon, seed: int = 7) -> dict:
    variant = get_variant("standard")
    game = Game(SeededSource(seed), engine_top_finder(lexicon, variant), variant)
    scoring = ScoringSettings()
    round_players: dict[int, list[dict]] = {}
    while (pending := game.draw()) is not None:
        board, rack, top = game.board, Rack(game.rack), pending.choice
        below = [m for m in generate_moves(board, rack, lexicon) if m.score < top.score]
        proposals = {
            "ana": Proposal(top.chosen.word, top.chosen.coord, top.chosen.score),
            "bob": Proposal(below[0].word, below[0].coord, below[0].score) if below else None,
            "cle": Proposal(word="ZZQXW", reference="H4") if pending.number > 1 else None,
        }
        entries = []
        for player, proposal in proposals.items():
            if player == "cle" and pending.number == 1:
                entries.append(player_entry(player, None, None))  # absent
                continue
            outcome = score_proposal(
                board=board,
                rack=rack,
                round_number=pending.number,
                top_score=top.score,
                proposal=proposal or Proposal(),
                lexicon=lexicon,
                settings=scoring,
            )
            entries.append(player_entry(player, proposal, outcome))
        round_players[len(game.history)] = entries
        game.place()
    record = game_to_record(
        game, lexicon=lexicon.identity, players=PLAYERS, round_players=round_players
    )
    record["scoring"] = scoring_json(scoring, TotalsSettings())
    loaded = load_record(record)
    result = game_result(game_scores(loaded), scoring_settings(loaded)[1])
    record["totals"]["players"] = totals_json(result)
    return record


@pytest.fixture(scope="module")
def record(conformance_lexicon) -> dict:
    return _play(conformance_lexicon)


def test_totals_follow_the_rules(record: dict) -> None:
    totals = {t["player"]: t for t in record["totals"]["players"]}
    assert totals["ana"]["total"] == record["totals"]["top"]
    assert totals["ana"]["solo_bonus"] == 0  # 3 players: solos recorded, worth nothing
    assert totals["cle"]["total"] == 0
    assert 0 < totals["bob"]["total"] < record["totals"]["top"]
    played = [r for r in record["rounds"] if r["status"] == "played"]
    cle = [e["outcome"] for r in played[1:] for e in r["players"] if e["player"] == "cle"]
    assert len(cle) == len(played) - 1
    assert all(o["kind"] == "zero" for o in cle)
    assert all(o["score"] == 0 for o in cle)


def test_record_replays_without_difference(record: dict, conformance_lexicon) -> None:
    loaded = load_record(json.dumps(record))
    scoring, totals = scoring_settings(loaded)
    finder = engine_top_finder(conformance_lexicon, loaded.variant)
    hook = rescoring_hook(conformance_lexicon, scoring)
    assert replay(loaded, finder, outcome_hook=hook) == []
    assert check_totals(loaded, totals) == []


def test_tampered_outcome_and_total_are_reported(record: dict, conformance_lexicon) -> None:
    data = json.loads(json.dumps(record))
    rnd = next(r for r in data["rounds"] if r["number"] == 2)
    entry = next(e for e in rnd["players"] if e["player"] == "bob")
    entry["outcome"]["score"] += 3
    loaded = load_record(data)
    finder = engine_top_finder(conformance_lexicon, loaded.variant)
    hook = rescoring_hook(conformance_lexicon, scoring_settings(loaded)[0])
    diffs = replay(loaded, finder, outcome_hook=hook)
    assert [(d.round, d.field) for d in diffs] == [(2, "players[1].outcome")]
    totals = check_totals(loaded, scoring_settings(loaded)[1])
    assert [d.field for d in totals] == ["totals.players[bob]"]
    assert totals[0].recomputed["total"] == totals[0].recorded["total"] + 3


def test_replay_command_checks_players(record: dict, conformance_lexicon, tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    lexfile = str(conformance_lexicon.path)
    assert main(["replay", str(path), "--lexicon", lexfile]) == 0
    assert "reproduces" in capsys.readouterr().out
    record["totals"]["players"][0]["total"] += 1
    path.write_text(json.dumps(record), encoding="utf-8")
    assert main(["replay", str(path), "--lexicon", lexfile]) == 1
    assert "totals.players[ana]" in capsys.readouterr().out
