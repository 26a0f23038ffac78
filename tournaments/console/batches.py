"""Batches of pre-drawn games (issue 5): the head arbiter asks the workers to prepare K
games (every rack and every top) from consecutive seeds; the batch's page shows them land,
polling a small JSON status, and turns any prepared game into a game of the tournament.

Preparing goes through ``services.predrawn_batch_prepare`` (one ``prepare_game`` task per
game); creating through ``services.game_create_from_prepared``; progress is read with
``selectors.batch_progress``. In the embedded profile the tasks run eagerly: the batch is
done when its page first loads."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from engine.duplicate.variants import VARIANTS
from tournaments import families, selectors
from tournaments.console.common import (
    error_status,
    error_text,
    found,
    role_or_403,
    tournament_or_404,
)
from tournaments.console.forms import StrictIntegerField
from tournaments.errors import ServiceError
from tournaments.models import BatchJob, PreparedGame, Tournament
from tournaments.services.batch import game_create_from_prepared, predrawn_batch_prepare

#: The console prepares at most this many games at once (the service allows more).
MAX_GAMES = 50
MAX_SEED = 2**62


class BatchForm(forms.Form):
    count = StrictIntegerField(
        label=gettext_lazy("Nombre de parties"), min_value=1, max_value=MAX_GAMES, initial=4
    )
    seed_base = StrictIntegerField(
        label=gettext_lazy("Graine de départ"),
        min_value=0,
        max_value=MAX_SEED,
        help_text=gettext_lazy("Les parties reçoivent cette graine, puis la suivante, etc."),
    )
    variant = forms.ChoiceField(
        label=gettext_lazy("Formule"),
        choices=[(code, families.formula_labels()[code]) for code in VARIANTS],
    )


def _count_error() -> ServiceError:
    return ServiceError("batch.count", f"A batch holds 1 to {MAX_GAMES} games.", max=MAX_GAMES)


def _form_error(form: BatchForm) -> ServiceError:
    """The page's sentence for a form that does not validate."""
    if "count" in form.errors:
        return _count_error()
    if "seed_base" in form.errors:
        return ServiceError("seed.range", "A seed is a whole number.", max=MAX_SEED)
    return ServiceError("form.invalid", _("Le formulaire contient des erreurs."))


def _page(request: HttpRequest, obj: Tournament, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": obj,
        "role": role_or_403(request, obj.pk, head=True),
        "batches": [
            (b, families.formula_label(b.variant_code)) for b in selectors.tournament_batches(obj)
        ],
        "max_games": MAX_GAMES,
        **extra,
    }


@login_required
def prepare(request: HttpRequest, slug: str) -> HttpResponse:
    """GET: the form and the tournament's earlier batches. POST: queue the batch and go to
    its progress page (head arbiter)."""
    obj = tournament_or_404(slug)
    role_or_403(request, obj.pk, head=True)
    if request.method == "GET":
        form = BatchForm(initial={"variant": obj.variant_code})
        return render(request, "console/batch_prepare.html", _page(request, obj, form=form))
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    form = BatchForm(request.POST)
    try:
        if not form.is_valid():
            raise _form_error(form)
        if obj.lexicon_id is None:
            raise ServiceError(
                "tournament.no_lexicon", "The tournament has no lexicon.", tournament=obj.name
            )
        data = form.cleaned_data
        job = predrawn_batch_prepare(
            tournament_id=obj.pk, count=data["count"], seed_base=data["seed_base"],
            variant=data["variant"], lexicon_id=obj.lexicon_id, actor=request.user,
        )  # fmt: skip
    except ServiceError as error:
        ctx = _page(request, obj, form=form, error=error_text(error), error_code=error.code)
        return render(request, "console/batch_prepare.html", ctx, status=error_status(error))
    return redirect("console:batch", job_id=job.pk)


def _job(request: HttpRequest, job_id: int) -> BatchJob:
    """The batch, for an arbiter of its tournament (a batch outside any tournament has no
    console page)."""
    job: BatchJob = found(selectors.batch_by_id(job_id))
    if job.tournament_id is None:
        raise Http404("Ce lot n'appartient à aucun tournoi.")
    role_or_403(request, job.tournament_id)
    return job


def batch_payload(job: BatchJob) -> dict[str, Any]:
    """What the batch's page polls: ``batch_progress`` plus the address that creates a game
    from each prepared one."""
    progress = selectors.batch_progress(job.pk) or {}
    for game in progress.get("games", []):
        game["create"] = reverse("console:prepared_create", args=[game["id"]])
    return progress


def _job_context(request: HttpRequest, job: BatchJob, **extra: Any) -> dict[str, Any]:
    return {
        "tournament": job.tournament,
        "role": role_or_403(request, job.tournament_id),
        "job": job,
        "formula": families.formula_label(job.variant_code),
        "payload": batch_payload(job),
        **extra,
    }


@login_required
@require_GET
def batch(request: HttpRequest, job_id: int) -> HttpResponse:
    """Done/total and the prepared games (seed, rounds, top total) as they land."""
    job = _job(request, job_id)
    return render(request, "console/batch_job.html", _job_context(request, job))


@login_required
@require_GET
def batch_status(request: HttpRequest, job_id: int) -> JsonResponse:
    """JSON polled by the batch's page."""
    response = JsonResponse(batch_payload(_job(request, job_id)))
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_POST
def prepared_create(request: HttpRequest, prepared_id: int) -> HttpResponse:
    """A pre-drawn game of the batch's tournament from a prepared game (head arbiter)."""
    prepared: PreparedGame = found(selectors.prepared_game_by_id(prepared_id))
    job = prepared.job
    if job.tournament_id is None:
        raise Http404("Ce lot n'appartient à aucun tournoi.")
    role_or_403(request, job.tournament_id, head=True)
    sealed = request.POST.get("sealed") == "1"
    try:
        game = game_create_from_prepared(tournament_id=job.tournament_id,
                                         prepared_game_id=prepared.pk, sealed=sealed,
                                         actor=request.user)  # fmt: skip
    except ServiceError as error:
        ctx = _job_context(request, job, error=error_text(error), error_code=error.code)
        return render(request, "console/batch_job.html", ctx, status=error_status(error))
    if sealed:  # the seed would give the racks away: docs/simultaneous.md
        messages.success(request, _("Partie %(n)s créée et scellée.") % {"n": game.number})
        return redirect("console:release", game_id=game.pk)
    messages.success(
        request,
        _("Partie %(n)s créée depuis la partie préparée (graine %(seed)s).")
        % {"n": game.number, "seed": prepared.seed},
    )
    return redirect("console:game", game_id=game.pk)
