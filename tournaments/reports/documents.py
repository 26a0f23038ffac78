"""The catalogue of a tournament's documents and one function that renders any of them.

Each game family registers its documents and how each is built (``tournaments.families``);
this module reads that registry and checks a request's scope before building.

The console's "Documents" page, its download view, the API's ``documents/{kind}`` endpoint
and the report-building task all go through :func:`render_document`, so they serve the same
bytes as ``manage.py tirage_export`` (same kinds, same renderers; docs/reports.md)."""

from __future__ import annotations

from django.conf import settings
from django.urls import reverse

from tournaments import families, selectors
from tournaments.errors import ServiceError
from tournaments.families import ANY, GAME, OPTIONAL, TOURNAMENT, Document, Progress
from tournaments.language import in_tournament_language
from tournaments.models import Game, Tournament
from tournaments.parsing import MAX_GAME, ascii_int
from tournaments.reports import Rendered

__all__ = ["ANY", "BY_KIND", "DOCUMENTS", "GAME", "OPTIONAL", "TOURNAMENT", "Document",
           "Progress", "by_worker", "check_direct", "check_scope", "direct_cells", "document",
           "game_of", "render_document"]  # fmt: skip

#: Every family's documents (``tournaments.families``), in the order the pages list them.
DOCUMENTS: tuple[Document, ...] = families.documents()
BY_KIND = {d.kind: d for d in DOCUMENTS}


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
    return selectors.game_by_number(tournament, n)


def check_scope(doc: Document, game: Game | None) -> None:
    if doc.scope == GAME and game is None:
        raise ServiceError(
            "document.game_required", f"'{doc.kind}' is about one game: give its number."
        )
    if doc.scope == TOURNAMENT and game is not None:
        raise ServiceError(
            "document.whole_tournament", f"'{doc.kind}' is about the whole tournament."
        )


def direct_cells() -> int:
    """``DIRECT_CELLS``: the most players × games a ``sized`` document is built for during
    a request (``TIRAGE_DOCUMENT_DIRECT_CELLS``, 2,000 by default)."""
    return int(getattr(settings, "TIRAGE_DOCUMENT_DIRECT_CELLS", 2000))


def by_worker(doc: Document, cells: int) -> bool:
    """Whether document ``doc`` of ``cells`` players × games is built by the worker only:
    a 5,000 × 4 results PDF or workbook passed gunicorn's 30 s during a request."""
    return doc.sized and cells > direct_cells()


def check_direct(doc: Document, tournament: Tournament, game: Game | None) -> None:
    """``document.by_worker`` (a 409) when ``doc`` is too big to build during a request;
    the sentence names the console's documents page, where « Préparer » queues it."""
    if not doc.sized:
        return
    cells = selectors.document_cells(tournament, game, per_player=doc.per_player)
    if by_worker(doc, cells):
        size = {"players": cells} if doc.per_player else {"cells": cells}
        raise ServiceError(
            "document.by_worker",
            f"'{doc.kind}' covers {cells} {'players' if doc.per_player else 'players x games'}"
            f" (more than {direct_cells()}): prepare it on the console's documents page.",
            kind=doc.kind, **size, limit=direct_cells(),
            page=reverse("console:documents", args=[tournament.slug]),
        )  # fmt: skip


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
    return doc.render(tournament, game, base_url=base_url, step=progress or (lambda _p: None))
