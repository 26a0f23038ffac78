"""Tables around the game tables: the audit log, slip conflicts between arbiters, and batches
of pre-drawn games prepared by the workers."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from engine.duplicate.variants import STANDARD
from tournaments.models.choices import BatchState
from tournaments.models.core import Game, Lexicon, Player, ProposalVersion, Round, Tournament


class SlipConflict(models.Model):
    """Two arbiters entered different slips for one player and round. The first stays
    current until the head arbiter keeps one (``conflict_resolve``)."""

    round = models.ForeignKey(Round, models.CASCADE, related_name="conflicts")
    player = models.ForeignKey(Player, models.PROTECT, related_name="+")
    first = models.ForeignKey(ProposalVersion, models.PROTECT, related_name="+")
    second = models.ForeignKey(ProposalVersion, models.PROTECT, related_name="+")
    kept = models.ForeignKey(
        ProposalVersion, models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )
    resolved_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["round", "player", "id"]
        constraints = [
            models.UniqueConstraint(fields=["first", "second"], name="conflict_pair"),
            models.CheckConstraint(
                condition=Q(resolved_at__isnull=True, kept__isnull=True)
                | Q(resolved_at__isnull=False, kept__isnull=False),
                name="conflict_resolved_keeps_one",
            ),
        ]

    def __str__(self) -> str:
        return f"conflict {self.first_id}/{self.second_id}"


class BatchJob(models.Model):
    """A batch of pre-drawn games computed by the workers; ``done`` counts prepared games."""

    STATES = BatchState.choices
    tournament = models.ForeignKey(
        Tournament, models.CASCADE, null=True, blank=True, related_name="batches"
    )
    lexicon = models.ForeignKey(Lexicon, models.PROTECT, related_name="+")
    variant_code = models.CharField(max_length=20, default=STANDARD.code)
    seed_base = models.BigIntegerField()
    total = models.PositiveIntegerField()
    done = models.PositiveIntegerField(default=0)
    state = models.CharField(max_length=10, choices=STATES, default=BatchState.RUNNING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(state__in=BatchState.values), name="batch_state"),
            models.CheckConstraint(condition=Q(total__gte=1), name="batch_total_positive"),
            models.CheckConstraint(condition=Q(done__lte=models.F("total")), name="batch_done"),
            models.CheckConstraint(condition=Q(seed_base__gte=0), name="batch_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"batch {self.pk} ({self.done}/{self.total})"


class PreparedGame(models.Model):
    """One game of a batch, played top by top from ``seed``; ``record`` is its
    ``tirage-game`` JSON and ``predrawn`` its racks as a pre-drawn game's text."""

    job = models.ForeignKey(BatchJob, models.CASCADE, related_name="games")
    index = models.PositiveIntegerField()
    seed = models.BigIntegerField()
    record = models.JSONField(null=True, blank=True)
    predrawn = models.TextField(blank=True)
    rounds = models.PositiveIntegerField(null=True, blank=True)
    top_total = models.PositiveIntegerField(null=True, blank=True)
    prepared_at = models.DateTimeField(null=True, blank=True)
    games = models.ManyToManyField(Game, blank=True, related_name="prepared_from")

    class Meta:
        ordering = ["job", "index"]
        constraints = [
            models.UniqueConstraint(fields=["job", "index"], name="prepared_index"),
            models.CheckConstraint(
                condition=Q(prepared_at__isnull=True) | Q(record__isnull=False),
                name="prepared_has_record",
            ),
        ]

    def __str__(self) -> str:
        return f"batch {self.job_id} #{self.index}"


class AuditLog(models.Model):
    """One row per state change, written by the service that made it. Append-only.

    ``actor_kind`` says who acted (``tournaments.access.Actor``): a ``user`` (then ``actor``,
    unless the account was deleted since), the ``system`` (a worker, a command, a computed
    top) or a ``player`` through their tablet token. Rows written before the kind was
    recorded keep it empty: the user if ``actor`` is set, otherwise unknown."""

    class ActorKind(models.TextChoices):
        USER = "user", _("utilisateur")
        SYSTEM = "system", _("système")
        PLAYER = "player", _("joueur (tablette)")

    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    actor_kind = models.CharField(max_length=8, choices=ActorKind.choices, blank=True)
    action = models.CharField(max_length=60)
    object_type = models.CharField(max_length=40)
    object_id = models.PositiveBigIntegerField()
    payload = models.JSONField(default=dict, blank=True)
    at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["at", "id"]
        indexes = [models.Index(fields=["object_type", "object_id"])]
        constraints = [
            models.CheckConstraint(
                condition=Q(actor_kind__in=["", "user", "system", "player"]),
                name="auditlog_actor_kind",
            )
        ]

    def __str__(self) -> str:
        return f"{self.action} {self.object_type}#{self.object_id}"

    def save(self, *args: object, **kwargs: object) -> None:
        """Refuse updates: the log is only ever appended to."""
        if self.pk is not None:
            raise RuntimeError("AuditLog rows are append-only")
        super().save(*args, **kwargs)

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        """Refuse deleting one entry: the log is only ever appended to."""
        raise RuntimeError("AuditLog rows are append-only")
