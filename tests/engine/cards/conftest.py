"""Helpers for the card game tests: tables laid word by word and a tiny lexicon file."""

from __future__ import annotations

import pytest

from engine.cards.table import Table, Word


def table_of(*words: tuple[int, int, bool, str, int]) -> Table:
    """A table from ``(row, col, across, text, owner)`` words."""
    return Table.from_words(*((Word(r, c, h, t), o) for r, c, h, t, o in words))


@pytest.fixture(scope="session")
def small_lexicon(tmp_path_factory: pytest.TempPathFactory):
    """A lexicon file of a few words, so expected moves can be worked out by hand."""
    from engine.lexicon.automaton import Lexicon, build_lexicon_file

    words = ["AT", "CHAT", "CHATS", "ACHATS", "RE", "REPLANTAT", "ES", "TE", "SA", "AS"]
    path = tmp_path_factory.mktemp("cards") / "small.lex"
    build_lexicon_file(sorted(words), path, name="small", source="tests", version="1")
    return Lexicon.load(path)
