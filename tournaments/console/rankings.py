"""The arbiters' rankings page (issue 16, item 2): a table at a time from the stored
figures (``selectors.RankingReader``), paged, with a table picker and a search, so that a
5,000-player event answers in a few hundred milliseconds; a small event sees every table
at once, as before."""

from __future__ import annotations

from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_GET

from tournaments import selectors, wording
from tournaments.console.common import error_status, role_or_403, tournament_or_404
from tournaments.errors import ServiceError
from tournaments.models.choices import GameState


@login_required
@require_GET
def rankings(request: HttpRequest, slug: str) -> HttpResponse:
    """The rankings, read from the stored figures a table at a time
    (``selectors.RankingReader``): ``?table=`` the tournament's (default), a game's
    (``game-2``) or a série or category group (``series-1``, ``category-Vermeil``),
    ``?q=`` the lines of the players whose name holds it or at that table, ``?page=N``
    lines ``PAGE_LINES × (N − 1) + 1`` onwards. An event of at most ``PAGE_LINES`` players
    asked for nothing sees every table whole on one page, as before."""
    obj = tournament_or_404(slug)
    role = role_or_403(request, obj.pk)
    reader = selectors.RankingReader(obj)
    search = (request.GET.get("q") or "").replace("\x00", "").strip()[:100]  # no NUL in SQL
    try:
        page = selectors.page_of(request.GET.get("page"), field="page", low=1, high=10**6,
                                 default=1)  # fmt: skip
        table = selectors.ranking_table_of(request.GET.get("table"))
        ctx = _rankings_context(reader, table, page, search, whole="table" not in request.GET)
    except ServiceError as error:  # a page, table or game that does not exist: the first
        ctx = _rankings_context(reader, selectors.RankingTable("overall"), 1, "", whole=False)
        ctx.update(error=wording.error_text(error), error_code=error.code)
        return render(request, "console/rankings.html", {"tournament": obj, "role": role, **ctx},
                      status=error_status(error))  # fmt: skip
    return render(request, "console/rankings.html", {"tournament": obj, "role": role, **ctx})


def _rankings_context(
    reader: selectors.RankingReader,
    table: selectors.RankingTable,
    page: int,
    search: str,
    *,
    whole: bool,
) -> dict[str, Any]:
    tables = reader.tables()
    offset = (page - 1) * selectors.PAGE_LINES
    shown = reader.page(table, offset=offset, limit=selectors.PAGE_LINES, search=search)
    whole = whole and not search and shown.count <= selectors.PAGE_LINES
    others = [reader.page(t) for t in tables[1:]] if whole else []
    return {
        "picks": [("", [t for t in tables if t.kind in ("overall", "game")])]
        + [(k, [t for t in tables if t.kind == k]) for k in selectors.SUB_KEYS],
        "table": table,
        "search": search,
        "shown": shown,
        "whole": whole,
        "games": [p.ranking() for p in others if p.table.kind == "game"],
        "series": [p for p in others if p.table.kind == "series"],
        "categories": [p for p in others if p.table.kind == "category"],
        "centres": [p for p in others if p.table.kind == "centre"],
        "playing": any(g.state == GameState.PLAYING for g in reader.games),
        "page": page,
        "pages": max(1, -(-shown.found // selectors.PAGE_LINES)),
        "first_line": offset + 1,
        "players": shown.found,
    }
