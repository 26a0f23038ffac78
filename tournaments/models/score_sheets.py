"""Electronic score sheets of classic games (seed page 004; docs/classic.md, "The score
sheet").

A :class:`ScoreSheet` belongs to a tournament (whose arbiters may open and fill it) and,
when it records a game of a classic tournament, to that game's :class:`ClassicTable` (whose
two players fill it on their tablets). A sheet with no table is a stand-alone sheet an
arbiter opens for a friendly game. Its lines are append-only :class:`ScoreSheetLine`
versions (a correction is the next version of the same line number, with who and why), and
its end lines (« lettres restantes », « partie terminée ») are :class:`ScoreSheetEnd`
versions. Nothing computed is stored: the scores, totals and unseen letters are
``engine.classic.sheet.sheet_state`` over the current versions."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import SheetLineKind, SheetTieBreak
from tournaments.models.classic import ClassicTable
from tournaments.models.core import Registration, Tournament

#: Bare scores typed on a sheet (``engine.classic.sheet.SCORE_LOW``/``SCORE_HIGH``).
LINE_SCORE_MIN, LINE_SCORE_MAX = -500, 2000


class ScoreSheet(models.Model):
    """A classic game's sheet: the players' names in playing order (2 to 4, copied from
    the table's players when it has one) and how it ranks a tie."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="score_sheets")
    number = models.PositiveIntegerField(_("numéro"))
    table = models.OneToOneField(
        ClassicTable, models.SET_NULL, null=True, blank=True, related_name="score_sheet"
    )
    names = models.JSONField(_("joueurs"), default=list)
    players = models.PositiveSmallIntegerField(_("nombre de joueurs"))
    tie_break = models.CharField(
        _("égalité"), max_length=20, choices=SheetTieBreak.choices, default=SheetTieBreak.EX_AEQUO
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="score_sheet_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="score_sheet_positive"),
            models.CheckConstraint(
                condition=Q(players__gte=2, players__lte=4), name="score_sheet_players"
            ),
            models.CheckConstraint(
                condition=Q(tie_break__in=SheetTieBreak.values), name="score_sheet_tie_break"
            ),
        ]

    def __str__(self) -> str:
        return f"sheet {self.number} of {self.tournament_id}"


class _Entered(models.Model):
    """Who typed a version: an arbiter (``entered_by``) or a player on their tablet
    (``registration``), when, and why for a correction."""

    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    registration = models.ForeignKey(
        Registration, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(_("motif"), max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        abstract = True


class ScoreSheetLine(_Entered):
    """One version of a sheet's line ``number`` (the turn of player ``(number - 1) %
    players``): a move (``coord``, ``word``; ``score`` as the engine scored it), a bare
    score, a pass or an exchange. The current line is the highest version."""

    sheet = models.ForeignKey(ScoreSheet, models.CASCADE, related_name="lines")
    number = models.PositiveIntegerField(_("tour"))
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=SheetLineKind.choices)
    coord = models.CharField(max_length=5, blank=True)
    word = models.CharField(max_length=15, blank=True)
    score = models.IntegerField(default=0)

    class Meta:
        ordering = ["sheet", "number", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["sheet", "number", "version"], name="score_sheet_line_version"
            ),
            models.CheckConstraint(
                condition=Q(number__gte=1, version__gte=1), name="score_sheet_line_positive"
            ),
            models.CheckConstraint(
                condition=(
                    Q(kind=SheetLineKind.MOVE) & ~Q(coord="") & ~Q(word="")
                    | Q(kind=SheetLineKind.SCORE, coord="", word="")
                    | Q(
                        kind__in=[SheetLineKind.PASS, SheetLineKind.EXCHANGE],
                        coord="",
                        word="",
                        score=0,
                    )
                ),  # fmt: skip
                name="score_sheet_line_kind",
            ),
            models.CheckConstraint(
                condition=Q(score__gte=LINE_SCORE_MIN, score__lte=LINE_SCORE_MAX),
                name="score_sheet_line_score",
            ),
        ]

    def __str__(self) -> str:
        return f"line {self.number} v{self.version} of {self.sheet_id}"


class ScoreSheetEnd(_Entered):
    """One version of the end lines: ``left`` is each player's « lettres restantes » as
    typed (a value or the letters), ``went_out`` the player who played their last tile
    (0-based; none after a blocked game)."""

    sheet = models.ForeignKey(ScoreSheet, models.CASCADE, related_name="ends")
    version = models.PositiveIntegerField()
    left = models.JSONField(default=list)
    went_out = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["sheet", "version"]
        constraints = [
            models.UniqueConstraint(fields=["sheet", "version"], name="score_sheet_end_version"),
            models.CheckConstraint(condition=Q(version__gte=1), name="score_sheet_end_positive"),
            models.CheckConstraint(
                condition=Q(went_out__isnull=True) | Q(went_out__lte=3),
                name="score_sheet_end_player",
            ),
        ]

    def __str__(self) -> str:
        return f"end v{self.version} of {self.sheet_id}"
