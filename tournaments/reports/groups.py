"""How players are grouped for the sub-rankings: by série 1–7 and by age category, in the
federation's order (rules §5 K6, K7; docs/reports.md).

Pure functions on the text stored with a player, shared by the printed results and the
console's rankings page, so both group and order the same way.

* Séries: the FFSc classification is Super-série, 1A, 1B, 2A, 2B, 3A, 3B, 4A–4D, 5A–5D,
  6A–6D, 7 (K6). Prizes go by série, so the sub-rankings group by its number: 1A and 1B are
  both in série 1 (the sub-series stays visible as a detail column). Super-série comes
  first, on its own; a series of another federation (free text) is its own group, after 7.
* Categories: by age, youngest first, as the federation lists them: the young players'
  categories, Espoir, Senior, Vermeil (62+), Diamant (72+), Émeraude (the oldest). A name
  Tirage does not know comes after them, alphabetically. Plural and accents are ignored
  when matching (``Émeraudes`` = ``Emeraude``).
"""

from __future__ import annotations

import re
import unicodedata

SUPER_SERIES = "Super-série"

#: Age categories, youngest first (rules K7; Poussin to Junior are the young players').
CATEGORY_ORDER = (
    "Poussin",
    "Benjamin",
    "Minime",
    "Cadet",
    "Junior",
    "Jeune",
    "Espoir",
    "Senior",
    "Vermeil",
    "Diamant",
    "Émeraude",
)

_SERIES_NUMBER = re.compile(r"^(?:s[ée]rie\s*)?([1-7])\s*[a-d]?$", re.IGNORECASE)


def _plain(text: str) -> str:
    """Lower case, no accents, no plural ``s``, no spaces or hyphens: for matching only."""
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    ascii_text = re.sub(r"[\s\-]+", "", ascii_text.lower())
    return ascii_text[:-1] if ascii_text.endswith("s") and len(ascii_text) > 2 else ascii_text


_CATEGORY_RANK = {_plain(name): i for i, name in enumerate(CATEGORY_ORDER)}
_SUPER = {_plain(v) for v in ("Super-série", "super serie", "SS", "S")}


def series_group(series: str) -> str:
    """The série a player's series belongs to: ``"1A"`` → ``"1"``, ``"7"`` → ``"7"``,
    ``"super-série"`` → ``"Super-série"``; another federation's series as written; ``""``
    when none."""
    text = series.strip()
    if not text:
        return ""
    if _plain(text) in _SUPER:
        return SUPER_SERIES
    match = _SERIES_NUMBER.match(text)
    return match.group(1) if match else text


def group_order(label: str) -> tuple[int, int, str]:
    """The sort key of a série or category label: Super-série, séries 1 to 7, the known
    categories by age, then anything else alphabetically."""
    if label == SUPER_SERIES:
        return (0, 0, "")
    if len(label) == 1 and label in "1234567":
        return (1, int(label), "")
    rank = _CATEGORY_RANK.get(_plain(label))
    if rank is not None:
        return (2, rank, "")
    return (3, 0, _plain(label))
