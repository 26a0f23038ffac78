"""Console actions on the players page: tablet tokens (issue a new link, revoke it) and late
arrivals. Any arbiter of the tournament may do them (the services check it); each redirects
back to the players page with a message, or shows the refusal there."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.console import views
from tournaments.console.common import (
    error_status,
    error_text,
    role_or_403,
    tournament_or_404,
)
from tournaments.errors import ServiceError
from tournaments.models import Registration
from tournaments.parsing import MAX_GAME, MAX_ROUND, MAX_TABLE, ascii_int


def _registration(registration_id: int, request: HttpRequest) -> Registration:
    try:
        reg = selectors.registration_by_id(registration_id)
    except ServiceError as error:
        raise Http404(error_text(error)) from error
    role_or_403(request, reg.tournament_id)
    return reg


def _refused(request: HttpRequest, reg: Registration, error: ServiceError) -> HttpResponse:
    """The players page again with the refusal's sentence and a 4xx status."""
    ctx = views._players_context(
        request, reg.tournament, error=error_text(error), error_code=error.code
    )
    return render(request, "console/players.html", ctx, status=error_status(error))


def _back(reg: Registration) -> HttpResponse:
    return redirect(f"{reverse('console:players', args=[reg.tournament.slug])}#t{reg.table_number}")


@login_required
@require_POST
def token_issue(request: HttpRequest, registration_id: int) -> HttpResponse:
    """A new tablet link for the player; the previous one stops working at once."""
    reg = _registration(registration_id, request)
    try:
        token = services.registration_token_issue(registration_id=reg.pk, actor=request.user)
    except ServiceError as error:
        return _refused(request, reg, error)
    link = request.build_absolute_uri(reverse("tablet:page", args=[token]))
    messages.success(
        request,
        _("Nouveau lien de tablette pour %(name)s (table %(t)s) : %(link)s")
        % {"name": reg.player.name, "t": reg.table_number, "link": link},
    )
    return _back(reg)


@login_required
@require_POST
def token_revoke(request: HttpRequest, registration_id: int) -> HttpResponse:
    """The player's tablet link stops working."""
    reg = _registration(registration_id, request)
    try:
        services.registration_token_revoke(registration_id=reg.pk, actor=request.user)
    except ServiceError as error:
        return _refused(request, reg, error)
    messages.success(
        request,
        _("Le lien de tablette de %(name)s est révoqué.") % {"name": reg.player.name},
    )
    return _back(reg)


@login_required
@require_POST
def arrive(request: HttpRequest, slug: str) -> HttpResponse:
    """A late arrival: the player at ``table`` plays from round ``round`` of game ``game``."""
    obj = tournament_or_404(slug)
    role_or_403(request, obj.pk)
    table = request.POST.get("table", "")
    try:
        reg = selectors.registration_at_table(obj.pk, ascii_int(table, high=MAX_TABLE))
    except ServiceError as error:
        ctx = views._players_context(request, obj, error=error_text(error), error_code=error.code)
        return render(request, "console/players.html", ctx, status=error_status(error))
    game, rnd = request.POST.get("game", ""), request.POST.get("round", "")
    try:
        game_number = ascii_int(game, low=1, high=MAX_GAME)
        round_number = ascii_int(rnd, low=1, high=MAX_ROUND)
        if game_number is None or round_number is None:
            raise ServiceError(
                "registration.arrival", _("Indiquez la partie et le coup d'arrivée (nombres).")
            )
        services.registration_arrive(
            registration_id=reg.pk, game_number=game_number, round_number=round_number,
            actor=request.user,
        )  # fmt: skip
    except ServiceError as error:
        return _refused(request, reg, error)
    messages.success(
        request,
        _("%(name)s joue à partir de la partie %(g)s, coup %(r)s.")
        % {"name": reg.player.name, "g": game, "r": rnd},
    )
    return _back(reg)
