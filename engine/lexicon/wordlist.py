"""Turn any word list into the engine's alphabet: 2–15 letters A–Z, one entry per word.

A club's ODS list and the free default list both pass through :func:`normalise_word`, so one
set of rules decides what a "word" is. Every line that cannot become a word is reported with its
line number (never silently dropped), because an arbiter loading a list must be able to see
what was left out. The identity of a lexicon is the sha256 of its normalised, sorted list
(:func:`words_sha256`), so two machines agree on "the same lexicon" whatever file it came from.
"""

from __future__ import annotations

import gzip
import hashlib
import re
import unicodedata
import zlib
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from engine.errors import EngineError

MIN_LENGTH = 2
MAX_LENGTH = 15

_WORD = re.compile(rf"^[A-Z]{{{MIN_LENGTH},{MAX_LENGTH}}}$")
_LETTERS = re.compile(r"^[A-Z]*$")
_GZIP_MAGIC = b"\x1f\x8b"
# Checked in this order, so a line gets one short, stable reason.
_REFUSED_MARKS = (
    ("-", "contains a hyphen"),
    ("'", "contains an apostrophe"),
    ("\u2019", "contains an apostrophe"),
)


class WordListError(EngineError):
    """A word list that cannot be read at all (as opposed to single rejected lines)."""


@dataclass(frozen=True)
class Rejection:
    """One non-blank line that did not become a word, so the club can fix its file."""

    line_no: int
    text: str
    reason: str


@dataclass(frozen=True)
class WordList:
    """A normalised lexicon: sorted unique words, what was refused, and its identity hash."""

    words: tuple[str, ...]
    rejected: tuple[Rejection, ...]
    sha256: str

    @property
    def count(self) -> int:
        return len(self.words)


@lru_cache(maxsize=4096)
def _fold_char(char: str) -> str | None:
    """Fold one character to A–Z letters (É→E, Œ→OE), or None if it is not a Scrabble letter.

    Folding character by character gives the same result as folding the whole string (upper-case
    and NFD work per character), and the cache makes a 2-million-form expansion cheap. Letters
    such as ß or the ﬁ ligature, whose capital is several letters, are refused: accepting them
    would silently turn "straße" into STRASSE.
    """
    upper = char.upper()
    if len(upper) != 1:
        return None
    upper = upper.replace("Œ", "OE").replace("Æ", "AE")
    decomposed = unicodedata.normalize("NFD", upper)
    folded = "".join(c for c in decomposed if not unicodedata.combining(c))
    return folded if _LETTERS.fullmatch(folded) else None


def normalise_word(raw: str) -> tuple[str | None, str | None]:
    """Return ``(WORD, None)`` or ``(None, reason)`` for one entry of a word list.

    Rules (the same for the default list and a club's list): strip, NFC, refuse hyphen,
    apostrophe, inner space, digit or period, upper-case, Œ→OE and Æ→AE, strip accents, then
    require 2–15 letters A–Z.
    """
    text = unicodedata.normalize("NFC", raw.strip())
    if not text:
        return None, "is empty"
    for mark, reason in _REFUSED_MARKS:
        if mark in text:
            return None, reason
    if any(c.isspace() for c in text):
        return None, "contains a space"
    if any(c.isdigit() for c in text):
        return None, "contains a digit"
    if "." in text:
        return None, "contains a period"
    folded = []
    for char in text:
        piece = _fold_char(char)
        if piece is None:
            return None, f"contains a character that is not a letter: {char!r}"
        folded.append(piece)
    word = "".join(folded)
    if not _WORD.fullmatch(word):
        return None, f"length {len(word)} is outside {MIN_LENGTH}–{MAX_LENGTH}"
    return word, None


def words_sha256(words: Iterable[str]) -> str:
    """Identity hash of a lexicon: sha256 of the words one a line, final newline, UTF-8.

    The caller passes the normalised, deduplicated, sorted words; the hash is then independent of
    the source file's order, accents, duplicates or compression.
    """
    digest = hashlib.sha256()
    for word in words:
        digest.update(word.encode("utf-8"))
        digest.update(b"\n")
    return digest.hexdigest()


def make_word_list(words: Iterable[str], rejected: Iterable[Rejection] = ()) -> WordList:
    """Deduplicate and sort already-normalised words, and stamp the identity hash."""
    unique = tuple(sorted(set(words)))
    return WordList(words=unique, rejected=tuple(rejected), sha256=words_sha256(unique))


def _read_bytes(path: Path) -> bytes:
    """Read the file, gunzipping it when it starts with the gzip magic (whatever its name)."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise WordListError(
            "wordlist.unreadable", f"The word list {path} cannot be read: {exc.strerror or exc}."
        ) from exc
    if data.startswith(_GZIP_MAGIC):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError, zlib.error) as exc:
            raise WordListError(
                "wordlist.unreadable",
                f"The word list {path} looks gzip-compressed but cannot be decompressed: {exc}.",
            ) from exc
    return data


def _decode(data: bytes, path: Path) -> str:
    """Decode UTF-8 (a leading BOM is allowed), naming the first bad line on failure."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line_no = len(_split_lines(data[: exc.start].decode("utf-8", "replace")))
        bad = data[exc.start : exc.start + 1].hex()
        raise WordListError(
            "wordlist.encoding",
            f"Line {line_no} of the word list {path.name} is not valid UTF-8 (byte 0x{bad}); "
            "save the file as UTF-8 and load it again.",
            line_no=line_no,
        ) from exc


def _split_lines(text: str) -> list[str]:
    """Split on LF, CRLF or a lone CR only, so line numbers match what a text editor shows."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def read_word_list(path: str | Path) -> WordList:
    """Read a one-word-a-line UTF-8 (or gzip) file into a :class:`WordList`.

    Blank lines are skipped; every other line that is not a word becomes a :class:`Rejection`
    with its 1-based line number, so nothing disappears without the arbiter knowing.
    """
    path = Path(path)
    text = _decode(_read_bytes(path), path)
    words: list[str] = []
    rejected: list[Rejection] = []
    for line_no, line in enumerate(_split_lines(text), start=1):
        if not line.strip():
            continue
        word, reason = normalise_word(line)
        if word is None:
            rejected.append(Rejection(line_no=line_no, text=line, reason=reason or "is invalid"))
        else:
            words.append(word)
    if not words:
        detail = f" ({len(rejected)} lines rejected)" if rejected else ""
        raise WordListError(
            "wordlist.empty", f"The word list {path.name} contains no usable word{detail}."
        )
    return make_word_list(words, rejected)
