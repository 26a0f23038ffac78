"""Game records: export, import with coded errors, and replay (with stub tops)."""

import copy
import json

import pytest

from engine.duplicate.game import Game
from engine.duplicate.racks import ManualSource, SeededSource
from engine.duplicate.record import game_to_record, load_record, replay
from engine.duplicate.variants import VARIANTS
from engine.errors import EngineError
from tests.engine.duplicate.stubs import StubTop, lay, placing

IDENTITY = {"name": "t", "source": "s", "version": "1", "word_count": 3, "sha256": "ab" * 32}


def seeded_record(seed: int = 7, finder=None, **extra) -> dict:
    game = Game(SeededSource(seed), finder or placing(3))
    game.play_to_end()
    return game_to_record(game, lexicon=IDENTITY, **extra)


def test_record_header_and_rounds() -> None:
    data = seeded_record()
    assert data["format"] == "tirage-game" and data["version"] == 1
    assert data["source"] == {"kind": "seeded", "seed": 7}
    assert data["variant"]["code"] == "standard" and data["variant"]["bonuses"] == {"7": 50}
    first = data["rounds"][0]
    assert first["number"] == 1 and first["status"] == "played"
    assert first["top"]["placed"] == 3 and first["chosen_by"] == "default"
    assert first["draws"][-1]["rejected"] is None
    assert data["totals"]["top"] == 10 * len(data["rounds"])
    assert data["end"]["code"] in ("E1", "E3")


def test_an_old_record_of_the_standard_game_reads_under_its_new_code() -> None:
    # Records written before the rename store the standard game as "classic" (its name was
    # "Duplicate classique"); they load as the standard game, replay, and export unchanged.
    old = seeded_record()
    old["variant"] |= {"code": "classic", "name": "Duplicate classique"}
    record = load_record(json.dumps(old))
    assert record.variant == VARIANTS["standard"]
    assert (record.variant.code, record.variant.name) == ("standard", "Partie normale")
    assert replay(record, placing(3)) == []
    assert json.loads(record.to_json()) == old


def test_export_import_round_trip_keeps_opaque_player_data() -> None:
    players = [{"id": "p1", "name": "Ada"}]
    round_players = {0: [{"player": "p1", "word": "MOT", "score": 12, "warning": True}]}
    totals = [{"player": "p1", "total": 12, "solos": 0}]
    data = seeded_record(players=players, round_players=round_players, player_totals=totals)
    text = json.dumps(data)
    record = load_record(text)
    assert json.loads(record.to_json()) == data
    assert record.rounds[0]["players"] == round_players[0]
    assert record.data["players"] == players and record.data["totals"]["players"] == totals


def test_replay_of_an_unchanged_record_finds_no_difference() -> None:
    assert replay(load_record(seeded_record()), placing(3)) == []


def test_a_game_ended_after_its_announced_rounds_replays_to_the_same_end() -> None:
    game = Game(SeededSource(7), placing(3))
    game.play_round()
    game.play_round()
    game.end_as_announced()
    data = game_to_record(game, lexicon=IDENTITY)
    assert data["end"]["code"] == "announced" and len(data["rounds"]) == 2
    assert data["totals"]["top"] == 20  # two rounds of the stub's 10 points
    assert replay(load_record(json.dumps(data)), placing(3)) == []


def test_replay_reports_each_difference() -> None:
    data = seeded_record()
    data["rounds"][2]["cumulative"] += 1
    data["totals"]["top"] = 1
    diffs = replay(load_record(data), placing(3))
    assert [(d.round, d.field) for d in diffs] == [(3, "cumulative"), (0, "totals.top")]
    assert diffs[0].recorded == diffs[0].recomputed + 1
    assert (
        str(diffs[1])
        == f"game: totals.top: recorded 1, recomputed {data['rounds'][-1]['cumulative']}"
    )


def test_replay_with_other_tops_reports_the_scores() -> None:
    diffs = replay(load_record(seeded_record()), placing(3, score=11))
    fields = {d.field for d in diffs}
    assert "top.score" in fields and "cumulative" in fields
    assert next(d for d in diffs if d.field == "top.score").recomputed == 11


def test_replay_of_a_tampered_draw() -> None:
    data = seeded_record()
    data["rounds"][0]["draws"][-1]["rack"] = "ZZZZZZZ"
    diffs = replay(load_record(data), placing(3))
    assert diffs[0].round == 1 and diffs[0].field == "draws"


def test_a_manual_game_replays_from_its_recorded_racks() -> None:
    game = Game(ManualSource(), placing(3))
    game.offer_rack("ABCDFGH")  # rejected
    game.offer_rack("AEIBCDF")
    game.place()
    game.offer_rack("AEO")
    game.cancel("timing")
    assert game.offer_rack("AEOBCDF").error.code == "rack.repeat"  # the cancelled rack
    game.offer_rack("AEUBCDF")
    game.place()
    data = game_to_record(game)
    assert data["source"] == {"kind": "manual"}
    assert [r["status"] for r in data["rounds"]] == ["played", "cancelled", "played"]
    assert replay(load_record(json.dumps(data)), placing(3)) == []


def test_an_arbiter_choice_replays() -> None:
    def two_ties(board, rack):
        return StubTop(10, (lay(board, rack.tiles[:2]), lay(board, rack.tiles[2:4])))

    game = Game(SeededSource(3), two_ties)
    game.draw()
    game.place(game.pending.tied[1])
    game.play_round()
    data = game_to_record(game)
    assert data["rounds"][0]["chosen_by"] == "arbiter"
    assert replay(load_record(data), two_ties) == []
    data["rounds"][0]["chosen_by"] = "default"  # the default would have been the other tie
    diffs = replay(load_record(data), two_ties)
    assert diffs[0].field == "top"


def test_the_outcome_hook_recomputes_player_entries() -> None:
    data = seeded_record(round_players={1: [{"player": "p1", "score": 9}]})
    seen = []

    def hook(game, rnd, entry):
        seen.append((rnd["number"], game.pending.rack, entry["player"]))
        return {"score": 8}

    diffs = replay(load_record(data), placing(3), outcome_hook=hook)
    assert seen == [(2, data["rounds"][1]["rack"], "p1")]
    assert [(d.round, d.field, d.recorded, d.recomputed) for d in diffs] == [
        (2, "players[0].score", 9, 8)
    ]


def test_a_lexicon_mismatch_is_a_difference() -> None:
    other = dict(IDENTITY, sha256="cd" * 32)
    diffs = replay(load_record(seeded_record()), placing(3), lexicon=other)
    assert [d.field for d in diffs] == ["lexicon.sha256"]


def test_variant_parameters_come_from_the_record() -> None:
    game = Game(SeededSource(2), placing(3), VARIANTS["7et8"])
    game.play_to_end()
    record = load_record(game_to_record(game))
    assert record.variant.rack_size == 8 and dict(record.variant.bonuses) == {7: 50, 8: 75}
    assert replay(record, placing(3)) == []


# Import errors ----------------------------------------------------------------------------------
def broken(change) -> dict:
    data = copy.deepcopy(GOOD)
    change(data)
    return data


GOOD = seeded_record(seed=1)


@pytest.mark.parametrize(
    ("data", "code"),
    [
        ("{not json", "record.json"),
        ('{"format": "eliot"}', "record.format"),
        (broken(lambda d: d.update(version=2)), "record.version"),
        (broken(lambda d: d.pop("rounds")), "record.field"),
        (broken(lambda d: d["rounds"][0].pop("top")), "record.field"),
        (broken(lambda d: d["rounds"][0].update(status="maybe")), "record.field"),
        (broken(lambda d: d["rounds"][0]["draws"][0].update(rack="AB1")), "record.rack"),
        (broken(lambda d: d["rounds"][0]["top"].update(coord="P1")), "record.move"),
        (broken(lambda d: d["rounds"][0]["tied"][0].update(word="")), "record.move"),
        (broken(lambda d: d["rounds"][0]["draws"][-1].update(rejected="minimum")), "record.field"),
        (broken(lambda d: d["source"].update(seed=-3)), "record.source"),
        (broken(lambda d: d["source"].update(kind="dice")), "record.source"),
        (broken(lambda d: d["variant"].update(rack_size="7")), "record.field"),
        (broken(lambda d: d["variant"]["bonuses"].update(x=1)), "record.variant"),
        (broken(lambda d: d["rounds"][0].update(players=[1])), "record.field"),
        (broken(lambda d: d["totals"].update(top="12")), "record.field"),
    ],
)
def test_bad_records_are_refused_with_a_code(data, code: str) -> None:
    with pytest.raises(EngineError) as info:
        load_record(data if isinstance(data, str) else json.dumps(data))
    assert info.value.code == code
    assert info.value.message.endswith(".") or info.value.message.endswith(")")
