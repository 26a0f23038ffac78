"""The duplicate family: every player plays the same rack, scored against the top.

Registers its documents (the printed sheets, exports and the game record, with how each
is built), the labels of its formulas (``engine.duplicate.variants``) and the routes of the
audiences only duplicate has today: the players' tablets and the room's projector."""

from __future__ import annotations

from typing import TYPE_CHECKING

from django.utils.translation import gettext_lazy as _

from tournaments.families import (
    ANY,
    GAME,
    OPTIONAL,
    TOURNAMENT,
    Document,
    Family,
    Progress,
    register,
)

if TYPE_CHECKING:
    from tournaments.models import Game, Tournament
    from tournaments.reports.base import Rendered

# The renderers import reportlab and openpyxl, needed only when a document is built: each
# function below imports its own.


def _one(game: Game | None) -> Game:
    if game is None:  # check_scope refuses a game document without its game first
        raise RuntimeError("a game document rendered without its game")
    return game


def game_sheet(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.game_sheet import game_sheet_pdf

    return game_sheet_pdf(data.game_data(_one(g)))


def arbiter_sheet(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.sheets import arbiter_sheet_pdf

    return arbiter_sheet_pdf(data.game_data(_one(g)))


def player_records(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.sheets import player_records_pdf

    game_data = data.game_data(_one(g))
    step(50)
    return player_records_pdf(game_data)


def corrections(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.slips import corrections_pdf

    return corrections_pdf(data.game_data(_one(g)))


def record(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.record import record_json

    game = _one(g)
    return record_json(data.game_record(game), tournament_slug=t.slug, game_number=game.number)


def eliot(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from engine.errors import EngineError
    from tournaments import selectors as data
    from tournaments.errors import ServiceError
    from tournaments.reports.eliot import eliot_xml

    game = _one(g)
    try:
        return eliot_xml(data.game_record(game), tournament_slug=t.slug, game_number=game.number)
    except EngineError as error:  # a cancelled round, a formula Eliot does not have
        raise ServiceError.from_engine(error) from error


def results(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.results import results_pdf

    return results_pdf(data.results_data(t, g))


def workbook(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.tables import workbook_xlsx

    games = [g] if g else list(t.games.order_by("number"))
    ranking = data.results_data(t, g)
    step(10)
    sheets = []
    for i, x in enumerate(games, start=1):
        sheets.append(data.game_data(x))
        step(10 + 80 * i // max(len(games), 1))
    return workbook_xlsx(ranking, sheets)


def ranking_csv(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.tables import ranking_csv

    return ranking_csv(data.results_data(t, g))


def sigles(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.tables import sigles_csv

    return sigles_csv(t.slug, data.tables_data(t))


def bulletins(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.slips import bulletins_pdf

    tables = [p.table for p in data.players_of(t).values()]
    return bulletins_pdf(data.tournament_info(t), tables=tables,
                         game_number=g.number if g else None)  # fmt: skip


def tablet_links(t: Tournament, g: Game | None, *, base_url: str, step: Progress) -> Rendered:
    from tournaments import selectors as data
    from tournaments.reports.slips import tablet_links_pdf

    players = list(data.players_of(t).values())
    return tablet_links_pdf(data.tournament_info(t), players, base_url.rstrip("/"))


DUPLICATE = register(
    Family(
        code="duplicate",
        label=_("Duplicate"),
        documents=(
            Document("game-sheet", _("Feuille de partie (PDF)"), GAME, game_sheet),
            Document("results", _("Classement (PDF)"), OPTIONAL, results, sized=True),
            Document(
                "arbiter-sheet", _("Feuille d'arbitrage (PDF)"), GAME, arbiter_sheet, sized=True
            ),
            Document(
                "player-records",
                _("Feuilles de route des joueurs (PDF)"),
                GAME,
                player_records,
                heavy=True,
                sized=True,
            ),  # fmt: skip
            Document("bulletins", _("Bulletins vierges (PDF)"), OPTIONAL, bulletins),
            Document("corrections", _("Billets de correction (PDF)"), GAME, corrections),
            Document(
                "tablet-links",
                _("Liens des tablettes, QR codes (PDF)"),
                ANY,
                tablet_links,
                sized=True,
                per_player=True,
            ),  # fmt: skip
            Document(
                "xlsx", _("Classeur XLSX"), OPTIONAL, workbook, heavy_whole=True, sized=True
            ),  # fmt: skip
            Document("csv", _("Classement CSV"), OPTIONAL, ranking_csv),
            Document("sigles", _("Fichier SIGLES"), TOURNAMENT, sigles),
            Document("record", _("Enregistrement de la partie (JSON tirage-game)"), GAME, record),
            Document("eliot", _("Partie Eliot (XML)"), GAME, eliot),
        ),
        # The codes of engine.duplicate.variants.VARIANTS (a test checks both agree).
        formulas={
            "standard": _("Partie normale"),
            "joker": _("Partie joker"),
            "7sur8": _("7 sur 8"),
            "7et8": _("7 et 8"),
            "789": _("7, 8 et 9"),
            "semi-rapid": _("Semi-rapide"),
            "blitz": _("Blitz"),
        },
        routes=(
            ("tablette/", "tournaments.tablet.urls"),
            ("projecteur/", "tournaments.projector.urls"),
        ),
    )
)
