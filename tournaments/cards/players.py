"""A player opens a card table from their tablet link (issue 18), under
``/cartes/joueur/<registration token>/``.

The registration's token is the key, as on the duplicate tablet (no account): the page
lists the tables this player opened, with each seat's tablet link and QR code to hand
round the table, a button to close one, and the form opening a new one (seat 1 is the
player; the other seats are named players or engine opponents). The bounds (the arbiters'
setting, tables in play, tables an hour) are the service's
(``services.card_tables.opener_checked``); a refusal is shown on the page with its status.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST

from tournaments import selectors, services, wording
from tournaments.access import PlayerActor
from tournaments.cards.forms import TableOpenForm, seat_links
from tournaments.errors import ServiceError, http_status
from tournaments.language import speaking
from tournaments.models import Registration
from tournaments.tablet.views import rate_limited


def registration_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Resolve the tablet token to its registration (404 otherwise), in the tournament's
    language."""

    @wraps(view)
    def resolved(request: HttpRequest, token: str, **kwargs: Any) -> HttpResponse:
        registration = selectors.registration_by_token(token)
        code = registration.tournament.language if registration is not None else None
        with speaking(code, request):
            if registration is None:
                sentence = _(
                    "Ce lien de tablette n'est pas valable. Demandez le lien ou le QR code de "
                    "votre tablette à l'arbitre."
                )
                context = {"sentence": sentence}
                return render(request, "tablet/unknown.html", context, status=404)
            return view(request, registration, **kwargs)

    return resolved


def _page(
    request: HttpRequest,
    registration: Registration,
    form: TableOpenForm,
    *,
    error: str = "",
    status: int = 200,
) -> HttpResponse:
    tables = [
        {"table": table, "seats": seat_links(request, table) if table.in_play else []}
        for table in selectors.card_tables_opened_by(registration.pk)
    ]
    context = {
        "registration": registration,
        "tournament": registration.tournament,
        "token": registration.access_token,
        "allowed": selectors.card_players_may_open(registration.tournament_id),
        "tables": tables,
        "form": form,
        "error": error,
    }
    return render(request, "cards/player_tables.html", context, status=status)


@require_http_methods(["GET", "POST"])
@never_cache
@rate_limited
@registration_view
def tables(request: HttpRequest, registration: Registration) -> HttpResponse:
    """The player's tables and the form opening one (POST: open, then back here)."""
    name = registration.player.name
    form = TableOpenForm(request.POST or None, first=name)
    if request.method != "POST":
        return _page(request, registration, form)
    if not form.is_valid():
        return _page(request, registration, form, status=400)
    try:
        services.card_table_open(
            tournament_id=registration.tournament_id,
            seats=form.seats(),
            name=form.cleaned_data["name"],
            actor=PlayerActor.of(registration),
        )
    except ServiceError as refusal:
        error = wording.error_text(refusal)
        return _page(request, registration, form, error=error, status=http_status(refusal.code))
    return redirect("cards:player_tables", token=registration.access_token)


@require_POST
@rate_limited
@registration_view
def close(request: HttpRequest, registration: Registration, table_id: int) -> HttpResponse:
    """Close a table this player opened (``card_table_close`` checks who opened it)."""
    try:
        services.card_table_close(table_id=table_id, actor=PlayerActor.of(registration))
    except ServiceError as refusal:
        error = wording.error_text(refusal)
        form = TableOpenForm(first=registration.player.name)
        return _page(request, registration, form, error=error, status=http_status(refusal.code))
    return redirect("cards:player_tables", token=registration.access_token)
