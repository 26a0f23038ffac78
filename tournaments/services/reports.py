"""Documents built by a worker (``ReportJob``): asked for from the console, built by the
``tournaments.build_report`` task.

``report_job_create`` checks the arbiter, the document and its scope, stores the job and
queues the task by name once committed. ``report_job_build`` is the task's work: it renders
the document (reporting its progress on the row), writes the file under
``VAR_DIR/reports`` and marks the job done; a job already done is left alone, so a
redelivered message (acks_late) costs one query. A failed build is recorded on the job,
never lost. In the embedded profile tasks run eagerly: the job is done when the page loads.
"""

from __future__ import annotations

import logging

from django.db import transaction
from django.utils import timezone

from tournaments.access import Actor, require_arbiter, user_of
from tournaments.errors import ServiceError
from tournaments.families import Progress
from tournaments.models import Game, JobState, ReportJob, Tournament
from tournaments.models.reports import reports_dir
from tournaments.queueing import queue_after_commit
from tournaments.reports import Rendered
from tournaments.reports.centre_documents import (
    centre_document,
    render_centre_document,
    require_centre_document,
)
from tournaments.reports.documents import check_scope, document, game_of, render_document
from tournaments.selectors.centres import tournament_centre
from tournaments.services.audit import audit_record

logger = logging.getLogger(__name__)


def report_job_create(
    *, tournament_id: int, kind: str, game: int | str | None, base_url: str, actor: Actor,
    centre: int | None = None,
) -> ReportJob:  # fmt: skip
    """A job building document ``kind`` (of game number ``game`` when given) for any
    arbiter of the tournament; ``document.*`` / ``game.unknown`` for a wrong request. With
    ``centre``, one of that centre's documents (``reports.centre_documents``): a centre
    arbiter only for their own centre (``access.other_centre``)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise ServiceError("tournament.unknown", f"There is no tournament {tournament_id}.")
    require_arbiter(actor=actor, tournament_id=tournament.pk)
    row = game_of(tournament, game)
    params: dict[str, object] = {"game": row.number if row else None, "base_url": base_url}
    if centre is not None:
        name = centre_document(kind).kind
        place = require_centre_document(actor=actor, tournament=tournament, centre_id=centre)
        params["centre"] = place.pk
    else:
        doc = document(kind)
        check_scope(doc, row)
        name = doc.kind
    with transaction.atomic():
        job = ReportJob.objects.create(
            tournament=tournament, kind=name, params=params, created_by=user_of(actor)
        )
        audit_record(actor=actor, action="report.create", obj=job, kind=job.kind,
                     game=job.params["game"], **({"centre": centre} if centre else {}))  # fmt: skip
        queue_after_commit("tournaments.build_report", job.pk)
    return job


def _render(job: ReportJob, game: Game | None, progress: Progress) -> Rendered:
    centre_id = job.params.get("centre")
    if centre_id is None:
        return render_document(job.kind, job.tournament, game,
                               base_url=job.params.get("base_url", ""),
                               progress=progress)  # fmt: skip
    place = tournament_centre(job.tournament_id, int(centre_id))
    if place is None:  # deleted since the job was asked for
        raise ServiceError("centre.unknown", f"There is no centre {centre_id}.")
    return render_centre_document(job.kind, job.tournament, place, game)


def report_job_build(*, job_id: int, actor: Actor) -> str | None:
    """Build the job's document; return its state (``done`` or ``failed``), None when the
    job no longer exists. The worker's task runs it as ``access.SYSTEM``."""
    job = ReportJob.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None:
        return None
    require_arbiter(actor=actor, tournament_id=job.tournament_id)
    if job.state == JobState.DONE and job.file is not None:
        return job.state
    ReportJob.objects.filter(pk=job.pk).update(state=JobState.RUNNING, progress=1)

    def progress(percent: int) -> None:
        ReportJob.objects.filter(pk=job.pk).update(progress=max(1, min(99, int(percent))))

    try:
        game = game_of(job.tournament, job.params.get("game"))
        rendered = _render(job, game, progress)
        name = f"{job.pk}-{rendered.filename}"
        (reports_dir() / name).write_bytes(rendered.content)
    except Exception as error:  # a failed build is recorded on the job, never lost
        logger.exception("build_report: job %s failed", job_id)
        message = getattr(error, "message", None) or str(error) or error.__class__.__name__
        ReportJob.objects.filter(pk=job.pk).update(
            state=JobState.FAILED, error=message[:2000], finished_at=timezone.now()
        )
        return JobState.FAILED
    ReportJob.objects.filter(pk=job.pk).update(
        state=JobState.DONE, progress=100, filename=rendered.filename,
        content_type=rendered.content_type, path=name, size=len(rendered.content),
        finished_at=timezone.now(),
    )  # fmt: skip
    return JobState.DONE
