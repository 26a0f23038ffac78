"""Console pages of the classic score sheets (docs/classic.md, "The score sheet"), under
/arbitre/classique/<slug>/feuilles/:

- the list of the tournament's sheets, with « Nouvelle feuille » (a stand-alone sheet for
  a friendly game: the players' names in playing order, the tie setting) and the opening of
  a classic table's sheet (the round page's « Feuille » button posts here);
- a sheet: its lines and totals, typed one turn at a time (« H8 CHAT », « 23 »,
  « passe », « échange »), corrections with their reason, the end lines, the tie
  setting, the unseen letters for a rack, and its PDF.

Any arbiter of the tournament opens and fills sheets; what the forms do is
``tournaments.sheet_pages``, shared with the players' tablets."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_GET

from tournaments import selectors, wording
from tournaments.console.common import _or_404, error_status, role_or_403, tournament_or_404
from tournaments.console.exports import attachment
from tournaments.errors import ServiceError
from tournaments.models import SheetTieBreak, Tournament
from tournaments.parsing import ascii_int, no_nul
from tournaments.reports.score_sheets import score_sheets_pdf
from tournaments.services import score_sheets as service
from tournaments.sheet_pages import sheet_context, sheet_post


def _list_context(request: HttpRequest, tournament: Tournament, **extra: Any) -> dict[str, Any]:
    role = role_or_403(request, tournament.pk)
    sheets = [selectors.score_sheet_view(s) for s in selectors.score_sheets(tournament)]
    return {
        "tournament": tournament,
        "role": role,
        "sheets": sheets,
        "tie_choices": SheetTieBreak.choices,
        "names": "",
        "tie_break": SheetTieBreak.EX_AEQUO,
        **extra,
    }


@login_required
def sheets(request: HttpRequest, slug: str) -> HttpResponse:
    """The sheets (GET); a new stand-alone sheet, or a table's sheet opened (POST)."""
    tournament = tournament_or_404(slug)
    if request.method == "GET":
        return render(request, "console/score_sheets.html", _list_context(request, tournament))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    role_or_403(request, tournament.pk)
    names = request.POST.get("names", "")
    tie_break = request.POST.get("tie_break", SheetTieBreak.EX_AEQUO)
    try:
        no_nul(names)
        if request.POST.get("action") == "table":
            table = selectors.classic_table_by_id(_table_id(request.POST.get("table", "")))
            if table.round.division.tournament_id != tournament.pk:
                raise ServiceError("classic_table.unknown", "No such table here.")
            sheet = service.score_sheet_open_for_table(table_id=table.pk, actor=request.user)
        else:
            sheet = service.score_sheet_create(
                tournament_id=tournament.pk,
                names=names.splitlines(),
                tie_break=tie_break,
                actor=request.user,
            )
    except ServiceError as error:
        ctx = _list_context(
            request, tournament, names=names, tie_break=tie_break, error=wording.error_text(error)
        )
        return render(request, "console/score_sheets.html", ctx, status=error_status(error))
    return redirect("classic:sheet", slug=tournament.slug, number=sheet.number)


def _table_id(text: str) -> int:
    table_id = ascii_int(text, low=1)  # "²" or 20 digits: no such table
    if table_id is None:
        raise ServiceError("classic_table.unknown", "No such table.")
    return table_id


@login_required
def sheet(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """A sheet (GET), or one of its forms posted (``tournaments.sheet_pages``)."""
    tournament = tournament_or_404(slug)
    role = role_or_403(request, tournament.pk)
    row = _or_404(selectors.score_sheet, tournament, number)
    base = {"tournament": tournament, "role": role, "arbiter": True}
    if request.method == "GET":
        return render(request, "console/score_sheet.html", sheet_context(request, row, **base))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    done, kept, status = sheet_post(request, row, request.user)
    if not done:
        ctx = sheet_context(request, row, **base, **kept)
        return render(request, "console/score_sheet.html", ctx, status=status)
    messages.success(request, done)
    return redirect("classic:sheet", slug=tournament.slug, number=number)


@login_required
@require_GET
def sheet_pdf(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """The printable sheet (the documents catalogue prints every sheet at once)."""
    tournament = tournament_or_404(slug)
    role_or_403(request, tournament.pk)
    row = _or_404(selectors.score_sheet, tournament, number)
    info = selectors.tournament_info(tournament)
    return attachment(score_sheets_pdf(info, [selectors.score_sheet_view(row)]))
