"""Spreadsheet and text exports (rules §7 P6, P7): the XLSX workbook, the ranking CSV and
the SIGLES file for the federation."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from openpyxl import Workbook
from openpyxl.styles import Alignment, Font, PatternFill
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.worksheet import Worksheet

from tournaments.reports.base import CSV, XLSX, Rendered, outcome_label, percent, slug
from tournaments.reports.data import (
    GameData,
    Ranking,
    RankingLine,
    ResultsData,
    SubRanking,
    TableLine,
)
from tournaments.reports.safe import line_text, safe_cell, write_row
from tournaments.selectors.rankings import sub_rankings

BOLD = Font(bold=True)
HEAD_FILL = PatternFill("solid", fgColor="E8E8E8")
JOKER_FONT = Font(color="C00000")

RANKING_HEADER = [
    gettext_lazy("Rang"),
    gettext_lazy("Ex aequo"),
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
    gettext_lazy("Avertissements"),
    gettext_lazy("Pénalités"),
]


def _game_label(number: int) -> str:
    return _("Partie %(n)s") % {"n": number}


def _ranking_row(line: RankingLine, percent_cell: float | str, game_totals: Sequence[int]) -> list:
    """One ranking line in ``RANKING_HEADER`` order; the sheet and the CSV differ only in
    how the percentage is written (a number to format, or French text)."""
    p = line.player
    return [
        line.rank,
        "ex" if line.ex_aequo else "",
        p.table,
        p.name,
        p.licence,
        p.club,
        p.series,
        p.category,
        line.total,
        line.negatif,
        percent_cell,
        line.solos,
        line.warnings,
        line.penalties,
        *game_totals,
    ]


def _header(ws: Worksheet, values: Sequence[str], widths: Sequence[float]) -> None:
    write_row(ws, [str(v) for v in values])
    for i, width in enumerate(widths, start=1):
        cell = ws.cell(row=1, column=i)
        cell.font, cell.fill = BOLD, HEAD_FILL
        cell.alignment = Alignment(horizontal="center", wrap_text=True)
        ws.column_dimensions[get_column_letter(i)].width = width
    ws.freeze_panes = "A2"


def _ranking_sheet(ws: Worksheet, ranking: Ranking) -> None:
    games = (
        [_game_label(n) for n in ranking.game_numbers]
        if ranking.lines and any(line.game_totals for line in ranking.lines)
        else []
    )
    widths = [6, 8, 6, 28, 12, 22, 7, 11, 8, 9, 10, 7, 9, 9] + [10] * len(games)
    _header(ws, RANKING_HEADER + games, widths)
    formats = {10: "+0;-0;0", 11: "0.00%"}  # négatif signed, % du top as a percentage
    for line in ranking.lines:
        write_row(ws, _ranking_row(line, float(line.percent) / 100, line.game_totals), formats)
    write_row(ws, [])
    write_row(
        ws, [_("Total des tops"), None, None, None, None, None, None, None, ranking.top_total]
    )


def _scores_sheet(ws: Worksheet, game: GameData) -> None:
    """Player × round matrix of credited scores; the tops on the first data row."""
    n = len(game.rounds)
    header = [_("Table"), _("Nom"), *[f"C{r.number}" for r in game.rounds], _("Solos"),
              _("Total")]  # fmt: skip
    _header(ws, header, [6, 28] + [6] * n + [8, 8])
    ws.freeze_panes = "C2"
    write_row(ws, [None, _("Top"), *[r.score for r in game.rounds], None, game.top_total])
    for cell in ws[2]:
        cell.font = BOLD
    for line in game.players:
        scores = [m.score if m.kind != "absent" else None for m in line.moves]
        write_row(ws, [line.player.table, line.player.name, *scores, line.solo_bonus, line.total])


def _game_sheet(ws: Worksheet, game: GameData) -> None:
    """The game record rows (P5)."""
    header = [_("N°"), _("Tirage"), _("Rejets"), _("Top"), _("Réf."), _("Points"),
              _("Scrabble"), _("Cumul")]  # fmt: skip
    _header(ws, header, [5, 14, 14, 18, 7, 8, 9, 8])
    for r in game.rounds:
        write_row(
            ws,
            [
                r.number,
                r.rack,
                " ".join(r.rejected) or None,
                r.word,
                r.reference,
                r.score,
                "*" if r.scrabble else None,
                r.cumulative,
            ],
        )
        if any(ch.islower() for ch in r.word):
            ws.cell(row=ws.max_row, column=4).font = JOKER_FONT
    write_row(ws, [])
    write_row(ws, [None, None, None, _("Total"), None, game.top_total])


def _decisions_sheet(ws: Worksheet, games: Sequence[GameData]) -> None:
    _header(ws, [_("Partie"), _("Coup"), _("Table"), _("Nom"), _("Mot"), _("Réf."),
                 _("Points"), _("Décision")],
            [7, 6, 6, 28, 16, 7, 7, 60])  # fmt: skip
    for game in games:
        for line in game.players:
            for m in line.moves:
                if m.kind in ("warning", "penalty", "zero"):
                    write_row(ws, [game.number, m.number, line.player.table,
                                   line.player.name, m.word, m.reference, m.score,
                                   outcome_label(m.code)])  # fmt: skip


def _centres_sheet(ws: Worksheet, groups: Sequence[SubRanking]) -> None:
    """The ranking inside each centre of a simultaneous event, in the overall order, with
    the overall rank beside it."""
    _header(ws, [_("Centre"), _("Rang"), _("Ex aequo"), _("Table"), _("Nom"), _("Club"),
                 _("Score"), _("Général")], [24, 6, 8, 6, 28, 22, 8, 8])  # fmt: skip
    for group in groups:
        label = _("Sans centre") if group.unclassed else group.label
        for rank, tied, line in group.lines:
            write_row(ws, [label, rank, "ex" if tied else "", line.player.table,
                           line.player.name, line.player.club, line.total,
                           line.rank])  # fmt: skip


def workbook_xlsx(results: ResultsData, games: Sequence[GameData] = ()) -> Rendered:
    """Sheets "Classement", then "Scores" and "Partie" per game (suffixed by the game
    number when there are several), then "Décisions". Numbers are numeric cells."""
    wb = Workbook()
    ws = wb.active
    ws.title = _("Classement")
    _ranking_sheet(ws, results.main)
    if results.overall is not None and len(results.games) > 1:
        for ranking in results.games:
            name = _("Classement P%(n)s") % {"n": ranking.game_numbers[0]}
            _ranking_sheet(wb.create_sheet(name), ranking)
    for game in games:
        suffix = f" P{game.number}" if len(games) > 1 else ""
        _scores_sheet(wb.create_sheet(_("Scores") + suffix), game)
        _game_sheet(wb.create_sheet(_("Partie") + suffix), game)
    if games:
        _decisions_sheet(wb.create_sheet(_("Décisions")), games)
    centres = sub_rankings(results.main, "centre")
    if centres:  # a simultaneous event (issue 16)
        _centres_sheet(wb.create_sheet(_("Par centre")), centres)
    wb.properties.creator = "Tirage"
    buffer = io.BytesIO()
    wb.save(buffer)
    name = f"{slug(results.tournament.slug)}-{_what(results)}.xlsx"
    return Rendered(name, XLSX, buffer.getvalue())


def _what(results: ResultsData) -> str:
    return "general" if results.overall else slug(results.games[0].title)


def ranking_csv(results: ResultsData) -> Rendered:
    """The main ranking as CSV for a French spreadsheet: UTF-8 with a BOM (so Excel reads
    the accents), ``;`` between fields and a decimal comma (Excel's French list separator
    is ``;`` because ``,`` is the decimal mark). The négatif keeps its sign."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=";", lineterminator="\r\n")
    ranking = results.main
    games = [_game_label(n) for n in ranking.game_numbers] if results.overall else []
    writer.writerow([str(h) for h in RANKING_HEADER] + games)
    for line in ranking.lines:
        row = _ranking_row(line, percent(line.percent), line.game_totals if games else ())
        writer.writerow([safe_cell(v) for v in row])
    content = "\ufeff" + buffer.getvalue()
    name = f"{slug(results.tournament.slug)}-{_what(results)}.csv"
    return Rendered(name, f"{CSV}; charset=utf-8", content.encode("utf-8"))


EMPTY_TABLE = "--table vide--"


def _latin1(value: str) -> str:
    """Latin-1 has no œ, no typographic quotes: replace what it cannot hold; one line,
    never a formula (:func:`line_text`)."""
    value = line_text(value)
    value = value.replace("œ", "oe").replace("Œ", "OE").replace("’", "'").replace('"', "'")
    return value.encode("latin-1", "replace").decode("latin-1")


def sigles_csv(tournament_slug: str, tables: Sequence[TableLine]) -> Rendered:
    """The SIGLES input (§7 P7, after Eliot's ``extras/reports/sigles.py``): Latin-1, one
    line per table ``"table","name",total``; an empty table is ``"N","--table vide--",-1``."""
    lines = []
    for t in tables:
        if t.player is None:
            lines.append(f'"{t.table}","{EMPTY_TABLE}",-1')
        else:
            lines.append(f'"{t.table}","{_latin1(t.player.name)}",{t.total}')
    content = "\r\n".join(lines) + "\r\n"
    name = f"{slug(tournament_slug)}-sigles.csv"
    return Rendered(name, f"{CSV}; charset=iso-8859-1", content.encode("latin-1"))
