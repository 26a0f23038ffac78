"""The compiled lexicon: build, file format, loading, membership, refusals."""

from __future__ import annotations

import itertools
import json
import struct
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import _core
from engine.errors import EngineError
from engine.lexicon.automaton import (
    FORMAT_VERSION,
    MAGIC,
    Lexicon,
    LexiconIdentity,
    build_lexicon_file,
)
from engine.lexicon.wordlist import words_sha256

WORDS = sorted(["AA", "AB", "ABAT", "ABATS", "BA", "BAS", "RE", "REZ", "ZE", "ZEBRE", "ZEBRES"])


@pytest.fixture
def lexicon_file(tmp_path: Path) -> Path:
    path = tmp_path / "small.lex"
    build_lexicon_file(WORDS, path, name="petit", source="tests", version="1")
    return path


def test_build_returns_identity_and_load_reads_it(lexicon_file: Path) -> None:
    lex = Lexicon.load(lexicon_file)
    assert lex.identity == LexiconIdentity(
        name="petit",
        source="tests",
        version="1",
        word_count=len(WORDS),
        sha256=words_sha256(WORDS),
    )
    assert len(lex) == len(WORDS)
    assert "petit" in repr(lex)


def test_sha256_is_the_word_list_hash(tmp_path: Path) -> None:
    ident = build_lexicon_file(WORDS, tmp_path / "x.lex", name="n", source="s", version="v")
    import hashlib

    expected = hashlib.sha256(("\n".join(WORDS) + "\n").encode()).hexdigest()
    assert ident.sha256 == expected == words_sha256(WORDS)


def test_contains_exactly_the_words(lexicon_file: Path) -> None:
    lex = Lexicon.load(lexicon_file)
    for word in WORDS:
        assert lex.contains(word)
        assert word in lex
    for word in ["A", "B", "", "ABA", "ABATSS", "ZEBR", "EBRE", "SBA", "AAA", "RER", "ZZ"]:
        assert not lex.contains(word), word
    # not normalised: never a member
    assert "ab" not in lex
    assert "ZÈBRE" not in lex
    assert 12 not in lex
    assert "AB?" not in lex


def test_file_layout(lexicon_file: Path) -> None:
    data = lexicon_file.read_bytes()
    assert data[:8] == MAGIC
    version, meta_len = struct.unpack_from("<II", data, 8)
    assert version == FORMAT_VERSION
    meta = json.loads(data[16 : 16 + meta_len])
    assert meta["name"] == "petit"
    assert meta["word_count"] == len(WORDS)
    assert meta["automaton"] == "gaddag"
    offset = 16 + meta_len
    offset += -offset % 8
    n_cells = struct.unpack_from("<I", data, offset)[0]
    assert meta["cells"] == n_cells
    assert len(data) == offset + 16 + 4 * n_cells


def test_empty_word_list_gives_an_empty_lexicon(tmp_path: Path) -> None:
    ident = build_lexicon_file([], tmp_path / "e.lex", name="vide", source="t", version="0")
    assert ident.word_count == 0
    assert ident.sha256 == words_sha256([])
    lex = Lexicon.load(tmp_path / "e.lex")
    assert not lex.contains("AA")


@pytest.mark.parametrize(
    "words",
    [
        ["BA", "AB"],  # not sorted
        ["AB", "AB"],  # duplicate
        ["A", "AB"],  # too short
        ["AB", "ABCDEFGHIJKLMNOP"],  # too long
        ["AB", "Ab"],  # lower case
        ["AB", "ÉTÉ"],  # not normalised
        ["AB", "A B"],
        ["AB", "A\nB"],
    ],
)
def test_build_refuses_a_bad_list(tmp_path: Path, words: list[str]) -> None:
    with pytest.raises(EngineError) as err:
        build_lexicon_file(words, tmp_path / "bad.lex", name="n", source="s", version="v")
    assert err.value.code == "lexicon.words"
    assert not (tmp_path / "bad.lex").exists()
    assert list(tmp_path.iterdir()) == []  # no temporary file left behind


def test_rebuild_replaces_the_file(tmp_path: Path) -> None:
    path = tmp_path / "x.lex"
    build_lexicon_file(["AB"], path, name="n", source="s", version="1")
    build_lexicon_file(["CD"], path, name="n", source="s", version="2")
    lex = Lexicon.load(path)
    assert lex.identity.version == "2"
    assert lex.contains("CD") and not lex.contains("AB")


# ------------------------------------------------------------------ refusals on load


def _load_error(path: Path) -> EngineError:
    with pytest.raises(EngineError) as err:
        Lexicon.load(path)
    assert err.value.code == "lexicon.file"
    assert str(path) in err.value.message
    return err.value


def test_missing_file(tmp_path: Path) -> None:
    _load_error(tmp_path / "nowhere.lex")


def test_directory_is_refused(tmp_path: Path) -> None:
    _load_error(tmp_path)


def test_not_a_lexicon(tmp_path: Path) -> None:
    path = tmp_path / "words.txt"
    path.write_text("AB\nBA\n")
    _load_error(path)
    path.write_bytes(b"")
    _load_error(path)


def test_wrong_format_version(lexicon_file: Path) -> None:
    data = bytearray(lexicon_file.read_bytes())
    struct.pack_into("<I", data, 8, FORMAT_VERSION + 1)
    lexicon_file.write_bytes(bytes(data))
    err = _load_error(lexicon_file)
    assert "version" in err.message


def test_truncated_file(lexicon_file: Path) -> None:
    data = lexicon_file.read_bytes()
    for cut in (10, 20, len(data) // 2, len(data) - 1):
        lexicon_file.write_bytes(data[:cut])
        _load_error(lexicon_file)
    lexicon_file.write_bytes(data + b"\0\0\0\0")
    _load_error(lexicon_file)


def test_damaged_metadata(lexicon_file: Path) -> None:
    data = bytearray(lexicon_file.read_bytes())
    data[17] = ord("}")
    lexicon_file.write_bytes(bytes(data))
    _load_error(lexicon_file)


def test_flipped_bit_in_the_automaton(lexicon_file: Path) -> None:
    data = bytearray(lexicon_file.read_bytes())
    data[-3] ^= 0x10
    lexicon_file.write_bytes(bytes(data))
    err = _load_error(lexicon_file)
    assert "checksum" in err.message


def test_core_refuses_edges_out_of_bounds() -> None:
    """Even with a matching checksum, a bad edge is caught before any walk."""
    good, _, _ = _core.build_gaddag(b"AB\nBA\n")
    _core.Gaddag(good, 0, len(good) // 4)
    cells = list(struct.unpack(f"<{len(good) // 4}I", good))
    bad = cells.copy()
    bad[1] = (len(cells) + 5) << 1  # first edge of the root points past the end
    with pytest.raises(ValueError, match="outside"):
        _core.Gaddag(struct.pack(f"<{len(bad)}I", *bad), 0, len(bad))
    bad = cells.copy()
    bad[1] = 1 << 1  # points into the middle of the root node, not at a node
    with pytest.raises(ValueError):
        _core.Gaddag(struct.pack(f"<{len(bad)}I", *bad), 0, len(bad))
    bad = cells.copy()
    bad[0] |= 1 << 30  # unknown header bit
    with pytest.raises(ValueError):
        _core.Gaddag(struct.pack(f"<{len(bad)}I", *bad), 0, len(bad))
    bad = cells.copy()
    bad[0] = 0x3FFFFFF  # 26 edges announced, fewer present
    with pytest.raises(ValueError):
        _core.Gaddag(struct.pack(f"<{len(bad)}I", *bad), 0, len(bad))
    with pytest.raises(ValueError):
        _core.Gaddag(good, 0, len(good) // 4 + 1)
    with pytest.raises(ValueError):
        _core.Gaddag(good, 2, 1)  # misaligned


def test_core_build_reports_the_bad_line() -> None:
    with pytest.raises(ValueError, match="line 3"):
        _core.build_gaddag(b"AB\nAC\nAA\n")
    with pytest.raises(ValueError, match="line 2"):
        _core.build_gaddag(b"AB\n\nAC\n")
    cells, n_words, _ = _core.build_gaddag(b"AB\nAC")  # final newline optional
    assert n_words == 2


# ------------------------------------------------------------------ property


@st.composite
def word_sets(draw: st.DrawFn) -> list[str]:
    words = draw(
        st.sets(st.text(alphabet="ABEIRSZ", min_size=2, max_size=7), min_size=1, max_size=60)
    )
    return sorted(words)


@settings(max_examples=60, deadline=None)
@given(words=word_sets())
def test_membership_matches_the_list(words: list[str]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "p.lex"
        build_lexicon_file(words, path, name="p", source="h", version="1")
        lex = Lexicon.load(path)
    members = set(words)
    # every string over a smaller alphabet, up to 4 letters, plus the words and their
    # prefixes, suffixes and reversals
    probes = {"".join(p) for n in range(5) for p in itertools.product("ABEZ", repeat=n)}
    for w in words:
        probes.update({w[:-1], w[1:], w[::-1], w + "S", "S" + w})
    for probe in probes:
        assert lex.contains(probe) == (probe in members), probe
