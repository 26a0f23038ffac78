"""Moves received on the queued ingestion path (issue 16, item 3).

With ``TIRAGE_QUEUED_PROPOSALS`` on, a tablet's move is made durable by one INSERT of an
``ProposalArrival`` row, stamped with the moment it reached the server, and the answer is
sent; a worker (``services.arrivals.arrivals_ingest``) then judges the pending arrivals of
a round in batches and turns each into a ``ProposalVersion`` (or a refusal). A close
ingests every pending arrival of its round first, in its own transaction. The row is
written once by the request and completed once by the ingestion (``ingested_at``, the
version or the refusal code); the client key is unique per round and player, so a replayed
request finds the stored row. docs/architecture.md, "Queued proposals".
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone


class ProposalArrival(models.Model):
    """One tablet move as it reached the server, before it is judged and stored."""

    # No index of its own: the unique (round, player, client_key) and the pending index
    # (round, received_at) both start with it, and one index fewer is one write fewer per
    # INSERT and per ingestion UPDATE (docs/benchmarks.md, "Session 7").
    round = models.ForeignKey("Round", models.CASCADE, related_name="arrivals", db_index=False)
    player = models.ForeignKey("Player", models.PROTECT, related_name="arrivals")
    reference = models.CharField(max_length=10)
    word = models.CharField(max_length=30)
    claimed_score = models.PositiveIntegerField(null=True, blank=True)
    client_key = models.CharField(max_length=64)
    ip = models.GenericIPAddressField(null=True, blank=True)
    device = models.CharField(max_length=200, blank=True)
    received_at = models.DateTimeField(default=timezone.now, editable=False)
    ingested_at = models.DateTimeField(null=True, blank=True)
    version = models.ForeignKey(
        "ProposalVersion", models.PROTECT, null=True, blank=True, related_name="arrivals"
    )
    refusal = models.CharField(max_length=40, blank=True)

    class Meta:
        ordering = ["received_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player", "client_key"], name="arrival_client_key_once"
            ),
            models.CheckConstraint(condition=~Q(client_key=""), name="arrival_has_client_key"),
            models.CheckConstraint(
                condition=Q(ingested_at__isnull=True, version__isnull=True, refusal="")
                | Q(ingested_at__isnull=False),
                name="arrival_done_when_ingested",
            ),
        ]
        indexes = [
            models.Index(
                fields=["round", "received_at"],
                condition=Q(ingested_at__isnull=True),
                name="arrival_pending",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.reference} {self.word} (round {self.round_id}, player {self.player_id})"
