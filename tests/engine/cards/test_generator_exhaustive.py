"""The engine's move generation against a plain enumeration, on a lexicon of 30 words.

The enumeration knows nothing of windows or of the compiled generator: for every word of the
lexicon, every line and every start near the table, it lays the word where it agrees with
the cards already there, takes the other letters from the hand (a real card or a joker, every
way), and keeps what :func:`engine.cards.rules.score_play` accepts with every word formed in
the lexicon. The generator must list exactly those moves.
"""

from __future__ import annotations

from collections import Counter
from itertools import product

import pytest

from engine.cards.players import judge, legal_plays
from engine.cards.rules import Placed, Play
from engine.cards.table import Table
from tests.engine.cards.conftest import table_of

WORDS = sorted(
    {
        "AT", "TA", "AS", "SA", "ES", "TE", "ET", "RE", "SE", "CHAT", "CHATS", "ACHATS",
        "RAT", "RATS", "TAS", "EST", "SET", "ARE", "TES", "TRES", "REST", "CARTE", "CARTES",
        "TRACE", "TRACES", "CREA", "ACRE", "ACRES", "ASTRE", "STERE",
    }
)  # fmt: skip


@pytest.fixture(scope="module")
def lexicon(tmp_path_factory):
    from engine.lexicon.automaton import Lexicon, build_lexicon_file

    path = tmp_path_factory.mktemp("exhaustive") / "words.lex"
    build_lexicon_file(WORDS, path, name="thirty", source="tests", version="1")
    return Lexicon.load(path)


def _ways(word, squares, table, hand):
    """Every way to lay ``word`` on ``squares`` from ``hand`` (letters or jokers)."""
    empty = [(sq, ch) for sq, ch in zip(squares, word, strict=True) if sq not in table.cells]
    for sq, ch in zip(squares, word, strict=True):
        if sq in table.cells and table.cells[sq].upper() != ch:
            return
    if not empty:
        return
    for jokers in product((False, True), repeat=len(empty)):
        need = Counter("?" if j else ch for (_, ch), j in zip(empty, jokers, strict=True))
        if need - Counter(hand):
            continue
        yield Play(
            tuple(
                sorted(
                    Placed(sq[0], sq[1], ch, j) for (sq, ch), j in zip(empty, jokers, strict=True)
                )
            )
        )


def enumerate_plays(table: Table, hand: str, lexicon) -> set[Play]:
    if table.is_empty():
        top = left = bottom = right = 0
    else:
        top, left, bottom, right = table.bounds()
    found = set()
    for word in WORDS:
        n = len(word)
        for across in (True, False):
            lines = range(top - 1, bottom + 2) if across else range(left - 1, right + 2)
            lo, hi = (left, right) if across else (top, bottom)
            for line in lines:
                for start in range(lo - n, hi + 2):
                    squares = [(line, start + i) if across else (start + i, line) for i in range(n)]
                    for play in _ways(word, squares, table, hand):
                        if judge(table, hand, play, lexicon) is not None:
                            found.add(play)
    return found


CASES = [
    (Table(), "ACHTSE?"),
    (table_of((0, 0, True, "CHAT", 0)), "AERS?"),
    (table_of((0, 0, True, "CHAT", 0)), "ACERST"),
    (table_of((50, -70, False, "CHAT", 0)), "ERST?"),
    (table_of((0, 0, True, "CHAT", 0), (0, 3, False, "TE", 1)), "ARSE?"),
    (table_of((0, 0, True, "RAT", 0), (2, 0, True, "SET", 1)), "ACERST"),
]


@pytest.mark.parametrize(("table", "hand"), CASES)
def test_generator_lists_exactly_the_legal_moves(lexicon, table, hand):
    expected = enumerate_plays(table, hand, lexicon)
    listed = [s.play for s in legal_plays(table, hand, lexicon)]
    assert len(listed) == len(set(listed))  # each move once
    assert set(listed) == expected
    assert expected  # the case is not empty
