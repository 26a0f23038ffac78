"""The card game's tables (issue 18): a table, its 2 to 6 seats, and its append-only events.

A game is never stored as engine state: the table keeps its seed, its seats and every event
(a move laid, an answer to it, a challenge, a pass, an exchange) in order, and
``tournaments.adapter.card_game`` replays them through ``engine.cards.CardGame``, so the
rows are the only truth. Each event that closed a turn also keeps that turn as the
``tirage-cards`` record writes it (``turn``), and a finished table keeps its whole record.
docs/cards.md ("On the site") says who may open a table and how a move is settled.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.models.choices import CardEventKind, CardSeatKind, CardTableState

MIN_SEATS, MAX_SEATS = 2, 6


class CardTable(models.Model):
    """A card game of ``tournament`` (its lexicon settles challenges), opened by one of its
    arbiters (``created_by``) or by one of its players (``opened_by``)."""

    tournament = models.ForeignKey(
        "Tournament", models.CASCADE, related_name="card_tables", verbose_name=_("tournoi")
    )
    name = models.CharField(_("nom"), max_length=80, blank=True)
    lexicon = models.ForeignKey("Lexicon", models.PROTECT, related_name="card_tables")
    seed = models.PositiveBigIntegerField(_("graine"))
    seats = models.PositiveSmallIntegerField(_("places"))
    state = models.CharField(
        max_length=10, choices=CardTableState.choices, default=CardTableState.PLAYING
    )
    #: Events stored so far: the live pages' version (ETag) and the replay cache's key.
    revision = models.PositiveIntegerField(default=0)
    #: The whole ``tirage-cards`` record, written when the game ends.
    record = models.JSONField(null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.SET_NULL, null=True, blank=True, related_name="+"
    )
    #: The player who opened the table from their tablet link (null: an arbiter did).
    opened_by = models.ForeignKey(
        "Registration", models.SET_NULL, null=True, blank=True, related_name="card_tables"
    )
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    #: When the game ended or the table was closed.
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [models.Index(fields=["opened_by", "state"], name="cardtable_opener")]
        constraints = [
            models.CheckConstraint(
                condition=Q(seats__gte=MIN_SEATS, seats__lte=MAX_SEATS), name="cardtable_seats"
            ),
            models.CheckConstraint(
                condition=Q(state__in=CardTableState.values), name="cardtable_state"
            ),
            models.CheckConstraint(
                condition=Q(state=CardTableState.PLAYING, finished_at__isnull=True)
                | Q(state=CardTableState.FINISHED, finished_at__isnull=False, record__isnull=False)
                | Q(state=CardTableState.CLOSED, finished_at__isnull=False),
                name="cardtable_finished",
            ),
        ]

    def __str__(self) -> str:
        return self.name or f"Table {self.pk}"

    @property
    def in_play(self) -> bool:
        """Neither finished nor closed: the pages offer to close it."""
        return self.state == CardTableState.PLAYING


class CardSettings(models.Model):
    """A tournament's rules for card tables, set by its arbiters in the console. No row:
    the defaults (players may open tables), so a tournament needs no setting to start."""

    tournament = models.OneToOneField(
        "Tournament", models.CASCADE, related_name="card_settings", verbose_name=_("tournoi")
    )
    players_may_open = models.BooleanField(_("les joueurs peuvent ouvrir des tables"), default=True)

    def __str__(self) -> str:
        return f"card settings of {self.tournament_id}"


class CardSeat(models.Model):
    """One seat: a player reached by a private tablet link, or an engine opponent."""

    table = models.ForeignKey(CardTable, models.CASCADE, related_name="seat_rows")
    number = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=8, choices=CardSeatKind.choices)
    name = models.CharField(_("nom"), max_length=80)
    #: The tablet's private key (``/cartes/<token>/``); engine seats have none.
    access_token = models.CharField(max_length=64, unique=True, null=True, blank=True)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="cardseat_once"),
            models.CheckConstraint(condition=Q(number__lt=MAX_SEATS), name="cardseat_number"),
            models.CheckConstraint(condition=Q(kind__in=CardSeatKind.values), name="cardseat_kind"),
            models.CheckConstraint(
                condition=Q(kind=CardSeatKind.HUMAN, access_token__isnull=False)
                | (~Q(kind=CardSeatKind.HUMAN) & Q(access_token__isnull=True)),
                name="cardseat_token_iff_human",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.number + 1})"


class CardEvent(models.Model):
    """One event of a table, in order. Append-only: saving an existing row raises."""

    table = models.ForeignKey(CardTable, models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    seat = models.PositiveSmallIntegerField()
    kind = models.CharField(max_length=10, choices=CardEventKind.choices)
    #: ``play``: the move (``engine.cards.Play.to_json``); ``exchange``: ``{"cards": …}``.
    data = models.JSONField(default=dict, blank=True)
    #: The turn this event closed, as the ``tirage-cards`` record writes it (else null).
    turn = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="cardevent_once"),
            models.CheckConstraint(condition=Q(number__gte=1), name="cardevent_number"),
            models.CheckConstraint(condition=Q(seat__lt=MAX_SEATS), name="cardevent_seat"),
            models.CheckConstraint(
                condition=Q(kind__in=CardEventKind.values), name="cardevent_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind} #{self.number} (table {self.table_id})"

    def save(self, *args: object, **kwargs: object) -> None:
        """Refuse updates: a table's events are only ever appended to."""
        if self.pk is not None:
            raise RuntimeError("CardEvent rows are append-only")
        super().save(*args, **kwargs)
