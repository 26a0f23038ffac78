"""Celery task building a document asked for from the console (``ReportJob``).

Imported at the end of ``tournaments.tasks`` so Celery's autodiscovery registers it. The
task takes a job id, renders the document with ``reports.documents.render_document``
(reporting its progress on the row), writes the file under ``VAR_DIR/reports`` and marks
the job done. A job already done is left alone, so a redelivered message (acks_late) costs
one query. In the embedded profile tasks run eagerly: the job is done when the page loads."""

from __future__ import annotations

import logging

from celery import shared_task
from django.utils import timezone

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.build_report", soft_time_limit=540, time_limit=600)
def build_report(job_id: int) -> str | None:
    """Build the job's document; return its state (``done`` or ``failed``), None when the
    job no longer exists."""
    from tournaments.models import ReportJob
    from tournaments.models.reports import reports_dir
    from tournaments.reports.documents import game_of, render_document

    job = ReportJob.objects.select_related("tournament").filter(pk=job_id).first()
    if job is None:
        logger.warning("build_report: job %s no longer exists", job_id)
        return None
    if job.state == "done" and job.file is not None:
        return job.state
    ReportJob.objects.filter(pk=job.pk).update(state="running", progress=1)

    def progress(percent: int) -> None:
        ReportJob.objects.filter(pk=job.pk).update(progress=max(1, min(99, int(percent))))

    try:
        game = game_of(job.tournament, job.params.get("game"))
        rendered = render_document(job.kind, job.tournament, game,
                                   base_url=job.params.get("base_url", ""),
                                   progress=progress)  # fmt: skip
        name = f"{job.pk}-{rendered.filename}"
        (reports_dir() / name).write_bytes(rendered.content)
    except Exception as error:  # a failed build is recorded on the job, never lost
        logger.exception("build_report: job %s failed", job_id)
        message = getattr(error, "message", None) or str(error) or error.__class__.__name__
        ReportJob.objects.filter(pk=job.pk).update(
            state="failed", error=message[:2000], finished_at=timezone.now()
        )
        return "failed"
    ReportJob.objects.filter(pk=job.pk).update(
        state="done", progress=100, filename=rendered.filename,
        content_type=rendered.content_type, path=name, size=len(rendered.content),
        finished_at=timezone.now(),
    )  # fmt: skip
    logger.info("build_report: job %s done (%s bytes)", job_id, len(rendered.content))
    return "done"
