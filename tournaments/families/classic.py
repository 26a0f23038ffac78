"""The classic family (formule classique): 2 to 4 players take turns on one board; its
tournaments pair players table by table, round after round (engine/classic/, docs/classic.md).

A tournament is classic when it has a ``ClassicEvent`` (``services.classic``); its
divisions, rounds, tables and results are ``tournaments/models/classic.py``. The family
registers its documents (pairings, scorecards, standings and the games' score sheets as
PDF, the standings as XLSX),
the console's classic pages (under /arbitre/classique/), the players' result page on their
tablet link (/tablette/<token>/classique/) and the projector's classic view
(/projecteur/<slug>/classique/). It stores no formula code in ``Tournament.variant_code``,
which stays the duplicate variant's (``classic`` is an old name of the standard duplicate
game, still read in old records)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from tournaments.families import TOURNAMENT, Document, Family, Progress, register

if TYPE_CHECKING:
    from tournaments.models import Game, Tournament
    from tournaments.reports.base import Rendered


def pairings(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.classic import pairings_pdf

    return pairings_pdf(data.tournament_info(t), data.classic_report(t))


def scorecards(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.classic import scorecards_pdf

    return scorecards_pdf(data.tournament_info(t), data.classic_report(t))


def standings(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.classic import standings_pdf

    return standings_pdf(data.tournament_info(t), data.classic_report(t))


def standings_xlsx(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.classic import standings_xlsx as render

    return render(data.tournament_info(t), data.classic_report(t))


def score_sheets(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.score_sheets import score_sheets_pdf

    views = [data.score_sheet_view(s) for s in data.score_sheets(t)]
    return score_sheets_pdf(data.tournament_info(t), views)


CLASSIC = register(
    Family(
        code="classic",
        label=_("Formule classique"),
        # Each grows with the players (their tables, rounds and lines): above DIRECT_CELLS
        # players the worker builds it (``reports.documents.check_direct``).
        documents=tuple(
            Document(kind, label, TOURNAMENT, render, sized=True, per_player=True)
            for kind, label, render in (
                ("classic-pairings", _("Classique : appariements (PDF)"), pairings),
                ("classic-scorecards", _("Classique : feuilles de score (PDF)"), scorecards),
                ("classic-standings", _("Classique : classement (PDF)"), standings),
                (
                    "classic-score-sheets",
                    _("Classique : feuilles de score des parties (PDF)"),
                    score_sheets,
                ),
                ("classic-xlsx", _("Classique : classement (XLSX)"), standings_xlsx),
            )
        ),  # fmt: skip
        routes=(
            ("arbitre/classique/", "tournaments.console.classic_urls"),
            ("tablette/", "tournaments.tablet.classic_urls"),
            ("projecteur/", "tournaments.projector.classic_urls"),
        ),
    )
)
