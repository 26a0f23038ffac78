"""The printed sheet of a card table (issue 18): the players, every turn told in a sentence
with the running scores, the end and the final adjustments.

It is built from the ``tirage-cards`` record the table keeps; every text that comes from
people (names, the table's name) goes through the escaped paragraphs of ``reports.pdf``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.translation import gettext as _
from reportlab.lib.units import mm
from reportlab.platypus import Table

from tournaments.models import CardSeatKind
from tournaments.reports.base import PDF, Rendered, number, slug
from tournaments.reports.data import TournamentInfo
from tournaments.reports.pdf import (
    CELL,
    CELL_C,
    SUBTITLE,
    TITLE,
    build_pdf,
    header_row,
    para,
    table_style,
)


def card_sheet_pdf(
    info: TournamentInfo,
    name: str,
    seats: Sequence[dict[str, Any]],
    record: dict[str, Any],
    turns: Sequence[dict[str, Any]],
) -> Rendered:
    """``turns``: the record's turns, each with its ``text`` (``cards.pages.turn_text``)."""
    title = _("Feuille de partie de cartes")
    story: list = [para(f"{title} — {name}", TITLE)]
    who = [
        [
            para(str(s["number"] + 1), CELL_C),
            para(s["name"], CELL),
            para(str(CardSeatKind(s["kind"]).label), CELL),
        ]  # fmt: skip
        for s in seats
    ]
    story.append(para(_("Joueurs"), SUBTITLE))
    story.append(
        Table(
            [header_row([_("Place"), _("Nom"), _("Joueur")]), *who],
            colWidths=[14 * mm, 70 * mm, 60 * mm],
            style=table_style(),
        )
    )
    story.append(para(_("Graine : %(seed)s") % {"seed": record["seed"]}, CELL))
    story.append(para(_("Coups"), SUBTITLE))
    rows = [header_row([_("N°"), _("Coup"), *[s["name"] for s in seats]])]
    for turn in turns:
        rows.append(
            [para(str(turn["number"]), CELL_C), para(turn["text"], CELL)]
            + [para(number(score), CELL_C) for score in turn["scores"]]
        )
    width = max(18 * mm, (100 * mm) / max(1, len(seats)))
    story.append(
        Table(
            rows,
            colWidths=[10 * mm, 172 * mm - width * len(seats), *[width] * len(seats)],
            style=table_style(),
            repeatRows=1,
        )
    )
    end = record.get("end")
    if end:
        story.append(para(_("Fin de partie"), SUBTITLE))
        lines = [header_row([_("Nom"), _("Ajustement"), _("Score final")])]
        for seat in seats:
            n = seat["number"]
            lines.append(
                [
                    para(seat["name"], CELL),
                    para(number(end["adjustments"][n]), CELL_C),
                    para(number(end["scores"][n]), CELL_C),
                ]  # fmt: skip
            )
        story.append(Table(lines, colWidths=[70 * mm, 35 * mm, 35 * mm], style=table_style()))
    content = build_pdf(story, info=info, title=title)
    return Rendered(f"{slug(info.slug)}-cartes-{slug(name)}.pdf", PDF, content)
