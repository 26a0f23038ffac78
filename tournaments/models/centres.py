"""Simultaneous events (issue 16): one game played at once in many centres (clubs).

A ``Tournament`` with ``simultaneous`` set has centres; each registration may name its
centre (``Registration.centre``) and each arbiter may be bound to one
(``ArbiterMembership.centre``, with ``centre_head`` for the centre's head arbiter). An
arbiter bound to a centre acts only on that centre's players (``access.require_arbiter``
with ``player_id``). A centre closes each round on its own (``CentreClose``): a move of
one of its players is late from that close on, and the round itself closes once every
centre has closed (``services.centres.centre_close``). docs/simultaneous.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

#: The time zone a new centre gets (the federation's; the form offers any IANA name).
DEFAULT_TIME_ZONE = "Europe/Paris"


class Centre(models.Model):
    """One place where a simultaneous event is played: its name, club, address, time zone."""

    tournament = models.ForeignKey("Tournament", models.CASCADE, related_name="centres")
    name = models.CharField(_("nom"), max_length=200)
    club = models.CharField(_("club"), max_length=200, blank=True)
    address = models.TextField(_("adresse"), blank=True)
    time_zone = models.CharField(_("fuseau horaire"), max_length=64, default=DEFAULT_TIME_ZONE)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "name", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="centre_name_once"),
            models.CheckConstraint(condition=~models.Q(name=""), name="centre_has_name"),
        ]

    def __str__(self) -> str:
        return self.name


class CentreClose(models.Model):
    """A centre collected its slips for a round: from ``closed_at`` on, its players' moves
    on that round are late. One row per (round, centre), never edited."""

    round = models.ForeignKey("Round", models.CASCADE, related_name="centre_closes")
    centre = models.ForeignKey(Centre, models.CASCADE, related_name="closes")
    closed_at = models.DateTimeField(default=timezone.now)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["round", "centre"]
        constraints = [
            models.UniqueConstraint(fields=["round", "centre"], name="centre_close_once"),
        ]

    def __str__(self) -> str:
        return f"coup {self.round_id} / centre {self.centre_id}"
