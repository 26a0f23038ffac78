"""Downloads: the "Documents" page of a tournament, ONE view serving any document of
``tournaments.reports`` (the renderer's bytes with its filename), and the big documents
built by a Celery task (``ReportJob``) whose progress the page polls.

Any arbiter of the tournament may download; the documents are read-only."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import (
    FileResponse,
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.http import content_disposition_header
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from tournaments import selectors
from tournaments.access import centre_scope, require_document
from tournaments.console.common import (
    error_status,
    error_text,
    found,
    role_or_403,
    tournament_or_404,
)
from tournaments.errors import ServiceError
from tournaments.models import ReportJob, Tournament
from tournaments.models.choices import JobState
from tournaments.reports import Rendered
from tournaments.reports.centre_documents import (
    CENTRE_DOCUMENTS,
    CENTRE_KINDS,
    require_centre_document,
)
from tournaments.reports.documents import (
    ANY,
    DOCUMENTS,
    GAME,
    OPTIONAL,
    TOURNAMENT,
    Document,
    by_worker,
    check_direct,
    check_scope,
    document,
    game_of,
    render_document,
)
from tournaments.services import report_job_create


def attachment(rendered: Rendered) -> HttpResponse:
    """The renderer's bytes as a download under its own filename."""
    response = HttpResponse(rendered.content, content_type=rendered.content_type)
    response["Content-Disposition"] = _disposition(rendered.filename)
    response["Content-Length"] = str(len(rendered.content))
    response["Cache-Control"] = "no-store"
    return response


def _disposition(filename: str) -> str:
    return content_disposition_header(True, filename) or "attachment"


def site_url(request: HttpRequest) -> str:
    """The site's address as the players' tablets will reach it."""
    return request.build_absolute_uri("/").rstrip("/")


def _game_param(request: HttpRequest) -> str:
    return request.GET.get("partie") or request.POST.get("partie") or ""


def _context(request: HttpRequest, obj: Tournament, **extra: Any) -> dict[str, Any]:
    games = selectors.tournament_games(obj)
    whole = [d for d in DOCUMENTS if d.scope in {OPTIONAL, TOURNAMENT, ANY}]
    per_game = [d for d in DOCUMENTS if d.scope in {GAME, OPTIONAL}]
    # Heavy by nature, or too big for a request (players x games above DIRECT_CELLS): the
    # page offers « Préparer » (a worker's job) instead of a link.
    players = selectors.document_cells(obj, None, per_player=True)
    cells = selectors.document_cells(obj, None)
    one = selectors.document_cells(obj, games[0]) if games else 0

    def worker(d: Document, size: int) -> bool:
        return by_worker(d, players if d.per_player else size)

    return {
        "tournament": obj,
        "role": role_or_403(request, obj.pk),
        "whole": [(d, d.is_heavy(None) or worker(d, cells)) for d in whole],
        "games": [
            (g, [(d, d.is_heavy(g) or worker(d, one)) for d in per_game]) for g in games
        ],  # fmt: skip
        "jobs": _my_jobs(request, obj),
        "centres": _my_centres(request, obj),
        "centre_documents": CENTRE_DOCUMENTS,
        **extra,
    }


def _my_jobs(request: HttpRequest, obj: Tournament) -> list[ReportJob]:
    """The latest jobs, without another centre's documents for a centre arbiter."""
    mine = centre_scope(actor=request.user, tournament_id=obj.pk).centre_id
    jobs = selectors.report_jobs(obj)
    return [j for j in jobs if mine is None or j.params.get("centre") in (None, mine)]


def _my_centres(request: HttpRequest, obj: Tournament) -> list[Any]:
    """The centres whose documents the viewer may download (a simultaneous event): their
    own for a centre arbiter, every one for the organiser and the whole event's arbiters."""
    if not obj.simultaneous:
        return []
    mine = centre_scope(actor=request.user, tournament_id=obj.pk).centre_id
    return [c for c in selectors.tournament_centres(obj.pk) if mine in (None, c.pk)]


@login_required
@require_GET
def documents(request: HttpRequest, slug: str) -> HttpResponse:
    """Every document of the tournament and of each game, with its download link."""
    obj = tournament_or_404(slug)
    return render(request, "console/documents.html", _context(request, obj))


def refused_document(request: HttpRequest, obj: Tournament, error: ServiceError) -> HttpResponse:
    """The documents page again with the refusal's sentence, under its status."""
    ctx = _context(request, obj, error=error_text(error), error_code=error.code)
    return render(request, "console/documents.html", ctx, status=error_status(error))


@login_required
@require_GET
def download(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """Render document ``kind`` (of game ``?partie=N`` when given) and send it."""
    obj = tournament_or_404(slug)
    role_or_403(request, obj.pk)
    game = None
    try:
        require_document(actor=request.user, tournament_id=obj.pk, kind=kind)
        game = game_of(obj, _game_param(request))
        doc = document(kind)
        check_scope(doc, game)
        check_direct(doc, obj, game)
        rendered = render_document(kind, obj, game, base_url=site_url(request))
    except ServiceError as error:
        if error.code == "document.by_worker":  # too big for a request: « Préparer » it
            messages.info(request, error_text(error))
            url = reverse("console:documents", args=[obj.slug])
            anchor = f"document-{kind}" + (f"-{game.number}" if game else "")
            return HttpResponseRedirect(f"{url}#{anchor}", status=303)
        return refused_document(request, obj, error)
    return attachment(rendered)


@login_required
@require_POST
def job_create(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    """Ask a worker to build document ``kind``; the job's page shows the progress."""
    obj = tournament_or_404(slug)
    role_or_403(request, obj.pk)
    try:
        require_document(actor=request.user, tournament_id=obj.pk, kind=kind)
        job = report_job_create(tournament_id=obj.pk, kind=kind, game=_game_param(request),
                                base_url=site_url(request), actor=request.user)  # fmt: skip
    except ServiceError as error:
        return refused_document(request, obj, error)
    return redirect("console:report_job", job_id=job.pk)


def _job(request: HttpRequest, job_id: int) -> ReportJob:
    job: ReportJob = found(selectors.report_job_by_id(job_id))
    role_or_403(request, job.tournament_id)
    centre = job.params.get("centre")
    if centre is not None:  # a centre's document: its centre's arbiters and the organiser
        try:
            require_centre_document(actor=request.user, tournament=job.tournament,
                                    centre_id=int(centre))  # fmt: skip
        except ServiceError as error:
            raise PermissionDenied(error.code) from None
    return job


def _job_document(kind: str) -> Any:
    """The catalogue entry of a job's kind: the event's documents, or a centre's."""
    return CENTRE_KINDS[kind] if kind in CENTRE_KINDS else document(kind)


def job_payload(job: ReportJob) -> dict[str, Any]:
    """What the job's page polls: state, progress, and the download address once done."""
    done = job.state == JobState.DONE
    return {
        "id": job.pk,
        "kind": job.kind,
        "state": job.state,
        "progress": job.progress,
        "filename": job.filename,
        "size": job.size,
        "error": job.error,
        "download": reverse("console:report_job_file", args=[job.pk]) if done else None,
    }


@login_required
@require_GET
def job_page(request: HttpRequest, job_id: int) -> HttpResponse:
    """The job's progress (refreshing itself until done) and its download link."""
    job = _job(request, job_id)
    ctx = {
        "tournament": job.tournament,
        "role": role_or_403(request, job.tournament_id),
        "job": job,
        "doc": _job_document(job.kind),
        "payload": job_payload(job),
    }
    return render(request, "console/report_job.html", ctx)


@login_required
@require_GET
def job_status(request: HttpRequest, job_id: int) -> JsonResponse:
    """JSON polled by the job's page."""
    response = JsonResponse(job_payload(_job(request, job_id)))
    response["Cache-Control"] = "no-store"
    return response


@login_required
@require_GET
def job_file(request: HttpRequest, job_id: int) -> HttpResponse:
    """The built file (404 until the job is done)."""
    job = _job(request, job_id)
    path = job.file
    if path is None:
        raise Http404("Ce document n'est pas encore prêt.")
    response = FileResponse(
        path.open("rb"), as_attachment=True, filename=job.filename, content_type=job.content_type
    )
    response["Cache-Control"] = "no-store"
    return response


# --- Game record import ---------------------------------------------------------------------


class RecordImportForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Enregistrement de partie (JSON tirage-game) ou partie Eliot (XML)")
    )
    sealed = forms.BooleanField(
        label=gettext_lazy("Sceller la partie (tirages chiffrés, dévoilés coup par coup)"),
        required=False,
    )


@login_required
def record_import(request: HttpRequest, slug: str) -> HttpResponse:
    """Create a pre-drawn game from a game record file or an Eliot saved game (head
    arbiter): the same racks, rejected ones included, drawn again in this room."""
    obj = tournament_or_404(slug)
    role = role_or_403(request, obj.pk, head=True)
    ctx: dict[str, Any] = {"tournament": obj, "role": role}
    if request.method == "GET":
        return render(request, "console/record_import.html", {**ctx, "form": RecordImportForm()})
    if request.method != "POST":
        return HttpResponse(status=405, headers={"Allow": "GET, POST"})
    form = RecordImportForm(request.POST, request.FILES)
    if not form.is_valid():
        return render(request, "console/record_import.html", {**ctx, "form": form}, status=400)
    from tournaments.services.eliot import eliot_import, looks_like_eliot
    from tournaments.services.imports import check_size
    from tournaments.services.records import game_create_from_record

    upload, sealed = form.cleaned_data["file"], form.cleaned_data["sealed"]
    choices: list[tuple[int, str]] = []
    try:
        check_size(upload.size or 0)  # a game record is tens of kB: refuse before reading
        content = upload.read()
        if looks_like_eliot(content):
            game, choices = eliot_import(tournament_id=obj.pk, content=content, sealed=sealed,
                                         actor=request.user)  # fmt: skip
        else:
            game = game_create_from_record(tournament_id=obj.pk, content=content,
                                           sealed=sealed, actor=request.user)  # fmt: skip
    except ServiceError as error:
        ctx.update(form=form, error=error_text(error), error_code=error.code)
        return render(request, "console/record_import.html", ctx, status=error_status(error))
    messages.success(request, _("Partie %(n)s créée depuis l'enregistrement.") % {"n": game.number})
    if sealed and choices:  # a sealed game's tops are not shown before their release
        text = _("Eliot a posé un autre top ex aequo que le nôtre dans %(n)s coup(s).")
        messages.warning(request, text % {"n": len(choices)})
        choices = []
    for number, move in choices:  # Eliot placed another of the tied tops than our default
        text = _("Coup %(n)s : Eliot a posé %(move)s, un des tops ex aequo ; choisissez-le.")
        messages.warning(request, text % {"n": number, "move": move})
    return redirect("console:game", game_id=game.pk)
