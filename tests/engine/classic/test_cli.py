"""``python -m engine classic play`` / ``classic replay`` through the engine's command line."""

from __future__ import annotations

import json

import pytest

from engine.classic.record import load_record
from engine.cli import main

pytest.importorskip("engine._core")


def test_play_prints_the_score_sheet_with_the_end_lines(conformance_lexicon, capsys) -> None:
    args = ["classic", "play", "--lexicon", str(conformance_lexicon.path), "--seed", "7"]
    assert main([*args, "--players", "3", "--level", "best,weak,best"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Classic game, seed 7, lexicon conformance (d82717276cf2)")
    assert lines[1].startswith("Order of play: Joueur ")
    assert lines[2].split()[0] == "1"
    assert any(line.startswith("Game over: ") for line in lines)
    assert any(line.startswith("Lettres restantes: ") for line in lines)
    assert lines[-3].strip().startswith("1. ")  # three players ranked last


def test_play_json_then_replay(conformance_lexicon, capsys, tmp_path) -> None:
    args = ["classic", "play", "--lexicon", str(conformance_lexicon.path), "--seed", "5"]
    assert main([*args, "--players", "2", "--level", "weak", "--json"]) == 0
    text = capsys.readouterr().out
    record = load_record(text)
    assert record.seed == 5 and [p["level"] for p in record.players] == ["weak", "weak"]
    assert record.data["lexicon"]["path"] == str(conformance_lexicon.path.resolve())
    assert record.data["end"]["reason"] in ("out", "blocked")
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    assert main(["classic", "replay", str(path)]) == 0  # lexicon from the record's hint
    assert capsys.readouterr().out.startswith("The record reproduces: ")

    data = json.loads(text)
    data["turns"][3]["move"]["score"] += 2
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["classic", "replay", str(path), "--lexicon", str(conformance_lexicon.path)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert len(out) == 1 and out[0].startswith("turn 4: move.score: recorded ")


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (None, "does not exist"),
        ("{oops", "not valid JSON"),
        ('{"format": "tirage-game", "version": 1}', "not a classic game record"),
        ('{"format": "tirage-classic", "version": 9}', "version 9"),
        ('{"format": "tirage-classic", "version": 1, "settings": {}}', "'source'"),
    ],
)
def test_replay_of_a_bad_file_exits_2_with_one_sentence(tmp_path, capsys, content, expected):
    path = tmp_path / "bad.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    assert main(["classic", "replay", str(path)]) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert len(err.splitlines()) == 1 and expected in err and captured.out == ""


@pytest.mark.parametrize(
    ("extra", "expected"),
    [
        (["--players", "5"], "2 to 4 players"),
        (["--level", "best,weak"], "--level"),
        (["--level", "genius"], "--level"),
        (["--challenge", "points"], "points above 0"),
        (["--seed", "-1"], "seed"),
        (["--seed", "x"], "invalid int"),
    ],
)
def test_play_refuses_bad_arguments_with_exit_2(conformance_lexicon, capsys, extra, expected):
    args = ["classic", "play", "--lexicon", str(conformance_lexicon.path), "--seed", "1"]
    assert main([*args, "--players", "3", *extra]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and expected in err


def test_play_refuses_a_missing_lexicon(tmp_path, capsys) -> None:
    assert main(["classic", "play", "--lexicon", str(tmp_path / "no.lex"), "--seed", "1"]) == 2
    assert "does not exist" in capsys.readouterr().err
