"""The history of a round's clock, for lateness (docs/rules-choices.md, *Round control*).

``Round.deadline`` and ``Round.paused_at`` hold the clock as it is now; a pause, a resume,
an extension or a reopen moves the deadline. A move is stamped when it reaches the server
(``ProposalArrival.received_at``) and may be judged later (the queued path's worker, a
close), after the clock moved: its lateness is read against the deadline **in force when
it arrived**, kept here. The rows are append-only: each change of the clock adds one, none
is edited or removed (``services.round_deadlines``).
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models.core import Round


class ClockChange(models.TextChoices):
    OPEN = "open", _("ouverture du coup")
    PAUSE = "pause", _("pause du chrono")
    RESUME = "resume", _("reprise du chrono")
    EXTEND = "extend", _("prolongation du coup")
    CLOSE = "close", _("ramassage")
    REOPEN = "reopen", _("réouverture du coup")


class RoundDeadline(models.Model):
    """From ``at`` on (until the round's next row), the round's deadline was ``deadline``:
    ``None`` while the clock was paused (no time passes, every move is on time); after a
    ``close`` row every tablet move is late, whatever the deadline."""

    round = models.ForeignKey(Round, models.CASCADE, related_name="deadlines")
    kind = models.CharField(max_length=10, choices=ClockChange.choices)
    at = models.DateTimeField()
    deadline = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["round", "at", "id"]
        indexes = [models.Index(fields=["round", "at"], name="round_deadline_at")]
        constraints = [
            models.CheckConstraint(
                condition=Q(kind__in=ClockChange.values), name="round_deadline_kind"
            ),  # fmt: skip
            models.CheckConstraint(
                condition=Q(kind=ClockChange.PAUSE) | Q(deadline__isnull=False),
                name="round_deadline_set_unless_paused",
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.round_id} {self.kind} at {self.at:%H:%M:%S}"
