"""``bench/stack_event.py`` refuses bad arguments before it starts anything: exit 2 with a
sentence naming the option (no stack, no database; the bench itself is never run here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "bench/stack_event.py", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
    )


@pytest.mark.parametrize(
    ("args", "sentence"),
    [
        (["--players", "0"], "--players must be from 1 to 20000."),
        (["--players", "10", "--centres", "11"], "at most --players"),
        (["--tablet-share", "1.5"], "--tablet-share must be from 0 to 1."),
        (["--rounds", "41"], "--rounds must be from 1 to 40."),
        (["--max-seconds", "5"], "--max-seconds must be from 60 to 14400."),
        (["--poll-every", "0"], "--poll-every must be from 0.2 to 60 s."),
        (["--games", "deux"], "invalid int value"),
        (["--pollers", "-1"], "--pollers must be from 0 to 20000."),
        (["--web-instances", "9"], "--web-instances must be from 1 to 8."),
        (["--connections", "0"], "--connections must be from 1 to 1000."),
        (["--check-seconds", "10"], "--check-seconds must be from 60 to 14400."),
    ],
)
def test_bad_arguments_exit_2_with_a_sentence(args: list[str], sentence: str) -> None:
    result = _run(*args)
    assert result.returncode == 2
    assert sentence in result.stderr
    assert "Traceback" not in result.stderr


def test_help_names_the_event_options() -> None:
    result = _run("--help")
    assert result.returncode == 0
    for option in ("--players", "--centres", "--games", "--rounds", "--tablet-share",
                   "--seed", "--max-seconds", "--pollers", "--poll-every", "--window",
                   "--web-instances", "--connections", "--check-seconds"):  # fmt: skip
        assert option in result.stdout
