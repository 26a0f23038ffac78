"""The classic family's tables (docs/classic.md, "Classic tournaments on the site").

A tournament becomes a classic tournament when it has a :class:`ClassicEvent` (its pairing
settings). Its registered players are split into :class:`Division`\\ s; each division plays
:class:`ClassicRound`\\ s of :class:`ClassicTable`\\ s (two players, or one with the bye),
whose results are append-only :class:`ClassicResult` versions (who, when, why). The rules
(pairing, standings) are ``engine.classic``; these rows keep what was decided, so the
standings are always recomputed from them.

Database constraints hold the invariants: one division per player, one seat per player and
round (:class:`ClassicSeat`), one version number per table, a result either two scores or a
forfeit."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import F, Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import ClassicForfeit, ClassicSource, PairingSystem
from tournaments.models.core import Registration, Tournament

#: Scores of a classic game after the end adjustments: a challenge penalty may take one
#: below 0 (docs/classic.md); 2,000 is far above any real game.
SCORE_MIN, SCORE_MAX = -500, 2000


class ClassicEvent(models.Model):
    """The pairing and standings settings of a classic tournament (one per tournament)."""

    tournament = models.OneToOneField(
        Tournament, models.CASCADE, primary_key=True, related_name="classic"
    )
    pairing_system = models.CharField(
        _("appariement"), max_length=20, choices=PairingSystem.choices, default=PairingSystem.SWISS
    )
    fontes_rounds = models.PositiveSmallIntegerField(_("rondes en Fontes initial"), default=3)
    rounds_planned = models.PositiveSmallIntegerField(_("nombre de rondes"), default=7)
    bye_halves = models.PositiveSmallIntegerField(_("exempt : demi-victoires"), default=2)
    bye_spread = models.PositiveSmallIntegerField(_("exempt : écart"), default=50)
    forfeit_spread = models.PositiveSmallIntegerField(_("forfait : écart"), default=50)
    #: ``engine.classic.standings.TIE_BREAKS`` in order, comma-separated.
    tie_breaks = models.CharField(_("départages"), max_length=60, default="buchholz,points")
    seed = models.PositiveBigIntegerField(_("graine du tirage au sort"), default=0)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("tournoi classique")
        constraints = [
            models.CheckConstraint(
                condition=Q(pairing_system__in=PairingSystem.values), name="classic_system_known"
            ),
            models.CheckConstraint(
                condition=Q(fontes_rounds__gte=1, fontes_rounds__lte=15),
                name="classic_fontes_range",
            ),
            models.CheckConstraint(
                condition=Q(rounds_planned__gte=1, rounds_planned__lte=99),
                name="classic_rounds_range",
            ),
            models.CheckConstraint(condition=Q(bye_halves__lte=2), name="classic_bye_halves"),
            models.CheckConstraint(
                condition=Q(bye_spread__lte=1000, forfeit_spread__lte=1000),
                name="classic_spreads_range",
            ),
        ]

    def __str__(self) -> str:
        return f"classic {self.tournament_id}"


class Division(models.Model):
    """A group of players paired among themselves (tsh's divisions: A, B, …)."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="divisions")
    number = models.PositiveSmallIntegerField(_("numéro"))
    name = models.CharField(_("nom"), max_length=60)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="division_number"),
            models.UniqueConstraint(fields=["tournament", "name"], name="division_name"),
            models.CheckConstraint(condition=Q(number__gte=1), name="division_number_positive"),
        ]

    def __str__(self) -> str:
        return self.name


class DivisionEntry(models.Model):
    """A registered player in a division, at a place of its seeding list (``seed``, 1 =
    the strongest: round robin and Initial Fontes number players in that order). A player
    who left keeps their entry (their games stay) with ``active`` off."""

    division = models.ForeignKey(Division, models.CASCADE, related_name="entries")
    registration = models.OneToOneField(Registration, models.CASCADE, related_name="division_entry")
    seed = models.PositiveIntegerField(_("rang de départ"))
    active = models.BooleanField(_("en jeu"), default=True)

    class Meta:
        ordering = ["division", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["division", "seed"], name="division_entry_seed"),
            models.CheckConstraint(condition=Q(seed__gte=1), name="division_entry_seed_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.registration_id} in {self.division_id}"


class ClassicRound(models.Model):
    """One round of a division, paired by ``system`` (kept: the settings may change)."""

    division = models.ForeignKey(Division, models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("ronde"))
    system = models.CharField(max_length=20, choices=PairingSystem.choices)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["division", "number"]
        constraints = [
            models.UniqueConstraint(fields=["division", "number"], name="classic_round_number"),
            models.CheckConstraint(condition=Q(number__gte=1), name="classic_round_positive"),
            models.CheckConstraint(
                condition=Q(system__in=PairingSystem.values), name="classic_round_system"
            ),
        ]

    def __str__(self) -> str:
        return f"round {self.number} of {self.division_id}"


class ClassicTable(models.Model):
    """A table of a round: ``first`` starts; no ``second`` is the bye."""

    round = models.ForeignKey(ClassicRound, models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    first = models.ForeignKey(DivisionEntry, models.PROTECT, related_name="+")
    second = models.ForeignKey(
        DivisionEntry, models.PROTECT, null=True, blank=True, related_name="+"
    )

    class Meta:
        ordering = ["round", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="classic_table_number"),
            models.CheckConstraint(
                condition=Q(second__isnull=True) | ~Q(first=F("second")),
                name="classic_table_two_players",
            ),
        ]

    def __str__(self) -> str:
        return f"table {self.number} of {self.round_id}"


class ClassicSeat(models.Model):
    """A player's place in a round: the constraint that nobody sits at two tables."""

    round = models.ForeignKey(ClassicRound, models.CASCADE, related_name="seats")
    entry = models.ForeignKey(DivisionEntry, models.PROTECT, related_name="seats")
    table = models.ForeignKey(ClassicTable, models.CASCADE, related_name="seats")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "entry"], name="classic_seat_once"),
        ]

    def __str__(self) -> str:
        return f"seat of {self.entry_id} in {self.round_id}"


class ClassicResult(models.Model):
    """One version of a table's result, never changed: a correction is a new version
    (``version`` + 1) with who, when and why. The current result is the last version."""

    table = models.ForeignKey(ClassicTable, models.CASCADE, related_name="results")
    version = models.PositiveIntegerField()
    score_first = models.IntegerField(null=True, blank=True)
    score_second = models.IntegerField(null=True, blank=True)
    forfeit = models.CharField(
        max_length=10, blank=True, choices=ClassicForfeit.choices, default=ClassicForfeit.NONE
    )
    source = models.CharField(max_length=10, choices=ClassicSource.choices)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    reason = models.CharField(_("motif"), max_length=200, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["table", "version"]
        constraints = [
            models.UniqueConstraint(fields=["table", "version"], name="classic_result_version"),
            models.CheckConstraint(condition=Q(version__gte=1), name="classic_result_positive"),
            models.CheckConstraint(
                condition=(
                    Q(
                        forfeit="",
                        score_first__isnull=False,
                        score_second__isnull=False,
                        score_first__gte=SCORE_MIN,
                        score_first__lte=SCORE_MAX,
                        score_second__gte=SCORE_MIN,
                        score_second__lte=SCORE_MAX,
                    )
                    | Q(
                        forfeit__in=["first", "second"],
                        score_first__isnull=True,
                        score_second__isnull=True,
                    )
                ),  # fmt: skip
                name="classic_result_scores_or_forfeit",
            ),
            models.CheckConstraint(
                condition=Q(source__in=ClassicSource.values), name="classic_result_source"
            ),
        ]

    def __str__(self) -> str:
        return f"result v{self.version} of {self.table_id}"


class ClassicReport(models.Model):
    """A player's report of their table's result on their tablet (append-only; their last
    report counts). When the other player's last report agrees, the result is recorded
    (``ClassicResult``, source ``tablet``); when it differs, the table waits on the
    arbiter's list. Scores are in the table's order (first, second) whoever reports."""

    table = models.ForeignKey(ClassicTable, models.CASCADE, related_name="reports")
    entry = models.ForeignKey(DivisionEntry, models.PROTECT, related_name="+")
    score_first = models.IntegerField(null=True, blank=True)
    score_second = models.IntegerField(null=True, blank=True)
    forfeit = models.CharField(
        max_length=10, blank=True, choices=ClassicForfeit.choices, default=ClassicForfeit.NONE
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["table", "created_at", "id"]
        constraints = [
            models.CheckConstraint(
                condition=(
                    Q(
                        forfeit="",
                        score_first__isnull=False,
                        score_second__isnull=False,
                        score_first__gte=SCORE_MIN,
                        score_first__lte=SCORE_MAX,
                        score_second__gte=SCORE_MIN,
                        score_second__lte=SCORE_MAX,
                    )
                    | Q(
                        forfeit__in=["first", "second"],
                        score_first__isnull=True,
                        score_second__isnull=True,
                    )
                ),  # fmt: skip
                name="classic_report_scores_or_forfeit",
            ),
        ]

    def __str__(self) -> str:
        return f"report of {self.entry_id} on {self.table_id}"
