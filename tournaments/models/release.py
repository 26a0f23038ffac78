"""Sealed games (issue 16, item 1): a pre-drawn game whose racks are stored encrypted and
released round by round at scheduled times, for simultaneous events.

A sealed game is a ``Game`` of kind ``predrawn`` whose ``predrawn`` text stays empty: its
racks live here, one encrypted line per round (``SealedRound.token``, AES-GCM bound to the
game and the round number, ``tournaments.seal_crypto``). A line is decrypted only when its
round is released (``services.release.round_release``, at or after ``release_at``); its text
is then kept in ``SealedRound.text``, since the round's rack is public from then on, and the
game replays from the released lines only (``adapter.rack_source``). docs/simultaneous.md.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import GameKind
from tournaments.models.core import Game, Round


def is_sealed(game: Game) -> bool:
    """A sealed game: pre-drawn, with no text of its own (``game_create`` refuses that for
    any other pre-drawn game). No query."""
    return game.kind == GameKind.PREDRAWN and not game.predrawn


class SealedGame(models.Model):
    """The seal of one game: which key sealed it, how many lines, the schedule's start and
    interval (the times themselves are on each ``SealedRound``) and whether a released
    round opens on its own (``auto_open``; FISF simultaneous events: no, the centre's
    arbiter announces the rack and starts the clock)."""

    game = models.OneToOneField(Game, models.CASCADE, primary_key=True, related_name="seal")
    key_id = models.CharField(max_length=16)
    lines = models.PositiveIntegerField()
    starts_at = models.DateTimeField(_("premier dévoilement"), null=True, blank=True)
    interval = models.PositiveIntegerField(_("secondes entre deux coups"), null=True, blank=True)
    auto_open = models.BooleanField(_("ouvrir le coup dès son dévoilement"), default=False)
    sealed_at = models.DateTimeField(default=timezone.now, editable=False)
    sealed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(lines__gte=1), name="sealed_has_lines"),
            models.CheckConstraint(
                condition=Q(interval__isnull=True) | Q(interval__gte=1), name="sealed_interval"
            ),
        ]

    def __str__(self) -> str:
        return f"partie scellée {self.game_id}"


class SealedRound(models.Model):
    """One sealed line: the racks of round ``number`` (rejected ones first, as a pre-drawn
    line), encrypted; when it is released (``released_at``) and the text it decrypted to;
    the round drawn from it (``round``) once the previous top was placed."""

    sealed = models.ForeignKey(SealedGame, models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField()
    token = models.TextField()
    release_at = models.DateTimeField(null=True, blank=True)
    released_at = models.DateTimeField(null=True, blank=True)
    text = models.CharField(max_length=200, blank=True)
    round = models.OneToOneField(
        Round, models.SET_NULL, null=True, blank=True, related_name="sealed_line"
    )

    class Meta:
        ordering = ["sealed", "number"]
        constraints = [
            models.UniqueConstraint(fields=["sealed", "number"], name="sealed_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="sealed_round_positive"),
            # The text is there exactly when the line was released; a round drawn from it.
            models.CheckConstraint(
                condition=Q(released_at__isnull=True, text="", round__isnull=True)
                | (Q(released_at__isnull=False) & ~Q(text="")),
                name="sealed_round_released_text",
            ),
        ]

    def __str__(self) -> str:
        return f"partie scellée {self.sealed_id} / coup {self.number}"
