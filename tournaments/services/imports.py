"""Importing a list of players from a CSV (UTF-8, ``;`` or ``,``) or XLSX file.

The first row names the columns, in French or English (``nom``/``name``, ``licence``,
``club``, ``fédération``/``federation``, ``série``/``series``, ``catégorie``/``category``,
``année``/``birth_year``, ``table``); case and accents do not matter, other columns are
ignored. Every row is checked first; if any is wrong nothing is saved and the refusal lists
each error with its line number (the header is line 1), e.g. "ligne 4 : licence manquante".
The licence is required in an import (it identifies the player across tournaments).
"""

from __future__ import annotations

import csv
import io
import unicodedata
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments.access import require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import Registration
from tournaments.services.audit import audit_record
from tournaments.services.registry import free_table, locked_tournament, register

COLUMNS = {
    "nom": "name", "name": "name", "joueur": "name", "licence": "licence", "license": "licence",
    "club": "club", "federation": "federation", "serie": "series", "series": "series",
    "categorie": "category", "category": "category", "annee": "birth_year",
    "annee de naissance": "birth_year", "naissance": "birth_year", "birth_year": "birth_year",
    "birth year": "birth_year", "table": "table",
}  # fmt: skip
LIMITS = {"name": 200, "licence": 40, "club": 200, "federation": 20, "series": 10, "category": 20}


@dataclass(frozen=True, slots=True)
class RowError:
    """One wrong row: line number in the file, stable code, translated sentence."""

    row: int
    code: str
    message: str


@dataclass(frozen=True, slots=True)
class ImportResult:
    """The registrations created, in file order."""

    registrations: list[Registration] = field(default_factory=list)

    @property
    def created(self) -> int:
        return len(self.registrations)


def _key(text: Any) -> str:
    plain = unicodedata.normalize("NFKD", str(text or "")).encode("ascii", "ignore").decode()
    return " ".join(plain.lower().replace("_", " ").split()).replace("birth year", "birth_year")


def read_rows(filename: str, content: bytes) -> list[list[Any]]:
    """The file's rows (header first) as lists of cells."""
    if filename.lower().endswith(".xlsx"):
        import openpyxl

        try:
            book = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        except Exception as error:  # openpyxl raises many types for a damaged file
            raise ServiceError("import.file", _("Le fichier XLSX est illisible.")) from error
        sheet = book.worksheets[0]
        return [list(row) for row in sheet.iter_rows(values_only=True)]
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ServiceError("import.encoding", _("Le fichier CSV doit être en UTF-8.")) from error
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    return [row for row in csv.reader(io.StringIO(text), delimiter=delimiter)]


def _check(number: int, values: dict[str, Any], seen: dict[str, int]) -> list[RowError]:
    errors = []

    def fail(code: str, message: str) -> None:
        errors.append(RowError(number, code, _("ligne %(row)d : %(what)s") % {
            "row": number, "what": message}))  # fmt: skip

    if not values["name"]:
        fail("import.name_missing", _("nom manquant"))
    if not values["licence"]:
        fail("import.licence_missing", _("licence manquante"))
    elif values["licence"] in seen:
        fail("import.licence_twice", _("licence %(licence)s déjà à la ligne %(other)d")
             % {"licence": values["licence"], "other": seen[values["licence"]]})  # fmt: skip
    for name, limit in LIMITS.items():
        if len(values[name]) > limit:
            fail(f"import.{name}_long", _("%(field)s trop long") % {"field": name})
    for name in ("birth_year", "table"):
        raw = values[name]
        if raw in ("", None):
            values[name] = None
            continue
        try:
            values[name] = int(float(raw)) if isinstance(raw, float | int) else int(str(raw))
        except ValueError:
            values[name] = None
            fail(f"import.{name}", _("%(field)s n'est pas un nombre") % {"field": name})
            continue
        if values[name] < 1:
            fail(f"import.{name}", _("%(field)s n'est pas un nombre") % {"field": name})
    return errors


def parse_players(filename: str, content: bytes) -> tuple[list[tuple[int, dict]], list[RowError]]:
    """Rows as ``(line, fields)`` and every error found; reads, saves nothing."""
    rows = read_rows(filename, content)
    if not rows:
        raise ServiceError("import.empty", _("Le fichier est vide."))
    header = [COLUMNS.get(_key(cell)) for cell in rows[0]]
    if "name" not in header:
        raise ServiceError("import.header", _("La première ligne doit nommer la colonne « nom »."))
    parsed, errors, seen = [], [], {}
    for number, row in enumerate(rows[1:], start=2):
        if all(cell in (None, "") or str(cell).strip() == "" for cell in row):
            continue
        values = dict.fromkeys([*LIMITS, "birth_year", "table"], "")
        for column, cell in zip(header, row, strict=False):
            if column is not None and cell is not None:
                values[column] = cell if isinstance(cell, int | float) else str(cell).strip()
        for name in LIMITS:
            values[name] = str(values[name]).strip()
        errors += _check(number, values, seen)
        seen.setdefault(values["licence"], number)
        parsed.append((number, values))
    return parsed, errors


def players_import(
    *, tournament_id: int, filename: str, content: bytes, actor: Any
) -> ImportResult:
    """Register every player of the file, or none (``import.rows`` with ``details["errors"]``,
    a list of :class:`RowError`, when any row is wrong)."""
    parsed, errors = parse_players(filename, content)
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        registered = set(
            tournament.registrations.exclude(player__licence="").values_list(
                "player__licence", flat=True
            )
        )
        tables = set(tournament.registrations.values_list("table_number", flat=True))
        wanted: dict[int, int] = {}
        for number, values in parsed:
            if values["licence"] in registered:
                errors.append(RowError(number, "import.registered", _(
                    "ligne %(row)d : licence %(licence)s déjà inscrite") % {
                    "row": number, "licence": values["licence"]}))  # fmt: skip
            table = values["table"]
            if table and (table in tables or table in wanted):
                errors.append(RowError(number, "import.table_taken", _(
                    "ligne %(row)d : table %(table)d déjà prise") % {
                    "row": number, "table": table}))  # fmt: skip
            if table:
                wanted[table] = number
        if errors:
            errors.sort(key=lambda e: e.row)
            raise ServiceError(
                "import.rows",
                _("%(count)d ligne(s) en erreur, aucun joueur importé.") % {"count": len(errors)},
                errors=errors,
                count=len(errors),
            )
        result = ImportResult()
        taken = set(wanted)
        for _number, values in parsed:
            table = values.pop("table") or free_table(tournament, taken)
            taken.add(table)
            fields = {k: values[k] for k in (*LIMITS, "birth_year")}
            result.registrations.append(register(tournament, fields, table, actor))
        audit_record(actor=actor, action="players.import", obj=tournament, filename=filename,
                     created=result.created)  # fmt: skip
        return result
