"""``python -m engine cards play`` / ``cards replay``: output, exit codes, bad input."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from engine.cli import main


def _play(lexicon, *extra: str) -> list[str]:
    return ["cards", "play", "--lexicon", str(lexicon.path), *extra]


def test_play_json_then_replay_then_a_changed_record(conformance_lexicon, capsys, tmp_path):
    assert main([*_play(conformance_lexicon, "--players", "3", "--seed", "12", "--json")]) == 0
    text = capsys.readouterr().out
    data = json.loads(text)
    assert data["format"] == "tirage-cards" and data["version"] == 1
    assert [p["level"] for p in data["players"]] == ["strong"] * 3
    assert data["lexicon"]["path"] == str(conformance_lexicon.path.resolve())
    path = tmp_path / "game.json"
    path.write_text(text, encoding="utf-8")
    assert main(["cards", "replay", str(path)]) == 0
    assert capsys.readouterr().out.startswith("The record reproduces: ")
    data["turns"][1]["drawn"] = "ZZ"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["cards", "replay", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("turn 2: drawn recorded 'ZZ'") and len(out.splitlines()) == 1


def test_play_prints_a_game_sheet(conformance_lexicon, capsys):
    assert main([*_play(conformance_lexicon, "--players", "2", "--seed", "3")]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Seed 3, 2 players, seat ")
    assert lines[-1].startswith("Final scores: ")


@pytest.mark.parametrize(
    "args",
    [
        ["cards", "play", "--lexicon", "/nonexistent.lex", "--players", "2", "--seed", "1"],
        ["cards", "play", "--players", "2", "--seed", "1"],
        ["cards", "play", "--lexicon", "LEX", "--players", "7", "--seed", "1"],
        ["cards", "play", "--lexicon", "LEX", "--players", "2", "--seed", "-1"],
        ["cards", "play", "--lexicon", "LEX", "--players", "two", "--seed", "1"],
        ["cards", "play", "--lexicon", "LEX", "--players", "2", "--seed", "1", "--levels", "x"],
        ["cards", "replay", "/nonexistent.json"],
        ["cards", "replay", "NOTJSON"],
        ["cards", "replay", "OTHERFORMAT"],
        ["cards", "replay", "NOPLAY"],
        ["cards", "replay", "NOLEXICON"],
    ],
)
def test_bad_input_exits_2_with_one_sentence(conformance_lexicon, tmp_path, args, capsys):
    files = {
        "NOTJSON": "{not json",
        "OTHERFORMAT": json.dumps({"format": "tirage-game", "version": 1}),
        "NOPLAY": json.dumps(
            {
                "format": "tirage-cards",
                "version": 1,
                "seed": 1,
                "strict": True,
                "players": [{"level": "strong"}, {"level": "strong"}],
                "start": {},
                "dealt": [],
                "turns": [{"seat": 0, "action": "play"}],
            }
        ),
        "NOLEXICON": json.dumps(
            {
                "format": "tirage-cards",
                "version": 1,
                "seed": 1,
                "strict": True,
                "lexicon": None,
                "players": [{"level": "strong"}, {"level": "strong"}],
                "start": {},
                "dealt": [],
                "turns": [],
            }
        ),
    }
    real = []
    for arg in args:
        if arg == "LEX":
            arg = str(conformance_lexicon.path)
        elif arg in files:
            path = tmp_path / f"{arg}.json"
            path.write_text(files[arg], encoding="utf-8")
            arg = str(path)
        real.append(arg)
    assert main(real) == 2
    captured = capsys.readouterr()
    err = captured.err.strip()
    assert err.startswith("error: ") and "\n" not in err and "Traceback" not in err
    assert captured.out == ""


def test_module_entry_point_exit_status(tmp_path):
    """Through ``python -m engine``: status 2 and no traceback on a missing record."""
    done = subprocess.run(
        [sys.executable, "-m", "engine", "cards", "replay", str(tmp_path / "none.json")],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "does not exist" in done.stderr
