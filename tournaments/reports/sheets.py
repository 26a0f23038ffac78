"""The arbiter sheet (feuille d'arbitrage, §7 P4) and the players' records (feuilles de
route, §7 P3)."""

from __future__ import annotations

from django.utils.translation import gettext as _
from reportlab.lib import colors
from reportlab.lib.units import mm
from reportlab.platypus import PageBreak, Paragraph, Spacer, Table

from tournaments.reports.base import PDF, Rendered, negatif, number, slug
from tournaments.reports.data import GameData, PlayerGameLine
from tournaments.reports.pdf import (
    BODY,
    CELL,
    FONT,
    FONT_BOLD,
    SMALL,
    TITLE,
    WARN_COLOUR,
    build_pdf,
    header_row,
    para,
    table_style,
    word_markup,
)

#: Blank columns printed on an arbiter sheet before any round is played.
BLANK_ROUNDS = 20


def _cell(score: int | None, running: int | None) -> str:
    if score is None:
        return ""
    return f"{score}\n{running}"


def arbiter_sheet_pdf(game: GameData) -> Rendered:
    """One row per player (table order), one column per round with the round score over
    the running total, thicker rules after rounds 5, 10, 15, 20; warnings, penalties and
    zeros in red; the tops on the first row (A4 landscape)."""
    title = _("Feuille d'arbitrage — partie %(n)s") % {"n": game.number}
    n = len(game.rounds) or BLANK_ROUNDS
    numbers = [r.number for r in game.rounds] or list(range(1, n + 1))
    header = [_("Table"), _("Nom"), *[str(k) for k in numbers], _("Solos"), _("Total")]
    rows: list[list] = [header]
    tops = [_cell(r.score, r.cumulative) for r in game.rounds] or [""] * n
    rows.append(["", _("Top"), *tops, "", number(game.top_total) if game.rounds else ""])
    red: list[tuple] = []
    for i, line in enumerate(game.players, start=2):
        running, cells = 0, []
        for j, m in enumerate(line.moves):
            if m.kind == "absent":
                cells.append(_("abs."))
                continue
            running += m.score
            cells.append(_cell(m.score, running))
            if m.kind in ("warning", "penalty", "zero"):
                red.append(("TEXTCOLOR", (2 + j, i), (2 + j, i), WARN_COLOUR))
        cells += [""] * (n - len(cells))
        rows.append(
            [
                str(line.player.table),
                para(line.player.name, CELL),
                *cells,
                str(line.solo_bonus) if line.solo_bonus else "",
                number(line.total) if game.rounds else "",
            ]
        )
    name_w, table_w, end_w = 42 * mm, 12 * mm, 12 * mm
    usable = 297 * mm - 2 * 10 * mm - name_w - table_w - 2 * end_w
    col = min(usable / n, 14 * mm)
    extra: list[tuple] = [
        ("FONT", (0, 1), (-1, -1), FONT, 7),
        ("FONT", (0, 1), (-1, 1), FONT_BOLD, 7),
        ("FONT", (-1, 1), (-1, -1), FONT_BOLD, 8),
        ("ALIGN", (2, 0), (-1, -1), "CENTER"),
        ("LEADING", (0, 1), (-1, -1), 8),
        ("BACKGROUND", (0, 1), (-1, 1), colors.HexColor("#F4F4F4")),
        ("LINEAFTER", (1, 0), (1, -1), 1.2, colors.black),
        ("LINEAFTER", (-3, 0), (-3, -1), 1.2, colors.black),
        *red,
    ]
    for k, num in enumerate(numbers):
        if num % 5 == 0:
            extra.append(("LINEAFTER", (2 + k, 0), (2 + k, -1), 1.6, colors.black))
    table = Table(
        rows,
        colWidths=[table_w, name_w, *[col] * n, end_w, end_w],
        repeatRows=2,
        style=table_style(1, extra),
    )
    story = [
        para(title, TITLE),
        para(
            _(
                "Dans chaque case : score du coup, puis total cumulé. En rouge : "
                "avertissement, pénalité ou zéro."
            ),
            SMALL,
        ),  # fmt: skip
        Spacer(1, 2 * mm),
        table,
    ]
    content = build_pdf(story, info=game.tournament, title=title, wide=True, margin=10 * mm)
    return Rendered(f"{slug(game.tournament.slug)}-partie-{game.number}-arbitrage.pdf", PDF,
                    content)  # fmt: skip


def _record_story(game: GameData, line: PlayerGameLine) -> list:
    p = line.player
    heading = _("Feuille de route — partie %(n)s — table %(table)s — %(name)s") % {
        "n": game.number,
        "table": p.table,
        "name": p.name,
    }
    labels = [_("N°"), _("Tirage"), _("Mon mot"), _("Réf."), _("Score"), _("Top"), _("Réf."),
              _("Top pts"), _("Écart"), _("Cumul"), _("Cumul top")]  # fmt: skip
    rows: list[list] = [header_row(labels)]
    mine = 0
    red = []
    for i, (r, m) in enumerate(zip(game.rounds, line.moves, strict=False), start=1):
        mine += m.score
        word = Paragraph(word_markup(m.word), CELL) if m.word else ""
        rows.append(
            [
                str(r.number),
                para(r.rack, CELL),
                word,
                m.reference,
                _("abs.") if m.kind == "absent" else str(m.score),
                Paragraph(word_markup(r.word), CELL),
                r.reference,
                str(r.score),
                negatif(m.score - r.score),
                number(mine),
                number(r.cumulative),
            ]
        )
        if m.kind in ("warning", "penalty", "zero"):
            red.append(("TEXTCOLOR", (2, i), (4, i), WARN_COLOUR))
    extra = [("ALIGN", (3, 0), (-1, -1), "CENTER"), ("ALIGN", (7, 1), (-1, -1), "RIGHT"), *red]
    widths = [8, 24, 28, 11, 12, 28, 11, 14, 13, 15, 18]
    summary = [
        _("Total : %(total)s") % {"total": number(line.total)},
        _("négatif : %(negatif)s") % {"negatif": negatif(line.total - game.top_total)},
        _("solos : %(n)s") % {"n": len(line.solo_rounds)}
        + (f" (+{line.solo_bonus})" if line.solo_bonus else ""),
        _("avertissements : %(n)s") % {"n": line.warnings},
    ]
    if line.warning_penalty:
        summary.append(
            _("pénalité d'avertissements : -%(points)s") % {"points": line.warning_penalty}
        )
    return [
        para(heading, TITLE),
        Table(
            rows, colWidths=[w * mm for w in widths], repeatRows=1, style=table_style(1, extra)
        ),  # fmt: skip
        Spacer(1, 2 * mm),
        para(" · ".join(summary), BODY),
    ]


def player_records_pdf(game: GameData) -> Rendered:
    """One page per player present: their move, score, the top and the gap per round."""
    story: list = []
    for line in game.players:
        if not line.present:
            continue
        if story:
            story.append(PageBreak())
        story += _record_story(game, line)
    if not story:
        story.append(para(_("Aucun joueur dans cette partie."), BODY))
    title = _("Feuilles de route — partie %(n)s") % {"n": game.number}
    content = build_pdf(story, info=game.tournament, title=title)
    return Rendered(f"{slug(game.tournament.slug)}-partie-{game.number}-feuilles-de-route.pdf",
                    PDF, content)  # fmt: skip
