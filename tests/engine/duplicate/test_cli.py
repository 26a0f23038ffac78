"""``python -m engine play`` / ``replay`` through the engine's command line."""

from __future__ import annotations

import json

import pytest

from engine.cli import main
from engine.duplicate.record import load_record


def test_play_prints_the_game_sheet(conformance_lexicon, capsys) -> None:
    assert main(["play", "--lexicon", str(conformance_lexicon.path), "--seed", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("Partie normale, seed 1, lexicon conformance (d82717276cf2)")
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


def test_play_takes_the_standard_game_by_its_old_code_too(conformance_lexicon, capsys) -> None:
    # Before the classic formula existed, the standard game's code was "classic": scripts
    # written then still work and write today's code.
    args = ["play", "--lexicon", str(conformance_lexicon.path), "--seed", "3", "--json"]
    records = []
    for code in ("classic", "standard", None):
        assert main(args + (["--variant", code] if code else [])) == 0
        records.append(json.loads(capsys.readouterr().out))
    assert records[0] == records[1] == records[2]
    assert records[0]["variant"]["code"] == "standard"
    with pytest.raises(SystemExit):
        main(["play", "--help"])
    helped = capsys.readouterr().out
    assert "standard" in helped and "classic" not in helped


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


# --- judge: the issue's rows, round 2 of seed 1 (ADONIsA H3; NANMEEE; top G6 AMENEE 21) ---
# Values by hand in tests/engine/duplicate/test_bulletin_table.py's docstring.
ISSUE_ROWS = [
    ("G4 MENA 19", ("penalty", "penalty.wrong_reference", 14, 19, "fallacieux")),
    ("- MENA 19", ("penalty", "penalty.missing_reference", 14, 19, None)),
    ("2G AMENE 20", ("warning", "warning.inverted_reference", 20, 20, None)),
    ("G9 MANNE 15", ("warning", "warning.score_wrong", 14, 14, None)),
    ("G3 MENA 25", ("warning", "warning.score_wrong", 19, 19, None)),
    ("G3 MENA 19", ("valid", "ok", 19, 19, None)),
]


@pytest.fixture(scope="module")
def seed1_record(conformance_lexicon, tmp_path_factory) -> str:
    path = tmp_path_factory.mktemp("judge") / "game.json"
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["play", "--lexicon", str(conformance_lexicon.path), "--seed", "1",
                     "--json"]) == 0  # fmt: skip
    path.write_text(out.getvalue(), encoding="utf-8")
    return str(path)


def judge_args(lexicon, record: str, *rest: str) -> list[str]:
    return ["judge", "--lexicon", str(lexicon.path), "--record", record, "--round", "2", *rest]


@pytest.mark.parametrize(("slip", "expected"), ISSUE_ROWS, ids=[r[0] for r in ISSUE_ROWS])
def test_judge_gives_the_rulebooks_answer(conformance_lexicon, seed1_record, capsys, slip,
                                          expected) -> None:  # fmt: skip
    assert main(judge_args(conformance_lexicon, seed1_record, "--slip", slip)) == 0
    [line] = capsys.readouterr().out.splitlines()
    got = json.loads(line)
    assert list(got)[:7] == ["kind", "code", "score", "raw_score", "review", "words",
                             "invalid_words"]  # fmt: skip
    assert (got["kind"], got["code"], got["score"], got["raw_score"], got["review"]) == expected


def test_judge_reads_a_file_of_slips_and_flags(conformance_lexicon, seed1_record, capsys,
                                               tmp_path) -> None:  # fmt: skip
    slips = tmp_path / "slips.txt"
    slips.write_text("# round 2\nG3 MENA 19\n\nG4 MENA\nG3 NAME 19\nG3 MENA 19 | G3 NAME\n")
    assert main(judge_args(conformance_lexicon, seed1_record, "--slips", str(slips))) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(x["code"], x["score"]) for x in lines] == [
        ("ok", 19), ("zero.invalid_word", 0), ("zero.invalid_word", 0),
        ("zero.several_solutions", 0)]  # fmt: skip
    assert lines[1]["invalid_words"] == ["MD", "EO", "NN"]
    assert lines[2]["invalid_words"][0] == "NAME"
    assert lines[3]["review"] == "several_solutions"
    assert lines[0]["words"] == ["MENA", "MA", "ED", "NO", "AN"]
    assert main(judge_args(conformance_lexicon, seed1_record, "--slip", "G3 MENA 19",
                           "--late")) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["code"] == "zero.late"
    assert main(judge_args(conformance_lexicon, seed1_record, "--slip", "G3 MENA 19",
                           "--illegible")) == 0  # fmt: skip
    got = json.loads(capsys.readouterr().out)
    assert (got["code"], got["review"], got["alternative"]["score"]) == (
        "zero.illegible", "illegible", 19)  # fmt: skip
    assert main(judge_args(conformance_lexicon, seed1_record, "--slip", "- MENA 19",
                           "--connecting", "AD")) == 0  # fmt: skip
    assert json.loads(capsys.readouterr().out)["code"] == "warning.few_connecting"


@pytest.mark.parametrize(
    ("rest", "expected"),
    [
        (["--slip", "G3 ME1NA 19"], "is not a slip"),
        (["--slip", "G3 MENA vingt"], "is not a slip"),
        (["--slip", " | G3 MENA"], "is not a slip"),
        (["--slips", "/nonexistent.txt"], "does not exist"),
        ([], "Give one slip"),
        (["--slip", "G3 MENA", "--variant", "789"], "9 tiles"),
        (["--slip", "G3 MENA", "--variant", "nope"], "invalid choice"),
    ],
)
def test_judge_bad_input_exits_2_with_one_sentence(conformance_lexicon, seed1_record, capsys,
                                                   rest, expected) -> None:  # fmt: skip
    assert main(judge_args(conformance_lexicon, seed1_record, *rest)) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and expected in captured.err
    assert len(captured.err.strip().splitlines()) == 1


def test_judge_refuses_a_round_the_record_lacks(conformance_lexicon, seed1_record, capsys):
    args = judge_args(conformance_lexicon, seed1_record, "--slip", "G3 MENA")
    args[args.index("2")] = "99"
    assert main(args) == 2
    assert "no played round 99" in capsys.readouterr().err
