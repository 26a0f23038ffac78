"""A player's page in the console (« Modifier » on the players page) and « Créer tous les
liens tablette ».

``/arbitre/inscription/<id>/modifier/`` shows one registration with three forms, each a
POST to the same address with its ``action``: the details and the table (``update``), the
late arrival (``arrive``), the withdrawal (``withdraw``, « Retirer du tournoi ») or its
undoing (``reinstate``, « Réintégrer »). A refusal shows the page again with the
service's sentence and its status, what was typed kept. Who may do what is the services'
business (``services/registrations.py``); the page only hides what the reader may not do.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments import selectors, services
from tournaments.access import require_centre_player
from tournaments.console import views
from tournaments.console.common import error_status, error_text, role_or_403, tournament_or_404
from tournaments.console.player_forms import CentreForm, RegistrationForm, RoundForm, WithdrawForm
from tournaments.errors import ServiceError
from tournaments.models import Registration

TEMPLATE = "console/registration.html"


def _registration(request: HttpRequest, registration_id: int) -> tuple[Registration, str]:
    try:
        reg = selectors.registration_by_id(registration_id)
    except ServiceError as error:
        raise Http404(error_text(error)) from error
    role = role_or_403(request, reg.tournament_id)
    try:  # a centre arbiter opens only their centre's players
        require_centre_player(actor=request.user, tournament_id=reg.tournament_id,
                              player_id=reg.player_id)  # fmt: skip
    except ServiceError as error:
        raise PermissionDenied(error_text(error)) from error
    return reg, role


def _details(reg: Registration) -> dict[str, Any]:
    p = reg.player
    return dict(name=p.name, licence=p.licence, club=p.club, federation=p.federation,
                series=p.series, category=p.category, birth_year=p.birth_year,
                table_number=reg.table_number)  # fmt: skip


def _context(request: HttpRequest, reg: Registration, role: str, **forms_: Any) -> dict[str, Any]:
    game, rnd = selectors.withdrawal_start(reg)
    return {
        "tournament": reg.tournament,
        "role": role,
        "reg": reg,
        "form": forms_.pop("form", None) or RegistrationForm(initial=_details(reg)),
        "arrival_form": forms_.pop("arrival_form", None)
        or RoundForm(initial={"game": reg.arrival_game, "round": reg.arrival_round}),
        "withdraw_form": forms_.pop("withdraw_form", None)
        or WithdrawForm(initial={"game": game, "round": rnd}),
        "centres": selectors.tournament_centres(reg.tournament_id)
        if reg.tournament.simultaneous
        else [],
        **forms_,
    }


def _update(request: HttpRequest, reg: Registration, form: forms.Form) -> str:
    data = dict(form.cleaned_data)
    data["table"] = data.pop("table_number")
    services.registration_update(registration_id=reg.pk, actor=request.user, **data)
    return _("Fiche de %(name)s enregistrée (table %(t)s).") % {
        "name": data["name"].strip(),
        "t": data["table"],
    }


def _arrive(request: HttpRequest, reg: Registration, form: forms.Form) -> str:
    game, rnd = form.cleaned_data["game"], form.cleaned_data["round"]
    services.registration_arrive(registration_id=reg.pk, game_number=game, round_number=rnd,
                                 actor=request.user)  # fmt: skip
    return _("%(name)s joue à partir de la partie %(g)s, coup %(r)s.") % {
        "name": reg.player.name, "g": game, "r": rnd,
    }  # fmt: skip


def _centre(request: HttpRequest, reg: Registration, form: forms.Form) -> str:
    centre = form.cleaned_data["centre"]
    services.registration_centre_set(registration_id=reg.pk, centre_id=centre,
                                     actor=request.user)  # fmt: skip
    return _("Centre de %(name)s enregistré.") % {"name": reg.player.name}


def _withdraw(request: HttpRequest, reg: Registration, form: forms.Form) -> str:
    data = form.cleaned_data
    services.registration_withdraw(
        registration_id=reg.pk, game_number=data["game"], round_number=data["round"],
        reason=data["reason"], actor=request.user,
    )  # fmt: skip
    return _("%(name)s est retiré du tournoi à partir de la partie %(g)s, coup %(r)s.") % {
        "name": reg.player.name, "g": data["game"], "r": data["round"],
    }  # fmt: skip


def _reinstate(request: HttpRequest, reg: Registration, form: forms.Form) -> str:
    services.registration_reinstate(registration_id=reg.pk, actor=request.user)
    return _("%(name)s est réintégré dans le tournoi.") % {"name": reg.player.name}


#: action → (form class and its context name, the step that calls the service).
ACTIONS: dict[str, tuple[type[forms.Form], str, Callable[..., str]]] = {
    "update": (RegistrationForm, "form", _update),
    "arrive": (RoundForm, "arrival_form", _arrive),
    "centre": (CentreForm, "centre_form", _centre),
    "withdraw": (WithdrawForm, "withdraw_form", _withdraw),
    "reinstate": (forms.Form, "reinstate_form", _reinstate),
}


@login_required
def registration_edit(request: HttpRequest, registration_id: int) -> HttpResponse:
    """A player's page: details and table, late arrival, withdrawal (any arbiter sees
    it; moving a table and withdrawing are for the head arbiter)."""
    reg, role = _registration(request, registration_id)
    if request.method == "GET":
        return render(request, TEMPLATE, _context(request, reg, role))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    action = ACTIONS.get(request.POST.get("action", ""))
    if action is None:
        ctx = _context(request, reg, role, error=_("Action inconnue sur cette page."),
                       error_code="form.invalid")  # fmt: skip
        return render(request, TEMPLATE, ctx, status=400)
    form_class, slot, step = action
    form = form_class(request.POST)
    if not form.is_valid():
        ctx = _context(request, reg, role, error=_("Le formulaire contient des erreurs."),
                       error_code="form.invalid", **{slot: form})  # fmt: skip
        return render(request, TEMPLATE, ctx, status=400)
    try:
        done = step(request, reg, form)
    except ServiceError as error:
        ctx = _context(request, reg, role, error=error_text(error), error_code=error.code,
                       **{slot: form})  # fmt: skip
        return render(request, TEMPLATE, ctx, status=error_status(error))
    messages.success(request, done)
    return redirect("console:registration_edit", registration_id=reg.pk)


@login_required
@require_POST
def tokens_issue_all(request: HttpRequest, slug: str) -> HttpResponse:
    """« Créer tous les liens tablette »: a link for every player without one, then the
    players page with the QR sheet offered at the top (``?liens=1``)."""
    obj = tournament_or_404(slug)
    role_or_403(request, obj.pk)
    try:
        count = services.registration_tokens_issue(tournament_id=obj.pk, actor=request.user)
    except ServiceError as error:
        ctx = views._players_context(request, obj, error=error_text(error), error_code=error.code)
        return render(request, "console/players.html", ctx, status=error_status(error))
    if count:
        text = ngettext("%(n)s lien de tablette créé.", "%(n)s liens de tablette créés.", count)
        messages.success(request, text % {"n": count})
    else:
        messages.info(request, _("Chaque joueur a déjà son lien de tablette."))
    return redirect(f"{reverse('console:players', args=[obj.slug])}?liens=1#feuille-qr")
