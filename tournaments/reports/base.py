"""The result of every renderer, and the French formatting shared by all documents."""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal

PDF = "application/pdf"
XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
CSV = "text/csv"
JSON = "application/json"

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


#: French wording of the outcome codes (engine.duplicate.proposals) for slips and sheets.
OUTCOME_LABELS = {
    "ok": "Valable",
    "moyenne": "Moyenne accordée",
    "warning.inverted_reference": "Avertissement : référence inversée",
    "warning.joker_not_circled": "Avertissement : joker non entouré",
    "warning.joker_wrong_circle": "Avertissement : mauvaise lettre entourée pour le joker",
    "warning.score_missing": "Avertissement : score absent",
    "warning.score_wrong": "Avertissement : score erroné",
    "warning.disciplinary": "Avertissement disciplinaire",
    "penalty.wrong_reference": "Pénalité de 5 points : référence erronée",
    "penalty.missing_reference": "Pénalité de 5 points : référence absente",
    "zero.invalid_word": "Zéro : mot non valable",
    "zero.placement": "Zéro : erreur de grille",
    "zero.letters": "Zéro : erreur de lettre",
    "zero.too_many_tiles": "Zéro : trop de lettres posées",
    "zero.no_reference": "Zéro : référence absente",
    "zero.no_proposal": "Zéro : pas de bulletin",
    "zero.late": "Zéro : bulletin remis après « terminé »",
    "zero.penalty_small": "Zéro : pénalité sur une solution de 4 points ou moins",
    "zero.late_arrival": "Zéro : coup joué avant l'arrivée du joueur",
}


def outcome_label(code: str) -> str:
    """The French sentence for an outcome code (the code itself when unknown)."""
    return OUTCOME_LABELS.get(code, code)
