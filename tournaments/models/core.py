"""Domain models (core tables): lexicons, tournaments and their settings, players, games, rounds,
append-only proposal versions, arbiter decisions and the audit log.

Rules live in ``engine.duplicate``; these tables only keep what was decided, so every figure
can be recomputed. Invariants that matter (one current version per player and round, one
table per player, valid states) are database constraints, not just code."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engine.duplicate.variants import STANDARD
from tournaments.models.choices import (
    ArbiterRole,
    DecisionKind,
    GameKind,
    GameState,
    OutcomeKind,
    ProposalSource,
    RoundState,
    TieBreak,
)


class TournamentManager(models.Manager["Tournament"]):
    """Looks tournaments up by slug so fixtures can use natural keys instead of fixed ids."""

    def get_by_natural_key(self, slug: str) -> Tournament:
        """Return the tournament whose slug is ``slug`` (fixture loading uses this)."""
        return self.get(slug=slug)


class Tournament(models.Model):
    """A duplicate Scrabble tournament, as listed on the home page."""

    name = models.CharField(_("nom"), max_length=200)
    slug = models.SlugField(_("identifiant"), max_length=100, unique=True)
    description = models.TextField(_("description"), blank=True)
    created_at = models.DateTimeField(_("créé le"), default=timezone.now, editable=False)
    last_computed_at = models.DateTimeField(
        _("dernier calcul"),
        null=True,
        blank=True,
        editable=False,
        help_text=_("Horodatage posé par la dernière tâche de calcul exécutée."),
    )
    # Settings (issue 5). ``None`` means "the variant's own value" (engine.duplicate.variants).
    lexicon = models.ForeignKey(
        "Lexicon", models.PROTECT, null=True, blank=True, related_name="tournaments"
    )
    variant_code = models.CharField(_("formule"), max_length=20, default=STANDARD.code)
    seconds_per_move = models.PositiveIntegerField(_("secondes par coup"), null=True, blank=True)
    warning_before_end = models.PositiveIntegerField(
        _("annonce avant la fin (s)"), null=True, blank=True
    )
    warning_penalty_from = models.PositiveIntegerField(
        _("avertissement pénalisé à partir du"), null=True, blank=True
    )
    solo_value = models.PositiveIntegerField(_("valeur du solo"), default=10)
    solo_min_players = models.PositiveIntegerField(_("joueurs minimum pour un solo"), default=16)
    score_required = models.BooleanField(
        _("score obligatoire"),
        default=True,
        help_text=_(
            "Le règlement demande le score sur chaque bulletin : score absent ou faux, "
            "avertissement. À décocher pour l'entraînement en club."
        ),
    )
    tie_break = models.CharField(
        _("départage"),
        max_length=40,
        default=TieBreak.SHARED,
        choices=TieBreak.choices,
    )
    public_rankings = models.BooleanField(
        _("Classement public"),
        default=False,
        help_text=_("Le classement se lit sans compte ; sinon seuls les arbitres le voient."),
    )
    # Settings page (issue 15): dates shown on documents, the language of the tournament's
    # projector, tablets and printed documents (one of ``settings.LANGUAGES``).
    starts_on = models.DateField(_("début"), null=True, blank=True)
    ends_on = models.DateField(_("fin"), null=True, blank=True)
    language = models.CharField(
        _("langue"), max_length=8, default="fr", choices=[("fr", "Français"), ("en", "English")]
    )

    # A simultaneous event (issue 16): played at once in several centres (``Centre``).
    simultaneous = models.BooleanField(
        _("tournoi simultané"),
        default=False,
        help_text=_("Joué en même temps dans plusieurs centres, chacun avec ses arbitres."),
    )

    objects = TournamentManager()

    class Meta:
        ordering = ["-created_at", "name"]
        verbose_name = _("tournoi")
        verbose_name_plural = _("tournois")
        constraints = [
            models.CheckConstraint(
                condition=Q(seconds_per_move__isnull=True) | Q(seconds_per_move__gt=0),
                name="tournament_seconds_positive",
            ),
            models.CheckConstraint(
                condition=Q(tie_break__in=TieBreak.values),
                name="tournament_tie_break_known",
            ),
            # The ranges the settings page and the API accept (services/tournament_settings).
            models.CheckConstraint(
                condition=Q(seconds_per_move__isnull=True) | Q(seconds_per_move__lte=3600),
                name="tournament_seconds_range",
            ),
            models.CheckConstraint(
                condition=Q(warning_before_end__isnull=True) | Q(warning_before_end__lte=3600),
                name="tournament_warning_before_end_range",
            ),
            models.CheckConstraint(
                condition=Q(warning_penalty_from__isnull=True)
                | Q(warning_penalty_from__gte=1, warning_penalty_from__lte=100),
                name="tournament_warning_penalty_range",
            ),
            models.CheckConstraint(condition=Q(solo_value__lte=100), name="tournament_solo_range"),
            models.CheckConstraint(
                condition=Q(solo_min_players__gte=1, solo_min_players__lte=10_000),
                name="tournament_solo_players_range",
            ),
            models.CheckConstraint(
                condition=Q(starts_on__isnull=True)
                | Q(ends_on__isnull=True)
                | Q(ends_on__gte=models.F("starts_on")),
                name="tournament_dates_ordered",
            ),
            models.CheckConstraint(
                condition=Q(language__in=["fr", "en"]), name="tournament_language_known"
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def natural_key(self) -> tuple[str]:
        """Identify the tournament by its slug, stable across databases."""
        return (self.slug,)


class Lexicon(models.Model):
    """A compiled word list, identified by the sha256 of its words (not by its file)."""

    name = models.CharField(_("nom"), max_length=200)
    source = models.CharField(_("origine"), max_length=500, blank=True)
    version = models.CharField(_("version"), max_length=100, blank=True)
    word_count = models.PositiveIntegerField(_("nombre de mots"))
    sha256 = models.CharField(_("empreinte sha256"), max_length=64, unique=True)
    path = models.CharField(_("fichier"), max_length=500)
    official = models.BooleanField(_("ODS officiel"), default=False)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        verbose_name = _("lexique")
        verbose_name_plural = _("lexiques")

    def __str__(self) -> str:
        return self.label

    @property
    def label(self) -> str:
        """What the site shows, so nobody mistakes the free list for the ODS."""
        if self.official:
            return f"{self.name} {self.version}".strip()
        return gettext("%(name)s — liste libre et non officielle, en remplacement de l'ODS") % {
            "name": self.name
        }


class Player(models.Model):
    """A person who plays; the licence number is unique when given."""

    name = models.CharField(_("nom"), max_length=200)
    licence = models.CharField(_("licence"), max_length=40, blank=True)
    club = models.CharField(_("club"), max_length=200, blank=True)
    federation = models.CharField(_("fédération"), max_length=20, blank=True)
    series = models.CharField(_("série"), max_length=10, blank=True)
    category = models.CharField(_("catégorie"), max_length=20, blank=True)
    birth_year = models.PositiveIntegerField(_("année de naissance"), null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["licence"], condition=~Q(licence=""), name="player_licence_unique"
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A player in a tournament, at a table; late arrivals play from (game, round)."""

    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="registrations")
    player = models.ForeignKey(Player, models.PROTECT, related_name="registrations")
    table_number = models.PositiveIntegerField(_("table"))
    arrival_game = models.PositiveIntegerField(_("arrivée: partie"), default=1)
    arrival_round = models.PositiveIntegerField(_("arrivée: coup"), default=1)
    # The player's tablet key (issued by ``registration_token_issue``); null: no access.
    access_token = models.CharField(max_length=64, unique=True, null=True, blank=True)
    # A withdrawal (``registration_withdraw``): the player plays no round from (game, round)
    # on; the rounds before keep their results. Null: the player plays on.
    withdrawn_game = models.PositiveIntegerField(_("retrait : partie"), null=True, blank=True)
    withdrawn_round = models.PositiveIntegerField(_("retrait : coup"), null=True, blank=True)
    withdrawn_reason = models.CharField(_("motif du retrait"), max_length=500, blank=True)
    # The centre the player plays in (a simultaneous event, ``models.centres``); null: none.
    centre = models.ForeignKey(
        "Centre", models.RESTRICT, null=True, blank=True, related_name="registrations"
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "table_number"], name="reg_table"),
            models.UniqueConstraint(fields=["tournament", "player"], name="reg_player"),
            models.CheckConstraint(
                condition=Q(table_number__gte=1, arrival_game__gte=1, arrival_round__gte=1),
                name="reg_positive",
            ),
            # Withdrawn: game and round from 1, a reason, not before the arrival; or none
            # of the three.
            models.CheckConstraint(
                condition=Q(
                    withdrawn_game__isnull=True, withdrawn_round__isnull=True, withdrawn_reason=""
                )
                | (
                    Q(withdrawn_game__isnull=False, withdrawn_round__isnull=False)
                    & Q(withdrawn_game__gte=1, withdrawn_round__gte=1)
                    & ~Q(withdrawn_reason="")
                    & (
                        Q(withdrawn_game__gt=models.F("arrival_game"))
                        | Q(
                            withdrawn_game=models.F("arrival_game"),
                            withdrawn_round__gte=models.F("arrival_round"),
                        )
                    )
                ),
                name="reg_withdrawn",
            ),  # fmt: skip
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ table {self.table_number}"

    @property
    def withdrawn(self) -> bool:
        """Whether the player left the tournament (see ``withdrawn_game``)."""
        return self.withdrawn_game is not None

    def gone_by(self, game_number: int, round_number: int) -> bool:
        """Whether the player had withdrawn by that round (absent from it on)."""
        if self.withdrawn_game is None:
            return False
        return (game_number, round_number) >= (self.withdrawn_game, self.withdrawn_round or 1)


class ArbiterMembership(models.Model):
    """Who arbitrates a tournament: one head arbiter directs, arbiters correct slips."""

    ROLES = ArbiterRole.choices
    user = models.ForeignKey(settings.AUTH_USER_MODEL, models.CASCADE, related_name="arbitrations")
    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="arbiters")
    role = models.CharField(max_length=10, choices=ROLES, default=ArbiterRole.ARBITER)
    # Presence (``console.presence``): when the arbiter last opened a console page of this
    # tournament, and the round that page was about. Written at most once a minute a page.
    last_seen_at = models.DateTimeField(null=True, blank=True)
    last_seen_round = models.ForeignKey(
        "Round", models.SET_NULL, null=True, blank=True, related_name="+"
    )
    # A centre arbiter (simultaneous event): acts only on that centre's players; the centre's
    # head arbiter (``centre_head``) closes its rounds. Null: the whole event.
    centre = models.ForeignKey(
        "Centre", models.RESTRICT, null=True, blank=True, related_name="arbiters"
    )
    centre_head = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "tournament"], name="arbiter_once"),
            models.CheckConstraint(condition=Q(role__in=ArbiterRole.values), name="arbiter_role"),
            # At most one head arbiter; ``arbiter_handover`` swaps the roles in one
            # transaction and ``arbiter_remove`` refuses the head, so there is exactly one.
            models.UniqueConstraint(
                fields=["tournament"], condition=Q(role=ArbiterRole.HEAD), name="arbiter_one_head"
            ),
            # The head arbiter directs the whole event; a centre head belongs to a centre,
            # and a centre has at most one.
            models.CheckConstraint(
                condition=~Q(role=ArbiterRole.HEAD) | Q(centre__isnull=True),
                name="arbiter_head_no_centre",
            ),
            models.CheckConstraint(
                condition=Q(centre_head=False) | Q(centre__isnull=False),
                name="arbiter_centre_head_centre",
            ),
            models.UniqueConstraint(
                fields=["centre"], condition=Q(centre_head=True), name="arbiter_one_centre_head"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.user_id} ({self.role})"


class Game(models.Model):
    """One game; its racks are replayable from ``kind`` + ``seed``/``predrawn`` + rounds."""

    KINDS = GameKind.choices
    STATES = GameState.choices
    tournament = models.ForeignKey(Tournament, models.CASCADE, related_name="games")
    number = models.PositiveIntegerField(_("numéro"))
    kind = models.CharField(max_length=10, choices=KINDS)
    seed = models.BigIntegerField(null=True, blank=True)
    predrawn = models.TextField(blank=True, help_text=_("Une ligne par coup, rejets d'abord."))
    variant_code = models.CharField(max_length=20, default=STANDARD.code)
    state = models.CharField(max_length=10, choices=STATES, default=GameState.PLAYING)
    pending_draws = models.JSONField(default=list, blank=True)  # typed racks rejected so far
    end = models.JSONField(null=True, blank=True)
    #: The number of rounds announced for the game (« partie en N coups »), or None: played
    #: to the end of the bag. The game ends normally once round N's top is placed.
    rounds_announced = models.PositiveSmallIntegerField(_("coups annoncés"), null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="game_number"),
            models.CheckConstraint(condition=Q(kind__in=GameKind.values), name="game_kind"),
            models.CheckConstraint(condition=Q(state__in=GameState.values), name="game_state"),
            models.CheckConstraint(
                condition=~Q(kind=GameKind.SEEDED) | Q(seed__isnull=False, seed__gte=0),
                name="game_seeded_has_seed",
            ),
            models.CheckConstraint(
                condition=Q(rounds_announced__isnull=True) | Q(rounds_announced__gte=1),
                name="game_rounds_announced",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament_id} / partie {self.number}"


class Round(models.Model):
    """One round: rack, rejections, the board before it, deadline and its computed top.

    ``top`` holds ``{"chosen", "tied", "eligible", "best", "n_moves"}`` (moves as
    ``engine.moves.move_to_json``); ``top_placed_at`` marks the top as placed."""

    STATES = RoundState.choices
    game = models.ForeignKey(Game, models.CASCADE, related_name="rounds")
    number = models.PositiveIntegerField(_("coup"))
    state = models.CharField(max_length=10, choices=STATES, default=RoundState.DRAWN)
    rack = models.CharField(max_length=30)
    reliquat = models.CharField(max_length=10, blank=True)
    new_letters = models.CharField(max_length=10, blank=True)
    minimum = models.PositiveSmallIntegerField(default=2)
    rejections = models.JSONField(default=list, blank=True)
    board_before = models.TextField()
    deadline = models.DateTimeField(null=True, blank=True)
    opened_at = models.DateTimeField(null=True, blank=True)
    closed_at = models.DateTimeField(null=True, blank=True)
    # The clock stopped by the head arbiter (``services.round_clock``): when, and the
    # seconds it still had; ``deadline`` is set again from them on resume.
    paused_at = models.DateTimeField(null=True, blank=True)
    paused_remaining = models.PositiveIntegerField(null=True, blank=True)
    top = models.JSONField(null=True, blank=True)
    top_score = models.PositiveIntegerField(null=True, blank=True)
    chosen_by = models.CharField(max_length=10, blank=True)
    computed_at = models.DateTimeField(null=True, blank=True)
    top_placed_at = models.DateTimeField(null=True, blank=True)
    next_reliquat = models.CharField(max_length=10, blank=True)
    cancel_reason = models.TextField(blank=True)
    cancelled_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["game", "number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"],
                condition=~Q(state=RoundState.CANCELLED),
                name="round_number",
            ),
            models.CheckConstraint(condition=Q(state__in=RoundState.values), name="round_state"),
            models.CheckConstraint(
                condition=Q(state=RoundState.DRAWN)
                | Q(state=RoundState.CANCELLED)
                | Q(deadline__isnull=False),
                name="round_open_has_deadline",
            ),
            models.CheckConstraint(
                condition=Q(top_placed_at__isnull=True)
                | Q(top__isnull=False, state=RoundState.CLOSED),
                name="round_placed_top_closed",
            ),
            models.CheckConstraint(
                condition=Q(paused_at__isnull=True, paused_remaining__isnull=True)
                | Q(paused_at__isnull=False, paused_remaining__isnull=False, state=RoundState.OPEN),
                name="round_paused_open",
            ),
        ]

    def __str__(self) -> str:
        return f"partie {self.game_id} / coup {self.number}"


class ProposalVersion(models.Model):
    """One version of a player's proposal for a round, never edited (only ``is_current``
    flips to False when a newer version arrives). Carries its judged outcome."""

    SOURCES = ProposalSource.choices
    round = models.ForeignKey(Round, models.CASCADE, related_name="proposals")
    player = models.ForeignKey(Player, models.PROTECT, related_name="proposals")
    version = models.PositiveIntegerField()
    is_current = models.BooleanField(default=True)
    reference = models.CharField(max_length=10, blank=True)
    word = models.CharField(max_length=30, blank=True)
    claimed_score = models.PositiveIntegerField(null=True, blank=True)
    late = models.BooleanField(default=False)
    source = models.CharField(max_length=10, choices=SOURCES)
    entered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, models.PROTECT, null=True, blank=True, related_name="+"
    )
    client_key = models.CharField(max_length=64, blank=True)
    ip = models.GenericIPAddressField(null=True, blank=True)
    device = models.CharField(max_length=200, blank=True)
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(default=timezone.now, editable=False)
    outcome_kind = models.CharField(max_length=10)
    outcome_score = models.PositiveIntegerField()
    outcome_raw_score = models.PositiveIntegerField()
    outcome_code = models.CharField(max_length=40)
    outcome_reason = models.TextField(blank=True)
    outcome_params = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["round", "player", "version"]
        constraints = [
            models.UniqueConstraint(
                fields=["round", "player"],
                condition=Q(is_current=True),
                name="proposal_one_current",
            ),
            models.UniqueConstraint(fields=["round", "player", "version"], name="proposal_version"),
            models.UniqueConstraint(
                fields=["round", "player", "client_key"],
                condition=~Q(client_key=""),
                name="proposal_client_key",
            ),
            models.CheckConstraint(condition=Q(version__gte=1), name="proposal_version_positive"),
            models.CheckConstraint(
                condition=Q(source__in=ProposalSource.values), name="proposal_src"
            ),
            models.CheckConstraint(
                condition=Q(outcome_kind__in=OutcomeKind.values),
                name="proposal_outcome_kind",
            ),
        ]

    def __str__(self) -> str:
        return f"coup {self.round_id} / joueur {self.player_id} v{self.version}"


class Decision(models.Model):
    """An arbiter's decision about a player on a round, with its reason and author.

    Applied on top of the round's current proposal by ``adapter.game_scores``: a warning
    (``disciplinary`` ones stack, §4.3), a 5-point penalty, a zero, a moyenne whose
    ``score`` was computed by ``engine.duplicate.totals.apply_moyenne``, or a review of a
    slip the engine left to the arbiter (``params``: ``choice`` "default" or
    "alternative", ``version`` the proposal version reviewed)."""

    KINDS = DecisionKind.choices
    round = models.ForeignKey(Round, models.CASCADE, related_name="decisions")
    player = models.ForeignKey(Player, models.PROTECT, related_name="decisions")
    kind = models.CharField(max_length=12, choices=KINDS)
    disciplinary = models.BooleanField(default=False)
    score = models.PositiveIntegerField(null=True, blank=True)
    params = models.JSONField(default=dict, blank=True)
    reason = models.TextField()
    author = models.ForeignKey(settings.AUTH_USER_MODEL, models.PROTECT, related_name="+")
    created_at = models.DateTimeField(default=timezone.now, editable=False)

    class Meta:
        ordering = ["round", "created_at", "id"]
        constraints = [
            models.CheckConstraint(condition=Q(kind__in=DecisionKind.values), name="decision_kind"),
            models.CheckConstraint(condition=~Q(reason=""), name="decision_has_reason"),
            models.CheckConstraint(
                condition=~Q(kind=DecisionKind.MOYENNE) | Q(score__isnull=False),
                name="decision_moyenne_score",
            ),
            models.CheckConstraint(
                condition=Q(disciplinary=False) | Q(kind=DecisionKind.WARNING),
                name="decision_disciplinary_warning",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.kind}: {self.reason}"
