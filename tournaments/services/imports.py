"""Importing a list of players from a CSV (UTF-8, ``;`` or ``,``) or XLSX file.

The first row names the columns, in French or English (``nom``/``name``, ``licence``,
``club``, ``fédération``/``federation``, ``série``/``series``, ``catégorie``/``category``,
``année``/``birth_year``, ``table``, and for a simultaneous event ``centre``, a centre's
name); case and accents do not matter, other columns are
ignored. Every row is checked first; if any is wrong nothing is saved and the refusal lists
each error with its line number (the header is line 1), e.g. "ligne 4 : licence manquante".
The licence is required in an import (it identifies the player across tournaments).

Limits, so that a file can neither tie up the site nor flood the answer: at most
:data:`MAX_IMPORT_BYTES` (2 MB) and :data:`MAX_IMPORT_ROWS` (2,000) players, the header is
checked before any other row is read, at most :data:`MAX_REPORTED_ERRORS` (100) row errors
are listed (the total is still given), and the file is parsed before the tournament's lock
is taken: the lock is held only to check the tables and licences and save the rows.
"""

from __future__ import annotations

import csv
import io
import itertools
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.access import Actor, centre_scope, require_arbiter
from tournaments.errors import ServiceError
from tournaments.models import AuditLog, Centre, Player, Registration, Tournament
from tournaments.parsing import MAX_TABLE, MAX_YEAR, MIN_YEAR, ascii_int
from tournaments.services.audit import audit_record, audit_row
from tournaments.services.registry import locked_tournament
from tournaments.services.standings import standings_update

COLUMNS = {
    "nom": "name", "name": "name", "joueur": "name", "licence": "licence", "license": "licence",
    "club": "club", "federation": "federation", "serie": "series", "series": "series",
    "categorie": "category", "category": "category", "annee": "birth_year",
    "annee de naissance": "birth_year", "naissance": "birth_year", "birth_year": "birth_year",
    "birth year": "birth_year", "table": "table", "centre": "centre", "center": "centre",
}  # fmt: skip
LIMITS = {"name": 200, "licence": 40, "club": 200, "federation": 20, "series": 10, "category": 20}
#: Bounds of the numeric columns (a number outside is refused, never stored).
NUMBERS = {"birth_year": (MIN_YEAR, MAX_YEAR), "table": (1, MAX_TABLE)}
#: The column names a refusal shows (the file's French headers, never the field keys).
FIELD_LABELS = {
    "name": gettext_lazy("nom"),
    "licence": gettext_lazy("licence"),
    "club": gettext_lazy("club"),
    "federation": gettext_lazy("fédération"),
    "series": gettext_lazy("série"),
    "category": gettext_lazy("catégorie"),
    "birth_year": gettext_lazy("année de naissance"),
    "table": gettext_lazy("table"),
}
MAX_IMPORT_BYTES = 2 * 1024 * 1024
MAX_IMPORT_ROWS = 2_000
MAX_REPORTED_ERRORS = 100
#: Columns read in a row (a spreadsheet row may claim 16,384).
MAX_COLUMNS = 50


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


def check_size(size: int) -> None:
    """Refuse a file over :data:`MAX_IMPORT_BYTES` (``import.too_large``) before reading it."""
    if size > MAX_IMPORT_BYTES:
        raise ServiceError(
            "import.too_large",
            f"The file has {size} bytes; the limit is {MAX_IMPORT_BYTES}.",
            size_mb=f"{size / 1_048_576:.1f}".replace(".", ","),
            limit_mb=MAX_IMPORT_BYTES // 1_048_576,
        )


def _xlsx_rows(content: bytes) -> Iterator[list[Any]]:
    import openpyxl

    try:
        book = openpyxl.load_workbook(io.BytesIO(content), read_only=True, data_only=True)
        sheet = book.worksheets[0]
        for row in sheet.iter_rows(values_only=True, max_col=MAX_COLUMNS):
            yield list(row)
    except ServiceError:
        raise
    except Exception as error:  # openpyxl raises many types for a damaged file
        raise ServiceError("import.file", _("Le fichier XLSX est illisible.")) from error


def read_rows(filename: str, content: bytes) -> Iterator[list[Any]]:
    """The file's rows (header first) as lists of cells, read lazily: the caller stops
    reading at the first wrong header or past :data:`MAX_IMPORT_ROWS`."""
    check_size(len(content))
    if filename.lower().endswith(".xlsx"):
        return _xlsx_rows(content)
    try:
        text = content.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ServiceError("import.encoding", _("Le fichier CSV doit être en UTF-8.")) from error
    first = text.split("\n", 1)[0]
    delimiter = ";" if first.count(";") >= first.count(",") else ","
    rows = csv.reader(io.StringIO(text), delimiter=delimiter)
    return (row[:MAX_COLUMNS] for row in _csv_checked(rows))


def _csv_checked(rows: Iterator[list[str]]) -> Iterator[list[str]]:
    try:
        yield from rows
    except csv.Error as error:  # a NUL byte, a field over the csv module's limit
        raise ServiceError("import.file_csv", _("Le fichier CSV est illisible.")) from error


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
            fail(
                f"import.{name}_long",
                _("%(field)s : texte trop long") % {"field": FIELD_LABELS[name]},
            )
    for name, (low, high) in NUMBERS.items():
        raw = values[name]
        if raw in ("", None):
            values[name] = None
            continue
        values[name] = ascii_int(raw, low=low, high=high)
        if values[name] is None:
            fail(f"import.{name}", _("%(field)s doit être un nombre entier de %(low)d à %(high)d")
                 % {"field": FIELD_LABELS[name], "low": low, "high": high})  # fmt: skip
    return errors


def parse_players(filename: str, content: bytes) -> tuple[list[tuple[int, dict]], list[RowError]]:
    """Rows as ``(line, fields)`` and every error found; reads, saves nothing. The header
    is checked first, and reading stops past :data:`MAX_IMPORT_ROWS` filled rows."""
    rows = read_rows(filename, content)
    first = next(rows, None)
    if first is None:
        raise ServiceError("import.empty", _("Le fichier est vide."))
    header = [COLUMNS.get(_key(cell)) for cell in first]
    if "name" not in header:
        raise ServiceError("import.header", _("La première ligne doit nommer la colonne « nom »."))
    parsed: list[tuple[int, dict]] = []
    errors: list[RowError] = []
    seen: dict[str, int] = {}
    for number, row in zip(itertools.count(2), rows, strict=False):
        if all(cell in (None, "") or str(cell).strip() == "" for cell in row):
            continue
        values: dict[str, int | float | str] = dict.fromkeys(
            [*LIMITS, "birth_year", "table", "centre"], ""
        )
        for column, cell in zip(header, row, strict=False):
            if column is not None and cell is not None:
                values[column] = cell if isinstance(cell, int | float) else str(cell).strip()
        for name in (*LIMITS, "centre"):
            values[name] = str(values[name]).strip()
        if len(parsed) == MAX_IMPORT_ROWS:
            raise ServiceError(
                "import.too_many_rows",
                f"More than {MAX_IMPORT_ROWS} players in the file.",
                limit=MAX_IMPORT_ROWS,
            )
        errors += _check(number, values, seen)
        seen.setdefault(str(values["licence"]), number)
        parsed.append((number, values))
    return parsed, errors


def _conflicts(tournament: Any, parsed: list[tuple[int, dict]]) -> tuple[list[RowError], set]:
    """Rows whose licence is already registered or whose table is taken (in the tournament
    or by an earlier row), and the tables the file asks for."""
    registered = set(
        tournament.registrations.exclude(player__licence="").values_list(
            "player__licence", flat=True
        )
    )
    tables = set(tournament.registrations.values_list("table_number", flat=True))
    errors: list[RowError] = []
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
    return errors, set(wanted)


def _centres(
    tournament: Tournament, parsed: list[tuple[int, dict]], actor: Actor
) -> list[RowError]:
    """Each row's centre (``values["centre_id"]``) from the ``centre`` column, a centre's
    name in the tournament (case ignored); an unknown one is a row error. A centre
    arbiter's rows go to their own centre, and naming another is a row error."""
    names = {c.name.casefold(): c.pk for c in Centre.objects.filter(tournament=tournament)}
    own = centre_scope(actor=actor, tournament_id=tournament.pk).centre_id
    errors = []
    for number, values in parsed:
        name = str(values.get("centre") or "")
        centre = names.get(name.casefold()) if name else own
        if (name and centre is None) or (own is not None and centre != own):
            errors.append(RowError(number, "import.centre", _(
                "ligne %(row)d : centre « %(centre)s » inconnu") % {
                "row": number, "centre": name}))  # fmt: skip
        values["centre_id"] = centre
    return errors


def _refuse(errors: list[RowError]) -> None:
    errors.sort(key=lambda e: e.row)
    raise ServiceError(
        "import.rows",
        _("%(count)d ligne(s) en erreur, aucun joueur importé.") % {"count": len(errors)},
        errors=errors[:MAX_REPORTED_ERRORS],
        count=len(errors),
        shown=min(len(errors), MAX_REPORTED_ERRORS),
    )


def players_import(
    *, tournament_id: int, filename: str, content: bytes, actor: Actor
) -> ImportResult:
    """Register every player of the file, or none (``import.rows`` with ``details["errors"]``,
    the first :data:`MAX_REPORTED_ERRORS` :class:`RowError`, and ``count``, when any row
    is wrong). The file is read and checked before the tournament's lock is taken; a
    refused file never takes it."""
    parsed, errors = parse_players(filename, content)
    if errors:
        tournament = Tournament.objects.filter(pk=tournament_id).first()
        if tournament is None:
            raise ServiceError("tournament.unknown", f"There is no tournament {tournament_id}.")
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        _refuse(errors + _conflicts(tournament, parsed)[0])
    with transaction.atomic():
        tournament = locked_tournament(tournament_id)
        require_arbiter(actor=actor, tournament_id=tournament.pk)
        errors, taken = _conflicts(tournament, parsed)
        errors += _centres(tournament, parsed, actor)
        if errors:
            _refuse(errors)
        result = ImportResult(_save_rows(tournament, parsed, taken, actor))
        audit_record(actor=actor, action="players.import", obj=tournament, filename=filename,
                     created=result.created)  # fmt: skip
        return result


def _save_rows(
    tournament: Tournament, parsed: list[tuple[int, dict]], wanted: set[int], actor: Actor
) -> list[Registration]:
    """Register the checked rows in a few bulk queries (the caller holds the lock): a
    known licence reuses its ``Player``, a row without a table takes the smallest free
    one; one ``registration.create`` audit row per player, as :func:`register` writes."""
    licences = [v["licence"] for _n, v in parsed]
    known: dict[str, Player] = {}
    for start in range(0, len(licences), 500):
        chunk = licences[start : start + 500]
        known.update({p.licence: p for p in Player.objects.filter(licence__in=chunk)})
    fields = (*LIMITS, "birth_year")
    new = [Player(**{k: v[k] for k in fields}) for _n, v in parsed if v["licence"] not in known]
    for player in Player.objects.bulk_create(new, batch_size=500):
        known[player.licence] = player
    used = set(tournament.registrations.values_list("table_number", flat=True)) | wanted
    free = (n for n in itertools.count(1) if n not in used)
    rows = []
    for _number, values in parsed:
        rows.append(Registration(tournament=tournament, player=known[values["licence"]],
                                 table_number=values["table"] or next(free),
                                 centre_id=values["centre_id"]))  # fmt: skip
    registrations = Registration.objects.bulk_create(rows, batch_size=500)
    standings_update(actor=actor, tournament_id=tournament.pk,
                     player_ids=[r.player_id for r in registrations])  # fmt: skip
    AuditLog.objects.bulk_create(
        [audit_row(actor=actor, action="registration.create", object_type="registration",
                   object_id=r.pk, payload={"player": r.player_id, "table": r.table_number})
         for r in registrations],
        batch_size=500,
    )  # fmt: skip
    return registrations
