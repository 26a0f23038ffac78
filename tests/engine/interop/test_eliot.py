"""Eliot's saved-game XML (engine.interop): a hand-written file replayed, Tirage's own games
through Eliot's format and back, and hostile or malformed files refused with their codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from engine.cli import main
from engine.duplicate.game import Game
from engine.duplicate.racks import SeededSource
from engine.duplicate.record import game_to_record, load_record, replay
from engine.duplicate.scoresheet import rescoring_hook, scoring_settings
from engine.duplicate.top import engine_top_finder
from engine.duplicate.variants import STANDARD, VARIANTS
from engine.errors import EngineError
from engine.interop.eliot import eliot_from_record, record_from_eliot, variant_of
from engine.interop.eliot_xml import read_eliot, write_eliot

HAND_WRITTEN = Path(__file__).resolve().parents[2] / "data" / "eliot" / "hand-written.xml"


def imported(data: bytes | str, lexicon):
    game = read_eliot(data)
    return record_from_eliot(game, engine_top_finder(lexicon, variant_of(game)), lexicon)


def draws(record: dict) -> list[list[tuple[str, str | None]]]:
    return [[(d["rack"], d["rejected"]) for d in r["draws"]] for r in record["rounds"]]


def tops(record: dict) -> list[tuple[str, str, int, int]]:
    return [(r["top"]["coord"], r["top"]["word"], r["top"]["score"], r["cumulative"])
            for r in record["rounds"]]  # fmt: skip


def outcomes(record: dict) -> list[list[tuple[str, str, int]]]:
    return [[(p["player"], p["outcome"]["code"], p["outcome"]["score"]) for p in r["players"]]
            for r in record["rounds"]]  # fmt: skip


# --- The hand-written file -----------------------------------------------------------------


def test_the_hand_written_file_replays_with_the_scores_computed_by_hand(conformance_lexicon):
    result = imported(HAND_WRITTEN.read_bytes(), conformance_lexicon)
    assert result.differences == ()
    record = result.record
    # Scores by hand (../shared/rules/duplicate.md T4; W 10, H 4, I 1, S 1, K 10, Y 10, O 1,
    # X 10, D 2, E 1, A 1, L 1, B 3, U 1, M 2, N 1, joker 0):
    # 1. WHISKY H4: W on the DL H4 = 20, + 4+1+1+10+10 = 46, H8 doubles the word: 92.
    # 2. OXYDE 9F (column 9 from row F): O 1, X on the DL G9 = 20, Y (on the board) 10,
    #    D on the DL I9 = 4, E 1: 36, no cross-word.
    # 3. ALBUMeN K4: 1+1+3+1+2+0+1 = 9, doubled by K5 = 18; e under OXYDE makes OXYDEe
    #    (1+10+10+2+1+0 = 24, K9 plain); seven tiles: +50. 18 + 24 + 50 = 92.
    assert tops(record) == [("H4", "WHISKY", 92, 92), ("9F", "OXYDE", 36, 128),
                            ("K4", "ALBUMeN", 92, 220)]  # fmt: skip
    # Round 2: Eliot's "-" says the draw after the reliquat E was rejected; the file does not
    # say what came out, so Tirage records a rejected completion of E and says so.
    assert [d[-1] for d in draws(record)] == [("WHISKYE", None), ("-BOUDEXL", None),
                                              ("BLU+?MAN", None)]  # fmt: skip
    first = record["rounds"][1]["draws"][0]
    assert first["reliquat"] == "E" and first["rejected"] == "minimum"
    assert "not in its file" in first["message"]
    assert [r["next_reliquat"] for r in record["rounds"]] == ["E", "BLU", ""]
    # SKI H8: S 1 + K 10 + I 1 = 12, doubled by H8 = 24; BLOUD is no word; no move: 0.
    assert outcomes(record) == [
        [("0", "ok", 92), ("1", "ok", 24)],
        [("0", "ok", 36), ("1", "zero.invalid_word", 0)],
        [("0", "ok", 92), ("1", "zero.no_proposal", 0)],
    ]
    assert record["players"] == [{"id": "0", "name": "Alice Dupré", "table": 1},
                                 {"id": "1", "name": "Bob & Co", "table": 2}]  # fmt: skip
    assert [p["total"] for p in record["totals"]["players"]] == [220, 24]
    assert record["end"] is None and record["source"] == {"kind": "predrawn"}
    assert record["origin"]["dictionary"] == "ODS 9"
    # ... and the record is one Tirage replays as it replays its own.
    checked = load_record(json.dumps(record))
    scoring, _ = scoring_settings(checked)
    finder = engine_top_finder(conformance_lexicon, STANDARD)
    hook = rescoring_hook(conformance_lexicon, scoring)
    assert replay(checked, finder, lexicon=conformance_lexicon.identity, outcome_hook=hook) == []


def test_the_hand_written_file_goes_out_and_back_the_same(conformance_lexicon):
    record = imported(HAND_WRITTEN.read_bytes(), conformance_lexicon).record
    xml = write_eliot(eliot_from_record(load_record(record)))
    again = imported(xml, conformance_lexicon)
    assert again.differences == ()
    assert draws(again.record) == draws(record)
    assert tops(again.record) == tops(record) and outcomes(again.record) == outcomes(record)
    assert again.record["players"] == record["players"]


def test_a_top_that_is_not_ours_is_named_with_its_round(conformance_lexicon):
    text = HAND_WRITTEN.read_text(encoding="utf-8")
    ours = '<GameMove points="92" type="valid" word="ALBUMeN" coord="K4" />'
    text = text.replace(ours, '<GameMove points="68" type="valid" word="ALBUMENs" coord="J4" />')
    result = imported(text, conformance_lexicon)
    assert [(d.round, d.field) for d in result.differences] == [(3, "top")]
    assert str(result.differences[0]) == (
        "round 3: top: recorded 'J4 ALBUMENs 68', recomputed 'K4 ALBUMeN 92'"
    )
    assert result.record["rounds"][2]["chosen_by"] == "record"  # the file's move, forced


def first_turn_only(move: str) -> str:
    """The hand-written file cut after its first turn, Eliot's top replaced by ``move``."""
    text = HAND_WRITTEN.read_text(encoding="utf-8")
    end = text.index("</Turn>") + len("</Turn>")
    text = text[:end] + "\n    </History>\n</EliotGame>\n"
    return text.replace('word="WHISKY" coord="H4"', move)


def test_another_tied_top_is_placed_as_the_arbiters_choice(conformance_lexicon):
    # WHISKY H7: W 10, H on H8 4, I 1, S 1, K 10, Y on the DL H12 20 = 46, doubled: 92 too.
    result = imported(first_turn_only('word="WHISKY" coord="H7"'), conformance_lexicon)
    assert result.differences == ()
    (rnd,) = result.record["rounds"]
    assert (rnd["top"]["coord"], rnd["top"]["score"], rnd["chosen_by"]) == ("H7", 92, "arbiter")


def test_wrong_points_in_the_file_are_differences(conformance_lexicon):
    text = HAND_WRITTEN.read_text(encoding="utf-8").replace(
        'points="24" type="valid" word="SKI"', 'points="26" type="valid" word="SKI"'
    )
    result = imported(text, conformance_lexicon)
    assert [(d.round, d.field, d.recorded, d.recomputed) for d in result.differences] == [
        (1, "players[1].points", 26, 24)
    ]


# --- A game Tirage prepared --------------------------------------------------------------


@pytest.fixture(scope="module")
def seeded_record(conformance_lexicon) -> dict:
    """Seed 1 on the conformance lexicon: a joker in round 1 (ADONIsA), racks rejected in
    rounds 9 and 10 (tests/engine/duplicate/test_cli.py shows the sheet)."""
    game = Game(SeededSource(1), engine_top_finder(conformance_lexicon, STANDARD))
    game.play_to_end()
    return game_to_record(game, lexicon=conformance_lexicon.identity)


def test_a_seeded_game_goes_through_eliot_and_back_identical(conformance_lexicon, seeded_record):
    xml = write_eliot(eliot_from_record(load_record(seeded_record)))
    assert b"<GameRack>-ECULUQT</GameRack>" in xml and b'word="ADONIsA"' in xml
    again = imported(xml, conformance_lexicon)
    assert again.differences == ()
    assert draws(again.record) == draws(seeded_record)
    assert any(r for r in draws(seeded_record) if len(r) > 1)  # rejected racks were there
    assert tops(again.record) == tops(seeded_record)
    assert again.record["end"] == seeded_record["end"]
    assert again.record["lexicon"]["sha256"] == seeded_record["lexicon"]["sha256"]


def test_without_our_rejected_racks_the_kept_racks_and_tops_are_the_same(
    conformance_lexicon, seeded_record
):
    """A real Eliot file has only the "-" of the kept rack: the rounds replay the same."""
    xml = write_eliot(eliot_from_record(load_record(seeded_record))).decode("utf-8")
    plain = re.sub(r"\s*<TirageRejectedRack[^>]*>[^<]*</TirageRejectedRack>", "", xml)
    assert "TirageRejectedRack" not in plain
    again = imported(plain, conformance_lexicon)
    assert again.differences == ()
    assert [r[-1] for r in draws(again.record)] == [r[-1] for r in draws(seeded_record)]
    assert [len(r) for r in draws(again.record)] == [len(r) for r in draws(seeded_record)]
    assert tops(again.record) == tops(seeded_record)


def test_the_joker_game_is_eliots_bingo_variant(conformance_lexicon):
    game = Game(SeededSource(5), engine_top_finder(conformance_lexicon, VARIANTS["joker"]),
                VARIANTS["joker"])  # fmt: skip
    for _ in range(6):
        game.play_round()
    record = game_to_record(game, lexicon=conformance_lexicon.identity)
    eliot = eliot_from_record(load_record(record))
    assert eliot.variants == ("bingo",)
    again = imported(write_eliot(eliot), conformance_lexicon)
    assert again.record["variant"]["code"] == "joker"
    assert draws(again.record) == draws(record) and tops(again.record) == tops(record)


def test_what_eliot_cannot_hold_is_refused(conformance_lexicon, seeded_record):
    cancelled = json.loads(json.dumps(seeded_record))
    cancelled["rounds"][2]["status"] = "cancelled"
    with pytest.raises(EngineError) as info:
        eliot_from_record(load_record(cancelled))
    assert info.value.code == "eliot.cancelled" and info.value.details["round"] == 3
    other = json.loads(json.dumps(seeded_record))
    other["variant"] = VARIANTS["7et8"].to_json()
    with pytest.raises(EngineError) as info:
        eliot_from_record(load_record(other))
    assert info.value.code == "eliot.export_variant"
    blitz = json.loads(json.dumps(seeded_record))
    blitz["variant"] = VARIANTS["blitz"].to_json()  # the standard game on a shorter clock
    assert eliot_from_record(load_record(blitz)).variants == ()


# --- Hostile and malformed files ---------------------------------------------------------

LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE EliotGame [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
<EliotGame format="2"><Game><Mode>&b;</Mode></Game></EliotGame>"""
EXTERNAL = """<?xml version="1.0"?>
<!DOCTYPE EliotGame [<!ENTITY x SYSTEM "file:///etc/passwd">]>
<EliotGame format="2"><Game><Mode>&x;</Mode></Game></EliotGame>"""


def _turn(body: str) -> str:
    return HAND_WRITTEN.read_text(encoding="utf-8").replace(
        "<GameRack>WHISKYE</GameRack>", f"<GameRack>WHISKYE</GameRack>{body}", 1
    )


@pytest.mark.parametrize(
    ("content", "code"),
    [
        (LAUGHS, "eliot.doctype"),
        (EXTERNAL, "eliot.doctype"),
        ('<!DOCTYPE EliotGame SYSTEM "http://example.org/x.dtd"><EliotGame/>', "eliot.doctype"),
        ("<EliotGame format='2'><Game>", "eliot.xml"),
        ("not xml at all", "eliot.xml"),
        ("<?xml-stylesheet href='x'?><EliotGame format='2'/>", "eliot.doctype"),
        ("<TirageGame/>", "eliot.format"),
        ("<EliotGame format='1'><Game/></EliotGame>", "eliot.version"),
        ("<EliotGame format='2'/>", "eliot.format"),
        ("<EliotGame format='2'>" + "<a>" * 20 + "</a>" * 20 + "</EliotGame>", "eliot.xml"),
        (
            "<EliotGame format='2'><Game><Mode>" + "x" * 600 + "</Mode></Game></EliotGame>",
            "eliot.xml",
        ),  # fmt: skip
        ("<EliotGame format='2'>" + "<x/>" * 400_001 + "</EliotGame>", "eliot.too_big"),
        (b"x" * 5_000_001, "eliot.too_big"),
        ("<EliotGame format='2'><Game><Player id='a'/></Game></EliotGame>", "eliot.value"),
        (
            "<EliotGame format='2'><Game><Player id='1'/><Player id='1'/></Game></EliotGame>",
            "eliot.player",
        ),  # fmt: skip
        (_turn('<PlayerMove playerId="7" points="0" type="none" />'), "eliot.player"),
        (_turn('<PlayerMove playerId="0" points="0" type="swap" />'), "eliot.move"),
        (_turn('<PlayerMove playerId="0" points="99999999" type="none" />'), "eliot.value"),
    ],
)
def test_hostile_or_malformed_files_are_refused_with_a_code(content, code) -> None:
    with pytest.raises(EngineError) as info:
        read_eliot(content)
    assert info.value.code == code


@pytest.mark.parametrize(
    ("old", "new", "code"),
    [
        ("<Mode>arbitration</Mode>", "<Mode>freegame</Mode>", "eliot.mode"),
        (
            "<Mode>arbitration</Mode>",
            "<Mode>arbitration</Mode><Variant>explosive</Variant>",
            "eliot.variant",
        ),  # fmt: skip
        ("<GameRack>WHISKYE</GameRack>", "<GameRack>WHISKYEZ</GameRack>", "eliot.rack"),
        ("<GameRack>BLU+?MAN</GameRack>", "<GameRack>BLE+?MAN</GameRack>", "eliot.rack"),
        (
            'word="OXYDE" coord="9F" />\n        </Turn>',
            'word="OXYDE" coord="9G" />\n</Turn>',
            "eliot.move",
        ),  # fmt: skip
        ('<GameMove points="92" type="valid" word="WHISKY" coord="H4" />', "", "eliot.turn"),
    ],
)
def test_files_tirage_cannot_replay_are_refused_with_a_code(conformance_lexicon, old, new, code):
    text = HAND_WRITTEN.read_text(encoding="utf-8")
    assert old in text
    with pytest.raises(EngineError) as info:
        imported(text.replace(old, new, 1), conformance_lexicon)
    assert info.value.code == code


# --- Command line ------------------------------------------------------------------------


def test_the_command_line_imports_and_exports(conformance_lexicon, capsys, tmp_path):
    lex = str(conformance_lexicon.path)
    assert main(["eliot", "import", str(HAND_WRITTEN), "--lexicon", lex]) == 0
    record = load_record(capsys.readouterr().out)
    assert record.data["totals"]["top"] == 220
    path = tmp_path / "game.tirage.json"
    path.write_text(record.to_json(), encoding="utf-8")
    assert main(["eliot", "export", str(path)]) == 0
    xml = capsys.readouterr().out
    assert xml.startswith('<?xml version="1.0" encoding="UTF-8"?>\n<EliotGame format="2">')
    assert "<GameRack>-BOUDEXL</GameRack>" in xml
    assert read_eliot(xml).players[1].name == "Bob & Co"


def test_the_command_line_says_one_sentence_on_bad_input(conformance_lexicon, capsys, tmp_path):
    bad = tmp_path / "bad.xml"
    bad.write_text(LAUGHS, encoding="utf-8")
    lex = str(conformance_lexicon.path)
    assert main(["eliot", "import", str(bad), "--lexicon", lex]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err == ["error: The file declares a DOCTYPE or entities, which Eliot never writes."]
    assert main(["eliot", "import", str(tmp_path / "none.xml"), "--lexicon", lex]) == 2
    assert main(["eliot", "import", str(HAND_WRITTEN)]) == 2  # no lexicon
    assert "--lexicon" in capsys.readouterr().err
    assert main(["eliot", "export", str(bad)]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1


def test_user_text_is_escaped_and_cleaned_when_written() -> None:
    from engine.interop.eliot_xml import EliotDictionary, EliotGame, EliotPlayer

    name = 'Zoé <b>&amp;</b> "\x01\x1f'  # markup, quotes and characters XML cannot hold
    game = EliotGame(EliotDictionary("ODS"), "arbitration", (), (EliotPlayer(3, name),), ())
    assert read_eliot(write_eliot(game)).players == (EliotPlayer(3, 'Zoé <b>&amp;</b> "'),)
