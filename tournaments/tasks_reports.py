"""Celery task building a document asked for from the console (``ReportJob``).

Imported at the end of ``tournaments.tasks`` so Celery's autodiscovery registers it. The
task takes a job id and calls one service, ``report_job_build`` (as ``access.SYSTEM``),
which renders the document, writes the file and records the job's progress and end. In the
embedded profile tasks run eagerly: the job is done when the page loads."""

from __future__ import annotations

import logging

from celery import shared_task

from tournaments.access import SYSTEM
from tournaments.services.reports import report_job_build

logger = logging.getLogger(__name__)


@shared_task(name="tournaments.build_report", soft_time_limit=540, time_limit=600)
def build_report(job_id: int) -> str | None:
    """Build the job's document; return its state (``done`` or ``failed``), None when the
    job no longer exists."""
    state = report_job_build(job_id=job_id, actor=SYSTEM)
    if state is None:
        logger.warning("build_report: job %s no longer exists", job_id)
    else:
        logger.info("build_report: job %s %s", job_id, state)
    return state
