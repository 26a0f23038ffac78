"""The catalogue of a tournament's documents and one function that renders any of them.

The console's "Documents" page, its download view, the API's ``documents/{kind}`` endpoint
and the report-building task all go through :func:`render_document`, so they serve the same
bytes as ``manage.py tirage_export`` (same kinds, same renderers; docs/reports.md)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.utils.translation import gettext_lazy as _

from tournaments.errors import ServiceError
from tournaments.language import in_tournament_language
from tournaments.models import Game, Tournament
from tournaments.parsing import MAX_GAME, ascii_int
from tournaments.reports import Rendered, data

#: ``game``: the document is about one game (``game`` required); ``optional``: one game or
#: the whole tournament; ``tournament``: the whole tournament only (``game`` refused);
#: ``any``: the game is ignored.
GAME, OPTIONAL, TOURNAMENT, ANY = "game", "optional", "tournament", "any"


@dataclass(frozen=True, slots=True)
class Document:
    kind: str
    label: str
    scope: str
    #: Long to build: the console builds it with a task (``ReportJob``) and shows progress.
    heavy: bool = False
    #: Heavy only for the whole tournament (no game given).
    heavy_whole: bool = False

    def is_heavy(self, game: Game | None) -> bool:
        return self.heavy or (self.heavy_whole and game is None)


DOCUMENTS: tuple[Document, ...] = (
    Document("game-sheet", _("Feuille de partie (PDF)"), GAME),
    Document("results", _("Classement (PDF)"), OPTIONAL),
    Document("arbiter-sheet", _("Feuille d'arbitrage (PDF)"), GAME),
    Document("player-records", _("Feuilles de route des joueurs (PDF)"), GAME, heavy=True),
    Document("bulletins", _("Bulletins vierges (PDF)"), OPTIONAL),
    Document("corrections", _("Billets de correction (PDF)"), GAME),
    Document("tablet-links", _("Liens des tablettes, QR codes (PDF)"), ANY),
    Document("xlsx", _("Classeur XLSX"), OPTIONAL, heavy_whole=True),
    Document("csv", _("Classement CSV"), OPTIONAL),
    Document("sigles", _("Fichier SIGLES"), TOURNAMENT),
    Document("record", _("Enregistrement de la partie (JSON tirage-game)"), GAME),
)
BY_KIND = {d.kind: d for d in DOCUMENTS}

Progress = Callable[[int], None]


def document(kind: str) -> Document:
    """The catalogue entry, or ``document.unknown`` (a 404)."""
    if kind not in BY_KIND:
        raise ServiceError("document.unknown", f"There is no document '{kind}'.", kind=kind)
    return BY_KIND[kind]


def game_of(tournament: Tournament, number: int | str | None) -> Game | None:
    """The tournament's game ``number`` (None when not given); ``game.unknown`` otherwise."""
    if number in (None, ""):
        return None
    n = ascii_int(number, low=1, high=MAX_GAME)
    if n is None:
        raise ServiceError("game.unknown", f"There is no game '{str(number)[:20]}'.")
    game = Game.objects.filter(tournament=tournament, number=n).first()
    if game is None:
        raise ServiceError("game.unknown", f"The tournament has no game {n}.", number=n)
    return game


def check_scope(doc: Document, game: Game | None) -> None:
    if doc.scope == GAME and game is None:
        raise ServiceError(
            "document.game_required", f"'{doc.kind}' is about one game: give its number."
        )
    if doc.scope == TOURNAMENT and game is not None:
        raise ServiceError(
            "document.whole_tournament", f"'{doc.kind}' is about the whole tournament."
        )


@in_tournament_language  # printed in the tournament's language, whoever asks (issue 15)
def render_document(
    kind: str,
    tournament: Tournament,
    game: Game | None = None,
    *,
    base_url: str = "",
    progress: Progress | None = None,
) -> Rendered:
    """Render document ``kind`` of the tournament (or of its ``game``). ``base_url`` is the
    site's address for the tablet links; ``progress`` is told the percentage done."""
    doc = document(kind)
    check_scope(doc, game)
    step = progress or (lambda _percent: None)
    # Imported here: the renderers pull reportlab and openpyxl, needed only when rendering.
    from tournaments.reports.game_sheet import game_sheet_pdf
    from tournaments.reports.record import record_json
    from tournaments.reports.results import results_pdf
    from tournaments.reports.sheets import arbiter_sheet_pdf, player_records_pdf
    from tournaments.reports.slips import bulletins_pdf, corrections_pdf, tablet_links_pdf
    from tournaments.reports.tables import ranking_csv, sigles_csv, workbook_xlsx

    t, g = tournament, game
    if kind == "game-sheet":
        return game_sheet_pdf(data.game_data(g))
    if kind == "arbiter-sheet":
        return arbiter_sheet_pdf(data.game_data(g))
    if kind == "player-records":
        game_data = data.game_data(g)
        step(50)
        return player_records_pdf(game_data)
    if kind == "corrections":
        return corrections_pdf(data.game_data(g))
    if kind == "record":
        return record_json(data.game_record(g), tournament_slug=t.slug, game_number=g.number)
    if kind == "results":
        return results_pdf(data.results_data(t, g))
    if kind == "xlsx":
        games = [g] if g else list(t.games.order_by("number"))
        results = data.results_data(t, g)
        step(10)
        sheets = []
        for i, x in enumerate(games, start=1):
            sheets.append(data.game_data(x))
            step(10 + 80 * i // max(len(games), 1))
        return workbook_xlsx(results, sheets)
    if kind == "csv":
        return ranking_csv(data.results_data(t, g))
    if kind == "sigles":
        return sigles_csv(t.slug, data.tables_data(t))
    players = list(data.players_of(t).values())
    if kind == "bulletins":
        return bulletins_pdf(data.tournament_info(t), tables=[p.table for p in players],
                             game_number=g.number if g else None)  # fmt: skip
    return tablet_links_pdf(data.tournament_info(t), players, base_url.rstrip("/"))
