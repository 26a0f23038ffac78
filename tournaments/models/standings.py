"""Stored figures (issue 16): what the rankings read instead of recomputing every game from
its proposal rows on the first view after a change.

Derived rows, written only by ``tournaments.services.standings`` in the transaction of the
change that alters them, and checked against the engine's recomputation by
``manage.py tirage_standings_check``:

* ``RoundFigure``: one per **counted** round (closed, not cancelled, top known), its
  position among the game's counted rounds, its top and its solo;
* ``PlayerRoundFigure``: one per (counted round, registered player), the outcome that
  counts (after review and decisions), whether the player competes for the round's solo,
  and the round's disciplinary warnings;
* ``PlayerGameFigure``: one per (game, registered player), the player's game as
  ``engine.duplicate.totals.PlayerGame`` has it (round scores, solos, warnings, total);
* ``GameFigure``: one per game, the top total, the entrants and whether solos are paid,
  with the settings the figures were computed under.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q

from tournaments.models.core import Game, Player, Round


class GameFigure(models.Model):
    """A game's figures: ``rounds`` counted, ``top_total`` their tops, ``entrants`` the
    players registered for the game, ``solo_paid`` whether solos earn their bonus, and the
    totals settings (``settings_key``) they were computed under."""

    game = models.OneToOneField(Game, models.CASCADE, primary_key=True, related_name="figure")
    rounds = models.PositiveIntegerField(default=0)
    top_total = models.PositiveIntegerField(default=0)
    entrants = models.PositiveIntegerField(default=0)
    solo_paid = models.BooleanField(default=False)
    settings_key = models.CharField(max_length=100)
    updated_at = models.DateTimeField(auto_now=True)

    def __str__(self) -> str:
        return f"partie {self.game_id}: {self.rounds} coups, top {self.top_total}"


class RoundFigure(models.Model):
    """A counted round: its ``position`` (1 for the first counted round: the engine numbers
    rounds so, and late arrivals compare with it), top, solo winner (None: no solo) and how
    many players competed for it."""

    round = models.OneToOneField(Round, models.CASCADE, primary_key=True, related_name="figure")
    game = models.ForeignKey(Game, models.CASCADE, related_name="round_figures")
    position = models.PositiveIntegerField()
    top_score = models.PositiveIntegerField()
    solo_player = models.ForeignKey(Player, models.PROTECT, null=True, blank=True, related_name="+")
    competitors = models.PositiveIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "position"], name="round_figure_position"),
            models.CheckConstraint(condition=Q(position__gte=1), name="round_figure_position_1"),
        ]

    def __str__(self) -> str:
        return f"coup {self.round_id} (rang {self.position})"


class PlayerRoundFigure(models.Model):
    """One player's counted round: the outcome that counts (``kind``, ``code``, ``score``
    credited, ``raw_score`` compared for solos), ``absent`` (not in the game yet: no
    outcome), ``competes`` (present and arrived: counted for the solo) and the round's
    ``disciplinary`` warnings."""

    round = models.ForeignKey(RoundFigure, models.CASCADE, related_name="cells")
    player = models.ForeignKey(Player, models.PROTECT, related_name="+")
    absent = models.BooleanField(default=False)
    competes = models.BooleanField(default=False)
    kind = models.CharField(max_length=10, blank=True)
    code = models.CharField(max_length=40, blank=True)
    score = models.PositiveIntegerField(default=0)
    raw_score = models.PositiveIntegerField(default=0)
    disciplinary = models.PositiveSmallIntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["round", "player"], name="player_round_figure"),
            models.CheckConstraint(
                condition=Q(absent=False) | Q(competes=False, score=0, raw_score=0),
                name="player_round_figure_absent",
            ),
            models.CheckConstraint(
                condition=Q(absent=True) | ~Q(kind=""), name="player_round_figure_kind"
            ),
        ]

    def __str__(self) -> str:
        return f"coup {self.round_id} / joueur {self.player_id}: {self.score}"


class PlayerGameFigure(models.Model):
    """One player's game (``engine.duplicate.totals.PlayerGame``): ``rounds`` the credited
    score of each counted round in order, ``solo_rounds`` the positions of their solos,
    ``total`` = sum of rounds + solo bonus − warning penalty; ``entrant`` when the player
    is registered for this game (present on a round, or arriving late in it)."""

    game = models.ForeignKey(Game, models.CASCADE, related_name="player_figures")
    player = models.ForeignKey(Player, models.PROTECT, related_name="+")
    registration_id = models.PositiveIntegerField()  # the rankings' order among equals
    entrant = models.BooleanField(default=False)
    rounds = models.JSONField(default=list)
    solo_rounds = models.JSONField(default=list)
    solo_bonus = models.PositiveIntegerField(default=0)
    warnings = models.PositiveIntegerField(default=0)
    warning_penalty = models.PositiveIntegerField(default=0)
    penalties = models.PositiveIntegerField(default=0)
    total = models.IntegerField(default=0)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="player_game_figure"),
            models.CheckConstraint(
                condition=Q(entrant=True) | Q(total__lte=0, solo_bonus=0),
                name="player_game_figure_entrant",
            ),
        ]
        indexes = [models.Index(fields=["game", "registration_id"], name="player_game_fig_order")]

    def __str__(self) -> str:
        return f"partie {self.game_id} / joueur {self.player_id}: {self.total}"
