"""Build the free default lexicon ("fr-libre") from the Grammalecte French Hunspell dictionary.

The ODS cannot be shipped, so a fresh install needs a free stand-in that works out of the box.
The Debian package ``hunspell-fr-comprehensive`` holds Grammalecte's dictionary as stems plus
affix rules; this module expands it to every inflected form with ``spylls`` following the
procedure of ``tests/data/conformance/README.md``, which reproduces the conformance list
``words-fr-libre.txt.gz`` exactly. Normalisation is :mod:`engine.lexicon.wordlist`'s, so the
default list and a club's list obey the same rules.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from contextlib import closing
from pathlib import Path
from typing import TextIO

from spylls.hunspell import readers
from spylls.hunspell.data.aff import Aff, Prefix, Suffix
from spylls.hunspell.data.dic import Word

from engine.errors import EngineError
from engine.lexicon.wordlist import WordList, make_word_list, normalise_word

DEFAULT_NAME = "fr-libre"
DEFAULT_SOURCE = (
    "Grammalecte French Hunspell dictionary (Debian package hunspell-fr-comprehensive, MPL-2.0), "
    "expanded to every inflected form: a free, non-official stand-in for the ODS"
)
# Grammalecte "comprehensive" version the conformance list was made from; dictionary_version()
# reads the installed one, so a build from another release can be told apart.
DEFAULT_VERSION = "7.0"
HUNSPELL_DIR = Path("/usr/share/hunspell")
HUNSPELL_NAMES = ("fr_FR", "fr")

# Entries whose part of speech is one of these are not common words (proper nouns, first
# names, surnames, errors, bare prefixes/suffixes, roman numerals, punctuation, symbols).
_EXCLUDED_POS = frozenset({"npr", "prn", "patr", "err", "pfx", "sfx", "nbro", "ponc", "sign"})
_VERSION = re.compile(r"\bv(\d+(?:\.\d+)+)\b")


class HunspellError(EngineError):
    """The Hunspell dictionary needed for the default lexicon is not installed."""


def find_hunspell_files(directory: Path = HUNSPELL_DIR) -> tuple[Path, Path]:
    """Return the (aff, dic) pair, preferring ``fr_FR`` then ``fr``, or say what to install."""
    for name in HUNSPELL_NAMES:
        aff, dic = directory / f"{name}.aff", directory / f"{name}.dic"
        if aff.is_file() and dic.is_file():
            return aff, dic
    raise HunspellError(
        "hunspell.missing",
        f"The French Hunspell dictionary (fr_FR.aff/.dic or fr.aff/.dic) is not in {directory}; "
        "install it with `apt-get install hunspell-fr-comprehensive`.",
    )


def dictionary_version(aff_path: Path) -> str | None:
    """Read the dictionary version (e.g. "7.0") from the .aff header, for the lexicon identity."""
    with aff_path.open(encoding="utf-8", errors="replace") as aff:
        for _, line in zip(range(20), aff, strict=False):
            if line.startswith("#") and (match := _VERSION.search(line)):
                return match.group(1)
    return None


class _FileReader(readers.FileReader):
    """spylls' reader, but closing its files (it leaks one per encoding switch otherwise)."""

    def reset_io(self, obj: TextIO) -> None:
        previous = getattr(self, "io", None)
        super().reset_io(obj)
        if previous is not None:
            previous.close()

    def close(self) -> None:
        self.io.close()


class _Expander:
    """Apply affix rules to one .dic entry; holds the .aff tables and special flags."""

    def __init__(self, aff: Aff) -> None:
        self.suffixes = aff.SFX
        self.prefixes = aff.PFX
        self.needaffix = aff.NEEDAFFIX
        self.forbidden = aff.FORBIDDENWORD
        self.keepcase = aff.KEEPCASE

    def wanted(self, entry: Word) -> bool:
        """Keep common lower-case words only (README step 3, entry side)."""
        flags = entry.flags
        if self.forbidden in flags or self.keepcase in flags:
            return False
        if any(pos in _EXCLUDED_POS or pos.startswith("loc") for pos in entry.data.get("po", ())):
            return False
        return entry.stem == entry.stem.lower()

    def _suffixes(self, flags: Iterable[str]) -> Iterator[Suffix]:
        for flag in flags:
            yield from self.suffixes.get(flag, ())

    def _prefixes(self, flags: Iterable[str]) -> Iterator[Prefix]:
        for flag in flags:
            yield from self.prefixes.get(flag, ())

    def _keeps(self, affix: Prefix | Suffix) -> bool:
        """A form made by a NEEDAFFIX affix is only a base for further affixes."""
        return self.needaffix not in affix.flags

    def forms(self, entry: Word) -> Iterator[str]:
        """Every form of one entry (README step 2): two suffix levels, cross-product prefixes."""
        stem, flags = entry.stem, entry.flags
        if self.needaffix not in flags:
            yield stem
        for suffix in self._suffixes(flags):
            first = _add_suffix(suffix, stem)
            if first is None:
                continue
            if self._keeps(suffix):
                yield first
            for second_suffix in self._suffixes(suffix.flags):
                second = _add_suffix(second_suffix, first)
                if second is not None and self._keeps(second_suffix):
                    yield second
            if suffix.crossproduct:
                for prefix in self._prefixes(flags | suffix.flags):
                    if not prefix.crossproduct:
                        continue
                    both = _add_prefix(prefix, first)
                    if both is not None and self._keeps(prefix):
                        yield both
        for prefix in self._prefixes(flags):
            prefixed = _add_prefix(prefix, stem)
            if prefixed is None:
                continue
            if self._keeps(prefix):
                yield prefixed
            if not prefix.crossproduct:
                continue
            for suffix in self._suffixes(prefix.flags):
                if not suffix.crossproduct:
                    continue
                both = _add_suffix(suffix, prefixed)
                if both is not None and self._keeps(suffix):
                    yield both


def _add_suffix(suffix: Suffix, word: str) -> str | None:
    """Apply a suffix (strip, condition, add) or return None when it does not fit the word."""
    if suffix.strip and not word.endswith(suffix.strip):
        return None
    if not suffix.cond_regexp.search(word):
        return None
    return word[: len(word) - len(suffix.strip)] + suffix.add


def _add_prefix(prefix: Prefix, word: str) -> str | None:
    """Apply a prefix (strip, condition, add) or return None when it does not fit the word."""
    if prefix.strip and not word.startswith(prefix.strip):
        return None
    if not prefix.cond_regexp.match(word):
        return None
    return prefix.add + word[len(prefix.strip) :]


def expand_dictionary(aff_path: Path, dic_path: Path) -> list[str]:
    """All raw inflected forms (accents, case and elisions intact) of the common words.

    Raw forms are returned before normalisation so the rules live in one place
    (:func:`engine.lexicon.wordlist.normalise_word`); a form with an upper-case letter is dropped
    here because it belongs to a proper noun or an abbreviation (README step 3).
    """
    with closing(_FileReader(str(aff_path))) as aff_reader:
        aff, context = readers.read_aff(aff_reader)
    with closing(_FileReader(str(dic_path), encoding=context.encoding)) as dic_reader:
        dic = readers.read_dic(dic_reader, aff=aff, context=context)
    expander = _Expander(aff)
    return [
        form
        for entry in dic.words
        if expander.wanted(entry)
        for form in expander.forms(entry)
        if form == form.lower()
    ]


def default_word_list(aff_path: Path | None = None, dic_path: Path | None = None) -> WordList:
    """The default lexicon: expanded, normalised, deduplicated, sorted, with its sha256.

    Forms that normalisation refuses (elisions such as ``l'arbre``, hyphenated or too long
    forms) are dropped by design and not listed as rejections: they are not a club's mistakes.
    """
    if aff_path is None or dic_path is None:
        aff_path, dic_path = find_hunspell_files()
    words = (normalise_word(form)[0] for form in set(expand_dictionary(aff_path, dic_path)))
    return make_word_list(word for word in words if word is not None)
