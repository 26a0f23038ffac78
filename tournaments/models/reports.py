"""Documents built by a worker (``tournaments.tasks_reports.build_report``): the big ones
(the whole tournament's workbook, the players' records) take a while, so the console asks
for them, shows the progress and then serves the file written under ``VAR_DIR/reports``."""

from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import JobState
from tournaments.models.core import Tournament


def reports_dir() -> Path:
    """Where built documents are kept (``VAR_DIR/reports``), created on demand."""
    path = Path(settings.VAR_DIR) / "reports"
    path.mkdir(parents=True, exist_ok=True)
    return path


class ReportJob(models.Model):
    """One document being built: ``kind`` (``tournaments.reports.documents``), ``params``
    (``{"game": number, "base_url": …}``), its state and progress (0–100), then the file."""

    STATES = JobState.choices
    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="report_jobs")
    kind = models.CharField(max_length=30)
    params = models.JSONField(default=dict, blank=True)
    state = models.CharField(max_length=10, choices=STATES, default=JobState.PENDING)
    progress = models.PositiveSmallIntegerField(default=0)
    filename = models.CharField(max_length=200, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    path = models.CharField(max_length=500, blank=True, help_text=_("relatif à VAR_DIR/reports"))
    size = models.PositiveIntegerField(default=0)
    error = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(state__in=JobState.values),
                name="report_job_state",
            ),
            models.CheckConstraint(condition=Q(progress__lte=100), name="report_job_progress"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.pk} ({self.state})"

    @property
    def file(self) -> Path | None:
        """The built file, when it is there."""
        if self.state != JobState.DONE or not self.path:
            return None
        path = reports_dir() / self.path
        return path if path.is_file() else None
