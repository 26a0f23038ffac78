"""The results sheet (classement, rules §7 P6 and §5): per game and cumulative rankings,
then per-series and per-category sub-rankings."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import KeepTogether, Paragraph, Spacer, Table

from tournaments.reports.base import PDF, Rendered, negatif, number, percent, slug
from tournaments.reports.data import Ranking, RankingLine, ResultsData, SubRanking
from tournaments.reports.groups import SUPER_SERIES
from tournaments.reports.pdf import (
    BODY,
    CELL,
    FONT,
    FONT_BOLD,
    H3,
    SUBTITLE,
    TITLE,
    build_pdf,
    header_row,
    para,
    table_style,
    text,
)
from tournaments.selectors.rankings import sub_rankings

HEADER = [
    gettext_lazy("Rang"),
    gettext_lazy("Nom"),
    gettext_lazy("Club"),
    gettext_lazy("Série"),
    gettext_lazy("Cat."),
    gettext_lazy("Score"),
    gettext_lazy("Négatif"),
    gettext_lazy("% top"),
    gettext_lazy("Sol."),
    gettext_lazy("Av."),
]
#: Column widths in mm, the same in every table of the sheet (the sub-rankings share the
#: first eight and put the overall rank in the width of the last two).
WIDTHS = [13, 40, 34, 11, 18, 15, 15, 16, 10, 10]
SUB_HEADER = [*HEADER[:8], gettext_lazy("Général")]
#: The two kinds of sub-rankings: the group's title and the heading of the list.
GROUP_TITLES = {
    "series": (gettext_lazy("Série %(label)s"), gettext_lazy("Classements par série — %(title)s")),
    "category": (
        gettext_lazy("Catégorie %(label)s"),
        gettext_lazy("Classements par catégorie — %(title)s"),
    ),
    "centre": (
        gettext_lazy("Centre %(label)s"),
        gettext_lazy("Classements par centre — %(title)s"),
    ),
}
SUB_WIDTHS = [*WIDTHS[:8], WIDTHS[8] + WIDTHS[9]]


def rank_text(line: RankingLine) -> str:
    """``3`` or ``3 ex`` when the rank is shared (ex aequo, K2)."""
    return f"{line.rank} ex" if line.ex_aequo else str(line.rank)


#: The width a name or club may take on one line of its column (the cell's padding off).
_NAME_ROOM, _CLUB_ROOM = (WIDTHS[1] * mm - 6, WIDTHS[2] * mm - 6)


def _cell(value: str, room: float) -> str | Paragraph:
    """A name or club: plain text when it is one line that fits its column (a paragraph
    per cell cost most of a 5,000-player sheet: parsed, wrapped, drawn word by word);
    otherwise a paragraph, which wraps. The same text either way: a paragraph prints
    its words separated by one space, so only text already so written goes plain."""
    plain = text(value)
    if plain == " ".join(plain.split()) and stringWidth(plain, FONT, CELL.fontSize) <= room:
        return plain
    return para(value, CELL)


def _row(line: RankingLine) -> list:
    p = line.player
    name = _("%(name)s (abandon)") % {"name": p.name} if p.withdrawn else p.name
    return [
        rank_text(line),
        _cell(name, _NAME_ROOM),
        _cell(p.club, _CLUB_ROOM),
        p.series,
        p.category,
        number(line.total),
        negatif(line.negatif),
        percent(line.percent),
        str(line.solos),
        str(line.warnings),
    ]


def _numbers_style() -> list[tuple]:
    return [
        ("ALIGN", (0, 0), (0, -1), "RIGHT"),
        ("ALIGN", (3, 0), (4, -1), "CENTER"),
        ("ALIGN", (5, 0), (-1, -1), "RIGHT"),
        ("FONT", (5, 1), (5, -1), FONT_BOLD, 8.5),
    ]


def ranking_table(ranking: Ranking) -> list:
    """A heading and the ranking table of one ranking."""
    rows = [header_row(HEADER)] + [_row(line) for line in ranking.lines]
    table = Table(
        rows,
        colWidths=[w * mm for w in WIDTHS],
        repeatRows=1,
        style=table_style(1, _numbers_style()),
    )
    heading = _("%(title)s — total des tops : %(total)s") % {
        "title": ranking.title,
        "total": number(ranking.top_total),
    }
    return [para(heading, SUBTITLE), table]


def sub_ranking_table(group: SubRanking, kind: str) -> KeepTogether:
    """One série or category (``kind``: ``series`` or ``category``, ``GROUP_TITLES``): the
    rank inside the group, the player's line (sub-series and category as details), the
    overall rank; the same columns as the main ranking."""
    rows: list[list] = [header_row(SUB_HEADER)]
    for rank, tied, line in group.lines:
        in_group = f"{rank} ex" if tied else str(rank)
        rows.append([in_group, *_row(line)[1:8], rank_text(line)])
    extra = [*_numbers_style(), ("ALIGN", (8, 0), (8, -1), "RIGHT")]
    table = Table(
        rows,
        colWidths=[w * mm for w in SUB_WIDTHS],
        repeatRows=1,
        style=table_style(1, extra),
    )
    plain = group.unclassed or group.label == SUPER_SERIES
    title = (
        _(group.label) if group.unclassed else group.label if plain else str(GROUP_TITLES[kind][0])
    )
    title = title % {"label": group.label} if "%(label)s" in title else title
    return KeepTogether([para(title, H3), table, Spacer(1, 2 * mm)])


def results_pdf(results: ResultsData) -> Rendered:
    """Render the results: each game's ranking, the cumulative one, then sub-rankings."""
    single = results.overall is None
    title = (
        _("Classement — %(what)s") % {"what": results.games[0].title.lower()}
        if single
        else _("Classement")
    )
    story: list = [para(title, TITLE)]
    story.append(
        para(
            _(
                "Négatif : score moins total des tops. % top : score / total des tops × 100. "
                "« ex » : rang partagé (ex aequo)."
            ),
            BODY,
        )
    )
    if results.overall is not None:
        story += ranking_table(results.overall)
        if len(results.games) > 1:
            for ranking in results.games:
                story += ranking_table(ranking)
    else:
        story += ranking_table(results.games[0])
    main = results.main
    for kind in ("series", "category", "centre"):
        groups = sub_rankings(main, kind)
        if groups:
            heading = str(GROUP_TITLES[kind][1]) % {"title": main.title}
            story.append(para(heading, SUBTITLE))
            story += [sub_ranking_table(g, kind) for g in groups]
    content = build_pdf(story, info=results.tournament, title=title)
    what = results.games[0].title if single else "general"
    return Rendered(f"{slug(results.tournament.slug)}-classement-{slug(what)}.pdf", PDF, content)
