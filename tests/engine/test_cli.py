"""``python -m engine``: stable output formats and exit status 2 with one sentence."""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import main
from tests.engine.conftest import POSITIONS_FILE, conformance_positions


@pytest.fixture(scope="module")
def lexfile(conformance_lexicon, tmp_path_factory) -> Path:
    return Path(conformance_lexicon.path)


def test_lexicon_build_reports_rejected_lines(tmp_path: Path, capsys) -> None:
    words = tmp_path / "club.txt"
    words.write_text("mot\nÉTÉ\nporte-clé\nx\nmots\n", encoding="utf-8")
    out = tmp_path / "club.lex"
    assert main(["lexicon", "build", str(words), "-o", str(out), "--name", "club"]) == 0
    captured = capsys.readouterr()
    assert "word_count: 3" in captured.out  # ETE, MOT, MOTS
    assert f"{words}:3:" in captured.err and f"{words}:4:" in captured.err
    assert main(["lexicon", "info", str(out)]) == 0
    info = capsys.readouterr().out
    assert "name: club" in info
    assert hashlib.sha256(b"ETE\nMOT\nMOTS\n").hexdigest() in info


def test_top_over_positions_writes_one_json_line_each(lexfile: Path, tmp_path: Path) -> None:
    sample = conformance_positions()[:5]
    positions = tmp_path / "five.jsonl"
    positions.write_text("".join(json.dumps(p) + "\n" for p in sample), encoding="utf-8")
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "engine",
            "top",
            "--lexicon",
            str(lexfile),
            "--positions",
            str(positions),
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert [line["id"] for line in lines] == [p["id"] for p in sample]
    for line, position in zip(lines, sample, strict=True):
        assert set(line) == {"id", "top_score", "top_moves", "n_moves", "ms"}
        assert line["top_score"] == position["top_score"]
        assert position["top_example"] in [
            {"coord": m["coord"], "word": m["word"]} for m in line["top_moves"]
        ]


def test_top_counts_moves_only_when_asked(lexfile: Path, tmp_path: Path, capsys) -> None:
    # the pruned top search does not see every move: n_moves is null unless --count/--all
    sample = conformance_positions()[:3]
    positions = tmp_path / "three.jsonl"
    positions.write_text("".join(json.dumps(p) + "\n" for p in sample), encoding="utf-8")
    base = ["top", "--lexicon", str(lexfile), "--positions", str(positions)]
    runs = {}
    for extra in ([], ["--count"], ["--all"]):
        assert main(base + extra) == 0
        runs[tuple(extra)] = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["n_moves"] for line in runs[()]] == [None, None, None]
    counted = [line["n_moves"] for line in runs[("--count",)]]
    assert counted == [line["n_moves"] for line in runs[("--all",)]]
    assert all(isinstance(n, int) and n > 0 for n in counted)
    for key in ("top_score", "top_moves"):
        assert [line[key] for line in runs[()]] == [line[key] for line in runs[("--all",)]]


@pytest.mark.parametrize(
    "argv",
    [
        ["top", "--lexicon", "/nonexistent.lex", "--rack", "ABC"],
        ["top", "--rack", "ABC"],
        ["top", "--lexicon", str(POSITIONS_FILE), "--rack", "ABC"],
        ["check", "--rack", "ABCDEFGHIJ", "--move", "H4 AB"],
        ["check", "--rack", "ABC", "--move", "H4"],
        ["check", "--rack", "ABC", "--board", "/nonexistent", "--move", "H4 AB"],
        ["lexicon", "build", "/nonexistent.txt", "-o", "/tmp/x.lex"],
        ["frobnicate"],
    ],
)
def test_bad_arguments_exit_2_with_one_sentence(argv: list[str]) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "engine", *argv], capture_output=True, text=True, check=False
    )
    assert run.returncode == 2
    assert "Traceback" not in run.stderr
    assert run.stderr.startswith("error: ") and len(run.stderr.strip().splitlines()) == 1


def test_check_prints_score_and_refusals(capsys) -> None:
    assert main(["check", "--rack", "AEIIMOT", "--move", "H4 MOITAI"]) == 0
    assert "18 points" in capsys.readouterr().out
    assert main(["check", "--rack", "AEIIMOT", "--move", "H1 MOITAI"]) == 1
    assert "move.first_not_centre" in capsys.readouterr().out


def test_check_exit_statuses(conformance_lexicon, capsys) -> None:
    # 0 valid, 3 placed and scored but a word not in the lexicon, 1 refused, 2 bad input.
    lex = ["--lexicon", str(conformance_lexicon.path), "--rack", "AEIIMOT"]
    assert main(["check", *lex, "--move", "H4 MOITAI"]) == 0
    assert main(["check", *lex, "--move", "H4 TAIMOI"]) == 3
    # Scored all the same: T on H4 (DL) 2 + A 1 + I 1 + M 2 + O 1 + I 1 = 8, x2 on H8 = 16.
    assert "16 points" in capsys.readouterr().out.splitlines()[-3]
    assert main(["check", *lex, "--move", "H1 MOITAI"]) == 1
    assert main(["check", *lex, "--move", "Z4 MOITAI"]) == 2
    assert main(["check", *lex, "--move", "H4 MO1TAI"]) == 2
    assert main(["check", "--rack", "AEIIMOT", "--move", "H4 TAIMOI"]) == 0  # no lexicon given
    err = capsys.readouterr().err
    assert err.count("error: ") == 2 and "Traceback" not in err


def test_unknown_command_hint_names_the_program_once() -> None:
    run = subprocess.run([sys.executable, "-m", "engine", "frobnicate"], capture_output=True,
                         text=True, check=False)  # fmt: skip
    assert run.returncode == 2 and "'python -m engine --help'" in run.stderr
    assert "engine engine" not in run.stderr
    run = subprocess.run([sys.executable, "-m", "engine", "check", "--nope"],
                         capture_output=True, text=True, check=False)  # fmt: skip
    assert "'python -m engine check --help'" in run.stderr
