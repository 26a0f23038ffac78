"""Normalisation of word lists: the rules a club's ODS file and the default list both obey."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from engine.lexicon.wordlist import (
    Rejection,
    WordListError,
    normalise_word,
    read_word_list,
    words_sha256,
)


def write(tmp_path: Path, text: str, name: str = "list.txt") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("raw", "word"),
    [
        ("été", "ETE"),
        ("ÉTÉ", "ETE"),
        ("garçon", "GARCON"),
        ("Ça", "CA"),
        ("œuvre", "OEUVRE"),
        ("ŒUVRE", "OEUVRE"),
        ("cæcum", "CAECUM"),
        ("CÆCUM", "CAECUM"),
        ("naïf", "NAIF"),
        ("pâte", "PATE"),
        ("zoo", "ZOO"),
        ("  kayak\t", "KAYAK"),
        ("e\u0301te\u0301", "ETE"),  # decomposed accents
        ("aa", "AA"),
        ("anticonstitutio", "ANTICONSTITUTIO"),  # 15 letters
    ],
)
def test_normalise_folds_accents_and_upper_cases(raw: str, word: str) -> None:
    assert normalise_word(raw) == (word, None)


@pytest.mark.parametrize(
    ("raw", "reason"),
    [
        ("porte-avions", "contains a hyphen"),
        ("aujourd'hui", "contains an apostrophe"),
        ("aujourd’hui", "contains an apostrophe"),
        ("pomme de terre", "contains a space"),
        ("b2b", "contains a digit"),
        ("etc.", "contains a period"),
        ("a", "length 1 is outside 2–15"),
        ("anticonstitutionnellement", "length 25 is outside 2–15"),
        ("straße", "contains a character that is not a letter: 'ß'"),
        ("smørrebrød", "contains a character that is not a letter: 'ø'"),
        ("mot!", "contains a character that is not a letter: '!'"),
    ],
)
def test_normalise_refuses_with_a_reason(raw: str, reason: str) -> None:
    assert normalise_word(raw) == (None, reason)


def test_read_reports_rejections_with_line_numbers(tmp_path: Path) -> None:
    text = "\n".join(
        [
            "zèbre",  # 1
            "porte-avions",  # 2
            "",  # 3 blank: skipped, not reported
            "aujourd'hui",  # 4
            "b2b",  # 5
            "anticonstitutionnellement",  # 6
            "a",  # 7
            "straße",  # 8
            "   ",  # 9 blank too
            "abaca",  # 10
        ]
    )
    result = read_word_list(write(tmp_path, text + "\n"))
    assert result.words == ("ABACA", "ZEBRE")
    assert result.rejected == (
        Rejection(2, "porte-avions", "contains a hyphen"),
        Rejection(4, "aujourd'hui", "contains an apostrophe"),
        Rejection(5, "b2b", "contains a digit"),
        Rejection(6, "anticonstitutionnellement", "length 25 is outside 2–15"),
        Rejection(7, "a", "length 1 is outside 2–15"),
        Rejection(8, "straße", "contains a character that is not a letter: 'ß'"),
    )


def test_read_deduplicates_and_sorts(tmp_path: Path) -> None:
    result = read_word_list(write(tmp_path, "élan\nzoo\nELAN\nélan\nabc\nÉlan\nmaïs\nmais\n"))
    assert result.words == ("ABC", "ELAN", "MAIS", "ZOO")
    assert result.count == 4
    assert result.rejected == ()


def test_read_handles_crlf_and_bom(tmp_path: Path) -> None:
    path = tmp_path / "windows.txt"
    path.write_bytes("\ufeffbateau\r\nx\r\nzèle\r\n".encode())
    result = read_word_list(path)
    assert result.words == ("BATEAU", "ZELE")
    assert result.rejected == (Rejection(2, "x", "length 1 is outside 2–15"),)


def test_sha256_is_the_hash_of_the_sorted_list_one_word_a_line(tmp_path: Path) -> None:
    expected = hashlib.sha256(b"ABACA\nETE\nOEUVRE\n").hexdigest()
    result = read_word_list(write(tmp_path, "œuvre\nété\nabaca\nÉTÉ\n"))
    assert result.words == ("ABACA", "ETE", "OEUVRE")
    assert result.sha256 == expected
    assert words_sha256(["ABACA", "ETE", "OEUVRE"]) == expected


def test_gzip_detected_by_magic_bytes_not_extension(tmp_path: Path) -> None:
    content = "œuvre\nété\nabaca\n".encode()
    plain = read_word_list(write(tmp_path, content.decode()))
    named = tmp_path / "list.txt.gz"
    named.write_bytes(gzip.compress(content))
    hidden = tmp_path / "list.txt"  # gzip content behind a plain-text name
    hidden.write_bytes(gzip.compress(content))
    assert read_word_list(named) == plain
    assert read_word_list(hidden) == plain


def test_invalid_utf8_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.txt"
    path.write_bytes("abaca\nzèbre\nété\n".encode("latin-1"))
    with pytest.raises(WordListError, match="Line 2 ") as caught:
        read_word_list(path)
    assert caught.value.code == "wordlist.encoding"
    assert caught.value.details["line_no"] == 2


def test_invalid_utf8_inside_gzip_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "latin1.gz"
    path.write_bytes(gzip.compress("abaca\nbateau\n\nété\n".encode("latin-1")))
    with pytest.raises(WordListError, match="Line 4 ") as caught:
        read_word_list(path)
    assert caught.value.code == "wordlist.encoding"


def test_missing_file_is_unreadable(tmp_path: Path) -> None:
    with pytest.raises(WordListError) as caught:
        read_word_list(tmp_path / "absent.txt")
    assert caught.value.code == "wordlist.unreadable"


def test_corrupt_gzip_is_unreadable(tmp_path: Path) -> None:
    path = tmp_path / "broken.gz"
    path.write_bytes(gzip.compress(b"abaca\n" * 100)[:30])
    with pytest.raises(WordListError) as caught:
        read_word_list(path)
    assert caught.value.code == "wordlist.unreadable"


@pytest.mark.parametrize("text", ["", "\n\n  \n", "a\n1\n"])
def test_list_without_words_is_refused(tmp_path: Path, text: str) -> None:
    with pytest.raises(WordListError) as caught:
        read_word_list(write(tmp_path, text))
    assert caught.value.code == "wordlist.empty"
