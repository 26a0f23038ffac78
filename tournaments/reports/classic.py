"""Printed documents of a classic tournament (docs/classic.md, "Printables and exports"):
the last round's pairings, the players' scorecards and the standings as PDF, the standings
as XLSX. Every user text goes through ``reports.pdf.para`` / ``markup`` (escaped) or
``reports.safe.write_row`` (``safe_cell``)."""

from __future__ import annotations

import io

from django.utils.translation import gettext as _
from openpyxl import Workbook
from reportlab.lib.units import mm
from reportlab.platypus import KeepTogether, PageBreak, Spacer, Table

from tournaments.reports.base import PDF, XLSX, Rendered, number, slug
from tournaments.reports.pdf import (
    BODY,
    CELL,
    CELL_C,
    SUBTITLE,
    TITLE,
    build_pdf,
    header_row,
    para,
    table_style,
)
from tournaments.reports.safe import write_row
from tournaments.selectors.classic import CardLine, DivisionReport, TableLine
from tournaments.selectors.values import TournamentInfo


def _signed(value: int) -> str:
    return f"+{number(value)}" if value > 0 else number(value)


def _halves(value: int) -> str:
    whole, half = divmod(value, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _empty(info: TournamentInfo, title: str, kind: str) -> Rendered:
    story = [para(title, TITLE), para(_("Ce tournoi n'a pas encore de ronde appariée."), BODY)]
    content = build_pdf(story, info=info, title=title)
    return Rendered(f"{slug(info.slug)}-{kind}.pdf", PDF, content)


def _result_text(line: TableLine) -> str:
    if line.bye:
        return _("exempt")
    r = line.result
    if r is None:
        return ""
    if r.forfeit == "first":
        return _("forfait du premier")
    if r.forfeit == "second":
        return _("forfait du second")
    return f"{r.score_first} – {r.score_second}"


def pairings_pdf(info: TournamentInfo, divisions: list[DivisionReport]) -> Rendered:
    """Each division's last round: table, who starts, the opponent (or the bye), and the
    result once entered."""
    title = _("Appariements")
    paired = [d for d in divisions if d.round_number is not None]
    if not paired:
        return _empty(info, title, "appariements")
    story: list = [para(title, TITLE)]
    for d in paired:
        story.append(
            para(_("Division %(d)s — ronde %(n)s") % {"d": d.name, "n": d.round_number}, SUBTITLE)
        )
        rows = [header_row([_("Table"), _("Commence"), _("Second"), _("Résultat")])]
        for x in d.tables:
            second = _("exempt") if x.bye else (x.second or "")
            rows.append(
                [
                    para(str(x.table.number), CELL_C),
                    para(x.first, CELL),
                    para(second, CELL),
                    para(_result_text(x), CELL_C),
                ]
            )
        table = Table(rows, colWidths=[16 * mm, 62 * mm, 62 * mm, 32 * mm], repeatRows=1)
        table.setStyle(table_style())
        story.append(table)
    content = build_pdf(story, info=info, title=title)
    return Rendered(f"{slug(info.slug)}-appariements.pdf", PDF, content)


def _standings_rows(d: DivisionReport) -> list[list]:
    labels = [
        _("Rang"),
        _("Joueur"),
        _("Victoires"),
        _("Défaites"),
        _("Écart"),
        _("Points"),
        _("Parties"),
        _("Buchholz"),
    ]
    rows: list[list] = [header_row(labels)]
    for s in d.standings:
        rows.append(
            [
                para(str(s.rank), CELL_C),
                para(s.name, CELL),
                para(s.wins, CELL_C),
                para(s.losses, CELL_C),
                para(_signed(s.spread), CELL_C),
                para(number(s.points), CELL_C),
                para(str(s.games), CELL_C),
                para(s.buchholz, CELL_C),
            ]
        )
    return rows


def standings_pdf(info: TournamentInfo, divisions: list[DivisionReport]) -> Rendered:
    """Each division's standings: wins (a tie counts ½), losses, spread, points, games,
    Buchholz; equal players share the rank."""
    title = _("Classement")
    if not divisions:
        return _empty(info, title, "classement")
    story: list = [
        para(title, TITLE),
        para(
            _(
                "Classement aux victoires, puis à l'écart (points pour moins points "
                "contre), puis aux départages choisis."
            ),
            BODY,
        ),
    ]
    for d in divisions:
        done = d.round_number or 0
        story.append(
            para(_("Division %(d)s — après %(n)s ronde(s)") % {"d": d.name, "n": done}, SUBTITLE)
        )
        widths = [12 * mm, 60 * mm, 18 * mm, 18 * mm, 18 * mm, 18 * mm, 16 * mm, 20 * mm]
        table = Table(_standings_rows(d), colWidths=widths, repeatRows=1)
        table.setStyle(table_style())
        story.append(table)
    content = build_pdf(story, info=info, title=title)
    return Rendered(f"{slug(info.slug)}-classement-classique.pdf", PDF, content)


def _card_row(c: CardLine) -> list:
    opponent = c.opponent if c.opponent is not None else _("exempt")
    if c.forfeit == "won":
        mine, theirs = _("gagné par forfait"), ""
    elif c.forfeit == "lost":
        mine, theirs = _("forfait"), ""
    else:
        mine = "" if c.mine is None else str(c.mine)
        theirs = "" if c.theirs is None else str(c.theirs)
    started = _("oui") if c.started else ""
    return [
        para(str(c.round), CELL_C),
        para(opponent, CELL),
        para(started, CELL_C),
        para(mine, CELL_C),
        para(theirs, CELL_C),
        para(_halves(c.halves), CELL_C),
        para(_signed(c.spread), CELL_C),
    ]


def scorecards_pdf(info: TournamentInfo, divisions: list[DivisionReport]) -> Rendered:
    """One scorecard per player (tsh's scorecard): each round's opponent, who started, both
    scores, then the running wins and spread, with blank lines for the rounds to come."""
    title = _("Feuilles de score")
    if not divisions:
        return _empty(info, title, "feuilles-de-score")
    story: list = [para(title, TITLE)]
    labels = [
        _("Ronde"),
        _("Adversaire"),
        _("Commence"),
        _("Mon score"),
        _("Son score"),
        _("Victoires"),
        _("Écart"),
    ]
    widths = [14 * mm, 62 * mm, 20 * mm, 24 * mm, 24 * mm, 20 * mm, 18 * mm]
    for d in divisions:
        for name, lines in d.cards:
            rows: list[list] = [header_row(labels), *(_card_row(c) for c in lines)]
            for n in range(len(lines) + 1, d.rounds_planned + 1):
                rows.append([para(str(n), CELL_C), "", "", "", "", "", ""])
            table = Table(rows, colWidths=widths, repeatRows=1)
            table.setStyle(table_style())
            heading = para(_("%(name)s — division %(d)s") % {"name": name, "d": d.name}, SUBTITLE)
            story.append(KeepTogether([heading, table, Spacer(1, 4 * mm)]))
        story.append(PageBreak())
    content = build_pdf(story[:-1], info=info, title=title)
    return Rendered(f"{slug(info.slug)}-feuilles-de-score.pdf", PDF, content)


def standings_xlsx(info: TournamentInfo, divisions: list[DivisionReport]) -> Rendered:
    """One sheet per division: the standings as numeric cells (wins as a decimal, 1.5),
    then each table of every round in a second sheet."""
    wb = Workbook()
    ws = wb.active
    ws.title = _("Classement")
    write_row(
        ws,
        [
            _("Division"),
            _("Rang"),
            _("Joueur"),
            _("Victoires"),
            _("Défaites"),
            _("Écart"),
            _("Points"),
            _("Parties"),
            _("Exempts"),
        ],
    )
    for d in divisions:
        for s in d.standings:
            wins = _number_halves(s.wins)
            write_row(
                ws,
                [
                    d.name,
                    s.rank,
                    s.name,
                    wins,
                    _number_halves(s.losses),
                    s.spread,
                    s.points,
                    s.games,
                    s.byes,
                ],
            )
    cards = wb.create_sheet(_("Parties"))
    write_row(
        cards,
        [
            _("Division"),
            _("Joueur"),
            _("Ronde"),
            _("Adversaire"),
            _("Commence"),
            _("Score"),
            _("Score adverse"),
            _("Forfait"),
        ],
    )
    for d in divisions:
        for name, lines in d.cards:
            for c in lines:
                forfeit = {"won": _("gagné par forfait"), "lost": _("forfait")}.get(c.forfeit, "")
                write_row(
                    cards,
                    [
                        d.name,
                        name,
                        c.round,
                        c.opponent or _("exempt"),
                        _("oui") if c.started else _("non"),
                        c.mine,
                        c.theirs,
                        forfeit,
                    ],
                )
    wb.properties.creator = "Tirage"
    buffer = io.BytesIO()
    wb.save(buffer)
    return Rendered(f"{slug(info.slug)}-classement-classique.xlsx", XLSX, buffer.getvalue())


def _number_halves(text: str) -> float:
    """``2½`` → 2.5 for a numeric cell."""
    if text == "½":
        return 0.5
    return float(text.replace("½", "")) + (0.5 if text.endswith("½") else 0)
