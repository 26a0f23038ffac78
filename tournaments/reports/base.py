"""The result of every renderer, and the French formatting shared by all documents."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

from tournaments import wording

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv"
JSON = "application/json"
XML = "application/xml"

#: French thousands separator (espace fine insécable, U+202F).
THIN_SPACE = "\u202f"


@dataclass(frozen=True, slots=True)
class Rendered:
    """A generated file: the name to offer, its MIME type and its bytes."""

    filename: str
    content_type: str
    content: bytes


def number(value: int) -> str:
    """An integer the French way: ``1 234`` with a thin space, ``-25`` with a hyphen."""
    sign = "-" if value < 0 else ""
    digits = f"{abs(value):,}".replace(",", THIN_SPACE)
    return sign + digits


def percent(value: Decimal | float) -> str:
    """A percentage to two decimals with a French comma, no sign: ``98,75``."""
    return f"{Decimal(value):.2f}".replace(".", ",")


def negatif(value: int) -> str:
    """The négatif as printed on French results: ``-25``, ``0``, ``+10`` (K3)."""
    return f"{value:+d}" if value else "0"


def french_date(value: date | datetime) -> str:
    """``30/11/2026``."""
    return value.strftime("%d/%m/%Y")


def slug(text: str) -> str:
    """A file-name-safe ASCII version of ``text``."""
    text = text.replace("œ", "oe").replace("Œ", "OE").replace("æ", "ae").replace("Æ", "AE")
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^A-Za-z0-9]+", "-", ascii_text).strip("-").lower() or "tirage"


#: Labels of the outcome codes for slips and sheets: one catalogue, ``tournaments.wording``.
OUTCOME_LABELS = wording.OUTCOME_LABELS


def outcome_label(code: str) -> str:
    """The label of an outcome code in the active language (the code itself when unknown)."""
    return wording.outcome_label(code)
