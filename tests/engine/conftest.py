"""Fixtures for engine tests: the conformance material in tests/data/conformance."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

# Copied into the repository with its provenance (tests/data/conformance/README.md).
CONFORMANCE = Path(__file__).resolve().parents[1] / "data" / "conformance"
WORDS_FILE = CONFORMANCE / "words-fr-libre.txt.gz"
POSITIONS_FILE = CONFORMANCE / "positions.jsonl"


def conformance_words() -> list[str]:
    """The free word list the conformance positions were computed with (already normalised)."""
    with gzip.open(WORDS_FILE, "rt", encoding="utf-8") as handle:
        return [line.strip() for line in handle if line.strip()]


def conformance_positions() -> list[dict]:
    with POSITIONS_FILE.open(encoding="utf-8") as handle:
        return [json.loads(line) for line in handle if line.strip()]


@pytest.fixture(scope="session")
def conformance_lexicon(tmp_path_factory: pytest.TempPathFactory):
    """The conformance word list built into a lexicon file once per test session."""
    from engine.lexicon.automaton import Lexicon, build_lexicon_file

    path = tmp_path_factory.mktemp("lexicon") / "conformance.lex"
    build_lexicon_file(
        conformance_words(), path, name="conformance", source=str(WORDS_FILE), version="1"
    )
    return Lexicon.load(path)
