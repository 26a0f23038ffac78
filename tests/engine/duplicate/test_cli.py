"""``python -m engine play`` / ``replay`` through the engine's command line."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.duplicate.record import load_record


def test_play_prints_the_game_sheet(conformance_lexicon, capsys) -> None:
    assert main(["play", "--lexicon", str(conformance_lexicon.path), "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Duplicate classique, seed 1, lexicon conformance (d82717276cf2)")
    assert lines[1].split() == ["N", "RACK", "TOP", "REF", "PTS", "TOTAL"]
    assert lines[2].split() == ["1", "ODA?ANI", "ADONIsA", "H3", "68*", "68"]  # * = bingo
    assert lines[3].split() == ["2", "NANMEEE", "AMENEE", "G6", "21", "89"]
    rejected = lines.index(next(line for line in lines if "DGM+TNLR" in line))
    assert "rejected: no vowel: move 9 needs 2 vowels and 2 consonants" in lines[rejected]
    assert lines[rejected + 1].split()[:2] == ["9", "-ECULUQT"]
    assert lines[-2].startswith("Top total: ")
    assert lines[-1].startswith("Game over, E")


def test_play_json_then_replay(conformance_lexicon, capsys, tmp_path) -> None:
    args = ["play", "--lexicon", str(conformance_lexicon.path), "--seed", "5"]
    assert main([*args, "--variant", "joker", "--json"]) == 0
    text = capsys.readouterr().out
    record = load_record(text)
    assert record.variant.code == "joker" and record.source == {"kind": "seeded", "seed": 5}
    assert record.data["lexicon"]["path"] == str(conformance_lexicon.path.resolve())
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    assert main(["replay", str(path)]) == 0  # the lexicon comes from the record's hint
    assert capsys.readouterr().out.startswith("The record reproduces: ")
    data = json.loads(text)
    data["rounds"][3]["top"]["score"] += 2
    data["totals"]["top"] += 2
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["replay", str(path), "--lexicon", str(conformance_lexicon.path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("round 4: top.score: recorded ")
    assert out[-1].startswith("game: totals.top: recorded ")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "does not exist"),
        ("{oops", "not valid JSON"),
        ('{"format": "tirage-game", "version": 9}', "version 9"),
    ],
)
def test_replay_of_a_bad_file_exits_2_with_one_sentence(tmp_path, capsys, content, expected):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and expected in err


def test_play_refuses_a_bad_seed_or_lexicon(tmp_path, capsys) -> None:
    assert main(["play", "--lexicon", str(tmp_path / "none.lex"), "--seed", "1"]) == 2
    assert "does not exist" in capsys.readouterr().err
