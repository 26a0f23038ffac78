"""A centre's documents in a simultaneous event (issue 16): the centre's ranking as PDF and
as a spreadsheet, made from :class:`~tournaments.selectors.centre_ranking.CentreRanking`
(the centre's players only, each with their rank in the whole event and in the centre).

Pure functions like every renderer (``tournaments.reports``): user text (names, clubs, the
centre's name and address) reaches a ``Paragraph`` through ``para`` and a cell through
``write_row`` (``reports.safe``)."""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from reportlab.lib.units import mm
from reportlab.platypus import Table

from tournaments.reports.base import PDF, XLSX, Rendered, number, slug
from tournaments.reports.pdf import BODY, SUBTITLE, TITLE, build_pdf, header_row, para, table_style
from tournaments.reports.results import SUB_HEADER, SUB_WIDTHS, _numbers_style, _row, rank_text
from tournaments.reports.safe import write_row
from tournaments.selectors.centre_ranking import CentreRanking

SHEET_HEADER = [
    gettext_lazy("Rang centre"),
    gettext_lazy("Ex aequo"),
    gettext_lazy("Rang général"),
    gettext_lazy("Table"),
    gettext_lazy("Nom"),
    gettext_lazy("Licence"),
    gettext_lazy("Club"),
    gettext_lazy("Série"),
    gettext_lazy("Catégorie"),
    gettext_lazy("Score"),
    gettext_lazy("Négatif"),
    gettext_lazy("% du top"),
    gettext_lazy("Solos"),
]
SHEET_WIDTHS = [8, 8, 9, 6, 28, 12, 22, 7, 11, 8, 9, 10, 7]


def _title(data: CentreRanking) -> str:
    return _("Classement du centre « %(centre)s »") % {"centre": data.centre}


def _what(data: CentreRanking) -> str:
    return _("%(title)s — total des tops : %(total)s — %(n)s joueurs au classement général") % {
        "title": data.title,
        "total": number(data.top_total),
        "n": number(data.entrants),
    }


def _filename(data: CentreRanking, extension: str) -> str:
    what = f"partie-{data.game}" if data.game is not None else "general"
    return f"{slug(data.tournament.slug)}-centre-{slug(data.centre)}-classement-{what}.{extension}"


def centre_ranking_pdf(data: CentreRanking) -> Rendered:
    """The centre's ranking: its rank in the centre first, the player's line (as in the
    results sheet), the rank in the whole event last (« Général »)."""
    title = _title(data)
    story: list = [para(title, TITLE)]
    place = " · ".join(x for x in (data.club, " ".join(data.address.split())) if x)
    if place:
        story.append(para(place, BODY))
    story.append(para(_what(data), SUBTITLE))
    rows: list[list] = [header_row([_("Rang centre"), *SUB_HEADER[1:]])]
    for rank, tied, line in data.lines:
        rows.append([f"{rank} ex" if tied else str(rank), *_row(line)[1:8], rank_text(line)])
    if not data.lines:
        story.append(para(_("Aucun joueur classé dans ce centre."), BODY))
    else:
        extra = [*_numbers_style(), ("ALIGN", (8, 0), (8, -1), "RIGHT")]
        story.append(Table(rows, colWidths=[w * mm for w in SUB_WIDTHS], repeatRows=1,
                           style=table_style(1, extra)))  # fmt: skip
    content = build_pdf(story, info=data.tournament, title=title)
    return Rendered(_filename(data, "pdf"), PDF, content)


def centre_ranking_xlsx(data: CentreRanking) -> Rendered:
    """The same ranking as one sheet: the centre, the ranking's title and top total above,
    then a line per player (numbers as numbers, the percentage formatted)."""
    wb = Workbook()
    ws = wb.active
    ws.title = _("Centre")
    write_row(ws, [_title(data)])
    ws.cell(row=1, column=1).font = Font(bold=True, size=13)
    write_row(ws, [_("Club"), data.club])
    write_row(ws, [_("Adresse"), " ".join(data.address.split())])
    write_row(ws, [_("Classement"), data.title])
    write_row(ws, [_("Total des tops"), data.top_total])
    write_row(ws, [_("Joueurs au classement général"), data.entrants])
    write_row(ws, [])
    write_row(ws, [str(h) for h in SHEET_HEADER])
    head = ws.max_row
    for i, width in enumerate(SHEET_WIDTHS, start=1):
        cell = ws.cell(row=head, column=i)
        cell.font, cell.fill = Font(bold=True), PatternFill("solid", fgColor="E8E8E8")
        cell.alignment = Alignment(horizontal="center", wrap_text=True)
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.freeze_panes = f"A{head + 1}"
    for rank, tied, line in data.lines:
        p = line.player
        write_row(ws, [rank, "ex" if tied else "", line.rank, p.table, p.name, p.licence,
                       p.club, p.series, p.category, line.total, line.negatif,
                       float(line.percent) / 100, line.solos])  # fmt: skip
        ws.cell(row=ws.max_row, column=11).number_format = "+0;-0;0"
        ws.cell(row=ws.max_row, column=12).number_format = "0.00%"
    wb.properties.creator = "Tirage"
    buffer = io.BytesIO()
    wb.save(buffer)
    return Rendered(_filename(data, "xlsx"), XLSX, buffer.getvalue())
