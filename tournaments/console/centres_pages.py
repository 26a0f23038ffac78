"""A simultaneous event's pages in the console (issue 16): the centres (the organiser,
i.e. the head arbiter, adds and edits them), an arbiter's centre chosen on the arbiters
page, and a centre's close of a round from the game screen.

Every change goes through a service (``centre_create``, ``centre_update``,
``centre_delete``, ``arbiter_centre_set``, ``centre_close``) that checks the rights again;
a refusal is shown with its sentence and status, as on the settings and arbiters pages. A
centre's documents are served here too (``reports.centre_documents``)."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors, services
from tournaments.access import centre_scope
from tournaments.console.common import (
    _or_404,
    error_status,
    error_text,
    role_or_403,
    round_or_404,
    tournament_or_404,
)
from tournaments.console.exports import attachment, refused_document
from tournaments.console.settings_forms import ArbiterChoiceForm, CentreForm
from tournaments.console.settings_pages import ARBITERS_PAGE, arbiters_context, head_change
from tournaments.errors import ServiceError
from tournaments.models import Tournament
from tournaments.parsing import ascii_int
from tournaments.reports.centre_documents import render_centre_document, require_centre_document
from tournaments.reports.documents import game_of

CENTRES_PAGE = "console/centres.html"


def _centres_context(request: HttpRequest, obj: Tournament, **extra: Any) -> dict[str, Any]:
    centres = selectors.tournament_centres(obj.pk)
    counts = selectors.centre_counts(obj.pk)
    return {
        "tournament": obj,
        "role": role_or_403(request, obj.pk),
        "centres": [
            {
                "c": c,
                "players": counts.get(c.pk, 0),
                "form": CentreForm(
                    prefix=f"c{c.pk}",
                    initial={
                        "name": c.name,
                        "club": c.club,
                        "address": c.address,
                        "time_zone": c.time_zone,
                    },
                ),
            }
            for c in centres
        ],  # fmt: skip
        "form": extra.pop("form", None) or CentreForm(),
        **extra,
    }


@login_required
def centres(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the centres with their players' count. POST (head arbiter): add one."""
    obj = tournament_or_404(slug)
    if request.method == "GET":
        return render(request, CENTRES_PAGE, _centres_context(request, obj))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})

    def add(form: Any) -> HttpResponse:
        centre = services.centre_create(tournament_id=obj.pk, actor=request.user,
                                        **form.cleaned_data)  # fmt: skip
        messages.success(request, _("Centre « %(name)s » ajouté.") % {"name": centre.name})
        return redirect("console:centres", slug=obj.slug)

    return head_change(
        request, obj, page=CENTRES_PAGE, context=_centres_context, act=add,
        form=lambda: CentreForm(request.POST), invalid=_("Le formulaire contient des erreurs."),
    )  # fmt: skip


@login_required
@require_POST
def centre_edit(request: HttpRequest, centre_id: int) -> HttpResponse:
    """POST (head arbiter): a centre's new name, club, address or time zone."""
    centre = _or_404(selectors.centre_by_id, centre_id)  # an unknown centre: the 404 page
    obj = tournament_or_404(centre.tournament.slug)

    def save(form: Any) -> HttpResponse:
        services.centre_update(centre_id=centre.pk, actor=request.user, **form.cleaned_data)
        messages.success(request, _("Centre enregistré."))
        return redirect("console:centres", slug=obj.slug)

    return head_change(
        request, obj, page=CENTRES_PAGE, context=_centres_context, act=save,
        form=lambda: CentreForm(request.POST, prefix=f"c{centre.pk}"),
        invalid=_("Le formulaire contient des erreurs."),
    )  # fmt: skip


@login_required
@require_POST
def centre_delete(request: HttpRequest, centre_id: int) -> HttpResponse:
    """POST (head arbiter): remove a centre nobody uses; one with players or arbiters is
    refused (``centre.in_use``, 409) with its sentence on the centres page."""
    centre = _or_404(selectors.centre_by_id, centre_id)
    obj = tournament_or_404(centre.tournament.slug)

    def delete(_form: None) -> HttpResponse:
        name = services.centre_delete(centre_id=centre.pk, actor=request.user)
        messages.success(request, _("Centre « %(name)s » supprimé.") % {"name": name})
        return redirect("console:centres", slug=obj.slug)

    return head_change(request, obj, page=CENTRES_PAGE, context=_centres_context, act=delete)


@login_required
@require_GET
def centre_download(request: HttpRequest, centre_id: int, kind: str) -> HttpResponse:
    """A centre's document (its ranking, PDF or XLSX; of game ``?partie=N`` when given):
    the organiser gets every centre's, a centre arbiter their own centre's only (403
    ``access.other_centre`` otherwise, shown on the documents page)."""
    centre = _or_404(selectors.centre_by_id, centre_id)
    obj = tournament_or_404(centre.tournament.slug)
    role_or_403(request, obj.pk)
    try:
        require_centre_document(actor=request.user, tournament=obj, centre_id=centre.pk)
        game = game_of(obj, request.GET.get("partie") or "")
        rendered = render_centre_document(kind, obj, centre, game)
    except ServiceError as error:
        return refused_document(request, obj, error)
    return attachment(rendered)


@login_required
@require_POST
def centre_job_create(request: HttpRequest, centre_id: int, kind: str) -> HttpResponse:
    """Ask a worker to build a centre's document (``ReportJob``, as the event's big
    documents: the whole tournament's ranking of a large event takes seconds); the job's
    page shows the progress. Scoped as the download."""
    centre = _or_404(selectors.centre_by_id, centre_id)
    obj = tournament_or_404(centre.tournament.slug)
    role_or_403(request, obj.pk)
    try:
        job = services.report_job_create(tournament_id=obj.pk, kind=kind, centre=centre.pk,
                                         game=request.POST.get("partie") or "",
                                         base_url="", actor=request.user)  # fmt: skip
    except ServiceError as error:
        return refused_document(request, obj, error)
    return redirect("console:report_job", job_id=job.pk)


@login_required
@require_POST
def arbiter_centre(request: HttpRequest, slug: str) -> HttpResponse:
    """POST (head arbiter), from the arbiters page: the centre an arbiter arbitrates (empty:
    the whole event) and whether they are its head arbiter."""
    obj = tournament_or_404(slug)

    def bind(_form: None) -> HttpResponse:
        choice = ArbiterChoiceForm(request.POST)
        if not choice.is_valid():
            raise ServiceError("arbiter.unknown", "No arbiter chosen.")
        raw = request.POST.get("centre", "")
        number = ascii_int(raw, low=1)
        centre = selectors.centre_by_id(number).pk if number is not None else None
        services.arbiter_centre_set(
            tournament_id=obj.pk, user_id=choice.cleaned_data["user"], centre_id=centre,
            centre_head=request.POST.get("centre_head") == "on", actor=request.user,
        )  # fmt: skip
        messages.success(request, _("Centre de l'arbitre enregistré."))
        return redirect("console:arbiters", slug=obj.slug)

    return head_change(request, obj, page=ARBITERS_PAGE, context=arbiters_context, act=bind)


@login_required
@require_POST
def centre_close(request: HttpRequest, round_id: int) -> HttpResponse:
    """POST: a centre closes the round (its head arbiter, or the tournament's); a clock
    still running asks for a confirmation, as the round's close does."""
    rnd = round_or_404(round_id)
    tournament_id = rnd.game.tournament_id
    role_or_403(request, tournament_id)
    raw = request.POST.get("centre", "")
    try:
        centre_id = ascii_int(raw, low=1)  # "٣", "²" or 25 digits: no such centre
        if centre_id is None:
            raise ServiceError("centre.unknown", "No centre chosen.")
        services.centre_close(round_id=rnd.pk, centre_id=centre_id, actor=request.user,
                              confirm=request.POST.get("confirm") == "1")  # fmt: skip
    except ServiceError as error:
        status = error_status(error)
        if error.code == "centre.time_left":
            messages.warning(request, error_text(error))
            return redirect(f"{_game_url(rnd.game_id)}?confirmer-centre={raw}")
        return render(request, "console/centre_refused.html",
                      {"round": rnd, "game": rnd.game, "error": error_text(error)},
                      status=status)  # fmt: skip
    messages.success(request, _("Centre fermé pour ce coup."))
    return redirect("console:game", game_id=rnd.game_id)


def _game_url(game_id: int) -> str:
    return reverse("console:game", args=[game_id])


def centre_panel(request: HttpRequest, rnd: Any) -> dict[str, Any] | None:
    """What the game screen shows of a simultaneous event's round: each centre open or
    closed, and which the viewer may close (their own centre as its head arbiter; every
    centre for the head arbiter). None outside a simultaneous event or without centres."""
    if rnd is None or not rnd.game.tournament.simultaneous:
        return None
    tournament_id = rnd.game.tournament_id
    scope = centre_scope(actor=request.user, tournament_id=tournament_id)
    head = role_or_403(request, tournament_id) == "head"
    lines = selectors.round_centres(rnd)
    if not lines:  # no centre yet: the round closes as in a single room
        return None
    return {
        "lines": lines,
        "open": [line.centre.name for line in lines if not line.closed],
        "can_close": {
            line.centre.pk
            for line in lines
            if head or (scope.centre_head and scope.centre_id == line.centre.pk)
        },
        "confirm": request.GET.get("confirmer-centre", ""),
        "mine": scope.centre_id,
    }
