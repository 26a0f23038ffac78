"""The printed classic score sheet (page 004): one page per sheet with its lines (who, what
was typed, the points, every player's running total), the two end lines « lettres
restantes » and « partie terminée », the final totals and places, the letters not on the
board, and the corrections with who and why. Names and typed text go through
``reports.pdf.para`` (escaped)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Table

from tournaments.reports.base import PDF, Rendered, number, slug
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
from tournaments.selectors.score_sheets import SheetView
from tournaments.selectors.values import TournamentInfo


def _kind_text(kind: str, text: str) -> str:
    if kind == "score":
        return _("score seul")
    if kind == "pass":
        return _("passe")
    if kind == "exchange":
        return _("échange")
    return text


def _sheet_story(view: SheetView) -> list:
    title = _("Feuille de score n° %(n)s") % {"n": view.sheet.number}
    story: list = [para(title, TITLE)]
    if view.table_label:
        story.append(para(_("Division · ronde · table : %(t)s") % {"t": view.table_label}, BODY))
    names = list(view.names)
    width = 110 / len(names)
    rows = [header_row([_("Tour"), _("Joueur"), _("Coup"), _("Points"), *names])]
    for r in view.rows:
        mark = f" (v{r.versions})" if r.versions > 1 else ""
        rows.append(
            [
                para(f"{r.number}{mark}", CELL_C),
                para(r.name, CELL),
                para(_kind_text(r.kind, r.text), CELL),
                para(number(r.score), CELL_C),
                *(para(number(t), CELL_C) for t in r.totals),
            ]
        )
    if view.end_rows:
        blank = [para("", CELL)] * 3
        rows.append(
            [para(_("Lettres restantes"), CELL), *blank]
            + [para(f"−{number(e.minus)}" if e.minus else "0", CELL_C) for e in view.end_rows]
        )
        rows.append(
            [para(_("Partie terminée"), CELL), *blank]
            + [para(f"+{number(e.plus)}" if e.plus else "0", CELL_C) for e in view.end_rows]
        )
        rows.append(
            [para(_("Total"), CELL), *blank]
            + [para(f"{number(e.final)} ({e.rank})", CELL_C) for e in view.end_rows]
        )
    else:
        rows.append(
            [para(_("Total"), CELL), para("", CELL), para("", CELL), para("", CELL)]
            + [para(number(t), CELL_C) for t in view.state.totals]
        )
    widths = [14 * mm, 30 * mm, 36 * mm, 14 * mm, *([width * mm] * len(names))]
    table = Table(rows, colWidths=widths, repeatRows=1)
    table.setStyle(table_style())
    story.append(table)
    if view.end is None:
        story.append(para(_("Partie en cours."), BODY))
    story.append(para(_("Lettres hors de la grille (sac et chevalets)"), SUBTITLE))
    story.append(para(view.state.not_played or "—", BODY))
    if not view.state.tracked:
        story.append(
            para(_("Des tours saisis en score seul ne sont pas comptés dans ces lettres."), BODY)
        )
    if view.history:
        story.append(para(_("Corrections"), SUBTITLE))
        for c in view.history:
            where = _("fin de partie") if c.number == 0 else _("tour %(n)s") % {"n": c.number}
            story.append(
                para(
                    _(
                        "%(where)s, v%(v)s, %(when)s, %(who)s : "
                        "« %(before)s » → « %(after)s » (%(why)s)"
                    )
                    % {
                        "where": where,
                        "v": c.version,
                        "when": c.when,
                        "who": c.who,
                        "before": c.before,
                        "after": c.after,
                        "why": c.reason,
                    },
                    BODY,
                )
            )
    return story


def score_sheets_pdf(info: TournamentInfo, views: list[SheetView]) -> Rendered:
    """One page per sheet (a single sheet from its console page, every sheet of the
    tournament from the documents catalogue)."""
    title = _("Feuilles de score")
    if not views:
        story: list = [para(title, TITLE), para(_("Ce tournoi n'a pas de feuille de score."), BODY)]
        return Rendered(
            f"{slug(info.slug)}-feuilles.pdf", PDF, build_pdf(story, info=info, title=title)
        )
    story = []
    for i, view in enumerate(views):
        if i:
            story.append(PageBreak())
        story.extend(_sheet_story(view))
    name = f"feuille-{views[0].sheet.number}" if len(views) == 1 else "feuilles"
    return Rendered(f"{slug(info.slug)}-{name}.pdf", PDF, build_pdf(story, info=info, title=title))
