"""Card tables in the arbiter console (issue 18), under /arbitre/cartes/.

An arbiter of the tournament opens a table (2 to 6 seats, each a player by name or an
engine opponent) and hands out each player's tablet link or QR code; the table's page
follows the game (the shared view, never a hand) and offers the record (JSON, PDF)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services
from tournaments.cards import pages
from tournaments.cards.forms import TableOpenForm, seat_links
from tournaments.console.common import error_status, error_text, role_or_403, tournament_or_404
from tournaments.errors import ServiceError
from tournaments.models import CardTable


@login_required
def tables(request: HttpRequest, slug: str) -> HttpResponse:
    """The tournament's card tables and the form opening a new one."""
    tournament = tournament_or_404(slug)
    role_or_403(request, tournament.pk)
    form = TableOpenForm(request.POST or None)
    error, status = "", 200
    if request.method == "POST":
        if form.is_valid():
            try:
                table = services.card_table_open(
                    tournament_id=tournament.pk,
                    seats=form.seats(),
                    name=form.cleaned_data["name"],
                    actor=request.user,
                )
            except ServiceError as refusal:
                error, status = error_text(refusal), error_status(refusal)
            else:
                return redirect("cards_console:table", table_id=table.pk)
        else:
            status = 400
    context = {
        "tournament": tournament,
        "tables": selectors.card_tables_of(tournament.pk),
        "players_may_open": selectors.card_players_may_open(tournament.pk),
        "form": form,
        "error": error,
    }
    return render(request, "cards/console_tables.html", context, status=status)


def _table_or_404(request: HttpRequest, table_id: int) -> CardTable:
    table = selectors.card_table_by_id(table_id)
    if table is None:
        raise Http404(error_text(ServiceError("card_table.unknown", "")))
    role_or_403(request, table.tournament_id)
    return table


@login_required
@require_GET
def table(request: HttpRequest, table_id: int) -> HttpResponse:
    table = _table_or_404(request, table_id)
    seats = seat_links(request, table)
    view = pages.described(selectors.card_public_view(table))
    names = {s["number"]: s["name"] for s in view["seats"]}
    pending = view["pending"]
    waiting = [names[n] for n in pending["waiting_for"]] if pending else []
    context = {
        "waiting": waiting,
        "tournament": table.tournament,
        "table": table,
        "seats": seats,
        "view": view,
        "screen": reverse("cards:screen", args=[table.pk]),
    }
    return render(request, "cards/console_table.html", context)


def _table_action(request: HttpRequest, table_id: int, service: Callable[..., Any]) -> HttpResponse:
    """One of the table's buttons: the service as the arbiter, then back to the table (a
    refusal: its sentence and status)."""
    table = _table_or_404(request, table_id)
    try:
        service(table_id=table.pk, actor=request.user)
    except ServiceError as refusal:
        return HttpResponse(error_text(refusal), status=error_status(refusal),
                            content_type="text/plain; charset=utf-8")  # fmt: skip
    return redirect("cards_console:table", table_id=table.pk)


@login_required
@require_POST
def settle(request: HttpRequest, table_id: int) -> HttpResponse:
    """The waiting move stands for the players who have not answered (``card_table_settle``)."""
    return _table_action(request, table_id, services.card_table_settle)


@login_required
@require_POST
def players_setting(request: HttpRequest, slug: str) -> HttpResponse:
    """Allow or forbid the players to open tables from their tablet link."""
    tournament = tournament_or_404(slug)
    role_or_403(request, tournament.pk)
    allowed = request.POST.get("players_may_open") == "1"
    services.card_settings_set(
        tournament_id=tournament.pk, actor=request.user, players_may_open=allowed
    )
    return redirect("cards_console:tables", slug=tournament.slug)


@login_required
@require_POST
def close(request: HttpRequest, table_id: int) -> HttpResponse:
    """Close a table in play (``card_table_close``): nothing more is played on it."""
    return _table_action(request, table_id, services.card_table_close)


@login_required
@require_GET
def record_json(request: HttpRequest, table_id: int) -> HttpResponse:
    return pages.record_response(_table_or_404(request, table_id))


@login_required
@require_GET
def record_pdf(request: HttpRequest, table_id: int) -> HttpResponse:
    return pages.pdf_response(_table_or_404(request, table_id))
