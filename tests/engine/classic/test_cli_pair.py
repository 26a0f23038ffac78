"""``python -m engine classic pair``: the next round from a JSON file of results."""

from __future__ import annotations

import json

from engine.cli import main


def test_pair_prints_the_next_swiss_round(tmp_path, capsys) -> None:
    data = {
        "players": ["Ana", "Ben", "Cal", "Dan"],
        "results": [
            {"round": 1, "first": "Ana", "second": "Ben", "scores": [420, 380]},
            {"round": 1, "first": "Cal", "second": "Dan", "forfeit": "Dan"},
        ],
    }
    path = tmp_path / "t.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    assert main(["classic", "pair", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    # After round 1: Cal (+50, forfeit), Ana (+40), Ben, Dan. Swiss: Cal-Ana, Ben-Dan.
    assert out["round"] == 2
    pairs = [{t["first"], t["second"]} for t in out["tables"]]
    assert pairs == [{"Cal", "Ana"}, {"Ben", "Dan"}]
    assert main(["classic", "pair", str(path)]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Round 2 (swiss)") and "  1. Cal" in text


def test_pair_refuses_a_bad_file_with_one_sentence(tmp_path, capsys) -> None:
    path = tmp_path / "t.json"
    path.write_text('{"players": ["Ana"], "results": [{"round": 1, "first": "Zoé"}]}', "utf-8")
    assert main(["classic", "pair", str(path)]) == 2
    err = capsys.readouterr().err
    assert "pairing file" in err and len(err.strip().splitlines()) == 1
