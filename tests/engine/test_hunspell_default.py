"""The free default lexicon: Hunspell expansion rules, and the full build against conformance."""

from __future__ import annotations

import gzip
import hashlib
from pathlib import Path

import pytest

from engine.lexicon.hunspell import (
    DEFAULT_NAME,
    DEFAULT_SOURCE,
    DEFAULT_VERSION,
    HunspellError,
    default_word_list,
    dictionary_version,
    expand_dictionary,
    find_hunspell_files,
)
from tests.ci import unavailable
from tests.engine.conftest import WORDS_FILE

# The conformance word list (tests/data/conformance/README.md gives its sha256 and origin).
CONFORMANCE_LIST = WORDS_FILE
CONFORMANCE_SHA256 = "d82717276cf291312661943f2891b0db5fe74fe3dcd91ad8d6b612f7e74e1d58"
CONFORMANCE_COUNT = 405_691

TINY_AFF = """\
# tiny test dictionary v1.2
SET UTF-8
FLAG long
NEEDAFFIX ()
FORBIDDENWORD {}
KEEPCASE ||

SFX S. Y 1
SFX S. 0 s .

SFX F. Y 1
SFX F. er euse/S. er

SFX G. N 1
SFX G. er eu/()S. er

PFX Re Y 1
PFX Re 0 re .

PFX Ma N 1
PFX Ma 0 mal .

PFX In Y 1
PFX In 0 in/S. .

PFX Up Y 1
PFX Up 0 X .
"""

TINY_DIC = """\
10
chanter/F.G.Re po:v1__t___zz
gant/S.Ma po:nom
utile/InUp po:adj
base/()S. po:nom
adieu/S. po:interj
Paris/S. po:npr
lien/S.|| po:nom
fautif/S.{} po:adj
bof po:loc.interj
l'an po:nom
"""


@pytest.fixture
def tiny(tmp_path: Path) -> tuple[Path, Path]:
    aff, dic = tmp_path / "fr.aff", tmp_path / "fr.dic"
    aff.write_text(TINY_AFF, encoding="utf-8")
    dic.write_text(TINY_DIC, encoding="utf-8")
    return aff, dic


def test_expansion_rules_on_a_tiny_dictionary(tiny: tuple[Path, Path]) -> None:
    forms = expand_dictionary(*tiny)
    assert sorted(set(forms)) == sorted(
        [
            # stem; first suffix; its continuation suffix; cross-product prefix on the suffixed
            # form; the NEEDAFFIX suffix "eu" only as a base for "eus" (and G. is no cross product)
            *["chanter", "chanteuse", "chanteuses", "rechanteuse", "chanteus", "rechanter"],
            # non-cross-product prefix applies alone, never with a suffix
            *["gant", "gants", "malgant"],
            # prefix then suffix through the prefix's continuation; "Xutile" has a capital
            *["utile", "inutile", "inutiles"],
            # NEEDAFFIX stem: only its affixed forms
            "bases",
            *["adieu", "adieus"],
            # proper noun, KEEPCASE, FORBIDDENWORD and loc.* entries are dropped entirely;
            # raw forms keep their apostrophe: normalisation drops them later
            "l'an",
        ]
    )


def test_default_word_list_normalises_expanded_forms(tiny: tuple[Path, Path]) -> None:
    result = default_word_list(*tiny)
    expected = sorted(
        [
            "ADIEU",
            "ADIEUS",
            "BASES",
            "CHANTER",
            "CHANTEUS",
            "CHANTEUSE",
            "CHANTEUSES",
            "GANT",
            "GANTS",
            "INUTILE",
            "INUTILES",
            "MALGANT",
            "RECHANTER",
            "RECHANTEUSE",
            "UTILE",
        ]
    )
    assert list(result.words) == expected
    assert result.rejected == ()
    text = "".join(f"{word}\n" for word in expected)
    assert result.sha256 == hashlib.sha256(text.encode()).hexdigest()


def test_dictionary_version_is_read_from_the_aff_header(tiny: tuple[Path, Path]) -> None:
    assert dictionary_version(tiny[0]) == "1.2"


def test_find_prefers_fr_fr_then_fr(tmp_path: Path) -> None:
    for name in ("fr.aff", "fr.dic"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert find_hunspell_files(tmp_path) == (tmp_path / "fr.aff", tmp_path / "fr.dic")
    for name in ("fr_FR.aff", "fr_FR.dic"):
        (tmp_path / name).write_text("", encoding="utf-8")
    assert find_hunspell_files(tmp_path) == (tmp_path / "fr_FR.aff", tmp_path / "fr_FR.dic")


def test_missing_dictionary_says_what_to_install(tmp_path: Path) -> None:
    (tmp_path / "fr_FR.aff").write_text("", encoding="utf-8")  # .dic missing
    with pytest.raises(HunspellError, match="apt-get install hunspell-fr-comprehensive") as caught:
        find_hunspell_files(tmp_path)
    assert caught.value.code == "hunspell.missing"


def test_identity_constants_present_it_as_a_free_stand_in() -> None:
    assert DEFAULT_NAME == "fr-libre"
    for needle in ("Grammalecte", "hunspell-fr-comprehensive", "MPL-2.0", "non-official"):
        assert needle in DEFAULT_SOURCE


def test_committed_conformance_list_has_the_stated_sha256() -> None:
    """The copy in tests/data is the list its README describes (count and sha256)."""
    reference = gzip.decompress(CONFORMANCE_LIST.read_bytes())
    assert hashlib.sha256(reference).hexdigest() == CONFORMANCE_SHA256
    assert reference.count(b"\n") == CONFORMANCE_COUNT


def test_full_build_reproduces_the_conformance_list() -> None:
    """``build-default``'s word list has zero differences from words-fr-libre.txt.gz
    (takes about 15 s)."""
    if not Path("/usr/share/hunspell/fr_FR.dic").exists():
        unavailable(
            "hunspell",
            "the French Hunspell dictionary /usr/share/hunspell/fr_FR.dic is not installed",
            "apt-get install hunspell-fr-comprehensive",
        )
    aff, dic = find_hunspell_files()
    assert dictionary_version(aff) == DEFAULT_VERSION

    result = default_word_list(aff, dic)

    reference = gzip.decompress(CONFORMANCE_LIST.read_bytes())
    assert hashlib.sha256(reference).hexdigest() == CONFORMANCE_SHA256
    expected = reference.decode("ascii").split("\n")[:-1]
    missing = sorted(set(expected) - set(result.words))
    extra = sorted(set(result.words) - set(expected))
    assert (len(missing), len(extra)) == (0, 0), (missing[:20], extra[:20])
    assert result.count == CONFORMANCE_COUNT
    assert list(result.words) == expected
    assert result.sha256 == CONFORMANCE_SHA256
